import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from './client';

/** The dashboard's one read. */
export const fleetOverviewQuery = queryOptions({ queryKey: ['fleet', 'overview'], queryFn: () => unwrap(api.GET('/api/v1/fleet/overview')), staleTime: 5_000 });

/** Refreshed every 10 s while the page is open. */
export function useFleetOverview() {
  return useQuery({ ...fleetOverviewQuery, refetchInterval: 10_000 });
}
