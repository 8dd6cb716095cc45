import { EntitySchema } from '@mikro-orm/core';
import type { ArrType } from '../../domain/arr-types';
import type { PreviewStatus, SyncRunStatus } from '../../domain/sync';
import { createdAtColumn, updatedAtColumn } from './timestamps';

export type { PreviewStatus, SyncRunStatus };

/** What one instance syncs from which database (PUT /instances/{id}/sync-config). */
export class InstanceSyncConfig {
  instanceId!: number;
  databaseId!: number;
  /** A SyncSelection (src/domain/sync/selection.ts). */
  selection!: Record<string, unknown>;
  updatedAt: Date = new Date();
}

export const InstanceSyncConfigSchema = new EntitySchema<InstanceSyncConfig>({
  class: InstanceSyncConfig,
  tableName: 'instance_sync_configs',
  properties: {
    instanceId: { type: 'integer', primary: true, autoincrement: false, fieldName: 'instance_id' },
    databaseId: { type: 'integer', fieldName: 'database_id' },
    selection: { type: 'json' },
    updatedAt: updatedAtColumn(),
  },
});

/**
 * One database of an instance's sync configuration, in priority order (position 0 first). The
 * configuration's own row repeats the first entry's database and selection.
 */
export class InstanceSyncDatabase {
  instanceId!: number;
  position!: number;
  databaseId!: number;
  /** A SyncSelection (src/domain/sync/selection.ts). */
  selection!: Record<string, unknown>;
}

export const InstanceSyncDatabaseSchema = new EntitySchema<InstanceSyncDatabase>({
  class: InstanceSyncDatabase,
  tableName: 'instance_sync_databases',
  properties: {
    instanceId: { type: 'integer', primary: true, autoincrement: false, fieldName: 'instance_id' },
    position: { type: 'integer', primary: true, autoincrement: false },
    databaseId: { type: 'integer', fieldName: 'database_id' },
    selection: { type: 'json' },
  },
  indexes: [{ name: 'instance_sync_databases_database_id_index', properties: ['databaseId'] }],
  uniques: [{ name: 'instance_sync_databases_instance_database_unique', properties: ['instanceId', 'databaseId'] }],
});

/** A sync preview and, once applied, the link to its run. The workflow owns the status. */
export class SyncPreview {
  id!: number;
  instanceId!: number;
  instanceName!: string;
  arrType!: ArrType;
  sections!: string[];
  status: PreviewStatus = 'generating';
  trigger!: string;
  workflowId!: string;
  autoApply: boolean = false;
  generatedAt: Date | null = null;
  expiresAt: Date | null = null;
  /** The per-instance preview body (sections, sectionOutcomes, groups, counts). */
  preview: Record<string, unknown> | null = null;
  /** The executable write plan (src/domain/sync). */
  plan: Record<string, unknown> | null = null;
  /** Hash of the live state the preview was computed against; apply refuses a moved state (stale). */
  liveFingerprint: string | null = null;
  /** Failure evidence {code, message, recoveryAction} when generation or apply failed. */
  failure: Record<string, unknown> | null = null;
  runId: number | null = null;
  createdAt: Date = new Date();
  updatedAt: Date = new Date();
}

export const SyncPreviewSchema = new EntitySchema<SyncPreview>({
  class: SyncPreview,
  tableName: 'sync_previews',
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    instanceId: { type: 'integer', fieldName: 'instance_id' },
    instanceName: { type: 'string', length: 100, fieldName: 'instance_name' },
    arrType: { type: 'string', length: 20, fieldName: 'arr_type' },
    sections: { type: 'json' },
    status: { type: 'string', length: 20, default: 'generating' },
    trigger: { type: 'string', length: 20 },
    workflowId: { type: 'string', length: 200, fieldName: 'workflow_id' },
    autoApply: { type: 'boolean', fieldName: 'auto_apply', default: false },
    generatedAt: { type: 'Date', nullable: true, fieldName: 'generated_at' },
    expiresAt: { type: 'Date', nullable: true, fieldName: 'expires_at' },
    preview: { type: 'json', nullable: true },
    plan: { type: 'json', nullable: true },
    liveFingerprint: { type: 'string', length: 64, nullable: true, fieldName: 'live_fingerprint' },
    failure: { type: 'json', nullable: true },
    runId: { type: 'integer', nullable: true, fieldName: 'run_id' },
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
});


/** One sync run (apply) in the audit history. */
export class SyncRun {
  id!: number;
  /** Null once the instance is deleted; the name is retained. */
  instanceId: number | null = null;
  instanceName!: string;
  arrType!: ArrType;
  trigger!: string;
  sectionsAttempted!: string[];
  /** ",qualityProfiles,delayProfiles," — lets the section filter use LIKE on every driver. */
  sectionsKey!: string;
  status: SyncRunStatus = 'running';
  sectionsRun: number = 0;
  itemsSynced: number = 0;
  failureCount: number = 0;
  entityChangeCount: number = 0;
  entityOutcomeCount: number = 0;
  /** Sanitized error text (pre-authored failure evidence message). */
  error: string | null = null;
  /** Per-entity outcomes from the app's responses. */
  outcomes: Record<string, unknown>[] = [];
  /** What reading the writes back found (ApplyVerification); null until verified, or when the apply did not complete. */
  verification: Record<string, unknown> | null = null;
  previewId: number | null = null;
  rolloutId: number | null = null;
  /** The run is recorded once per workflow (a resumed apply finds it again). */
  workflowId!: string;
  startedAt!: Date;
  finishedAt: Date | null = null;
  createdAt: Date = new Date();
}

export const SyncRunSchema = new EntitySchema<SyncRun>({
  class: SyncRun,
  tableName: 'sync_runs',
  indexes: [
    { properties: ['startedAt'] },
    { properties: ['instanceId'] },
    { name: 'sync_runs_started_id_index', properties: ['startedAt', 'id'] },
    { name: 'sync_runs_instance_started_index', properties: ['instanceId', 'startedAt', 'id'] },
    { name: 'sync_runs_arr_type_started_index', properties: ['arrType', 'startedAt', 'id'] },
  ],
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    instanceId: { type: 'integer', nullable: true, fieldName: 'instance_id' },
    instanceName: { type: 'string', length: 100, fieldName: 'instance_name' },
    arrType: { type: 'string', length: 20, fieldName: 'arr_type' },
    trigger: { type: 'string', length: 20 },
    sectionsAttempted: { type: 'json', fieldName: 'sections_attempted' },
    sectionsKey: { type: 'string', length: 200, fieldName: 'sections_key' },
    status: { type: 'string', length: 20, default: 'running' },
    sectionsRun: { type: 'integer', fieldName: 'sections_run', default: 0 },
    itemsSynced: { type: 'integer', fieldName: 'items_synced', default: 0 },
    failureCount: { type: 'integer', fieldName: 'failure_count', default: 0 },
    entityChangeCount: { type: 'integer', fieldName: 'entity_change_count', default: 0 },
    entityOutcomeCount: { type: 'integer', fieldName: 'entity_outcome_count', default: 0 },
    error: { type: 'string', length: 500, nullable: true },
    outcomes: { type: 'json' },
    verification: { type: 'json', nullable: true },
    previewId: { type: 'integer', nullable: true, fieldName: 'preview_id' },
    rolloutId: { type: 'integer', nullable: true, fieldName: 'rollout_id' },
    workflowId: { type: 'string', length: 200, index: 'sync_runs_workflow_id_index', fieldName: 'workflow_id' },
    startedAt: { type: 'Date', fieldName: 'started_at' },
    finishedAt: { type: 'Date', nullable: true, fieldName: 'finished_at' },
    createdAt: createdAtColumn(),
  },
});
