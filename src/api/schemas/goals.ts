import { CATEGORIES, PRESETS, RESOLUTION_CEILINGS, SLIDER_AXES } from '../../domain/goals';
import { idValue, int, text, z } from '../http/zod';
import { ArrTypeSchema } from './common';
import { FieldChangeSchema } from './pcd';

const weight = (description: string) => int(0, 100).openapi({ description: `${description} (0..100, 50 is neutral)` });

export const GoalWeightsSchema = z
  .object({
    qualityVsSize: weight('Up: remux, lossless audio, HDR; down: size-friendly choices'),
    compatibility: weight('Up: formats that play everywhere (baseline audio, no DV-only)'),
    hdrPreference: weight('Up: HDR categories'),
    unwantedStrictness: weight('Up: deeper negative scores for unwanted formats, and a minimum score'),
    resolutionCeiling: z.enum(RESOLUTION_CEILINGS).openapi({ description: 'Qualities above it are disabled' }),
  })
  .strict()
  .openapi('GoalWeights');

export const GoalRequestSchema = z
  .object({
    databaseId: idValue(),
    arrType: ArrTypeSchema,
    profileName: text({ min: 1, max: 200, trim: false }).openapi({ description: 'Raw PCD quality-profile name (no pcd: prefix), at most 200 characters' }),
    preset: text({ min: 1, max: 64 }).openapi({ description: `One of ${PRESETS.map((p) => p.id).join(', ')} (at most 64 characters)` }),
    weights: GoalWeightsSchema,
  })
  .strict()
  .openapi('GoalRequest');

export const GoalApplyRequestSchema = GoalRequestSchema.extend({
  engineVersion: text({ min: 1, max: 64 }).openapi({ description: 'plan.engineVersion of the preview being adopted' }),
  databaseVersion: text({ min: 1, max: 64 }).openapi({ description: 'databaseVersion of the preview being adopted' }),
})
  .strict()
  .openapi('GoalApplyRequest');

const CategorySchema = z.enum(CATEGORIES).openapi('GoalCategory');

const ScoreChangeSchema = z
  .object({ kind: z.literal('set_cf_score'), profileName: z.string(), customFormatName: z.string(), score: z.number().int() })
  .openapi('GoalScoreChange');

export const GoalPreviewSchema = z
  .object({
    plan: z.object({
      engineVersion: z.string(),
      arrType: ArrTypeSchema,
      decisions: z.array(
        z.object({
          customFormatName: z.string(),
          arrType: ArrTypeSchema,
          category: CategorySchema,
          score: z.number().int(),
          reason: z.object({
            code: z.enum(['guide_group', 'conditions', 'name']).openapi({ description: 'What placed the format in its category' }),
            category: CategorySchema,
            ruleId: z.string().openapi({ description: 'The categorizer rule (docs/goals.md)' }),
            base: z.number().int(),
            axisContributions: z.array(z.object({ axis: z.enum([...SLIDER_AXES, 'resolutionCeiling']), delta: z.number().int() })),
            ceiling: z.enum(['above', 'match', 'below']).nullable(),
          }),
        }),
      ),
      uncategorized: z.array(z.object({ name: z.string(), suggestedCategory: CategorySchema, reason: z.string() })),
      thresholds: z.object({ minimumScore: z.number().int(), upgradeUntilScore: z.number().int(), upgradeScoreIncrement: z.number().int() }),
      coverage: z.object({ total: z.number().int(), scored: z.number().int(), uncategorized: z.number().int() }),
      qualityLadder: z.object({
        ceiling: z.enum(RESOLUTION_CEILINGS),
        cutoff: z.string().nullable(),
        items: z.array(
          z.object({
            name: z.string(),
            type: z.enum(['quality', 'group']),
            enabled: z.boolean(),
            upgradeUntil: z.boolean(),
            position: z.number().int(),
            resolution: z.number().int().nullable(),
            mapped: z.boolean(),
          }),
        ),
        reshapesSiblingArrs: z.boolean(),
        sharedLadderNote: z.string().nullable(),
      }),
    }),
    configDiff: z.array(z.object({ entityType: z.literal('quality_profile'), name: z.string(), arrType: ArrTypeSchema, changes: z.array(FieldChangeSchema) })),
    appliedChanges: z.array(ScoreChangeSchema),
    skippedChanges: z.array(z.object({ change: ScoreChangeSchema, reason: z.string() })),
    databaseVersion: z.string().openapi({ description: 'The database state the preview was computed on; POST /goals/apply checks it (beyond the spec)' }),
  })
  .openapi('GoalPreview');

export const GoalApplyResultSchema = GoalPreviewSchema.extend({
  ops: z.array(z.object({ id: z.number().int(), summary: z.string() })).openapi({ description: 'Stored user ops; revert with DELETE /pcd/{databaseId}/user-ops/{opId}' }),
}).openapi('GoalApplyResult');

const SensitivitySchema = z.object(Object.fromEntries(SLIDER_AXES.map((a) => [a, z.number().int()])) as Record<(typeof SLIDER_AXES)[number], z.ZodNumber>);

export const GoalCatalogSchema = z
  .object({
    engineVersion: z.string(),
    scoreRange: z.object({ min: z.number().int(), max: z.number().int() }),
    axes: z.array(z.enum(SLIDER_AXES)),
    categories: z.array(CategorySchema),
    presets: z.array(
      z.object({
        id: z.string(),
        title: z.string(),
        description: z.string(),
        base: z.record(CategorySchema, z.number().int()).openapi({ description: 'Base score per category' }),
        suggestedWeights: GoalWeightsSchema,
      }),
    ),
    sensitivities: z.record(CategorySchema, SensitivitySchema).openapi({ description: 'Per category, the most each slider moves its score (sign = direction)' }),
  })
  .openapi('GoalCatalog');
