import { Context } from '@temporalio/activity';
import { isAppError } from '../errors';
import { PcdDatabase, PcdRollback, PcdSnapshot } from '../persistence/entities';
import { restoreOpSet } from '../services/snapshots/rollback-service';
import { SnapshotService } from '../services/snapshots/snapshot-service';
import { cacheStateHash } from '../services/snapshots/state-hash';
import type { RollbackStep } from '../workflows/contracts/rollback';
import type { ActivityDeps } from './deps';

/**
 * Steps of the rollback workflow. Each is idempotent on its rollback record: a retried step (after
 * a worker died) finds the work done and returns what it recorded.
 */
export function rollbackActivities(deps: ActivityDeps) {
  const snapshots = () => new SnapshotService(deps.orm, deps.pcdCaches);
  const record = (id: number) => deps.orm.em.fork().findOneOrFail(PcdRollback, { id });

  return {
    async rollbackMarkStep(rollbackId: number, step: RollbackStep): Promise<void> {
      await deps.orm.em.fork().nativeUpdate(PcdRollback, { id: rollbackId }, { step });
    },

    /** Step 1: the snapshot's op sets match its digest and checksum. Returns a reason when not. */
    async rollbackVerifySnapshot(rollbackId: number): Promise<{ ok: true } | { ok: false; reason: string }> {
      const rollback = await record(rollbackId);
      try {
        await snapshots().loadVerified(rollback.databaseId, rollback.snapshotId);
        return { ok: true };
      } catch (error) {
        if (isAppError(error)) return { ok: false, reason: error.publicMessage };
        throw error;
      }
    },

    /** Step 2: the pre-rollback snapshot (taken once per rollback). */
    async rollbackTakePreSnapshot(rollbackId: number): Promise<number> {
      const em = deps.orm.em.fork();
      const rollback = await em.findOneOrFail(PcdRollback, { id: rollbackId });
      if (rollback.preSnapshotId !== null) return rollback.preSnapshotId;
      const snapshot = await snapshots().takeSnapshot(rollback.databaseId, 'rollback', `Before rollback ${rollbackId} to snapshot ${rollback.snapshotId}`);
      if (!snapshot) throw new Error('database has no state to snapshot');
      const database = await em.findOneOrFail(PcdDatabase, { id: rollback.databaseId });
      rollback.preSnapshotId = snapshot.id;
      rollback.previousPinnedSnapshotId = database.pinnedSnapshotId;
      await em.flush();
      return snapshot.id;
    },

    /**
     * Step 3: restores the snapshot's op set in one transaction, recording what was undone and
     * reactivated in the same transaction (so a retry after a crash does not restore twice).
     */
    async rollbackRestoreOps(rollbackId: number): Promise<{ opsUndone: number[]; opsReactivated: number[] }> {
      const rollback = await record(rollbackId);
      if (rollback.step !== 'restore') return { opsUndone: rollback.opsUndone, opsReactivated: rollback.opsReactivated };
      const content = await snapshots().loadVerified(rollback.databaseId, rollback.snapshotId);
      const em = deps.orm.em.fork();
      return em.transactional(async (tx) => {
        const result = await restoreOpSet(tx, rollback.databaseId, rollbackId, content, rollback.snapshotId);
        await tx.nativeUpdate(PcdRollback, { id: rollbackId }, { step: 'rebuild', opsUndone: result.opsUndone, opsReactivated: result.opsReactivated });
        deps.logger.info({ databaseId: rollback.databaseId, rollbackId, undone: result.opsUndone.length, reactivated: result.opsReactivated.length }, 'rollback restored ops');
        return result;
      });
    },

    /** Step 4: rebuilds the cache (heartbeating) and returns its state hash. */
    async rollbackRebuildCache(rollbackId: number): Promise<string> {
      const rollback = await record(rollbackId);
      const ctx = Context.current();
      let lastBeat = 0;
      const cache = await deps.pcdCaches.build(rollback.databaseId, (progress) => {
        const now = Date.now();
        if (now - lastBeat > 1000 || progress.done === progress.total) {
          lastBeat = now;
          ctx.heartbeat(progress);
        }
      });
      const em = deps.orm.em.fork();
      const database = await em.findOneOrFail(PcdDatabase, { id: rollback.databaseId });
      database.cacheStatus = cache.health.status;
      database.cacheReason = cache.health.reason;
      database.cacheStats = cache.stats;
      await em.flush();
      return cacheStateHash(cache);
    },

    /** Step 5: the expected state hash (the snapshot's), or null when it recorded none. */
    async rollbackExpectedHash(rollbackId: number, target: 'snapshot' | 'pre'): Promise<string | null> {
      const rollback = await record(rollbackId);
      const id = target === 'snapshot' ? rollback.snapshotId : rollback.preSnapshotId;
      const snapshot = id === null ? null : await deps.orm.em.fork().findOne(PcdSnapshot, { id });
      return snapshot?.stateHash ?? null;
    },

    /** Puts the database back as it was before the rollback (restore of the pre-rollback snapshot). */
    async rollbackCompensate(rollbackId: number): Promise<void> {
      const rollback = await record(rollbackId);
      if (rollback.preSnapshotId === null) return;
      const content = await snapshots().loadVerified(rollback.databaseId, rollback.preSnapshotId);
      await restoreOpSet(deps.orm.em.fork(), rollback.databaseId, rollbackId, content, rollback.previousPinnedSnapshotId);
      deps.logger.warn({ databaseId: rollback.databaseId, rollbackId }, 'rollback compensated: the database is back at its pre-rollback state');
    },

    /** Step 6: the final record. */
    async rollbackFinish(rollbackId: number, status: 'success' | 'failed', error: string | null): Promise<void> {
      const em = deps.orm.em.fork();
      const rollback = await em.findOneOrFail(PcdRollback, { id: rollbackId });
      rollback.status = status;
      rollback.step = 'done';
      rollback.error = error?.slice(0, 500) ?? null;
      rollback.finishedAt = new Date();
      if (status === 'failed') {
        rollback.opsUndone = [];
        rollback.opsReactivated = [];
      }
      await em.flush();
      deps.logger.info({ databaseId: rollback.databaseId, rollbackId, status }, 'rollback finished');
    },
  };
}
