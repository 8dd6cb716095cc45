import type { Orm } from '../../persistence/orm';
import type { ServiceDeps } from '../deps';
import { applyTierPatch, sameTierState, type DisclosureMode, type TierPatch, type TierState } from '../../domain/ui-preferences/tiers';
import { ComplexityTier, UiPreference } from '../../persistence/entities';
import { SectionStore, type ExpectedUpdatedAt, type SectionWrite } from './section-store';

export interface UiPreferenceView {
  section_key: string;
  mode: DisclosureMode;
  updated_at: string | null;
  persisted: boolean;
}

export interface ComplexityTierView {
  section_key: string;
  tier: TierState['tier'];
  interaction_count: number;
  advanced_toggle_count: number;
  last_suggested_tier: TierState['lastSuggestedTier'];
  suggestion_dismissed_at: string | null;
  updated_at: string | null;
  persisted: boolean;
}

export type PatchOutcome<V> = { outcome: 'ok'; view: V } | { outcome: 'conflict'; current: V | null };

const preferenceView = (row: UiPreference, persisted: boolean): UiPreferenceView => ({
  section_key: row.sectionKey,
  mode: row.mode,
  updated_at: row.updatedAt.toISOString(),
  persisted,
});

const tierView = (row: ComplexityTier, persisted: boolean): ComplexityTierView => ({
  section_key: row.sectionKey,
  tier: row.tier,
  interaction_count: row.interactionCount,
  advanced_toggle_count: row.advancedToggleCount,
  last_suggested_tier: row.lastSuggestedTier ?? null,
  suggestion_dismissed_at: row.suggestionDismissedAt?.toISOString() ?? null,
  updated_at: row.updatedAt.toISOString(),
  persisted,
});

function outcome<R, V>(write: SectionWrite<R>, view: (row: R, persisted: boolean) => V): PatchOutcome<V> {
  if (write.outcome === 'conflict') return { outcome: 'conflict', current: write.current && view(write.current, true) };
  return { outcome: 'ok', view: view(write.row, write.outcome === 'stored') };
}

/** Per-section UI disclosure modes and complexity tiers (one instance per API process). */
export class UiPreferencesService {
  private readonly preferences = new SectionStore<UiPreference, Pick<UiPreference, 'mode'>>(UiPreference, 'UI preference', 'ui-preference');
  private readonly tiers = new SectionStore<ComplexityTier, Omit<ComplexityTier, 'sectionKey' | 'updatedAt'>>(ComplexityTier, 'complexity tier', 'complexity-tier');

  static of(deps: Pick<ServiceDeps, 'orm'>): UiPreferencesService {
    return new UiPreferencesService(deps.orm);
  }

  /** The orm's em resolves to the request's fork (RequestContext). */
  constructor(private readonly orm: Orm) {}

  async listPreferences(offset: number, limit: number) {
    const { items, total } = await this.preferences.list(this.orm.em, offset, limit);
    return { items: items.map((row) => preferenceView(row, true)), total };
  }

  async listTiers(offset: number, limit: number) {
    const { items, total } = await this.tiers.list(this.orm.em, offset, limit);
    return { items: items.map((row) => tierView(row, true)), total };
  }

  async patchPreference(sectionKey: string, mode: DisclosureMode, expected: ExpectedUpdatedAt): Promise<PatchOutcome<UiPreferenceView>> {
    const write = await this.preferences.update(this.orm.em, sectionKey, expected, (current) => (current?.mode === mode ? null : { mode }));
    return outcome(write, preferenceView);
  }

  async patchTier(sectionKey: string, patch: TierPatch, expected: ExpectedUpdatedAt): Promise<PatchOutcome<ComplexityTierView>> {
    const write = await this.tiers.update(this.orm.em, sectionKey, expected, (current) => {
      const next = applyTierPatch(current, patch);
      return current && sameTierState(current, next) ? null : next;
    });
    return outcome(write, tierView);
  }
}
