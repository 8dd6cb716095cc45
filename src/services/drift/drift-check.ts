import type { EntityManager } from '@mikro-orm/core';
import { createArrClient } from '../../clients/arr-client';
import { AppRequestError } from '../../clients/http';
import { backoffUntil, driftFailure, isFailedDrift, type DriftReason, type StoredDriftStatus } from '../../domain/drift';
import { appSections, classifyDrift, liveNeeds, planSync, type SyncChange, type SyncIssue } from '../../domain/sync';
import type { SecretBox } from '../../platform/crypto';
import type { Logger } from '../../platform/logger';
import { probe } from '../../platform/profiling';
import { DriftResult, Instance, PcdDatabase, SERVABLE_CACHE_STATUSES } from '../../persistence/entities';
import { InstanceService } from '../instances/instance-service';
import type { PcdCacheManager } from '../pcd/cache-manager';
import { readLiveState } from '../sync/live-state';
import { SyncConfigService } from '../sync/sync-config-service';
import { readDriftSettings } from './drift-settings';
import { cachedSyncSource } from '../sync/sync-source';

export interface DriftDeps {
  em: EntityManager;
  secretBox: SecretBox;
  pcdCaches: PcdCacheManager;
  timeoutMs: number;
  logger: Logger;
}

export interface DriftOutcome {
  instanceId: number;
  status: StoredDriftStatus;
  reason: DriftReason | null;
}

/**
 * Reads the instance's live state, compares desired against live with the sync diff engine, and
 * stores the result (one row per instance). Failures are stored as statuses with a sanitized
 * reason; the last content comparison is kept when the app cannot be read.
 */
export async function runDriftCheck(deps: DriftDeps, instanceId: number): Promise<DriftOutcome> {
  const { em } = deps;
  const instance = await em.findOneOrFail(Instance, { id: instanceId });
  const row = (await em.findOne(DriftResult, { instanceId })) ?? em.create(DriftResult, emptyRow(instanceId));
  const now = new Date();
  const settings = await readDriftSettings(em);
  const store = async (
    status: StoredDriftStatus,
    reason: DriftReason | null,
    content?: { drift: SyncChange[]; missing: SyncChange[]; unmanaged: SyncChange[]; managedTotal: number; issues: SyncIssue[] },
  ) => {
    row.status = status;
    row.reason = reason;
    row.checkedAt = now;
    if (content) {
      row.contentCheckedAt = now;
      row.drift = content.drift as unknown as Record<string, unknown>[];
      row.missing = content.missing as unknown as Record<string, unknown>[];
      row.unmanaged = content.unmanaged as unknown as Record<string, unknown>[];
      row.counts = { drifted: content.drift.length, missing: content.missing.length, unmanaged: content.unmanaged.length };
      row.managedTotal = content.managedTotal;
      row.issues = content.issues as unknown as Record<string, unknown>[];
    }
    row.failureStreak = isFailedDrift(status) ? row.failureStreak + 1 : 0;
    row.backoffUntil = backoffUntil(row.failureStreak, settings.intervalMinutes * 60_000, now);
    await em.flush();
    deps.logger.info({ instanceId, status, reason, counts: row.counts }, 'drift check stored');
    return { instanceId, status, reason };
  };

  const config = await new SyncConfigService(em, deps.pcdCaches).find(instanceId);
  if (!config) return store('error', 'not_configured');
  const database = await em.findOne(PcdDatabase, { id: config.databaseId });
  if (!database || !SERVABLE_CACHE_STATUSES.includes(database.cacheStatus) || !database.enabled) return store('error', 'cache_not_ready');
  let cache;
  try {
    cache = await deps.pcdCaches.build(database.id);
  } catch {
    return store('error', 'cache_not_ready');
  }
  const connection = await new InstanceService(em, deps.secretBox).connection(instanceId);
  const client = createArrClient(connection, deps.timeoutMs);
  try {
    row.detectedVersion = (await client.systemStatus()).version;
  } catch (error) {
    if (!(error instanceof AppRequestError)) throw error;
    const failed = driftFailure(error.failure, error.status);
    return store(failed.status, failed.reason);
  }
  const sections = appSections(instance.arrType);
  const { live, failures } = await readLiveState(client, liveNeeds(instance.arrType, config.selection, sections));
  const firstFailure = Object.values(failures)[0];
  if (firstFailure) {
    const failed = driftFailure(firstFailure);
    return store(failed.status, failed.reason);
  }
  const source = cachedSyncSource(cache, instance.arrType, config.selection);
  const planned = probe('transform', 'planSync', () => planSync({ arrType: instance.arrType, selection: config.selection, source, live, sections }));
  const classified = classifyDrift(planned.preview);
  const managedTotal = countManaged(planned.preview);
  return store(classified.inSync ? 'in-sync' : 'drifted', null, { ...classified, managedTotal, issues: planned.preview.issues });
}

function countManaged(preview: ReturnType<typeof planSync>['preview']): number {
  const changes: SyncChange[] = [
    ...(preview.qualityProfiles ? [...preview.qualityProfiles.customFormats, ...preview.qualityProfiles.qualityProfiles] : []),
    ...(preview.delayProfiles ? [preview.delayProfiles.profile] : []),
    ...(preview.mediaManagement ? [preview.mediaManagement.naming, preview.mediaManagement.mediaSettings, ...preview.mediaManagement.qualityDefinitions].filter((c): c is SyncChange => c !== null) : []),
    ...(preview.metadataProfiles ? [preview.metadataProfiles.profile] : []),
  ];
  return changes.filter((c) => c.category !== 'unmanaged').length;
}

function emptyRow(instanceId: number): DriftResult {
  return {
    instanceId,
    status: 'error',
    reason: null,
    detectedVersion: null,
    checkedAt: new Date(),
    contentCheckedAt: null,
    counts: { drifted: 0, missing: 0, unmanaged: 0 },
    drift: [],
    missing: [],
    unmanaged: [],
    managedTotal: 0,
    issues: [],
    failureStreak: 0,
    backoffUntil: null,
  };
}
