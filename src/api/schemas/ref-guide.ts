import { EXISTING_FORMAT_ACTIONS, REF_ENTITY_TYPES, REF_GUIDE_ARR_TYPES, REF_GUIDE_IMPORTABLE_TYPES, REF_GUIDE_FAILURES, REF_GUIDE_TYPES } from '../../domain/ref-guide';
import { paginated } from '../http/pagination';
import { arrTypeEnum, entityTypeEnum } from './common';
import { idValue, int, text, z } from '../http/zod';
import { gitToken, gitTokenUsername, gitUrlDescription, tokenSet } from './git-source';

const line = (max: number) => text({ min: 1, max });
const name = line(100);
const databaseIds = z.array(idValue()).max(50).openapi({ description: 'PCD databases this source is the reference of (health ref_alignment); at most 50' });

export const RefGuideTypeSchema = z.enum(REF_GUIDE_TYPES).openapi('RefGuideType', { description: 'Guide type; trash-guides is the only one so far' });
export const RefGuideArrTypeSchema = arrTypeEnum(REF_GUIDE_ARR_TYPES, 'The app family the source is read for (docs/json/radarr or docs/json/sonarr).').openapi('RefGuideArrType');
export const RefEntityTypeSchema = entityTypeEnum(REF_ENTITY_TYPES).openapi('RefGuideEntityType');
export const RefIdSchema = z
  .string()
  .regex(/^[0-9a-f]{32}$/, 'must be 32 lowercase hexadecimal characters')
  .length(32)
  .openapi({ description: "The guide's trash_id (32 lowercase hex); for entities without one (naming), md5 of \"arrgo-ref-guide:<type>:<file path>\"" });

export const RefGuideOriginSchema = z
  .discriminatedUnion('kind', [
    z
      .object({
        kind: z.literal('git'),
        url: line(1000).openapi({ description: gitUrlDescription, example: 'https://github.com/TRaSH-Guides/Guides' }),
        branch: line(200).optional().openapi({ description: 'Default main' }),
        token: gitToken.optional(),
        tokenUsername: gitTokenUsername.optional(),
      })
      .strict(),
    z.object({ kind: z.literal('local'), path: line(1000).openapi({ description: 'An absolute path of an existing directory (a guide checkout)' }) }).strict(),
  ])
  .openapi('RefGuideOrigin');

export const RefGuideSourceCreateSchema = z
  .object({
    name,
    type: RefGuideTypeSchema.optional().openapi({ description: 'Default trash-guides' }),
    origin: RefGuideOriginSchema,
    arrType: RefGuideArrTypeSchema,
    enabled: z.boolean().optional().openapi({ description: 'Default true; disabled sources are not refreshed by the schedule' }),
    databaseIds: databaseIds.optional(),
  })
  .strict()
  .openapi('RefGuideSourceCreate');

export const RefGuideSourcePatchSchema = z
  .object({
    name: name.optional(),
    enabled: z.boolean().optional(),
    branch: line(200).optional(),
    token: gitToken.nullable().optional().openapi({ description: 'A new token for the git origin (see RefGuideOrigin.token); null removes the stored one. Write-only.', writeOnly: true }),
    tokenUsername: gitTokenUsername.optional(),
    databaseIds: databaseIds.optional(),
  })
  .strict()
  .refine((v) => Object.keys(v).length > 0, 'must name at least one field to change')
  .openapi('RefGuideSourcePatch', { description: 'The type, origin kind and arrType of a source are fixed; create another source to change them' });

const EntityCounts = z.record(z.number().int()).openapi({ description: 'Cached entities per type as of the last good sync' });

export const RefGuideSourceSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    type: RefGuideTypeSchema,
    arrType: RefGuideArrTypeSchema,
    enabled: z.boolean(),
    origin: z.object({ kind: z.enum(['git', 'local']), url: z.string().nullable(), path: z.string().nullable(), branch: z.string().nullable(), tokenSet }),
    databaseIds: z.array(z.number().int()),
    lastCommit: z.string().nullable().openapi({ description: 'Commit of the last good sync (null for a local directory that is not a git work tree)' }),
    lastSyncedAt: z.string().nullable().openapi({ description: 'Time of the last good sync; null until one succeeded (the cache is not ready)' }),
    sync: z.object({
      status: z.enum(['pending', 'syncing', 'ready', 'failed']),
      reason: z.enum(Object.keys(REF_GUIDE_FAILURES) as [string, ...string[]]).nullable().openapi({ description: 'Sanitized reason code of the last failed sync; the last good cache still serves. branch_not_found is cleared when the branch is changed (until the next sync)' }),
      message: z.string().nullable().openapi({ description: 'The reason in words, pre-authored (never git output); branch_not_found names the branch tried' }),
      lastAttemptAt: z.string().nullable(),
    }),
    entityCounts: EntityCounts.nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('RefGuideSource');

export const RefGuideSourceDetailSchema = RefGuideSourceSchema.extend({
  progress: z
    .object({ phase: z.enum(['starting', 'fetching', 'reading', 'writing', 'done', 'failed']), done: z.number().int(), total: z.number().int() })
    .nullable()
    .openapi({ description: 'The running sync\'s progress (its workflow query), while sync.status is syncing' }),
}).openapi('RefGuideSourceDetail');

export const RefGuideSyncResultSchema = z
  .object({
    workflowId: z.string(),
    status: z.enum(['started', 'ready', 'failed']),
    reason: z.string().optional(),
    changes: z.object({ inserted: z.number().int(), updated: z.number().int(), removed: z.number().int(), unchanged: z.number().int() }).optional(),
    duplicates: z.array(z.string()).optional().openapi({ description: 'Files skipped because an earlier file of the same type has their refId' }),
    source: RefGuideSourceSchema,
  })
  .openapi('RefGuideSync');

const SourceRef = z.object({ type: RefGuideTypeSchema, id: z.number().int(), name: z.string(), arrType: RefGuideArrTypeSchema });

export const RefGuideEntitySchema = z
  .object({
    source: SourceRef,
    refId: z.string(),
    type: RefEntityTypeSchema,
    name: z.string(),
    filePath: z.string().openapi({ description: 'Path of the file in the guide repository' }),
    fetchedAt: z.string().openapi({ description: 'Time of the last good sync of the source (the content is as of that fetch)' }),
    entity: z.record(z.unknown()).openapi({ description: "The guide's JSON object as it is" }),
    scores: z.record(z.number()).optional().openapi({ description: 'custom_format: trash_scores (score set -> score); quality_profile: custom format name -> score in its score set' }),
    group: z.number().int().optional().openapi({ description: "quality_profile: the guide's group number" }),
  })
  .openapi('RefGuideEntity');

export const RefGuideEntityListSchema = paginated(RefGuideEntitySchema.omit({ entity: true, source: true }))
  .extend({ source: SourceRef })
  .openapi('RefGuideEntityList');

export const RefGuideImportBodySchema = z
  .object({
    databaseId: idValue(),
    type: z.enum(REF_GUIDE_IMPORTABLE_TYPES).optional().openapi({ description: 'Which entity the refId names; found by refId when omitted. quality_size becomes the source family\'s quality definitions' }),
    scoreSet: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'must be a score set name (lowercase letters, digits and dashes, at most 64)')
      .max(64)
      .optional()
      .openapi({ description: "quality_profile only: the score set its scores come from (default: the profile's trash_score_set, else default)", example: 'sqp-1-1080p' }),
    preferredRatio: z
      .number()
      .min(0)
      .max(1)
      .optional()
      .openapi({
        description:
          "quality_size only: each preferred size this far between its min (0) and max (1), rounded to 0.1, instead of the guide's (Recyclarr's quality_definition.preferred_ratio); the definitions are then named \"<type> (preferred <ratio>)\"",
        example: 0.5,
      }),
    existingFormats: z
      .enum(EXISTING_FORMAT_ACTIONS)
      .optional()
      .openapi({
        description:
          "What happens to a custom format whose name the database has (the imported one, or one of a profile's). keep (default): left as it is, listed in skipped. merge: its conditions for the source's app family become the guide's, its conditions for other families are kept (a condition for every family that the guide does not have the same is scoped to the others), listed in updated; skipped when that family already gets the guide's definition. A condition whose name another family's condition holds is stored as \"<name> (<App>)\" and synced under its plain name (docs/ref-guide.md)",
      }),
    dryRun: z.boolean().optional().openapi({ description: 'Default false. true: plan the import and answer what would be created (opId null) and which names exist already (skipped), storing nothing' }),
  })
  .strict()
  .openapi('RefGuideImport');

const PortableTypeName = z.string();
export const RefGuideImportResultSchema = z
  .object({
    databaseId: z.number().int(),
    source: z.object({ id: z.number().int(), name: z.string(), arrType: RefGuideArrTypeSchema }),
    refId: z.string(),
    type: z.enum(REF_GUIDE_IMPORTABLE_TYPES),
    scoreSet: z.string().nullable(),
    dryRun: z.boolean().openapi({ description: 'true: nothing was stored; created is what the import would write' }),
    created: z
      .array(z.object({ entityType: PortableTypeName, name: z.string(), opId: z.number().int().nullable() }))
      .openapi({ description: 'User ops written (opId null on a dry run), in order; revert one with DELETE /pcd/{databaseId}/user-ops/{opId}' }),
    updated: z
      .array(z.object({ entityType: PortableTypeName, name: z.string(), opId: z.number().int().nullable() }))
      .openapi({ description: "existingFormats merge: custom formats the database had, merged with the guide's definition for the source's app family (opId null on a dry run), in order with created" }),
    skipped: z.array(z.object({ entityType: PortableTypeName, name: z.string(), reason: z.string() })).openapi({ description: 'Left alone, with why (existing names are kept unless existingFormats is merge)' }),
    warnings: z
      .array(z.string())
      .optional()
      .openapi({
        description:
          'Present when a regular expression created has a pattern custom-format evaluation refuses: each names the .NET construct without a faithful JavaScript translation (docs/evaluation.md, ".NET regular expressions"). It is imported all the same (the apps run it); evaluate reports its conditions as not evaluable',
      }),
  })
  .openapi('RefGuideImportResult');

export const RefGuideSettingsInputSchema = z
  .object({ enabled: z.boolean(), intervalMinutes: int(5, 10_080) })
  .strict()
  .openapi('RefGuideSettingsInput');

export const RefGuideSettingsSchema = z
  .object({
    enabled: z.boolean(),
    intervalMinutes: z.number().int(),
    scheduleId: z.string().openapi({ description: 'The Temporal Schedule (visible in the Temporal Web UI)' }),
    paused: z.boolean(),
    nextRunAt: z.string().nullable(),
    lastRunAt: z.string().nullable(),
    lastRunSources: z.number().int(),
    lastRunFailed: z.number().int(),
    lastRunJoined: z.number().int().openapi({ description: 'Sources of the last run whose sync was already running (joined, not started again)' }),
  })
  .openapi('RefGuideSettings');
