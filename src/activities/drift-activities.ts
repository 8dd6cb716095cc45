import { Context } from '@temporalio/activity';
import { isFailedDrift } from '../domain/drift';
import { driftEvent, driftTransition } from '../domain/notifications';
import { DriftResult, Instance } from '../persistence/entities';
import { runDriftCheck, runDriftChecks, type DriftDeps, type DriftOutcome } from '../services/drift/drift-check';
import { DRIFT_STATE_KEY, readDriftJobState } from '../services/drift/drift-settings';
import { SettingsStore } from '../services/settings-store';
import type { ActivityDeps } from './deps';
import { notify } from './notify';

/** What a polling run's check activity heartbeats: instances already stored, so a retry skips them. */
interface DriftBatchProgress {
  done: number[];
  failed: number[];
}

/** Heartbeats go out at least this often while checks wait on slow apps (and thrice per timeout). */
const HEARTBEAT_EVERY_MS = 10_000;

export function driftActivities(deps: ActivityDeps) {
  /** A transition into drifted, missing, unreachable or unauthorized (or back to in-sync) is an event. */
  async function notifyDriftTransition(instanceId: number, previous: { status: string; counts: DriftResult['counts'] } | null): Promise<void> {
    const row = await deps.orm.em.fork().findOne(DriftResult, { instanceId });
    const instance = await deps.orm.em.fork().findOne(Instance, { id: instanceId }, { fields: ['name', 'arrType'] });
    if (!row || !instance) return;
    const type = driftTransition(previous, { status: row.status, counts: row.counts });
    if (!type) return;
    const workflowId = Context.current().info.workflowExecution?.workflowId ?? null;
    await notify(
      deps,
      (links) =>
        driftEvent(links, type, {
          instanceId,
          instanceName: instance.name,
          arrType: instance.arrType,
          previousStatus: previous?.status ?? null,
          state: { status: row.status, counts: row.counts },
          reason: row.reason,
          checkedAt: row.checkedAt,
          workflowId,
        }),
      `instance:${instanceId}`,
    );
  }

  const driftDeps = (): DriftDeps => ({ em: deps.orm.em, secretBox: deps.secretBox, pcdCaches: deps.pcdCaches, timeoutMs: deps.config.appRequestTimeoutMs, logger: deps.logger });

  /** The stored {status, counts} of these instances, before their checks: what a transition starts from. */
  async function storedStates(instanceIds: number[]): Promise<Map<number, { status: string; counts: DriftResult['counts'] }>> {
    if (!instanceIds.length) return new Map();
    const rows = await deps.orm.em.fork().find(DriftResult, { instanceId: { $in: instanceIds } }, { fields: ['instanceId', 'status', 'counts'] });
    return new Map(rows.map((r) => [r.instanceId, { status: r.status, counts: r.counts }]));
  }

  /** Only a change of status (or of a drifted instance's changed/missing entries) can be a transition. */
  const mayHaveMoved = (previous: { status: string } | undefined, outcome: DriftOutcome) => previous?.status !== outcome.status || outcome.status === 'drifted';

  return {
    async checkInstanceDrift(instanceId: number): Promise<DriftOutcome> {
      const previous = (await storedStates([instanceId])).get(instanceId);
      const outcome = await runDriftCheck(driftDeps(), instanceId);
      if (mayHaveMoved(previous, outcome)) await notifyDriftTransition(instanceId, previous ?? null);
      return outcome;
    },

    /**
     * A polling run's checks, `concurrency` at a time, in one activity (one child workflow per
     * instance cost more in Temporal bookkeeping than the check itself). Each stored result is
     * heartbeated, so a retried attempt (worker lost) checks only what is left. A check that
     * fails unexpectedly counts as failed and does not stop the others.
     */
    async checkInstancesDrift(input: { instanceIds: number[]; concurrency: number }): Promise<{ checked: number; failed: number }> {
      const ctx = Context.current();
      const resumed = ctx.info.heartbeatDetails as DriftBatchProgress | undefined;
      const done = new Set(resumed?.done ?? []);
      const failed = new Set(resumed?.failed ?? []);
      const beat = () => ctx.heartbeat({ done: [...done], failed: [...failed] } satisfies DriftBatchProgress);
      const timer = setInterval(beat, Math.max(200, Math.min(HEARTBEAT_EVERY_MS, (ctx.info.heartbeatTimeoutMs ?? HEARTBEAT_EVERY_MS * 3) / 3)));
      const todo = input.instanceIds.filter((id) => !done.has(id));
      const previous = await storedStates(todo);
      const notifications: Promise<void>[] = [];
      try {
        await runDriftChecks(driftDeps(), todo, {
          concurrency: input.concurrency,
          onChecked: (instanceId, result) => {
            done.add(instanceId);
            if ('error' in result) deps.logger.warn({ instanceId, err: result.error }, 'drift check failed');
            if ('error' in result || isFailedDrift(result.outcome.status)) failed.add(instanceId);
            if (!('error' in result) && mayHaveMoved(previous.get(instanceId), result.outcome)) notifications.push(notifyDriftTransition(instanceId, previous.get(instanceId) ?? null));
            beat();
          },
        });
      } finally {
        clearInterval(timer);
        await Promise.all(notifications);
      }
      deps.logger.info({ checked: input.instanceIds.length, failed: failed.size }, 'drift polling checks done');
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

    /** Records a polling run: errorCount counts consecutive runs that left any instance failing. */
    async recordDriftRun(): Promise<{ errorCount: number }> {
      const enabled = (await deps.orm.em.find(Instance, { enabled: true }, { fields: ['id'] })).map((i) => i.id);
      const failing = (await deps.orm.em.find(DriftResult, { instanceId: { $in: enabled } }, { fields: ['status'] })).some((r) => isFailedDrift(r.status));
      const state = await readDriftJobState(deps.orm.em);
      const next = { lastRunAt: new Date().toISOString(), errorCount: failing ? state.errorCount + 1 : 0 };
      await new SettingsStore(deps.orm.em).put(DRIFT_STATE_KEY, next);
      deps.logger.info(next, 'drift polling run recorded');
      return { errorCount: next.errorCount };
    },
  };
}
