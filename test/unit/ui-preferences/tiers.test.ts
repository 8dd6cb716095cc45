import { COUNTER_MAX, applyTierPatch, suggestedTier } from '../../../src/domain/ui-preferences/tiers';

describe('complexity tier rule', () => {
  it('suggests intermediate after 5 advanced toggles at beginner, advanced after 10 toggles and 50 interactions at intermediate', () => {
    expect(suggestedTier({ tier: 'beginner', interactionCount: 0, advancedToggleCount: 4 })).toBeNull();
    expect(suggestedTier({ tier: 'beginner', interactionCount: 0, advancedToggleCount: 5 })).toBe('intermediate');
    expect(suggestedTier({ tier: 'intermediate', interactionCount: 49, advancedToggleCount: 10 })).toBeNull();
    expect(suggestedTier({ tier: 'intermediate', interactionCount: 50, advancedToggleCount: 10 })).toBe('advanced');
    expect(suggestedTier({ tier: 'advanced', interactionCount: 1e6, advancedToggleCount: 1e6 })).toBeNull();
  });

  it('saturates counters and keeps a dismissal until the tier changes', () => {
    const dismissed = new Date('2026-01-01T00:00:00Z');
    const state = { tier: 'beginner' as const, interactionCount: COUNTER_MAX - 1, advancedToggleCount: 0, lastSuggestedTier: null, suggestionDismissedAt: dismissed };
    const next = applyTierPatch(state, { tier: 'beginner', interactionDelta: 100, advancedToggleDelta: 20 });
    expect(next).toEqual({ ...state, interactionCount: COUNTER_MAX, advancedToggleCount: 20 });
    expect(applyTierPatch(next, { tier: 'intermediate' })).toEqual({ tier: 'intermediate', interactionCount: 0, advancedToggleCount: 0, lastSuggestedTier: null, suggestionDismissedAt: null });
  });
});
