import { SYNC_SECTIONS } from '../../domain/sync';
import { RETENTION_DAYS_MAX, RETENTION_MAX_ENTRIES_MAX, SYNC_RUN_STATUSES, SYNC_TRIGGERS } from '../../services/sync/history-service';
import { ArrTypeSchema } from './common';
import { idValue, int, text, z } from '../http/zod';

export const SyncSectionSchema = z.enum(SYNC_SECTIONS).openapi('SyncSection');
const pcdName = text({ min: 1, max: 100 });

export const SyncConfigBodySchema = z
  .object({
    databaseId: idValue().openapi({ description: 'The PCD database that feeds this instance' }),
    qualityProfiles: z.array(pcdName).max(100).default([]).openapi({ description: 'PCD quality profile names; the custom formats they score come along' }),
    delayProfile: pcdName.nullable().default(null),
    naming: pcdName.nullable().default(null),
    mediaSettings: pcdName.nullable().default(null),
    qualityDefinitions: pcdName.nullable().default(null),
    metadataProfile: pcdName.nullable().default(null).openapi({ description: 'music_app only' }),
    namespace: text({ min: 1, max: 50 }).nullable().default(null).openapi({ description: 'Suffix on every name arrgo writes ("Name [namespace]"), so synced entities never collide with your own; null writes PCD names as they are' }),
    deleteUnmanaged: z.boolean().default(false).openapi({ description: 'Delete custom formats and quality profiles on the app that arrgo does not manage (off: they are reported as unmanaged only)' }),
  })
  .strict()
  .openapi('SyncConfigInput');

export const SyncConfigSchema = z
  .object({
    instanceId: z.number().int(),
    databaseId: z.number().int(),
    qualityProfiles: z.array(z.string()),
    delayProfile: z.string().nullable(),
    naming: z.string().nullable(),
    mediaSettings: z.string().nullable(),
    qualityDefinitions: z.string().nullable(),
    metadataProfile: z.string().nullable(),
    namespace: z.string().nullable(),
    deleteUnmanaged: z.boolean(),
    updatedAt: z.string(),
  })
  .openapi('SyncConfig');

export const SyncRunStatusSchema = z.enum(SYNC_RUN_STATUSES);
export const SyncTriggerSchema = z.enum(SYNC_TRIGGERS);

export const SyncHistoryItemSchema = z
  .object({
    id: z.number().int(),
    instanceId: z.number().int().nullable(),
    instanceName: z.string(),
    arrType: ArrTypeSchema,
    trigger: SyncTriggerSchema,
    sectionsAttempted: z.array(SyncSectionSchema),
    status: SyncRunStatusSchema.openapi({ description: 'success; partial: the apply stopped after some changes were written (its preview is failed, with executionFailed evidence saying how many); failed: nothing was written; running' }),
    sectionsRun: z.number().int().openapi({ description: 'Sections the run wrote to: every step confirmed, or at least one write confirmed' }),
    itemsSynced: z.number().int(),
    failureCount: z.number().int(),
    entityChangeCount: z.number().int(),
    entityOutcomeCount: z.number().int().openapi({ description: 'Confirmed per-entity outcomes from actual app writes' }),
    error: z.string().nullable(),
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
