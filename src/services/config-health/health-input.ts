import type { EntityManager } from '@mikro-orm/core';
import { desiredProfilesFrom, type HealthInput } from '../../domain/health';
import { profileCompatibility } from '../../domain/pcd';
import { type SyncChange, type SyncIssue } from '../../domain/sync';
import { DriftResult, Instance, PcdDatabase, SERVABLE_CACHE_STATUSES } from '../../persistence/entities';
import type { PcdCacheManager } from '../pcd/cache-manager';
import { referenceAlignment } from '../ref-guide/alignment-service';
import { SyncConfigService } from '../sync/sync-config-service';
import { configuredSyncSource } from '../sync/sync-source';

/**
 * Everything health scoring needs, from stored state only (no app I/O): the instance, its
 * selection, the desired state from the resolved PCD, and the last drift check.
 */
export async function assembleHealthInput(em: EntityManager, caches: PcdCacheManager, instance: Instance, now: Date): Promise<HealthInput> {
  const config = await new SyncConfigService(em, caches).find(instance.id);
  const drift = await em.findOne(DriftResult, { instanceId: instance.id });
  let desired: HealthInput['desired'] = { profiles: [], issues: [], available: false };
  let reference: HealthInput['reference'] = null;
  if (config) {
    const rows = new Map((await em.find(PcdDatabase, { id: { $in: config.databases.map((d) => d.databaseId) } })).map((d) => [d.id, d]));
    const databases = config.databases.map((entry) => ({ ...entry, row: rows.get(entry.databaseId) }));
    if (databases.every(({ row }) => row?.enabled && SERVABLE_CACHE_STATUSES.includes(row.cacheStatus))) {
      try {
        const { source } = await configuredSyncSource(caches, instance.arrType, databases.map(({ databaseId, selection, row }) => ({ databaseId, databaseName: row!.name, selection, stored: row })));
        // A profile's compatibility is its own database's: the earliest database that has the name.
        const compatibility: ReturnType<typeof profileCompatibility> = [];
        for (const { databaseId } of [...databases].reverse()) {
          const cache = await caches.build(databaseId);
          compatibility.push(...cache.memo('profile-compatibility', () => profileCompatibility(cache.resolved)));
        }
        desired = { profiles: desiredProfilesFrom(source, compatibility), issues: (drift?.issues ?? []) as unknown as SyncIssue[], available: true };
        // The reference is extra evidence (the first database's): a failure to read it leaves ref_alignment skipped, nothing else.
        reference = await referenceAlignment(em, config.databaseId, source).catch(() => null);
      } catch {
        desired = { profiles: [], issues: [], available: false };
      }
    }
  }
  return {
    instance: { instanceId: instance.id, instanceName: instance.name, arrType: instance.arrType, enabled: instance.enabled },
    selection: config?.selection ?? null,
    desired,
    drift: drift
      ? {
          status: drift.status,
          reason: drift.reason,
          detectedVersion: drift.detectedVersion,
          contentCheckedAt: drift.contentCheckedAt?.toISOString() ?? null,
          drift: drift.drift as unknown as SyncChange[],
          missing: drift.missing as unknown as SyncChange[],
          unmanaged: drift.unmanaged as unknown as SyncChange[],
          managedTotal: drift.managedTotal,
        }
      : null,
    reference,
    now: now.toISOString(),
  };
}
