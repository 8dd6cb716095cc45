import { log, proxyActivities, proxyLocalActivities, setCurrentDetails, upsertSearchAttributes } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { RollbackInput, RollbackResult } from './contracts/rollback';
import { SA } from './search-attributes';

const bookkeeping = proxyLocalActivities<Activities>({ startToCloseTimeout: '1 minute', retry: { maximumAttempts: 10, nonRetryableErrorTypes: ['AppError'] } });
const io = proxyActivities<Activities>({
  startToCloseTimeout: '5 minutes',
  retry: { maximumAttempts: 5, initialInterval: '1 second', nonRetryableErrorTypes: ['AppError'] },
});

const FAILURES = {
  integrity: 'The snapshot failed its integrity check; nothing was changed',
  stateHash: 'The rebuilt state did not match the snapshot; the database was put back as it was before the rollback',
  failed: 'The rollback did not complete; the database was put back as it was before the rollback',
} as const;

/**
 * Rollback of a PCD database to a snapshot: verify the snapshot, take a pre-rollback snapshot,
 * restore the op set (newer user ops superseded, never deleted; the database pinned to the
 * snapshot's base until the next pull), rebuild the cache, verify the state hash, record. A failure
 * after the restore puts the pre-rollback op set back, so the database is never left half-way.
 */
export async function pcdRollbackWorkflow(input: RollbackInput): Promise<RollbackResult> {
  const { rollbackId } = input;
  const rebuild = proxyActivities<Activities>({
    startToCloseTimeout: '30 minutes',
    heartbeatTimeout: input.heartbeatTimeoutMs,
    retry: { maximumAttempts: 5, initialInterval: '1 second', nonRetryableErrorTypes: ['AppError'] },
  });
  let preSnapshotId: number | null = null;
  const step = async (name: Parameters<Activities['rollbackMarkStep']>[1], details: string) => {
    setCurrentDetails(`Rollback ${rollbackId} of database ${input.databaseId} to snapshot ${input.snapshotId}: ${details}`);
    await bookkeeping.rollbackMarkStep(rollbackId, name);
  };
  const finish = async (status: 'success' | 'failed', error: string | null, undone: number[] = [], reactivated: number[] = []): Promise<RollbackResult> => {
    await bookkeeping.rollbackFinish(rollbackId, status, error);
    upsertSearchAttributes([{ key: SA.syncStatus, value: status }]);
    setCurrentDetails(status === 'success' ? `Rolled back to snapshot ${input.snapshotId}: ${undone.length} ops undone, ${reactivated.length} reactivated` : `Failed: ${error}`);
    return { rollbackId, status, preSnapshotId, opsUndone: status === 'success' ? undone : [], opsReactivated: status === 'success' ? reactivated : [], error };
  };

  try {
    await step('verify', 'verifying the snapshot');
    const verified = await io.rollbackVerifySnapshot(rollbackId);
    if (!verified.ok) return await finish('failed', FAILURES.integrity);

    await step('snapshot', 'taking the pre-rollback snapshot');
    preSnapshotId = await io.rollbackTakePreSnapshot(rollbackId);

    await step('restore', 'restoring the op set');
    const restoredOps = await io.rollbackRestoreOps(rollbackId);

    await step('rebuild', 'rebuilding the cache');
    const hash = await rebuild.rollbackRebuildCache(rollbackId);

    await step('verify-state', 'verifying the state hash');
    const expected = await io.rollbackExpectedHash(rollbackId, 'snapshot');
    if (expected !== null && expected !== hash) {
      await compensate();
      return await finish('failed', FAILURES.stateHash);
    }
    return await finish('success', null, restoredOps.opsUndone, restoredOps.opsReactivated);
  } catch (error) {
    log.warn('rollback failed', { rollbackId, error: error instanceof Error ? error.name : 'unknown' });
    // The restore is one transaction: compensating when it may have committed is always safe.
    if (preSnapshotId !== null) await compensate();
    return finish('failed', FAILURES.failed);
  }

  async function compensate(): Promise<void> {
    await step('compensate', 'putting the database back as it was');
    await io.rollbackCompensate(rollbackId);
    await rebuild.rollbackRebuildCache(rollbackId);
  }
}
