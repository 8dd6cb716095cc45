import {
  ADVANCED_TOGGLE_DELTA_MAX,
  COMPLEXITY_TIERS,
  DISCLOSURE_MODES,
  INTERACTION_DELTA_MAX,
  SECTION_KEY_MAX,
  SECTION_KEY_PATTERN,
  TIER_SUGGESTION_RULE,
} from '../../domain/ui-preferences/tiers';
import { int, text, z } from '../http/zod';

export const SectionKeySchema = text({ min: 1, max: SECTION_KEY_MAX })
  .regex(SECTION_KEY_PATTERN, 'must match ^[a-z0-9-]+:[a-z0-9-]+:[a-z0-9-]+$')
  .openapi({ description: `Section key, at most ${SECTION_KEY_MAX} characters, pattern ${SECTION_KEY_PATTERN.source}`, example: 'pcd:quality-profiles:scoring' });

export const DisclosureModeSchema = z.enum(DISCLOSURE_MODES).openapi('DisclosureMode');
export const ComplexityTierLevelSchema = z.enum(COMPLEXITY_TIERS).openapi('ComplexityTierLevel');

const dateTime = () => z.string().max(64).datetime({ offset: true, message: 'must be an ISO 8601 date-time' }).transform((v) => new Date(v));

const expectedUpdatedAt = dateTime()
  .nullable()
  .optional()
  .openapi({
    description:
      'Optimistic concurrency token: the updated_at the client last read. Omitted: write unconditionally. null: the section must not be stored yet. ' +
      'A mismatch is 409 with the stored row in `current`.',
  });

export const UiPreferencePatchSchema = z
  .object({ section_key: SectionKeySchema, mode: DisclosureModeSchema, expected_updated_at: expectedUpdatedAt })
  .strict()
  .openapi('UiPreferencePatch');

export const ComplexityTierPatchSchema = z
  .object({
    section_key: SectionKeySchema,
    tier: ComplexityTierLevelSchema,
    expected_updated_at: expectedUpdatedAt,
    interaction_delta: int(0, INTERACTION_DELTA_MAX).optional().openapi({ description: `Interactions to add to interaction_count, 0 to ${INTERACTION_DELTA_MAX}` }),
    advanced_toggle_delta: int(0, ADVANCED_TOGGLE_DELTA_MAX)
      .optional()
      .openapi({ description: `Advanced toggles to add to advanced_toggle_count, 0 to ${ADVANCED_TOGGLE_DELTA_MAX}` }),
    last_suggested_tier: ComplexityTierLevelSchema.optional().openapi({ description: 'Records a suggestion the client showed (kept only while it is above the tier)' }),
    suggestion_dismissed_at: dateTime()
      .nullable()
      .optional()
      .openapi({ description: 'When the user dismissed the suggestion; null clears it. Omitted keeps the stored value.' }),
  })
  .strict()
  .openapi('ComplexityTierPatch', { description: TIER_SUGGESTION_RULE });

export const UiPreferenceSchema = z
  .object({
    section_key: z.string(),
    mode: DisclosureModeSchema,
    updated_at: z.string().datetime().nullable(),
    persisted: z.boolean().openapi({ description: 'Whether this request stored the row (false when it changed nothing)' }),
  })
  .openapi('UiPreference');

export const ComplexityTierSchema = z
  .object({
    section_key: z.string(),
    tier: ComplexityTierLevelSchema,
    interaction_count: z.number().int(),
    advanced_toggle_count: z.number().int(),
    last_suggested_tier: ComplexityTierLevelSchema.nullable(),
    suggestion_dismissed_at: z.string().datetime().nullable(),
    updated_at: z.string().datetime().nullable(),
    persisted: z.boolean().openapi({ description: 'Whether this request stored the row (false when it changed nothing; always true in listings)' }),
  })
  .openapi('ComplexityTier', { description: TIER_SUGGESTION_RULE });

export const conflictBody = <T extends z.ZodTypeAny>(row: T) => z.object({ error: z.string(), current: row.nullable() });
