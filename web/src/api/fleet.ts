import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from './client';

/** The dashboard's one read; refreshed every 10 s while the page is open. */
export function useFleetOverview() {
  return useQuery({ queryKey: ['fleet', 'overview'], queryFn: () => unwrap(api.GET('/api/v1/fleet/overview')), refetchInterval: 10_000 });
}
