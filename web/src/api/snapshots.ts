// Snapshots and rollbacks of a PCD database: the list, what changed since one, taking one, rolling
// back to one (followed until it ends) and undoing a rollback. A finished rollback changes the
// database's PCD state, so every PCD view of it reads again.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type components } from './client';
import { usePcdChanged } from './pcd';

type Schemas = components['schemas'];
export type Snapshot = Schemas['Snapshot'];
export type SnapshotChanges = Schemas['SnapshotChanges'];
export type Rollback = Schemas['Rollback'];

export const snapshotKeys = {
  database: (databaseId: number) => ['snapshots', databaseId] as const,
  list: (databaseId: number, page: number) => ['snapshots', databaseId, 'list', page] as const,
  changes: (databaseId: number, snapshotId: number) => ['snapshots', databaseId, 'changes', snapshotId] as const,
  rollbacks: (databaseId: number) => ['snapshots', databaseId, 'rollbacks'] as const,
  rollback: (databaseId: number, rollbackId: number) => ['snapshots', databaseId, 'rollback', rollbackId] as const,
};

export const SNAPSHOTS_PAGE_SIZE = 25;
const ROLLBACK_POLL_MS = 1_000;

export function useSnapshots(databaseId: number | null, page: number) {
  return useQuery({
    queryKey: snapshotKeys.list(databaseId ?? 0, page),
    enabled: databaseId !== null,
    queryFn: () => unwrap(api.GET('/api/v1/databases/{id}/snapshots', { params: { path: { id: databaseId! }, query: { page, pageSize: SNAPSHOTS_PAGE_SIZE } } })),
  });
}

/** The entities that differ between a snapshot and now (what a rollback to it changes). */
export function useSnapshotChanges(databaseId: number, snapshotId: number | null) {
  return useQuery({
    queryKey: snapshotKeys.changes(databaseId, snapshotId ?? 0),
    enabled: snapshotId !== null,
    queryFn: () => unwrap(api.GET('/api/v1/databases/{id}/snapshots/{snapshotId}/changes', { params: { path: { id: databaseId, snapshotId: snapshotId! } } })),
  });
}

export function useRollbacks(databaseId: number | null) {
  return useQuery({
    queryKey: snapshotKeys.rollbacks(databaseId ?? 0),
    enabled: databaseId !== null,
    queryFn: () => unwrap(api.GET('/api/v1/databases/{id}/rollbacks', { params: { path: { id: databaseId! }, query: { pageSize: 10 } } })),
  });
}

/** One rollback, read every second while it runs; when it ends, the snapshots and PCD views read again. */
export function useRollback(databaseId: number, rollbackId: number | null) {
  const queryClient = useQueryClient();
  const pcdChanged = usePcdChanged();
  return useQuery({
    queryKey: snapshotKeys.rollback(databaseId, rollbackId ?? 0),
    enabled: rollbackId !== null,
    queryFn: async () => {
      const rollback = await unwrap(api.GET('/api/v1/databases/{id}/rollbacks/{rollbackId}', { params: { path: { id: databaseId, rollbackId: rollbackId! } } }));
      if (rollback.status !== 'running') {
        await Promise.all([queryClient.invalidateQueries({ queryKey: ['snapshots', databaseId, 'list'] }), queryClient.invalidateQueries({ queryKey: ['snapshots', databaseId, 'changes'] }), queryClient.invalidateQueries({ queryKey: snapshotKeys.rollbacks(databaseId) }), pcdChanged(databaseId)]);
      }
      return rollback;
    },
    refetchInterval: (query) => (query.state.data?.status === 'running' || !query.state.data ? ROLLBACK_POLL_MS : false),
  });
}

export function useTakeSnapshot(databaseId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (note: string | null) => unwrap(api.POST('/api/v1/databases/{id}/snapshots', { params: { path: { id: databaseId } }, body: note ? { note } : {} })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['snapshots', databaseId, 'list'] }),
  });
}

/** Starts a rollback without waiting: the page follows it with useRollback. */
export function useStartRollback(databaseId: number) {
  return useMutation({
    mutationFn: (snapshotId: number) => unwrap(api.POST('/api/v1/databases/{id}/snapshots/{snapshotId}/rollback', { params: { path: { id: databaseId, snapshotId } } })),
  });
}

/** Undoes a finished rollback (a new rollback back to its pre-rollback snapshot), followed like one. */
export function useUndoRollback(databaseId: number) {
  return useMutation({
    mutationFn: (rollbackId: number) => unwrap(api.POST('/api/v1/databases/{id}/rollbacks/{rollbackId}/undo', { params: { path: { id: databaseId, rollbackId } } })),
  });
}
