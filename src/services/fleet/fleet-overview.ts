import type { EntityManager } from '@mikro-orm/core';
import type { ArrType } from '../../domain/arr-types';
import type { StatusReasonCode } from '../../domain/canary/status-reason';
import { DRIFT_STATUSES, type DriftStatusValue } from '../../domain/drift';
import { HEALTH_BANDS, type HealthBand } from '../../domain/health/types';
import type { VerificationStatus } from '../../domain/instance-verification';
import { temporalLink } from '../../domain/notifications/links';
import type { SyncRunStatus } from '../../domain/sync';
import { CanaryRollout, DriftResult, HealthSnapshot, Instance, SyncRun } from '../../persistence/entities';
import { gateReachedAt } from '../canary/gate-wait';
import type { ServiceDeps } from '../deps';
import { linkContext } from '../notifications/publisher';
import { SYNC_RUN_STATUSES } from '../sync/history-service';

/** Instances in one overview (by name); `instancesTotal` says how many exist. */
export const FLEET_OVERVIEW_INSTANCES_MAX = 500;
/** Rollouts waiting at the gate in one overview (the longest-waiting first). */
export const FLEET_OVERVIEW_GATE_MAX = 50;
/** Recent failures in one overview (the newest first). */
export const FLEET_OVERVIEW_FAILURES_MAX = 10;

/** Rollout ends counted as failures: a canary or targets that failed; not the operator's abort or an in-sync canary. */
const FAILED_ROLLOUT_REASONS: StatusReasonCode[] = ['canary_failed', 'canary_partial', 'canary_unverified', 'targets_failed'];

export interface FleetInstance {
  id: number;
  name: string;
  arrType: ArrType;
  enabled: boolean;
  version: string | null;
  verification: VerificationStatus;
  drift: { status: DriftStatusValue; checkedAt: string | null; counts: { drifted: number; missing: number; unmanaged: number } | null };
  health: { band: HealthBand; score: number | null; generatedAt: string } | null;
  lastSync: { runId: number; status: SyncRunStatus; trigger: string; startedAt: string; finishedAt: string | null; error: string | null; workflowUrl: string | null } | null;
}

export interface GateWait {
  rolloutId: number;
  arrType: ArrType;
  canaryInstanceId: number;
  canaryInstanceName: string;
  targetCount: number;
  waitingSince: string;
  waitedSeconds: number;
  workflowUrl: string | null;
}

export interface RecentFailure {
  kind: 'sync' | 'rollout';
  /** The sync run's or the rollout's id. */
  id: number;
  instanceId: number | null;
  instanceName: string;
  status: string;
  /** The rollout's reason code; null for sync runs. */
  code: string | null;
  /** Pre-authored text (the run's error, the rollout's reason). */
  message: string | null;
  at: string;
  workflowUrl: string | null;
}

export interface FleetOverview {
  generatedAt: string;
  instancesTotal: number;
  instances: FleetInstance[];
  counts: {
    enabled: number;
    disabled: number;
    drift: Record<DriftStatusValue, number>;
    health: Record<HealthBand | 'none', number>;
    lastSync: Record<SyncRunStatus | 'never', number>;
  };
  gate: GateWait[];
  recentFailures: RecentFailure[];
}

type Deps = Pick<ServiceDeps, 'orm' | 'config'> & { temporalUiUrl: string | null };

/**
 * The dashboard in one read: every instance (bounded) with its version, drift status, health band
 * and last sync; counts over them; rollouts waiting at the gate; the newest failures. A fixed
 * number of statements, whatever the fleet's size.
 */
export async function readFleetOverview(deps: Deps, now = new Date()): Promise<FleetOverview> {
  const em = deps.orm.em.fork();
  const link = (workflowId: string | null) => temporalLink(linkContext(deps.config, deps.temporalUiUrl), workflowId);

  const [instancesTotal, instances] = await Promise.all([
    em.count(Instance, {}),
    em.find(Instance, {}, { orderBy: { name: 'asc', id: 'asc' }, limit: FLEET_OVERVIEW_INSTANCES_MAX }),
  ]);
  const ids = instances.map((i) => i.id);
  const [drift, latest] = await Promise.all([
    ids.length ? em.find(DriftResult, { instanceId: { $in: ids } }, { fields: ['instanceId', 'status', 'checkedAt', 'counts', 'detectedVersion'] }) : [],
    latestRows(em, ids),
  ]);
  const [health, runs] = await Promise.all([
    latest.healthIds.length ? em.find(HealthSnapshot, { id: { $in: latest.healthIds } }, { fields: ['id', 'instanceId', 'band', 'score', 'generatedAt'] }) : [],
    latest.runIds.length
      ? em.find(SyncRun, { id: { $in: latest.runIds } }, { fields: ['id', 'instanceId', 'status', 'trigger', 'startedAt', 'finishedAt', 'error', 'workflowId'] })
      : [],
  ]);
  const driftOf = new Map(drift.map((d) => [d.instanceId, d]));
  const healthOf = new Map(health.map((h) => [h.instanceId, h]));
  const runOf = new Map(runs.map((r) => [r.instanceId, r]));

  const counts: FleetOverview['counts'] = {
    enabled: 0,
    disabled: 0,
    drift: zeroes(DRIFT_STATUSES),
    health: zeroes([...HEALTH_BANDS, 'none'] as const),
    lastSync: zeroes([...SYNC_RUN_STATUSES, 'never'] as const),
  };
  const rows = instances.map((instance): FleetInstance => {
    const d = driftOf.get(instance.id);
    const h = healthOf.get(instance.id);
    const r = runOf.get(instance.id);
    // The newer of the two checks that read the app's version.
    const driftIsNewer = d?.detectedVersion && (!instance.verificationCheckedAt || d.checkedAt > instance.verificationCheckedAt);
    const row: FleetInstance = {
      id: instance.id,
      name: instance.name,
      arrType: instance.arrType,
      enabled: instance.enabled,
      version: driftIsNewer ? d.detectedVersion : (instance.verificationAppVersion ?? d?.detectedVersion ?? null),
      verification: instance.verificationStatus,
      drift: d ? { status: d.status, checkedAt: d.checkedAt.toISOString(), counts: { ...d.counts } } : { status: 'never-checked', checkedAt: null, counts: null },
      health: h ? { band: h.band as HealthBand, score: h.score, generatedAt: h.generatedAt.toISOString() } : null,
      lastSync: r
        ? { runId: r.id, status: r.status, trigger: r.trigger, startedAt: r.startedAt.toISOString(), finishedAt: r.finishedAt?.toISOString() ?? null, error: r.error, workflowUrl: link(r.workflowId) }
        : null,
    };
    counts[row.enabled ? 'enabled' : 'disabled'] += 1;
    counts.drift[row.drift.status] += 1;
    counts.health[row.health?.band ?? 'none'] += 1;
    counts.lastSync[row.lastSync?.status ?? 'never'] += 1;
    return row;
  });

  return {
    generatedAt: now.toISOString(),
    instancesTotal,
    instances: rows,
    counts,
    gate: await gateWaits(em, now, link),
    recentFailures: await recentFailures(em, link),
  };
}

function zeroes<K extends string>(keys: readonly K[]): Record<K, number> {
  return Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;
}

/** Each instance's newest health snapshot and sync run, by index lookups (one statement). */
async function latestRows(em: EntityManager, ids: number[]): Promise<{ healthIds: number[]; runIds: number[] }> {
  if (!ids.length) return { healthIds: [], runIds: [] };
  const rows: { health_id: number | null; run_id: number | null }[] = await em.getConnection().execute(
    `select
       (select h.id from health_snapshots h where h.instance_id = i.id order by h.generated_at desc, h.id desc limit 1) as health_id,
       (select r.id from sync_runs r where r.instance_id = i.id order by r.started_at desc, r.id desc limit 1) as run_id
     from instances i
     where i.id in (${ids.map(() => '?').join(', ')})`,
    ids,
  );
  const present = (values: (number | null)[]) => values.filter((v): v is number => v !== null).map(Number);
  return { healthIds: present(rows.map((r) => r.health_id)), runIds: present(rows.map((r) => r.run_id)) };
}

async function gateWaits(em: EntityManager, now: Date, link: (workflowId: string | null) => string | null): Promise<GateWait[]> {
  const waiting = await em.find(CanaryRollout, { status: 'awaiting_confirmation' }, { orderBy: { id: 'asc' }, limit: FLEET_OVERVIEW_GATE_MAX });
  const reached = await gateReachedAt(em, waiting);
  return waiting
    .map((r) => {
      const since = reached.get(r.id)!;
      return {
        rolloutId: r.id,
        arrType: r.arrType,
        canaryInstanceId: r.canaryInstanceId,
        canaryInstanceName: r.canaryInstanceName,
        targetCount: r.targets.length,
        waitingSince: since.toISOString(),
        waitedSeconds: Math.max(0, Math.round((now.getTime() - since.getTime()) / 1000)),
        workflowUrl: link(r.workflowId),
      };
    })
    .sort((a, b) => b.waitedSeconds - a.waitedSeconds || a.rolloutId - b.rolloutId);
}

async function recentFailures(em: EntityManager, link: (workflowId: string | null) => string | null): Promise<RecentFailure[]> {
  const limit = FLEET_OVERVIEW_FAILURES_MAX;
  const [runs, rollouts] = await Promise.all([
    em.find(SyncRun, { status: { $in: ['failed', 'partial'] } }, { orderBy: { startedAt: 'desc', id: 'desc' }, limit }),
    em.find(CanaryRollout, { status: { $in: ['failed', 'aborted'] }, statusReasonCode: { $in: FAILED_ROLLOUT_REASONS } }, { orderBy: { updatedAt: 'desc', id: 'desc' }, limit }),
  ]);
  const failures: RecentFailure[] = [
    ...runs.map((r) => ({
      kind: 'sync' as const,
      id: r.id,
      instanceId: r.instanceId,
      instanceName: r.instanceName,
      status: r.status,
      code: null,
      message: r.error,
      at: (r.finishedAt ?? r.startedAt).toISOString(),
      workflowUrl: link(r.workflowId),
    })),
    ...rollouts.map((r) => ({
      kind: 'rollout' as const,
      id: r.id,
      instanceId: r.canaryInstanceId,
      instanceName: r.canaryInstanceName,
      status: r.status,
      code: r.statusReasonCode,
      message: r.statusReason,
      at: (r.finishedAt ?? r.updatedAt).toISOString(),
      workflowUrl: link(r.workflowId),
    })),
  ];
  return failures.sort((a, b) => b.at.localeCompare(a.at) || b.id - a.id).slice(0, limit);
}
