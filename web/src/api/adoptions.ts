import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from './client';
import { instanceKeys } from './instances';
import type { Adoption } from './types';

const POLL_MS = 1_000;

export const adoptionKeys = {
  one: (id: number) => ['adoptions', id] as const,
};

/** An adoption being generated or applied changes by itself: read it again soon. */
function inProgress(adoption: Pick<Adoption, 'status'>): boolean {
  return adoption.status === 'generating' || adoption.status === 'applying';
}

export function useAdoption(id: number | null) {
  return useQuery({
    queryKey: adoptionKeys.one(id ?? 0),
    enabled: id !== null,
    queryFn: () => unwrap(api.GET('/api/v1/adoptions/{id}', { params: { path: { id: id! } } })),
    refetchInterval: (query) => (query.state.data && inProgress(query.state.data) ? POLL_MS : false),
  });
}

/** Starts an adoption preview (a workflow); the page follows it until it is ready. */
export function useStartAdoption(instanceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (databaseId: number) => unwrap(api.POST('/api/v1/instances/{id}/adopt', { params: { path: { id: instanceId } }, body: { databaseId } })),
    onSuccess: (adoption) => queryClient.setQueryData(adoptionKeys.one(adoption.id), adoption),
  });
}

/** Applies a ready adoption; the page follows it until it is applied. */
export function useApplyAdoption(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.POST('/api/v1/adoptions/{id}/apply', { params: { path: { id } } })),
    onSuccess: (adoption) => {
      queryClient.setQueryData(adoptionKeys.one(id), adoption);
      // The instance's sync configuration changes with the apply.
      return queryClient.invalidateQueries({ queryKey: instanceKeys.all });
    },
  });
}
