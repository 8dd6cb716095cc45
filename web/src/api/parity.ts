// The parity map between the app families (GET /compatibility/parity), with each quality profile's
// compatible families when a database is given.
import { useQuery } from '@tanstack/react-query';
import { api, unwrap, type components } from './client';

export type ParityMap = components['schemas']['ParityMap'];
export type ParitySupport = ParityMap['matrix'][number]['movie_app'];
export type ParityScope = ParityMap['semanticDifferences'][number]['scope'];

export const parityKeys = { map: (databaseId: number | null) => ['parity', databaseId] as const };

export function useParityMap(databaseId: number | null) {
  return useQuery({
    queryKey: parityKeys.map(databaseId),
    queryFn: () => unwrap(api.GET('/api/v1/compatibility/parity', { params: { query: databaseId === null ? {} : { databaseId } } })),
    staleTime: 60_000,
  });
}
