import type { EntityManager } from '@mikro-orm/core';
import { assertPointCap, buildTrend, parseTrendFilter, type HealthResult, type HealthSnapshotRow, type TrendEnvelope } from '../../domain/health';
import { notFound } from '../../errors';
import { HealthSnapshot, Instance, InstanceSyncConfig } from '../../persistence/entities';
import { loadInstance } from '../instances/instance-service';

/** The instance trends are about (404 when it does not exist or is not sync-capable). */
export async function healthInstance(em: EntityManager, instanceId: number): Promise<Instance> {
  const instance = await loadInstance(em, instanceId);
  if (!(await em.count(InstanceSyncConfig, { instanceId }))) throw notFound(`Instance ${instanceId} is not sync-capable: it has no sync configuration`);
  return instance;
}

/**
 * The canonical trend selection of an instance. The points are counted first, so a selection over
 * the cap is refused whole before any row is loaded.
 */
export async function trendSelection(
  em: EntityManager,
  instance: Instance,
  query: Record<string, unknown>,
  policy: { retentionDays: number; snapshotIntervalMinutes: number },
  now = new Date(),
): Promise<TrendEnvelope> {
  const filter = parseTrendFilter(query, now);
  const window = { instanceId: instance.id, generatedAt: { $lte: new Date(filter.to), ...(filter.from ? { $gte: new Date(filter.from) } : {}) } };
  assertPointCap(await em.count(HealthSnapshot, window));
  const snapshots = await em.find(HealthSnapshot, window, { orderBy: { generatedAt: 'asc', id: 'asc' } });
  const all = await em.find(HealthSnapshot, { instanceId: instance.id }, { fields: ['generatedAt'], orderBy: { generatedAt: 'asc' } });
  return buildTrend({
    instance: { instanceId: instance.id, instanceName: instance.name, arrType: instance.arrType },
    rows: snapshots.map(toRow),
    filter,
    retention: {
      policy,
      availability: {
        oldestSnapshotAt: all[0]?.generatedAt.toISOString() ?? null,
        newestSnapshotAt: all.at(-1)?.generatedAt.toISOString() ?? null,
        totalSnapshots: all.length,
      },
    },
  });
}

/** The latest recorded result of an instance (404 when none). */
export async function latestHealth(em: EntityManager, instanceId: number): Promise<HealthResult> {
  const latest = await em.findOne(HealthSnapshot, { instanceId, evidenceRecorded: true }, { orderBy: { generatedAt: 'desc', id: 'desc' } });
  if (!latest?.result) throw notFound(`Instance ${instanceId} has no health snapshot yet`);
  return latest.result as unknown as HealthResult;
}

function toRow(snapshot: HealthSnapshot): HealthSnapshotRow {
  return {
    snapshotId: snapshot.id,
    instanceId: snapshot.instanceId,
    generatedAt: snapshot.generatedAt.toISOString(),
    engineVersion: snapshot.engineVersion,
    result: snapshot.result as unknown as HealthResult | null,
    evidenceRecorded: snapshot.evidenceRecorded,
  };
}
