import {
  buildGraph,
  exportEntity,
  isPortableType,
  listMusicAppMetadataProfiles,
  listResolved,
  parityMap,
  planDelete,
  planFieldEdits,
  planImport,
  planUpdate,
  type PortableType,
} from '../../domain/pcd';
import { AppError, validationError } from '../../errors';
import type { PcdCache } from '../../services/pcd/cache-manager';
import { assertEntityExists, listUserOps, UserLayerWriter } from '../../services/pcd/user-ops';
import type { ApiDeps } from '../deps';
import { locate, locateDomainErrors, notReadyAsBadRequest } from '../http/domain-errors';
import type { ApiRouter } from '../http/route';
import { booleanQuery, idParam, integerQuery, text, z } from '../http/zod';
import { ArrTypeOrAllSchema, ArrTypeSchema } from '../schemas/common';
import {
  CACHE_STATUS_HEADER,
  CacheStatusHeaderDoc,
  EntityEditSchema,
  GraphSchema,
  ImportBodySchema,
  LayerSchema,
  MetadataProfileSummarySchema,
  PortableEntitySchema,
  PortableTypeSchema,
  ResolvedEntityTypeSchema,
  ResolvedListSchema,
  UserOpSchema,
} from '../schemas/pcd';
import { GRAPH_NODE_KINDS } from '../../domain/pcd';

const tags = ['PCD'];
/** Reads of a degraded (or failed) database are served, and say so. */
const completeness = (cache: PcdCache) => ({ [CACHE_STATUS_HEADER]: cache.health.status });
const DatabaseParams = z.object({ databaseId: idParam() });

/** Graph responses are capped so a browser can draw them; truncated says when the cap cut edges. */
export const GRAPH_EDGE_CAP = 5000;

export function registerPcdRoutes(router: ApiRouter, deps: ApiDeps): void {
  const userLayer = new UserLayerWriter(deps.orm, deps.pcdCaches);
  const cacheFor400 = async (databaseId: number): Promise<PcdCache> => {
    try {
      return await deps.pcdCaches.get(databaseId);
    } catch (error) {
      throw notReadyAsBadRequest(error);
    }
  };

  router.add({
    method: 'get',
    path: '/pcd/{databaseId}/resolved/{entityType}',
    operationId: 'listResolvedEntities',
    summary: 'Entities of a type in the base layer, the user layer (field-level overrides) or the resolved state, with optional per-field lineage',
    tags,
    params: z.object({ databaseId: idParam(), entityType: ResolvedEntityTypeSchema }),
    query: z.object({
      layer: LayerSchema.optional().openapi({ description: 'Default resolved' }),
      arrType: ArrTypeSchema.optional().openapi({ description: 'Required for naming, mediaSettings, qualityDefinitions; refused for app-agnostic types and musicAppMetadataProfile' }),
      includeLineage: booleanQuery.optional().openapi({ description: 'Lineage is produced only with layer resolved' }),
    }),
    responses: {
      200: { description: 'The entities (cacheStatus degraded: some ops failed and the state is incomplete)', schema: ResolvedListSchema, headers: CacheStatusHeaderDoc },
      404: { description: 'No such database' },
    },
    handler: async ({ params, query }) => {
      const cache = await cacheFor400(params.databaseId);
      const list = locateDomainErrors({ '*': 'query.', entityType: 'params.' }, () =>
        listResolved(cache, params.entityType, { layer: query.layer, arrType: query.arrType ?? null, includeLineage: query.includeLineage ?? false }),
      );
      return {
        headers: completeness(cache),
        body: {
          databaseId: params.databaseId,
          entityType: list.entityType,
          layer: list.layer,
          cacheStatus: cache.health.status,
          entities: list.entities.map((e) => ({ databaseId: params.databaseId, ...e })),
        },
      };
    },
  });

  router.add({
    method: 'get',
    path: '/pcd/export',
    operationId: 'exportEntity',
    summary: 'Export one entity of the resolved state as portable JSON (database ids and timestamps stripped)',
    tags,
    query: z.object({ databaseId: idParam(), entityType: PortableTypeSchema, name: text({ min: 1, max: 200, trim: false }) }),
    responses: {
      200: { description: 'The portable entity (the X-Arrgo-Cache-Status header says when the state is incomplete)', schema: PortableEntitySchema, headers: CacheStatusHeaderDoc },
      404: { description: 'No such database or entity' },
      503: { description: 'The database cache is not available (not pulled yet, building, or failed)' },
    },
    handler: async ({ query }) => {
      const cache = await deps.pcdCaches.get(query.databaseId);
      try {
        return { headers: completeness(cache), body: exportEntity(cache.resolved, query.entityType, query.name) };
      } catch (error) {
        if (error instanceof AppError && error.kind === 'not_found') throw error;
        throw locate({ '*': 'query.' }, error);
      }
    },
  });

  router.add({
    method: 'post',
    path: '/pcd/import',
    operationId: 'importEntity',
    summary: 'Create an entity from portable JSON in the user layer of a database (stored as a user op, never in the repository)',
    description:
      'Name uniqueness is validated (an existing name is a 400). The base layer is refused. Music-app payloads are validated fail-fast: missing required fields, unsupported fields or fields of another family are rejected; music entities must use the music_app_* types.',
    tags,
    body: ImportBodySchema,
    responses: {
      200: { description: 'Imported', schema: z.object({ success: z.boolean() }) },
      404: { description: 'No such database' },
      503: { description: 'The database cache is not available' },
    },
    handler: async ({ body }) => {
      if (body.layer === 'base') throw validationError('Invalid request: body.layer cannot be base: the base layer comes from the repository and cannot be written');
      if (body.layer !== 'user') throw validationError('Invalid request: body.layer must be user');
      if (!isPortableType(body.entityType)) {
        throw validationError(`Invalid request: body.entityType must be one of ${PortableTypeSchema.options.join(', ')}`);
      }
      await userLayer.write(body.databaseId, 'create', (cache) =>
        locateDomainErrors({ migration: 'body.', entityType: 'body.', '*': 'body.data.' }, () =>
          planImport(cache.resolved, { entityType: body.entityType, data: body.data, migration: body.migration }),
        ),
      );
      return { body: { success: true } };
    },
  });

  router.add({
    method: 'patch',
    path: '/pcd/{databaseId}/entities/{entityType}/{name}',
    operationId: 'editEntity',
    summary: 'Edit an entity in the user layer (guarded ops: a later base change under the edit becomes a pending conflict)',
    tags,
    params: z.object({ databaseId: idParam(), entityType: PortableTypeSchema, name: text({ min: 1, max: 200, trim: false }) }),
    body: EntityEditSchema,
    responses: {
      200: { description: 'Stored (changed false when the edit changes nothing)', schema: z.object({ success: z.boolean(), changed: z.boolean() }) },
      404: { description: 'No such database or entity' },
      503: { description: 'The database cache is not available' },
    },
    handler: async ({ params, body }) => {
      const type = params.entityType as PortableType;
      const stored = await userLayer.write(params.databaseId, 'update', (cache) => {
        assertEntityExists(cache, type, params.name);
        return locateDomainErrors({ '*': 'data' in body ? 'body.data.' : 'body.changes.' }, () =>
          'data' in body ? planUpdate(cache.resolved, type, params.name, body.data) : planFieldEdits(cache.resolved, type, params.name, body.changes.map((c) => ({ path: c.path, value: c.value }))),
        );
      });
      return { body: { success: true, changed: stored } };
    },
  });

  router.add({
    method: 'delete',
    path: '/pcd/{databaseId}/entities/{entityType}/{name}',
    operationId: 'deleteEntity',
    summary: 'Delete an entity in the user layer (a guarded delete op)',
    tags,
    params: z.object({ databaseId: idParam(), entityType: PortableTypeSchema, name: text({ min: 1, max: 200, trim: false }) }),
    responses: { 204: { description: 'Stored' }, 404: { description: 'No such database or entity' }, 503: { description: 'The database cache is not available' } },
    handler: async ({ params }) => {
      const type = params.entityType as PortableType;
      await userLayer.write(params.databaseId, 'delete', (cache) => {
        assertEntityExists(cache, type, params.name);
        return planDelete(cache.resolved, type, params.name);
      });
      return { status: 204 };
    },
  });

  router.add({
    method: 'get',
    path: '/pcd/{databaseId}/user-ops',
    operationId: 'listUserOps',
    summary: 'The user layer of a database: every edit in order, with how it replays on the current base',
    tags,
    params: DatabaseParams,
    responses: { 200: { description: 'User ops', schema: z.array(UserOpSchema) }, 404: { description: 'No such database' } },
    handler: async ({ params }) => {
      const cache = await deps.pcdCaches.get(params.databaseId);
      const outcomes = new Map(cache.outcomes.filter((o) => o.layer === 'user').map((o) => [o.id, o]));
      const conflicts = new Set(cache.conflicts.map((c) => c.opId));
      const ops = await listUserOps(deps.orm.em, params.databaseId);
      return {
        body: ops.map((op) => {
          const outcome = outcomes.get(op.id);
          const status = conflicts.has(op.id) ? 'conflict' : outcome?.status === 'failed' ? 'failed' : 'applied';
          return { ...op, outcome: { status, reason: outcome?.reason ?? null } };
        }),
      };
    },
  });

  router.add({
    method: 'delete',
    path: '/pcd/{databaseId}/user-ops/{opId}',
    operationId: 'revertUserOp',
    summary: 'Revert one user edit (removes the op; the entity falls back to what the remaining layers give)',
    tags,
    params: z.object({ databaseId: idParam(), opId: idParam() }),
    responses: { 204: { description: 'Reverted' }, 404: { description: 'No such database or op' } },
    handler: async ({ params }) => {
      await userLayer.revert(params.databaseId, params.opId);
      return { status: 204 };
    },
  });

  router.add({
    method: 'get',
    path: '/pcd/{databaseId}/graph',
    operationId: 'getDependencyGraph',
    summary: 'Dependency graph of the resolved state (referrer to dependency), with filters and an edge cap',
    tags,
    params: DatabaseParams,
    query: z.object({
      arrType: ArrTypeOrAllSchema.optional().openapi({ description: 'Edges scoped to that app plus all, and compatible quality profiles only' }),
      nodeKind: z.enum(GRAPH_NODE_KINDS).optional(),
      maxEdges: integerQuery(1, GRAPH_EDGE_CAP).optional().openapi({ description: `Lower the edge cap (at most ${GRAPH_EDGE_CAP})` }),
    }),
    responses: {
      200: { description: `The graph; at most ${GRAPH_EDGE_CAP} edges (truncated says when the cap applied; cacheStatus when the state is incomplete)`, schema: GraphSchema, headers: CacheStatusHeaderDoc },
    },
    handler: async ({ params, query }) => {
      const cache = await cacheFor400(params.databaseId);
      const graph = locateDomainErrors({ '*': 'query.' }, () =>
        buildGraph(cache.resolved, { arrType: query.arrType ?? null, nodeKind: query.nodeKind ?? null, maxEdges: query.maxEdges ?? GRAPH_EDGE_CAP }),
      );
      return { headers: completeness(cache), body: { databaseId: params.databaseId, ...graph, cacheStatus: cache.health.status } };
    },
  });

  router.add({
    method: 'get',
    path: '/pcd/{databaseId}/music-app-metadata-profiles',
    operationId: 'listMusicAppMetadataProfiles',
    summary: 'Music-app (Lidarr) metadata profiles of a database, with counts only',
    tags,
    params: DatabaseParams,
    responses: {
      200: { description: 'Profiles', schema: z.array(MetadataProfileSummarySchema) },
      404: { description: 'No such database' },
      503: { description: 'The database cache is not available' },
    },
    handler: async ({ params }) => ({ body: listMusicAppMetadataProfiles((await deps.pcdCaches.get(params.databaseId)).resolved) }),
  });

  router.add({
    method: 'get',
    path: '/compatibility/parity',
    operationId: 'getParity',
    summary: 'Parity map between Radarr, Sonarr and Lidarr, with per-profile compatibility when databaseId is given',
    tags: ['Compatibility'],
    query: z.object({ databaseId: idParam().optional() }),
    responses: { 200: { description: 'The parity map', schema: z.record(z.unknown()).openapi('ParityMap') }, 404: { description: 'No such database' } },
    handler: async ({ query }) => {
      const cache = query.databaseId ? await cacheFor400(query.databaseId) : null;
      return { body: parityMap(cache?.resolved ?? null) };
    },
  });
}
