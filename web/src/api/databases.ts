import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from './client';
import type { ArrType, Database, DatabaseCreate } from './types';

export const databaseKeys = {
  all: ['databases'] as const,
  one: (id: number) => ['databases', id] as const,
  pull: (id: number) => ['databases', id, 'pull'] as const,
  resolvedNames: (databaseId: number, entityType: string, arrType: ArrType | null) => ['databases', databaseId, 'resolved', entityType, arrType] as const,
  profileCompatibility: (databaseId: number) => ['databases', databaseId, 'profile-compatibility'] as const,
};

/** A database whose cache is being built is pulling (or waits for its first pull): read it again soon. */
export function isPulling(database: Pick<Database, 'cache'>): boolean {
  return database.cache.status === 'pending' || database.cache.status === 'building';
}

const PULL_POLL_MS = 1_000;

export function useDatabases() {
  return useQuery({
    queryKey: databaseKeys.all,
    queryFn: () => unwrap(api.GET('/api/v1/databases')),
    refetchInterval: (query) => (query.state.data?.some(isPulling) ? PULL_POLL_MS : false),
  });
}

export function useDatabase(id: number) {
  return useQuery({
    queryKey: databaseKeys.one(id),
    queryFn: () => unwrap(api.GET('/api/v1/databases/{id}', { params: { path: { id } } })),
    refetchInterval: (query) => (query.state.data && isPulling(query.state.data) ? PULL_POLL_MS : false),
  });
}

/** The database's pull workflow: its step and the replay's progress; polled while it runs (or the database says it is pulling). */
export function usePullState(id: number, pulling: boolean) {
  return useQuery({
    queryKey: databaseKeys.pull(id),
    queryFn: () => unwrap(api.GET('/api/v1/databases/{id}/pull', { params: { path: { id } } })),
    refetchInterval: (query) => (pulling || query.state.data?.running ? PULL_POLL_MS : false),
  });
}

/** Lists, the database and its pull read again after a change. */
function useDatabasesChanged() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: databaseKeys.all });
}

/** Links a database; the API starts its first pull at once. */
export function useLinkDatabase() {
  const changed = useDatabasesChanged();
  return useMutation({ mutationFn: (body: DatabaseCreate) => unwrap(api.POST('/api/v1/databases', { body })), onSuccess: changed });
}

/** Starts (or joins) a pull without waiting: the page follows it through usePullState. */
export function usePullDatabase(id: number) {
  const changed = useDatabasesChanged();
  return useMutation({ mutationFn: () => unwrap(api.POST('/api/v1/databases/{id}/pull', { params: { path: { id } } })), onSuccess: changed });
}

export function useUnlinkDatabase() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => unwrap(api.DELETE('/api/v1/databases/{id}', { params: { path: { id } } })),
    onSuccess: (_data, id) => {
      queryClient.removeQueries({ queryKey: databaseKeys.one(id) });
      return queryClient.invalidateQueries({ queryKey: databaseKeys.all, exact: true });
    },
  });
}

type ResolvedEntityType = 'delayProfile' | 'qualityProfile' | 'naming' | 'mediaSettings' | 'qualityDefinitions' | 'musicAppMetadataProfile';

/** The names of a database's resolved entities of one type (the per-app types need arrType). */
export function useResolvedNames(databaseId: number | null, entityType: ResolvedEntityType, arrType: ArrType | null, enabled = true) {
  return useQuery({
    queryKey: databaseKeys.resolvedNames(databaseId ?? 0, entityType, arrType),
    enabled: databaseId !== null && enabled,
    queryFn: async () => {
      const list = await unwrap(
        api.GET('/api/v1/pcd/{databaseId}/resolved/{entityType}', {
          params: { path: { databaseId: databaseId!, entityType }, query: arrType ? { arrType } : {} },
        }),
      );
      return list.entities.filter((entity) => entity.exists).map((entity) => entity.name);
    },
    staleTime: 60_000,
  });
}

/** Which app families each quality profile of the database can be synced to (the API's parity map with databaseId). */
export function useProfileCompatibility(databaseId: number | null) {
  return useQuery({
    queryKey: databaseKeys.profileCompatibility(databaseId ?? 0),
    enabled: databaseId !== null,
    queryFn: async () => {
      const map = await unwrap(api.GET('/api/v1/compatibility/parity', { params: { query: { databaseId: databaseId! } } }));
      return new Map<string, string[]>((map.profiles ?? []).map((p) => [p.name, p.compatibleArrTypes]));
    },
    staleTime: 60_000,
  });
}
