import type { ArrType } from '../../domain/arr-types';
import { readSyncSource, type SyncSelection, type SyncSource } from '../../domain/sync';
import { probe } from '../../platform/profiling';
import type { PcdCache } from '../pcd/cache-manager';

/** What one instance syncs, read once per cache build and selection (drift, health and sync share it). */
export function cachedSyncSource(cache: PcdCache, arrType: ArrType, selection: SyncSelection): SyncSource {
  return cache.memo(`sync-source:${arrType}:${JSON.stringify(selection)}`, () => probe('transform', 'readSyncSource', () => readSyncSource(cache.resolved, arrType, selection)));
}
