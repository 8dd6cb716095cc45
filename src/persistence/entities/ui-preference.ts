import { EntitySchema } from '@mikro-orm/core';
import type { ComplexityTierLevel, DisclosureMode } from '../../domain/ui-preferences/tiers';

/** The disclosure mode (basic or advanced) a client chose for one section of its interface. */
export class UiPreference {
  sectionKey!: string;
  mode!: DisclosureMode;
  /** Also the optimistic-concurrency token: strictly increasing per row. */
  updatedAt!: Date;
}

export const UiPreferenceSchema = new EntitySchema<UiPreference>({
  class: UiPreference,
  tableName: 'ui_preferences',
  properties: {
    sectionKey: { type: 'string', length: 96, primary: true, fieldName: 'section_key' },
    mode: { type: 'string', length: 20 },
    updatedAt: { type: 'Date', fieldName: 'updated_at' },
  },
});

/** The complexity tier of one section, with the activity counters that drive tier suggestions. */
export class ComplexityTier {
  sectionKey!: string;
  tier!: ComplexityTierLevel;
  interactionCount: number = 0;
  advancedToggleCount: number = 0;
  lastSuggestedTier: ComplexityTierLevel | null = null;
  suggestionDismissedAt: Date | null = null;
  updatedAt!: Date;
}

export const ComplexityTierSchema = new EntitySchema<ComplexityTier>({
  class: ComplexityTier,
  tableName: 'complexity_tiers',
  properties: {
    sectionKey: { type: 'string', length: 96, primary: true, fieldName: 'section_key' },
    tier: { type: 'string', length: 20 },
    interactionCount: { type: 'integer', fieldName: 'interaction_count', default: 0 },
    advancedToggleCount: { type: 'integer', fieldName: 'advanced_toggle_count', default: 0 },
    lastSuggestedTier: { type: 'string', length: 20, nullable: true, fieldName: 'last_suggested_tier' },
    suggestionDismissedAt: { type: 'Date', nullable: true, fieldName: 'suggestion_dismissed_at' },
    updatedAt: { type: 'Date', fieldName: 'updated_at' },
  },
});
