// Contract of the rollback workflow, shared by its starter (services) and the workflow itself.
// Types and pure helpers only: bundled into the workflow sandbox.

export const ROLLBACK_WORKFLOW = 'pcdRollbackWorkflow';

export interface RollbackInput {
  rollbackId: number;
  databaseId: number;
  snapshotId: number;
  /** How long the cache rebuild may go without a heartbeat before another worker takes over. */
  heartbeatTimeoutMs: number;
}

export type RollbackStep = 'pending' | 'verify' | 'snapshot' | 'restore' | 'rebuild' | 'verify-state' | 'compensate' | 'done';

export interface RollbackResult {
  rollbackId: number;
  status: 'success' | 'failed';
  preSnapshotId: number | null;
  opsUndone: number[];
  opsReactivated: number[];
  /** Pre-authored reason when failed. */
  error: string | null;
}

/** `<tq>-pcd-rollback-<databaseId>`: one rollback at a time per database. */
export function rollbackWorkflowId(taskQueue: string, databaseId: number): string {
  return `${taskQueue}-pcd-rollback-${databaseId}`;
}
