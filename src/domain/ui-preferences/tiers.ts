/**
 * Progressive disclosure: per-section disclosure modes and complexity tiers, and the deterministic
 * rule that suggests moving a section to the next tier.
 */

export const DISCLOSURE_MODES = ['basic', 'advanced'] as const;
export type DisclosureMode = (typeof DISCLOSURE_MODES)[number];

export const COMPLEXITY_TIERS = ['beginner', 'intermediate', 'advanced'] as const;
export type ComplexityTierLevel = (typeof COMPLEXITY_TIERS)[number];

/** Section key: `<area>:<page>:<section>`, at most 96 characters. */
export const SECTION_KEY_PATTERN = /^[a-z0-9-]+:[a-z0-9-]+:[a-z0-9-]+$/;
export const SECTION_KEY_MAX = 96;

/** Largest increment one request may add to a counter. */
export const INTERACTION_DELTA_MAX = 100;
export const ADVANCED_TOGGLE_DELTA_MAX = 20;
/** Counters saturate here (32-bit integer columns). */
export const COUNTER_MAX = 2_147_483_647;

/** Suggest `intermediate` to a `beginner` section after this many advanced toggles at that tier. */
export const BEGINNER_TOGGLES_FOR_INTERMEDIATE = 5;
/** Suggest `advanced` to an `intermediate` section after this many advanced toggles and interactions at that tier. */
export const INTERMEDIATE_TOGGLES_FOR_ADVANCED = 10;
export const INTERMEDIATE_INTERACTIONS_FOR_ADVANCED = 50;

export const TIER_SUGGESTION_RULE =
  `Counters count activity at the current tier: changing the tier resets both to 0 and clears last_suggested_tier and suggestion_dismissed_at. ` +
  `After the update, a beginner section with at least ${BEGINNER_TOGGLES_FOR_INTERMEDIATE} advanced toggles gets last_suggested_tier intermediate; ` +
  `an intermediate section with at least ${INTERMEDIATE_TOGGLES_FOR_ADVANCED} advanced toggles and ${INTERMEDIATE_INTERACTIONS_FOR_ADVANCED} interactions gets advanced. ` +
  `Once suggestion_dismissed_at is set no new suggestion is made until the tier changes. A suggestion never names the current or a lower tier.`;

export interface TierState {
  tier: ComplexityTierLevel;
  interactionCount: number;
  advancedToggleCount: number;
  lastSuggestedTier: ComplexityTierLevel | null;
  suggestionDismissedAt: Date | null;
}

export interface TierPatch {
  tier: ComplexityTierLevel;
  interactionDelta?: number;
  advancedToggleDelta?: number;
  /** undefined keeps the stored value. */
  lastSuggestedTier?: ComplexityTierLevel;
  /** undefined keeps the stored value; null clears it. */
  suggestionDismissedAt?: Date | null;
}

const rank = (tier: ComplexityTierLevel) => COMPLEXITY_TIERS.indexOf(tier);
const saturatingAdd = (a: number, b: number) => Math.min(COUNTER_MAX, a + b);

/** The rule's suggestion for a state, or null (ignores dismissal). */
export function suggestedTier(state: Pick<TierState, 'tier' | 'interactionCount' | 'advancedToggleCount'>): ComplexityTierLevel | null {
  if (state.tier === 'beginner' && state.advancedToggleCount >= BEGINNER_TOGGLES_FOR_INTERMEDIATE) return 'intermediate';
  if (state.tier === 'intermediate' && state.advancedToggleCount >= INTERMEDIATE_TOGGLES_FOR_ADVANCED && state.interactionCount >= INTERMEDIATE_INTERACTIONS_FOR_ADVANCED) return 'advanced';
  return null;
}

/** Applies one PATCH to the stored state (null when the section has none yet); see TIER_SUGGESTION_RULE. */
export function applyTierPatch(current: TierState | null, patch: TierPatch): TierState {
  const tierChanged = !current || current.tier !== patch.tier;
  const base: TierState = tierChanged
    ? { tier: patch.tier, interactionCount: 0, advancedToggleCount: 0, lastSuggestedTier: null, suggestionDismissedAt: null }
    : { ...current };
  const next: TierState = {
    tier: patch.tier,
    interactionCount: saturatingAdd(base.interactionCount, patch.interactionDelta ?? 0),
    advancedToggleCount: saturatingAdd(base.advancedToggleCount, patch.advancedToggleDelta ?? 0),
    lastSuggestedTier: patch.lastSuggestedTier !== undefined ? patch.lastSuggestedTier : base.lastSuggestedTier,
    suggestionDismissedAt: patch.suggestionDismissedAt !== undefined ? patch.suggestionDismissedAt : base.suggestionDismissedAt,
  };
  if (!next.suggestionDismissedAt) {
    const suggestion = suggestedTier(next);
    if (suggestion) next.lastSuggestedTier = suggestion;
  }
  if (next.lastSuggestedTier && rank(next.lastSuggestedTier) <= rank(next.tier)) next.lastSuggestedTier = null;
  return next;
}

export function sameTierState(a: TierState, b: TierState): boolean {
  return (
    a.tier === b.tier &&
    a.interactionCount === b.interactionCount &&
    a.advancedToggleCount === b.advancedToggleCount &&
    a.lastSuggestedTier === b.lastSuggestedTier &&
    (a.suggestionDismissedAt?.getTime() ?? null) === (b.suggestionDismissedAt?.getTime() ?? null)
  );
}
