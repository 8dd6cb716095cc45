import { EntitySchema } from '@mikro-orm/core';
import type { TimelineSource } from '../../domain/timeline/rules';

export const SNAPSHOT_SUBTYPES = ['pull', 'import', 'edit', 'revert', 'goal', 'manual', 'rollback'] as const;
export type SnapshotSubtype = (typeof SNAPSHOT_SUBTYPES)[number];

/** A user op as a snapshot records it (enough to re-insert it exactly). */
export interface SnapshotUserOp {
  id: number;
  seq: number;
  sql: string;
  sha256: string;
  label: string | null;
  targetType: string | null;
  targetName: string | null;
  kind: string | null;
  createdAt: string;
}

/**
 * The file-layer (base and tweaks) op set of a database at one point, gzip-compressed JSON,
 * shared by every snapshot taken while the op set was the same (digest of the ordered op hashes).
 */
export class PcdSnapshotBase {
  id!: number;
  databaseId!: number;
  digest!: string;
  opCount!: number;
  payload!: Buffer;
  createdAt: Date = new Date();
}

export const PcdSnapshotBaseSchema = new EntitySchema<PcdSnapshotBase>({
  class: PcdSnapshotBase,
  tableName: 'pcd_snapshot_bases',
  uniques: [{ name: 'pcd_snapshot_bases_database_digest_unique', properties: ['databaseId', 'digest'] }],
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    databaseId: { type: 'integer', fieldName: 'database_id' },
    digest: { type: 'string', length: 64 },
    opCount: { type: 'integer', fieldName: 'op_count' },
    payload: { type: 'blob', lazy: true },
    createdAt: { type: 'Date', fieldName: 'created_at', onCreate: () => new Date() },
  },
});

/** What is needed to restore a database's resolved state exactly. */
export class PcdSnapshot {
  id!: number;
  /** Kept after the database is unlinked (the timeline then reports a null id with this name). */
  databaseId!: number;
  databaseName!: string;
  subtype!: SnapshotSubtype;
  note: string | null = null;
  baseCommit: string | null = null;
  baseId!: number;
  userOps!: SnapshotUserOp[];
  baseOpCount!: number;
  tweakOpCount!: number;
  userOpCount!: number;
  /** Digest of the resolved state (every entity of every type); null when the cache was unavailable. */
  stateHash: string | null = null;
  /** sha256 over the base digest, the user ops and the counts: verified before a rollback. */
  checksum!: string;
  createdAt: Date = new Date();
}

export const PcdSnapshotSchema = new EntitySchema<PcdSnapshot>({
  class: PcdSnapshot,
  tableName: 'pcd_snapshots',
  indexes: [
    { name: 'pcd_snapshots_database_created_index', properties: ['databaseId', 'createdAt', 'id'] },
    { name: 'pcd_snapshots_created_index', properties: ['createdAt', 'id'] },
  ],
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    databaseId: { type: 'integer', fieldName: 'database_id' },
    databaseName: { type: 'string', length: 100, fieldName: 'database_name' },
    subtype: { type: 'string', length: 20 },
    note: { type: 'string', length: 500, nullable: true },
    baseCommit: { type: 'string', length: 64, nullable: true, fieldName: 'base_commit' },
    baseId: { type: 'integer', fieldName: 'base_id' },
    userOps: { type: 'json', fieldName: 'user_ops', lazy: true },
    baseOpCount: { type: 'integer', fieldName: 'base_op_count' },
    tweakOpCount: { type: 'integer', fieldName: 'tweak_op_count' },
    userOpCount: { type: 'integer', fieldName: 'user_op_count' },
    stateHash: { type: 'string', length: 64, nullable: true, fieldName: 'state_hash' },
    checksum: { type: 'string', length: 64 },
    createdAt: { type: 'Date', fieldName: 'created_at', onCreate: () => new Date() },
  },
});

export type RollbackStatus = 'running' | 'success' | 'failed';

/** One rollback of a database to a snapshot, written by the rollback workflow at every step. */
export class PcdRollback {
  id!: number;
  databaseId!: number;
  databaseName!: string;
  snapshotId!: number;
  /** The snapshot taken just before the restore (roll back to it to undo this rollback). */
  preSnapshotId: number | null = null;
  /** The database's pin before the restore, put back if the rollback fails after restoring. */
  previousPinnedSnapshotId: number | null = null;
  status: RollbackStatus = 'running';
  /** The step reached: verify, snapshot, restore, rebuild, verify-state, done. */
  step: string | null = null;
  trigger: string = 'manual';
  /** User op ids superseded by this rollback. */
  opsUndone: number[] = [];
  /** User op ids active again (reactivated or re-inserted) after this rollback. */
  opsReactivated: number[] = [];
  error: string | null = null;
  workflowId!: string;
  startedAt: Date = new Date();
  finishedAt: Date | null = null;
}

export const PcdRollbackSchema = new EntitySchema<PcdRollback>({
  class: PcdRollback,
  tableName: 'pcd_rollbacks',
  indexes: [
    { name: 'pcd_rollbacks_database_started_index', properties: ['databaseId', 'startedAt', 'id'] },
    { name: 'pcd_rollbacks_started_index', properties: ['startedAt', 'id'] },
  ],
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    databaseId: { type: 'integer', fieldName: 'database_id' },
    databaseName: { type: 'string', length: 100, fieldName: 'database_name' },
    snapshotId: { type: 'integer', fieldName: 'snapshot_id' },
    preSnapshotId: { type: 'integer', nullable: true, fieldName: 'pre_snapshot_id' },
    previousPinnedSnapshotId: { type: 'integer', nullable: true, fieldName: 'previous_pinned_snapshot_id' },
    status: { type: 'string', length: 20, default: 'running' },
    step: { type: 'string', length: 30, nullable: true },
    trigger: { type: 'string', length: 20, default: 'manual' },
    opsUndone: { type: 'json', fieldName: 'ops_undone' },
    opsReactivated: { type: 'json', fieldName: 'ops_reactivated' },
    error: { type: 'string', length: 500, nullable: true },
    workflowId: { type: 'string', length: 200, fieldName: 'workflow_id' },
    startedAt: { type: 'Date', fieldName: 'started_at' },
    finishedAt: { type: 'Date', nullable: true, fieldName: 'finished_at' },
  },
});


/** A user's note on a timeline event: the only persisted timeline state. */
export class TimelineAnnotation {
  id!: number;
  source!: TimelineSource;
  sourceId!: number;
  body!: string;
  createdAt: Date = new Date();
  updatedAt: Date = new Date();
}

export const TimelineAnnotationSchema = new EntitySchema<TimelineAnnotation>({
  class: TimelineAnnotation,
  tableName: 'timeline_annotations',
  indexes: [{ name: 'timeline_annotations_event_index', properties: ['source', 'sourceId'] }],
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    source: { type: 'string', length: 20 },
    sourceId: { type: 'integer', fieldName: 'source_id' },
    body: { type: 'text' },
    createdAt: { type: 'Date', fieldName: 'created_at', onCreate: () => new Date() },
    updatedAt: { type: 'Date', fieldName: 'updated_at', onCreate: () => new Date(), onUpdate: () => new Date() },
  },
});
