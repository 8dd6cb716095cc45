// One entity as the sync would write it to each of up to 8 instances, diffed against the first
// that has it, optionally with the apps' live payloads (GET /pcd/{db}/resolved/{type}/{name}/compare).
import { useQuery } from '@tanstack/react-query';
import { api, unwrap, type components } from './client';

type Schemas = components['schemas'];
export type EntityCompare = Schemas['EntityCompare'];
export type CompareInstance = EntityCompare['instances'][number];
export type ComparableEntityType = Schemas['ComparableEntityType'];

/** The API's bound on instanceIds. */
export const COMPARE_MAX_INSTANCES = 8;

export interface CompareRequest {
  databaseId: number;
  entityType: ComparableEntityType;
  name: string;
  instanceIds: number[];
  includeLive: boolean;
}

// Not under the PCD key: a live fetch is rate-limited per instance, so an edit elsewhere must not
// read it again by itself; the page's Compare button does.
export const compareKeys = {
  one: (request: CompareRequest) => ['compare', request.databaseId, request.entityType, request.name, request.instanceIds.join(','), request.includeLive] as const,
};

export function useCompare(request: CompareRequest | null) {
  return useQuery({
    queryKey: request ? compareKeys.one(request) : ['compare', 'none'],
    enabled: request !== null,
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/pcd/{databaseId}/resolved/{entityType}/{name}/compare', {
          params: {
            path: { databaseId: request!.databaseId, entityType: request!.entityType, name: request!.name },
            query: { instanceIds: request!.instanceIds.join(','), ...(request!.includeLive ? { includeLive: true } : {}) },
          },
        }),
      ),
    staleTime: Infinity,
    retry: false,
  });
}
