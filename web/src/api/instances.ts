import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError, unwrap } from './client';
import type { InstanceCreate, InstancePatch, SyncConfigInput } from './types';

export const INSTANCES_PAGE_SIZE = 50;

export const instanceKeys = {
  all: ['instances'] as const,
  page: (page: number) => ['instances', 'page', page] as const,
  one: (id: number) => ['instances', id] as const,
  syncConfig: (id: number) => ['instances', id, 'sync-config'] as const,
};

export function useInstancePage(page: number) {
  return useQuery({
    queryKey: instanceKeys.page(page),
    queryFn: () => unwrap(api.GET('/api/v1/instances', { params: { query: { page, pageSize: INSTANCES_PAGE_SIZE } } })),
    placeholderData: keepPreviousData,
  });
}

export function useInstance(id: number) {
  return useQuery({ queryKey: instanceKeys.one(id), queryFn: () => unwrap(api.GET('/api/v1/instances/{id}', { params: { path: { id } } })) });
}

/** Everything that shows instances (lists, the dashboard) reads again after a change. */
function useInstancesChanged() {
  const queryClient = useQueryClient();
  return () => Promise.all([queryClient.invalidateQueries({ queryKey: instanceKeys.all }), queryClient.invalidateQueries({ queryKey: ['fleet'] })]);
}

/** Registration: the API tests the connection first and answers with the test's outcome. */
export function useCreateInstance() {
  const changed = useInstancesChanged();
  return useMutation({ mutationFn: (body: InstanceCreate) => unwrap(api.POST('/api/v1/instances', { body })), onSuccess: changed });
}

export function useUpdateInstance(id: number) {
  const changed = useInstancesChanged();
  return useMutation({ mutationFn: (body: InstancePatch) => unwrap(api.PATCH('/api/v1/instances/{id}', { params: { path: { id } }, body })), onSuccess: changed });
}

export function useDeleteInstance() {
  const changed = useInstancesChanged();
  return useMutation({ mutationFn: (id: number) => unwrap(api.DELETE('/api/v1/instances/{id}', { params: { path: { id } } })), onSuccess: changed });
}

export function useTestInstance(id: number) {
  const changed = useInstancesChanged();
  return useMutation({ mutationFn: () => unwrap(api.POST('/api/v1/instances/{id}/test', { params: { path: { id } } })), onSuccess: changed });
}

/** The instance's sync configuration; null when it has none (the API's 404 for a known instance). */
export function useSyncConfig(id: number) {
  return useQuery({
    queryKey: instanceKeys.syncConfig(id),
    queryFn: async () => {
      try {
        return await unwrap(api.GET('/api/v1/instances/{id}/sync-config', { params: { path: { id } } }));
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
  });
}

export function useSaveSyncConfig(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SyncConfigInput) => unwrap(api.PUT('/api/v1/instances/{id}/sync-config', { params: { path: { id } }, body })),
    onSuccess: (config) => queryClient.setQueryData(instanceKeys.syncConfig(id), config),
  });
}

export function useRemoveSyncConfig(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.DELETE('/api/v1/instances/{id}/sync-config', { params: { path: { id } } })),
    onSuccess: () => queryClient.setQueryData(instanceKeys.syncConfig(id), null),
  });
}
