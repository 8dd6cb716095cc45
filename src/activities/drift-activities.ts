import { Context } from '@temporalio/activity';
import { isFailedDrift } from '../domain/drift';
import { driftEvent, driftTransition } from '../domain/notifications';
import { DriftResult, Instance } from '../persistence/entities';
import { runDriftCheck, type DriftOutcome } from '../services/drift/drift-check';
import { DRIFT_STATE_KEY, readDriftJobState } from '../services/drift/drift-settings';
import { SettingsStore } from '../services/settings-store';
import type { ActivityDeps } from './deps';
import { notify } from './notify';

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

  return {
    async checkInstanceDrift(instanceId: number): Promise<DriftOutcome> {
      const before = await deps.orm.em.fork().findOne(DriftResult, { instanceId }, { fields: ['status', 'counts'] });
      const previous = before ? { status: before.status, counts: before.counts } : null;
      const outcome = await runDriftCheck(
        { em: deps.orm.em, secretBox: deps.secretBox, pcdCaches: deps.pcdCaches, timeoutMs: deps.config.appRequestTimeoutMs, logger: deps.logger },
        instanceId,
      );
      // Only a change of status (or of a drifted instance's changed/missing entries) can be a transition.
      if (previous?.status !== outcome.status || outcome.status === 'drifted') await notifyDriftTransition(instanceId, previous);
      return outcome;
    },

    /** Enabled instances due for a check (instances in backoff after repeated failures wait). */
    async listDriftTargets(): Promise<{ due: number[]; backingOff: number[] }> {
      const now = new Date();
      const instances = await deps.orm.em.find(Instance, { enabled: true }, { orderBy: { id: 'asc' }, fields: ['id'] });
      const rows = new Map((await deps.orm.em.find(DriftResult, {}, { fields: ['instanceId', 'backoffUntil'] })).map((r) => [r.instanceId, r]));
      const due: number[] = [];
      const backingOff: number[] = [];
      for (const { id } of instances) {
        const until = rows.get(id)?.backoffUntil;
        (until && until > now ? backingOff : due).push(id);
      }
      return { due, backingOff };
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
