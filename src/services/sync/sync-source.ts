import type { ArrType } from '../../domain/arr-types';
import { mergeSyncSources, readSyncSource, scopeIdentities, type MergedSource, type SyncSelection, type SyncSource } from '../../domain/sync';
import type { PcdDatabase } from '../../persistence/entities';
import { probe } from '../../platform/profiling';
import type { PcdCache, PcdCacheManager } from '../pcd/cache-manager';

/** What one instance syncs, read once per cache build and selection (drift, health and sync share it). */
export function cachedSyncSource(cache: PcdCache, arrType: ArrType, selection: SyncSelection): SyncSource {
  return cache.memo(`sync-source:${arrType}:${JSON.stringify(selection)}`, () => probe('transform', 'readSyncSource', () => readSyncSource(cache.resolved, arrType, selection)));
}

/** One database of an instance's configuration, with its stored versions when already read. */
export interface SourceDatabase {
  databaseId: number;
  databaseName: string;
  selection: SyncSelection;
  stored?: Pick<PcdDatabase, 'contentVersion' | 'userVersion'>;
}

/**
 * What an instance syncs from all of its databases, merged in order (src/domain/sync/merge.ts):
 * each database's source is the cached one, scoped to its database (identities), so only the
 * scoping and the merge are per instance.
 */
export async function configuredSyncSource(caches: PcdCacheManager, arrType: ArrType, databases: readonly SourceDatabase[]): Promise<MergedSource> {
  const built = await Promise.all(databases.map((d) => caches.build(d.databaseId, undefined, d.stored)));
  return mergeSyncSources(databases.map((d, i) => ({ databaseId: d.databaseId, databaseName: d.databaseName, selection: d.selection, source: scopeIdentities(cachedSyncSource(built[i], arrType, d.selection), d.databaseId) })));
}
