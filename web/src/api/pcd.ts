// PCD entities of a database: the resolved, base and user layers (with lineage), the user ops, and
// the value-guarded edits the console's editors write. Every page of the configuration workbench
// reads and writes PCD state through these hooks, so one edit refreshes every view of it.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError, unwrap, type components, type operations } from './client';
import type { ArrType } from './types';

type Schemas = components['schemas'];
export type ResolvedEntityType = Schemas['ResolvedEntityType'];
export type PortableType = Schemas['PortableEntityType'];
export type ResolvedEntity = Schemas['ResolvedEntity'];
export type ResolvedList = Schemas['ResolvedList'];
export type LineageEntry = Schemas['LineageEntry'];
export type UserOp = Schemas['UserOp'];
export type EntityEdit = Schemas['EntityEdit'];
export type EntityDetail = Schemas['EntityDetail'];
export type PendingConflict = Schemas['PendingConflict'];
export type FieldChange = Schemas['FieldChange'];
export type PortableEntity = Schemas['PortableEntity'];
export type PcdLayer = NonNullable<NonNullable<operations['listResolvedEntities']['parameters']['query']>['layer']>;

/** Labels of the resolved-list types (typed by the generated enum: a new type needs an entry). */
export const RESOLVED_TYPE_LABELS: Record<ResolvedEntityType, string> = {
  customFormat: 'Custom formats',
  qualityProfile: 'Quality profiles',
  regularExpression: 'Regular expressions',
  delayProfile: 'Delay profiles',
  naming: 'Naming',
  mediaSettings: 'Media settings',
  qualityDefinitions: 'Quality definitions',
  musicAppMetadataProfile: 'Metadata profiles (Lidarr)',
};

/** The types whose list is per app family (the API requires arrType for them and refuses it for the others). */
export const PER_APP_FAMILY_TYPES: readonly ResolvedEntityType[] = ['naming', 'mediaSettings', 'qualityDefinitions'];

export interface ResolvedQuery {
  layer?: PcdLayer;
  /** Required for naming, mediaSettings and qualityDefinitions; refused for the other types. */
  arrType?: ArrType | null;
  includeLineage?: boolean;
}

export const pcdKeys = {
  /** Everything read from one database's PCD state: invalidated after any edit, revert, import or pull. */
  database: (databaseId: number) => ['pcd', databaseId] as const,
  resolved: (databaseId: number, entityType: ResolvedEntityType, query: ResolvedQuery) =>
    ['pcd', databaseId, 'resolved', entityType, query.layer ?? 'resolved', query.arrType ?? null, query.includeLineage === true] as const,
  userOps: (databaseId: number) => ['pcd', databaseId, 'user-ops'] as const,
  entity: (databaseId: number, portableType: PortableType, name: string, layer: PcdLayer, includeLineage: boolean) =>
    ['pcd', databaseId, 'entity', portableType, name, layer, includeLineage] as const,
};

/** Entities of one type in a layer (optionally with lineage; lineage needs layer resolved). */
export function useResolvedEntities(databaseId: number | null, entityType: ResolvedEntityType, query: ResolvedQuery = {}, enabled = true) {
  return useQuery({
    queryKey: pcdKeys.resolved(databaseId ?? 0, entityType, query),
    enabled: databaseId !== null && enabled,
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/pcd/{databaseId}/resolved/{entityType}', {
          params: {
            path: { databaseId: databaseId!, entityType },
            query: { ...(query.layer ? { layer: query.layer } : {}), ...(query.arrType ? { arrType: query.arrType } : {}), ...(query.includeLineage ? { includeLineage: true } : {}) },
          },
        }),
      ),
  });
}

/** One entity in a layer (lineage with layer resolved), with the detail of its pending conflicts. */
export function entityQuery(databaseId: number, portableType: PortableType, name: string, layer: PcdLayer, includeLineage = false) {
  return queryOptions({
    queryKey: pcdKeys.entity(databaseId, portableType, name, layer, includeLineage),
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/pcd/{databaseId}/entities/{entityType}/{name}', {
          params: { path: { databaseId, entityType: portableType, name }, query: { layer, ...(includeLineage ? { includeLineage: true } : {}) } },
        }),
      ),
  });
}

export function useEntity(databaseId: number, portableType: PortableType, name: string, layer: PcdLayer, includeLineage = false) {
  return useQuery(entityQuery(databaseId, portableType, name, layer, includeLineage));
}

/** The user layer of a database: every edit in order, with how it replays on the current base. */
export function useUserOps(databaseId: number | null) {
  return useQuery({
    queryKey: pcdKeys.userOps(databaseId ?? 0),
    enabled: databaseId !== null,
    queryFn: () => unwrap(api.GET('/api/v1/pcd/{databaseId}/user-ops', { params: { path: { databaseId: databaseId! } } })),
  });
}

/** Every view of a database's PCD state reads again (after an edit, a revert, an import, a rollback). */
export function usePcdChanged() {
  const queryClient = useQueryClient();
  return (databaseId: number) => queryClient.invalidateQueries({ queryKey: pcdKeys.database(databaseId) });
}

/** Writes value-guarded user-layer ops for one entity: the whole payload (data) or field edits (changes). */
export function useEditEntity(databaseId: number, portableType: PortableType, name: string) {
  const changed = usePcdChanged();
  return useMutation({
    mutationFn: (edit: EntityEdit) =>
      unwrap(api.PATCH('/api/v1/pcd/{databaseId}/entities/{entityType}/{name}', { params: { path: { databaseId, entityType: portableType, name } }, body: edit })),
    onSuccess: () => changed(databaseId),
  });
}

/** Reverts one user op: the entity falls back to what the remaining layers give. */
export function useRevertUserOp(databaseId: number) {
  const changed = usePcdChanged();
  return useMutation({
    mutationFn: (opId: number) => unwrap(api.DELETE('/api/v1/pcd/{databaseId}/user-ops/{opId}', { params: { path: { databaseId, opId } } })),
    onSuccess: () => changed(databaseId),
  });
}

/** The console's page of one entity (the portable type is the API's; never derived here). */
export function entityPath(databaseId: number, portableType: PortableType, name: string): string {
  return `/configuration/${databaseId}/${portableType}/${encodeURIComponent(name)}`;
}

export type ConflictChoice = 'mine' | 'upstream';

/**
 * Resolves a pending conflict through the edit, delete and revert operations. Take upstream reverts
 * the stale op. Keep mine first writes the user's payload (`mine`, as the stale op would leave the
 * entity) as a new edit on the current base, or deletes the entity again for a stale delete, then
 * reverts the stale op (which changes nothing any more): if the write is refused, the stale op
 * stays and nothing is lost.
 */
export function useResolveConflict(databaseId: number, portableType: PortableType, name: string) {
  const changed = usePcdChanged();
  return useMutation({
    mutationFn: async ({ conflict, choice }: { conflict: PendingConflict; choice: ConflictChoice }) => {
      const path = { databaseId, entityType: portableType, name };
      if (choice === 'mine' && conflict.kind === 'delete') {
        await unwrap(api.DELETE('/api/v1/pcd/{databaseId}/entities/{entityType}/{name}', { params: { path } }));
      } else if (choice === 'mine') {
        if (!conflict.mine) throw new Error('the user value of this conflict cannot be rebuilt');
        await unwrap(api.PATCH('/api/v1/pcd/{databaseId}/entities/{entityType}/{name}', { params: { path }, body: { data: conflict.mine } }));
      }
      await unwrap(api.DELETE('/api/v1/pcd/{databaseId}/user-ops/{opId}', { params: { path: { databaseId, opId: conflict.opId } } }));
    },
    onSettled: () => changed(databaseId),
  });
}

/** The portable JSON of one entity of the resolved state (GET /pcd/export), read when asked for. */
export function exportEntity(databaseId: number, portableType: PortableType, name: string): Promise<PortableEntity> {
  return unwrap(api.GET('/api/v1/pcd/export', { params: { query: { databaseId, entityType: portableType, name } } }));
}

export type PortableImport = Schemas['PortableImport'];

/** Creates an entity from portable JSON in the user layer of a database (POST /pcd/import). */
export function useImportEntity() {
  const changed = usePcdChanged();
  return useMutation({
    mutationFn: (body: PortableImport) => unwrap(api.POST('/api/v1/pcd/import', { body })),
    onSuccess: (_data, body) => changed(body.databaseId),
  });
}

/** The request field a refusal names (`field` of a 400, e.g. body.data.conditions.0.name), if any. */
export function refusedField(error: unknown): string | null {
  if (!(error instanceof ApiError) || !error.body || typeof error.body !== 'object') return null;
  const field = (error.body as { field?: unknown }).field;
  return typeof field === 'string' ? field : null;
}
