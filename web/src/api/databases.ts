import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from './client';
import type { ArrType } from './types';

export const databaseKeys = {
  all: ['databases'] as const,
  resolvedNames: (databaseId: number, entityType: string, arrType: ArrType | null) => ['databases', databaseId, 'resolved', entityType, arrType] as const,
  profileCompatibility: (databaseId: number) => ['databases', databaseId, 'profile-compatibility'] as const,
};

export function useDatabases() {
  return useQuery({ queryKey: databaseKeys.all, queryFn: () => unwrap(api.GET('/api/v1/databases')) });
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

/**
 * Which app families each quality profile of the database can be synced to (the API's parity map
 * with databaseId). The map is documented as an open object: read only what this needs.
 */
export function useProfileCompatibility(databaseId: number | null) {
  return useQuery({
    queryKey: databaseKeys.profileCompatibility(databaseId ?? 0),
    enabled: databaseId !== null,
    queryFn: async () => {
      const map = await unwrap(api.GET('/api/v1/compatibility/parity', { params: { query: { databaseId: databaseId! } } }));
      const profiles = Array.isArray(map.profiles) ? (map.profiles as { name?: unknown; compatibleArrTypes?: unknown }[]) : [];
      return new Map(profiles.filter((p) => typeof p.name === 'string' && Array.isArray(p.compatibleArrTypes)).map((p) => [p.name as string, p.compatibleArrTypes as string[]]));
    },
    staleTime: 60_000,
  });
}
