import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from './client';
import type { SyncHistoryFilter, SyncPreview } from './types';

export const SYNC_HISTORY_PAGE_SIZE = 25;
export const RECENT_PREVIEWS = 20;
const POLL_MS = 1_000;

export const syncKeys = {
  previews: ['sync', 'previews'] as const,
  preview: (id: number) => ['sync', 'previews', id] as const,
  run: (id: number) => ['sync', 'runs', id] as const,
  history: (filter: SyncHistoryFilter) => ['sync', 'history', filter] as const,
};

/** A preview that is being generated or applied changes by itself: read it again soon. */
export function isInProgress(preview: Pick<SyncPreview, 'status'>): boolean {
  return preview.status === 'generating' || preview.status === 'applying';
}

/** The newest previews; read again every second while one of them is in progress. */
export function useRecentPreviews() {
  return useQuery({
    queryKey: syncKeys.previews,
    queryFn: () => unwrap(api.GET('/api/v1/sync/previews', { params: { query: { pageSize: RECENT_PREVIEWS } } })),
    refetchInterval: (query) => (query.state.data?.items.some(isInProgress) ? POLL_MS : false),
  });
}

export function usePreview(id: number) {
  return useQuery({
    queryKey: syncKeys.preview(id),
    queryFn: () => unwrap(api.GET('/api/v1/sync/previews/{id}', { params: { path: { id } } })),
    refetchInterval: (query) => (query.state.data && isInProgress(query.state.data) ? POLL_MS : false),
  });
}

/** One preview per instance, each its own workflow (not waited for: the pages follow them). */
export function useCreatePreviews() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (instanceIds: number[]) => {
      const settled = await Promise.allSettled(instanceIds.map((instanceId) => unwrap(api.POST('/api/v1/sync/previews', { body: { instanceId } }))));
      return settled.map((result, i) => ({ instanceId: instanceIds[i], result }));
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: syncKeys.previews }),
  });
}

/** Starts the apply (a Temporal update on the preview's workflow); the page follows the preview until it ends. */
export function useApplyPreview(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.POST('/api/v1/sync/previews/{id}/apply', { params: { path: { id } } })),
    onSuccess: (preview) => {
      queryClient.setQueryData(syncKeys.preview(id), preview);
      return Promise.all([queryClient.invalidateQueries({ queryKey: syncKeys.previews, exact: true }), queryClient.invalidateQueries({ queryKey: ['sync', 'history'] })]);
    },
  });
}

/** The run of an apply: confirmed writes while it runs, its outcome after. */
export function useSyncRun(id: number | null, running: boolean) {
  return useQuery({
    queryKey: syncKeys.run(id ?? 0),
    enabled: id !== null,
    queryFn: () => unwrap(api.GET('/api/v1/sync-history/{id}', { params: { path: { id: id! } } })),
    refetchInterval: (query) => (running || query.state.data?.status === 'running' ? POLL_MS : false),
  });
}

export function useSyncHistory(filter: SyncHistoryFilter) {
  return useQuery({
    queryKey: syncKeys.history(filter),
    queryFn: () => unwrap(api.GET('/api/v1/sync-history', { params: { query: { ...filter, pageSize: SYNC_HISTORY_PAGE_SIZE } } })),
    placeholderData: keepPreviousData,
  });
}

/** The instances to pick from (preview, history filter): the first 200 by name, as the API pages them. */
export function useInstanceChoices() {
  return useQuery({
    queryKey: ['instances', 'choices'],
    queryFn: async () => (await unwrap(api.GET('/api/v1/instances', { params: { query: { pageSize: 200 } } }))).items,
    staleTime: 30_000,
  });
}
