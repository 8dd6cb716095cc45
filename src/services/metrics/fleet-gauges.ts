import type { EntityManager } from '@mikro-orm/core';
import type { FleetGauges } from '../../platform/metrics';
import { CanaryRollout, DriftResult, Instance } from '../../persistence/entities';
import { gateReachedAt } from '../canary/gate-wait';
import { readOutboxBacklog } from '../outbox/outbox-store';

const ROLLOUT_STATUSES = ['canary_running', 'awaiting_confirmation', 'rolling_out', 'completed', 'aborted', 'failed'];
const DRIFT_STATUSES = ['in-sync', 'drifted', 'unreachable', 'unauthorized', 'error', 'never-checked'];

/**
 * The fleet gauges of /metrics, read from the application database at scrape time: instances by
 * drift status, rollouts by status, and how long the longest-waiting rollout has been at the gate
 * (since its gate event, or its last update when it reached the gate before notifications existed),
 * and the outbox's backlog.
 */
export async function readFleetGauges(em: EntityManager, now = new Date()): Promise<FleetGauges> {
  const instances = await em.find(Instance, {}, { fields: ['id'] });
  const results = new Map((await em.find(DriftResult, {}, { fields: ['instanceId', 'status'] })).map((r) => [r.instanceId, r.status as string]));
  const instancesByDriftStatus = Object.fromEntries(DRIFT_STATUSES.map((s) => [s, 0]));
  for (const { id } of instances) instancesByDriftStatus[results.get(id) ?? 'never-checked'] += 1;

  const rolloutsByStatus = Object.fromEntries(ROLLOUT_STATUSES.map((s) => [s, 0]));
  const rollouts = await em.find(CanaryRollout, {}, { fields: ['id', 'status', 'updatedAt'] });
  for (const r of rollouts) rolloutsByStatus[r.status] = (rolloutsByStatus[r.status] ?? 0) + 1;

  const reached = await gateReachedAt(em, rollouts.filter((r) => r.status === 'awaiting_confirmation'));
  let gateWaitMaxSeconds = 0;
  for (const at of reached.values()) gateWaitMaxSeconds = Math.max(gateWaitMaxSeconds, (now.getTime() - at.getTime()) / 1000);
  return { instancesByDriftStatus, rolloutsByStatus, gateWaitMaxSeconds, outbox: await readOutboxBacklog(em, now.getTime()) };
}
