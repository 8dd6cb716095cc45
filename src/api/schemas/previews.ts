import { APP_FAILURE_CODES, FAILURE_CODES } from '../../domain/failure-evidence';
import { SOURCE_COLLISION_KINDS, UNMANAGED_REASONS } from '../../domain/sync';
import { idValue, int, z } from '../http/zod';
import { ArrTypeSchema } from './common';
import { FieldChangeSchema } from './pcd';
import { SyncSectionSchema } from './sync';

export const FailureEvidenceSchema = z
  .object({
    code: z.enum(FAILURE_CODES).openapi({
      description:
        'unreachable, timeout, unauthorized, notFound, rejected, serverError, invalidResponse (the app answered something that could not be read): an app failure; ' +
        "appMismatch: the app at the instance's URL reports another app type (system/status, asked before every preview and apply): nothing was read or written (detectedArrType names it); " +
        'sectionErrors: see each sectionOutcomes[].failure (cause names the first failed section\'s app failure); executionFailed: the apply stopped (cause names the app failure); stale; internalError; ' +
        'notApplied, entityMissing: the apply completed but its verification found values the app did not store, or an entity not there (a run\'s evidence; the message names the fields); verificationUnreadable: the apply completed but could not be read back (cause names the app failure)',
    }),
    message: z.string().openapi({ description: 'Pre-authored, safe text' }),
    recoveryAction: z.string(),
    cause: z
      .enum(APP_FAILURE_CODES)
      .nullable()
      .optional()
      .openapi({ description: 'With executionFailed: the app failure that stopped the apply (null when it was not an app failure); with sectionErrors: the first failed section\'s app failure; with verificationUnreadable: how reading back failed' }),
    detectedArrType: ArrTypeSchema.nullable()
      .optional()
      .openapi({ description: 'With appMismatch: the app type of the app that answered (null: not Radarr, Sonarr or Lidarr)' }),
  })
  .openapi('FailureEvidence');

export const SyncChangeSchema = z
  .object({
    section: SyncSectionSchema.optional(),
    entityType: z.string(),
    name: z.string().openapi({ description: 'Display name with the namespace stripped' }),
    action: z.enum(['create', 'update', 'delete', 'unchanged']),
    category: z.enum(['drift', 'missing', 'unmanaged']).optional(),
    remoteId: z.number().int().nullable(),
    fields: z.array(FieldChangeSchema).openapi({
      description:
        'Dot-notated field changes, live (current) -> desired (docs/sync.md). A custom format or quality profile matched through the ledger under another name has a `name` change (app names): a rename, applied to the same app id',
    }),
    unmanagedReason: z.enum(UNMANAGED_REASONS).optional().openapi({
      description: 'Unmanaged custom formats and quality profiles: noLongerSelected when arrgo created it (sync ledger) and no selected PCD entity stands for it any more; notManaged otherwise',
    }),
    reason: z.string().optional().openapi({ description: 'Unmanaged entries: the reason in words' }),
    databaseId: z.number().int().optional().openapi({ description: 'The database the synced entity came from (absent on unmanaged entities)' }),
  })
  .openapi('SyncChange');

export const IdentitySummarySchema = z
  .object({
    rebuilt: z.number().int().openapi({ description: 'Custom formats and quality profiles bound by name because the ledger had no usable entry (none, or its app id is gone); the apply writes them to the ledger' }),
    renamed: z.number().int().openapi({ description: 'Entities matched through the ledger whose app name differs from the desired one (renamed in the PCD or by hand on the app): updates with a `name` change' }),
    stale: z.number().int().openapi({ description: 'Ledger entries of desired entities whose app id no longer exists on the app (an app restored from a backup)' }),
  })
  .openapi('SyncIdentitySummary');

const DatabaseRefSchema = z.object({ databaseId: z.number().int(), databaseName: z.string() });

export const SourceCollisionSchema = z
  .object({
    entityType: z.string(),
    name: z.string().openapi({ description: "The winner's entity name" }),
    winner: DatabaseRefSchema.openapi({ description: 'The earliest database that supplies the entity: its version is synced' }),
    losers: z.array(DatabaseRefSchema.extend({ name: z.string().optional().openapi({ description: "Single-entity settings: the loser's own selection when it is another name" }) })),
    kind: z.enum(SOURCE_COLLISION_KINDS).openapi({
      description: 'collision: two databases select an entity of this type and name (or each selects a single-entity setting); formatOverride: a quality profile of a later database scores a custom format an earlier database supplies, and the earlier one is used',
    }),
    profile: z.string().optional().openapi({ description: 'formatOverride: a quality profile of the (first) overridden database that scores the format' }),
  })
  .openapi('SyncSourceCollision');

/** Actions a preview counts: creates, updates, deletes and unchanged entries. */
export const ChangeCountsSchema = z.object({ create: z.number().int(), update: z.number().int(), delete: z.number().int(), unchanged: z.number().int() });

export const PreviewSchema = z
  .object({
    id: z.number().int(),
    instanceId: z.number().int(),
    instanceName: z.string(),
    arrType: ArrTypeSchema,
    status: z.enum(['generating', 'ready', 'applying', 'applied', 'failed', 'expired']).openapi({
      description: 'failed: generation failed, or the apply did not complete (the run, runId, is partial when some changes were written, failed when none were). applied: the apply completed; when reading it back found values the app did not store (or could not read it), `failure` carries that evidence (notApplied, entityMissing, verificationUnreadable) and the run is partial',
    }),
    trigger: z.string(),
    generatedAt: z.number().int().nullable().openapi({ description: 'Unix epoch milliseconds' }),
    expiresAt: z.string().nullable(),
    sections: z.array(SyncSectionSchema),
    sectionOutcomes: z.array(z.object({ section: SyncSectionSchema, skipped: z.boolean(), failure: FailureEvidenceSchema.nullable() })),
    qualityProfiles: z.object({ section: z.literal('qualityProfiles'), customFormats: z.array(SyncChangeSchema), qualityProfiles: z.array(SyncChangeSchema) }).nullable(),
    delayProfiles: z.object({ section: z.literal('delayProfiles'), profile: SyncChangeSchema }).nullable(),
    mediaManagement: z
      .object({ section: z.literal('mediaManagement'), naming: SyncChangeSchema.nullable(), qualityDefinitions: z.array(SyncChangeSchema), mediaSettings: SyncChangeSchema.nullable() })
      .nullable(),
    metadataProfiles: z.object({ section: z.literal('metadataProfiles'), profile: SyncChangeSchema }).nullable(),
    counts: ChangeCountsSchema,
    issues: z.array(z.object({ severity: z.string(), section: z.string(), entityType: z.string(), name: z.string(), message: z.string() })),
    identity: IdentitySummarySchema.nullable().openapi({ description: 'How custom formats and quality profiles were matched with the app through the sync ledger (docs/sync.md, "Identity and the ledger"); null while generating, when generation failed before planning, or for previews stored before the ledger' }),
    databases: z.array(z.object({ databaseId: z.number().int(), name: z.string() })).openapi({ description: 'The databases the preview was computed from, in priority order (empty on previews stored before several databases)' }),
    collisions: z.array(SourceCollisionSchema).openapi({ description: 'Entities two or more databases supply, with the winner and the losers named' }),
    failure: FailureEvidenceSchema.nullable(),
    runId: z.number().int().nullable(),
    workflowId: z.string(),
    createdAt: z.string(),
  })
  .openapi('SyncPreview');

export const PreviewCreateSchema = z
  .object({
    instanceId: idValue(),
    sections: z.array(SyncSectionSchema).max(4).optional().openapi({ description: 'Default: every section the sync configuration selects' }),
    ttlSeconds: int(1, 7 * 86_400).optional().openapi({ description: 'Staleness TTL; default PREVIEW_TTL_MINUTES' }),
  })
  .strict()
  .openapi('SyncPreviewCreate');

export const InstanceSyncSchema = z
  .object({ sections: z.array(SyncSectionSchema).max(4).optional() })
  .strict()
  .openapi('InstanceSyncRequest');
