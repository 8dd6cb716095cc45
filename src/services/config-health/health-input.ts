import type { EntityManager } from '@mikro-orm/core';
import { desiredProfilesFrom, type HealthInput } from '../../domain/health';
import { profileCompatibility } from '../../domain/pcd';
import { readSyncSource, type SyncChange, type SyncIssue } from '../../domain/sync';
import { DriftResult, Instance, PcdDatabase, SERVABLE_CACHE_STATUSES } from '../../persistence/entities';
import type { PcdCacheManager } from '../pcd/cache-manager';
import { referenceAlignment } from '../ref-guide/alignment-service';
import { SyncConfigService } from '../sync/sync-config-service';

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
    const database = await em.findOne(PcdDatabase, { id: config.databaseId });
    if (database?.enabled && SERVABLE_CACHE_STATUSES.includes(database.cacheStatus)) {
      try {
        const cache = await caches.build(database.id);
        const source = cache.memo(`sync-source:${instance.arrType}:${JSON.stringify(config.selection)}`, () => readSyncSource(cache.resolved, instance.arrType, config.selection));
        const compatibility = cache.memo('profile-compatibility', () => profileCompatibility(cache.resolved));
        desired = { profiles: desiredProfilesFrom(source, compatibility), issues: (drift?.issues ?? []) as unknown as SyncIssue[], available: true };
        // The reference is extra evidence: a failure to read it leaves ref_alignment skipped, nothing else.
        reference = await referenceAlignment(em, database.id, source).catch(() => null);
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
