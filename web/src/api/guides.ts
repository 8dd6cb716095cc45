// Reference guides (TRaSH Guides): the sources with their sync status, their cached formats,
// groups and profiles, and importing one into a database's user layer after a dry run that says
// what would be created and which names exist already.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type components } from './client';
import { pcdKeys, usePcdChanged } from './pcd';

type Schemas = components['schemas'];
export type RefGuideSource = Schemas['RefGuideSource'];
export type RefGuideEntityType = Schemas['RefGuideEntityType'];
export type RefGuideEntity = Schemas['RefGuideEntity'];
export type RefGuideImport = Schemas['RefGuideImport'];
export type RefGuideImportResult = Schemas['RefGuideImportResult'];
export type ImportableType = NonNullable<RefGuideImport['type']>;

export const GUIDE_PAGE_SIZE = 25;
const SYNC_POLL_MS = 1_000;

export const guideKeys = {
  sources: ['ref-guide', 'sources'] as const,
  source: (id: number) => ['ref-guide', 'sources', id] as const,
  // Cached entities are as of the source's last good sync: a new sync reads them again.
  entities: (id: number, syncedAt: string, type: RefGuideEntityType, q: string, page: number) => ['ref-guide', 'sources', id, syncedAt, 'entities', type, q, page] as const,
  entity: (id: number, syncedAt: string, type: RefGuideEntityType, refId: string) => ['ref-guide', 'sources', id, syncedAt, 'entity', type, refId] as const,
  // A dry run reads the database's state: under its PCD key, any change of the database runs it again.
  importPreview: (databaseId: number, sourceId: number, refId: string, body: RefGuideImport) => [...pcdKeys.database(databaseId), 'guide-import-preview', sourceId, refId, body] as const,
};

const syncing = (source: Pick<RefGuideSource, 'sync'>) => source.sync.status === 'syncing' || source.sync.status === 'pending';

/** Every source with its sync status; read every second while one syncs. */
export function useGuideSources() {
  return useQuery({
    queryKey: guideKeys.sources,
    queryFn: () => unwrap(api.GET('/api/v1/ref-guide/sources')),
    refetchInterval: (query) => (query.state.data?.some(syncing) ? SYNC_POLL_MS : false),
  });
}

/** One source with its running sync's progress. */
export function useGuideSource(id: number | null) {
  return useQuery({
    queryKey: guideKeys.source(id ?? 0),
    enabled: id !== null,
    queryFn: () => unwrap(api.GET('/api/v1/ref-guide/sources/{id}', { params: { path: { id: id! } } })),
    refetchInterval: (query) => (query.state.data && syncing(query.state.data) ? SYNC_POLL_MS : false),
  });
}

/** Starts (or joins) a sync without waiting; the sources are read again while it runs. */
export function useSyncGuideSource() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => unwrap(api.POST('/api/v1/ref-guide/sources/{id}/sync', { params: { path: { id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: guideKeys.sources }),
  });
}

/** A source's cached entities of one type; nothing is asked before the source's first good sync. */
export function useGuideEntities(source: Pick<RefGuideSource, 'id' | 'lastSyncedAt'>, type: RefGuideEntityType, q: string, page: number) {
  return useQuery({
    queryKey: guideKeys.entities(source.id, source.lastSyncedAt ?? '', type, q, page),
    enabled: source.lastSyncedAt !== null,
    queryFn: () => unwrap(api.GET('/api/v1/ref-guide/sources/{id}/entities', { params: { path: { id: source.id }, query: { type, ...(q ? { q } : {}), page, pageSize: GUIDE_PAGE_SIZE } } })),
    placeholderData: keepPreviousData,
  });
}

export function useGuideEntity(source: Pick<RefGuideSource, 'id' | 'lastSyncedAt'>, type: RefGuideEntityType, refId: string | null) {
  return useQuery({
    queryKey: guideKeys.entity(source.id, source.lastSyncedAt ?? '', type, refId ?? ''),
    enabled: refId !== null && source.lastSyncedAt !== null,
    queryFn: () => unwrap(api.GET('/api/v1/ref-guide/sources/{id}/entities/{refId}', { params: { path: { id: source.id, refId: refId! }, query: { type } } })),
  });
}

/** What importing would create and which names exist already (dryRun: nothing is stored). */
export function useGuideImportPreview(sourceId: number, refId: string, body: Omit<RefGuideImport, 'dryRun'> | null) {
  return useQuery({
    queryKey: body ? guideKeys.importPreview(body.databaseId, sourceId, refId, body) : ['ref-guide', 'import-preview', 'none'],
    enabled: body !== null,
    queryFn: () => unwrap(api.POST('/api/v1/ref-guide/sources/{id}/entities/{refId}/import', { params: { path: { id: sourceId, refId } }, body: { ...body!, dryRun: true } })),
    retry: false,
  });
}

/** Imports into the database's user layer; every view of the database reads again. */
export function useImportGuideEntity(sourceId: number, refId: string) {
  const changed = usePcdChanged();
  return useMutation({
    mutationFn: (body: Omit<RefGuideImport, 'dryRun'>) => unwrap(api.POST('/api/v1/ref-guide/sources/{id}/entities/{refId}/import', { params: { path: { id: sourceId, refId } }, body })),
    onSettled: (_data, _error, body) => changed(body.databaseId),
  });
}

/** Adds a source; the API starts its first sync at once (followed through the list). */
export function useCreateGuideSource() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Schemas['RefGuideSourceCreate']) => unwrap(api.POST('/api/v1/ref-guide/sources', { body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: guideKeys.sources }),
  });
}
