import { Context } from '@temporalio/activity';
import { isFailedDrift } from '../domain/drift';
import { driftEvent, driftTransition } from '../domain/notifications';
import type { OutboxEntry } from '../domain/outbox';
import { DriftResult, Instance } from '../persistence/entities';
import { runDriftCheck, runDriftChecks, type DriftDeps, type DriftOutcome, type StoredDriftCheck } from '../services/drift/drift-check';
import { DRIFT_STATE_KEY, readDriftJobState } from '../services/drift/drift-settings';
import { SettingsStore } from '../services/settings-store';
import type { ActivityDeps } from './deps';
import { progressHeartbeat, withHeartbeat } from './heartbeat';
import { notificationEntry } from './notify';
import { logFailure } from '../platform/logger';

/** What a polling run's check activity heartbeats: instances already stored, so a retry skips them. */
interface DriftBatchProgress {
  done: number[];
  failed: number[];
}

export function driftActivities(deps: ActivityDeps) {
  /**
   * The event of a drift check's transition (into drifted, missing, unreachable or unauthorized, or
   * back to in-sync), from the stored state before and after it; null when nothing alerts. The
   * check's workflow is read here, where the activity's context is current.
   */
  function transitionEvents(): (check: StoredDriftCheck) => OutboxEntry | null {
    const workflowId = Context.current().info.workflowExecution?.workflowId ?? null;
    return (check) => {
      const type = driftTransition(check.previous, check.stored);
      if (!type) return null;
      const instanceId = check.outcome.instanceId;
      return notificationEntry(
        deps,
        (links) =>
          driftEvent(links, type, {
            instanceId,
            instanceName: check.instance.name,
            arrType: check.instance.arrType,
            previousStatus: check.previous?.status ?? null,
            state: check.stored,
            reason: check.outcome.reason,
            checkedAt: check.checkedAt,
            workflowId,
          }),
        `instance:${instanceId}`,
      );
    };
  }

  const driftDeps = (): DriftDeps => ({
    em: deps.orm.em,
    secretBox: deps.secretBox,
    pcdCaches: deps.pcdCaches,
    timeoutMs: deps.config.appRequestTimeoutMs,
    logger: deps.logger,
    eventOf: transitionEvents(),
    outbox: deps.outbox,
  });

  return {
    async checkInstanceDrift(instanceId: number): Promise<DriftOutcome> {
      return withHeartbeat(
        () => ({ instanceId }),
        async () => (await runDriftCheck(driftDeps(), instanceId)).outcome,
      );
    },

    /**
     * A polling run's checks, `concurrency` apps at a time, in one activity (one child workflow
     * per instance cost more in Temporal bookkeeping than the check itself). Each stored result is
     * heartbeated, so a retried attempt (worker lost) checks only what is left. A check that
     * fails unexpectedly counts as failed and does not stop the others. Drift transitions are
     * published in batches. With `recordRun`, the run is recorded at the end (errorCount).
     */
    async checkInstancesDrift(input: { instanceIds: number[]; concurrency: number; recordRun?: boolean }): Promise<{ checked: number; failed: number; errorCount?: number }> {
      const ctx = Context.current();
      const resumed = ctx.info.heartbeatDetails as DriftBatchProgress | undefined;
      const done = new Set(resumed?.done ?? []);
      const failed = new Set(resumed?.failed ?? []);
      const { beat, stop } = progressHeartbeat(ctx, () => ({ done: [...done], failed: [...failed] }) satisfies DriftBatchProgress);
      const todo = input.instanceIds.filter((id) => !done.has(id));
      try {
        await runDriftChecks(driftDeps(), todo, {
          concurrency: input.concurrency,
          onChecked: (instanceId, result) => {
            done.add(instanceId);
            if ('error' in result) logFailure(deps.logger, 'warn', { instanceId }, result.error, 'drift check failed');
            if ('error' in result || isFailedDrift(result.outcome.status)) failed.add(instanceId);
            beat();
          },
        });
      } finally {
        stop();
      }
      deps.logger.info({ checked: input.instanceIds.length, failed: failed.size }, 'drift polling checks done');
      // Recorded here rather than by a local activity of the workflow afterwards: one step fewer.
      if (input.recordRun) return { checked: input.instanceIds.length, failed: failed.size, ...(await recordDriftRun()) };
      return { checked: input.instanceIds.length, failed: failed.size };
    },

    /**
     * Enabled instances due for a check (instances in backoff after repeated failures wait), and
     * how long the checks' activity may stay silent before another worker takes it over.
     */
    async listDriftTargets(): Promise<{ due: number[]; backingOff: number[]; heartbeatTimeoutMs: number }> {
      const now = new Date();
      const instances = await deps.orm.em.find(Instance, { enabled: true }, { orderBy: { id: 'asc' }, fields: ['id'] });
      const rows = new Map((await deps.orm.em.find(DriftResult, {}, { fields: ['instanceId', 'backoffUntil'] })).map((r) => [r.instanceId, r]));
      const due: number[] = [];
      const backingOff: number[] = [];
      for (const { id } of instances) {
        const until = rows.get(id)?.backoffUntil;
        (until && until > now ? backingOff : due).push(id);
      }
      return { due, backingOff, heartbeatTimeoutMs: deps.config.syncHeartbeatTimeoutSeconds * 1000 };
    },

    recordDriftRun,
  };

  /** Records a polling run: errorCount counts consecutive runs that left any instance failing. */
  async function recordDriftRun(): Promise<{ errorCount: number }> {
    const enabled = (await deps.orm.em.find(Instance, { enabled: true }, { fields: ['id'] })).map((i) => i.id);
    const failing = (await deps.orm.em.find(DriftResult, { instanceId: { $in: enabled } }, { fields: ['status'] })).some((r) => isFailedDrift(r.status));
    const state = await readDriftJobState(deps.orm.em);
    const next = { lastRunAt: new Date().toISOString(), errorCount: failing ? state.errorCount + 1 : 0 };
    await new SettingsStore(deps.orm.em).put(DRIFT_STATE_KEY, next);
    deps.logger.info(next, 'drift polling run recorded');
    return { errorCount: next.errorCount };
  }
}
