import { FAILURE_CODES } from '../../domain/failure-evidence';
import { MAX_SYNC_DATABASES, MISMATCH_CODES, SYNC_ENTITY_TYPES, SYNC_SECTIONS, VERIFICATION_STATUSES } from '../../domain/sync';
import { RETENTION_DAYS_MAX, RETENTION_MAX_ENTRIES_MAX, SYNC_RUN_STATUSES, SYNC_TRIGGERS } from '../../services/sync/history-service';
import { ArrTypeSchema } from './common';
import { idValue, int, text, z } from '../http/zod';

export const SyncSectionSchema = z.enum(SYNC_SECTIONS).openapi('SyncSection');
const pcdName = text({ min: 1, max: 100 });

/** What one database syncs; a field left out takes its default (nothing selected, no namespace, deleteUnmanaged off). */
const selectionFields = {
  qualityProfiles: z.array(pcdName).max(100).optional().openapi({ description: 'PCD quality profile names; the custom formats they score come along (default: none)' }),
  delayProfile: pcdName.nullable().optional(),
  naming: pcdName.nullable().optional(),
  mediaSettings: pcdName.nullable().optional(),
  qualityDefinitions: pcdName.nullable().optional(),
  metadataProfile: pcdName.nullable().optional().openapi({ description: 'music_app only' }),
  namespace: text({ min: 1, max: 50 }).nullable().optional().openapi({ description: 'Suffix on every name arrgo writes ("Name [namespace]"), so synced entities never collide with your own; null (default) writes PCD names as they are. With several databases, the first database\'s namespace applies' }),
  deleteUnmanaged: z.boolean().optional().openapi({ description: "Delete custom formats and quality profiles on the app that arrgo does not manage (default off: they are reported as unmanaged only). With several databases, the first database's setting applies" }),
};

export const SyncSelectionInputSchema = z.object(selectionFields).strict().openapi('SyncSelectionInput');

export const SyncDatabaseEntryInputSchema = z
  .object({
    databaseId: idValue().openapi({ description: 'A PCD database that feeds this instance' }),
    selection: SyncSelectionInputSchema,
  })
  .strict()
  .openapi('SyncDatabaseEntryInput');

export const SyncConfigBodySchema = SyncSelectionInputSchema.extend({
  databaseId: idValue().optional().openapi({ description: 'The PCD database that feeds this instance (single-database form: the selection fields sit beside it). Give this or databases' }),
  databases: z
    .array(SyncDatabaseEntryInputSchema)
    .min(1)
    .max(MAX_SYNC_DATABASES)
    .optional()
    .openapi({ description: `The databases that feed this instance, highest priority first (1 to ${MAX_SYNC_DATABASES}, each at most once), each with its own selection. An entity supplied by two of them comes from the earlier one` }),
})
  .strict()
  .openapi('SyncConfigInput');

const selectionView = {
  qualityProfiles: z.array(z.string()),
  delayProfile: z.string().nullable(),
  naming: z.string().nullable(),
  mediaSettings: z.string().nullable(),
  qualityDefinitions: z.string().nullable(),
  metadataProfile: z.string().nullable(),
  namespace: z.string().nullable(),
  deleteUnmanaged: z.boolean(),
};

export const SyncSelectionSchema = z.object(selectionView).openapi('SyncSelection');

export const SyncConfigSchema = z
  .object({
    instanceId: z.number().int(),
    databaseId: z.number().int().openapi({ description: 'The first database; the selection fields beside it are its selection' }),
    ...selectionView,
    databases: z.array(z.object({ databaseId: z.number().int(), selection: SyncSelectionSchema })).openapi({ description: 'Every database in priority order, each with its selection' }),
    updatedAt: z.string(),
  })
  .openapi('SyncConfig');

export const SyncRunStatusSchema = z.enum(SYNC_RUN_STATUSES);
export const SyncTriggerSchema = z.enum(SYNC_TRIGGERS);

export const SyncRunVerificationSchema = z
  .object({
    status: z.enum(VERIFICATION_STATUSES).openapi({
      description: 'verified: every written entity read back as written; unverified: a field did not land (mismatches) or the app could not be read back (unreadable), and the run is partial; skipped: the apply wrote nothing',
    }),
    checked: z.number().int().openapi({ description: 'Entities read back and compared (each quality definition counts once)' }),
    mismatches: z
      .array(
        z.object({
          stepId: z.string().openapi({ description: "The plan step that wrote it (`<kind>:<op>:<name>`)" }),
          entityType: z.enum(SYNC_ENTITY_TYPES),
          name: z.string().openapi({ description: "The entity's display name (a quality definition: its quality)" }),
          path: z.string().openapi({ description: "The field, as a preview's FieldChange path (docs/sync.md); '' for the entity itself" }),
          expected: z.unknown().openapi({ description: 'What the step wrote' }),
          actual: z.unknown().openapi({ description: 'What the app holds (null: the entity is missing)' }),
          code: z.enum(MISMATCH_CODES).openapi({ description: 'notApplied: the app accepted the write but did not store this value; entityMissing: the entity is not on the app' }),
        }),
      )
      .openapi({ description: 'Every field that did not land' }),
    unreadable: z.enum(FAILURE_CODES).optional().openapi({ description: 'Set when the app could not be read back: how the read failed (an app failure, appMismatch, or internalError)' }),
    verifiedAt: z.string().datetime(),
  })
  .openapi('SyncRunVerification');

export const SyncHistoryItemSchema = z
  .object({
    id: z.number().int(),
    instanceId: z.number().int().nullable(),
    instanceName: z.string(),
    arrType: ArrTypeSchema,
    trigger: SyncTriggerSchema,
    sectionsAttempted: z.array(SyncSectionSchema),
    status: SyncRunStatusSchema.openapi({
      description:
        'success (every write confirmed and verified); partial: the apply stopped after some changes were written (its preview is failed, with executionFailed evidence saying how many), or it completed but its verification found fields that did not land or could not read the app back (the error says which fields); failed: nothing was written; running',
    }),
    sectionsRun: z.number().int().openapi({ description: 'Sections the run wrote to: every step confirmed, or at least one write confirmed' }),
    itemsSynced: z.number().int(),
    failureCount: z.number().int(),
    entityChangeCount: z.number().int(),
    entityOutcomeCount: z.number().int().openapi({ description: 'Confirmed per-entity outcomes from actual app writes' }),
    error: z.string().nullable(),
    verification: SyncRunVerificationSchema.nullable().openapi({ description: 'What reading the writes back after the apply found (docs/sync.md "Verified apply"); null while running, when the apply did not complete, and for runs recorded before verification' }),
    previewId: z.number().int().nullable(),
    rolloutId: z.number().int().nullable(),
    startedAt: z.string().datetime(),
    finishedAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi('SyncHistoryItem');

export const HistorySettingsPatchSchema = z
  .object({
    enabled: z.boolean().optional(),
    retentionDays: int(1, RETENTION_DAYS_MAX).optional().openapi({ description: `Finished runs older than this many days are removed (1 to ${RETENTION_DAYS_MAX})` }),
    retentionMaxEntries: int(0, RETENTION_MAX_ENTRIES_MAX)
      .optional()
      .openapi({ description: `Only the newest this many finished runs are kept (0 to ${RETENTION_MAX_ENTRIES_MAX}); 0 disables the entry cap (age-only retention)` }),
  })
  .strict()
  .refine((v) => Object.keys(v).length > 0, 'must name at least one setting')
  .openapi('SyncHistorySettingsPatch');

export const HistorySettingsSchema = z
  .object({ enabled: z.boolean(), retentionDays: z.number().int().min(1), retentionMaxEntries: z.number().int().min(0) })
  .openapi('SyncHistorySettings');
