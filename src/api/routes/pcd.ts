import { PcdService } from '../../services/pcd/pcd-service';
import type { ApiDeps } from '../deps';
import type { ApiRouter } from '../http/route';
import { booleanQuery, idParam, integerQuery, text, z } from '../http/zod';
import { ArrTypeOrAllSchema, ArrTypeSchema } from '../schemas/common';
import {
  CacheStatusHeaderDoc,
  EntityDetailSchema,
  EntityEditSchema,
  GraphNodeKindSchema,
  GraphSchema,
  ImportBodySchema,
  LayerSchema,
  MetadataProfileSummarySchema,
  ParityMapSchema,
  PortableEntitySchema,
  PortableTypeSchema,
  ResolvedEntityTypeSchema,
  ResolvedListSchema,
  UserOpSchema,
} from '../schemas/pcd';

const tags = ['PCD'];
/** A stored regular expression that custom-format evaluation refuses is stored, and reported with the construct named. */
const PatternWarningsSchema = z
  .array(z.string())
  .max(1)
  .optional()
  .openapi({
    description:
      'For a regular expression: why custom-format evaluation refuses its pattern, naming the .NET construct that has no faithful JavaScript translation (docs/evaluation.md, ".NET regular expressions"). The pattern is stored (the apps run it); evaluate reports its conditions as not evaluable. Absent when there is nothing to report',
  });
const DatabaseParams = z.object({ databaseId: idParam() });

/** Graph responses are capped so a browser can draw them; truncated says when the cap cut edges. */
export const GRAPH_EDGE_CAP = 5000;

export function registerPcdRoutes(router: ApiRouter, deps: ApiDeps): void {
  const pcd = new PcdService(deps);

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
    conditional: true,
    handler: async ({ params, query }) => ({
      view: await pcd.listResolved(params.databaseId, params.entityType, { layer: query.layer, arrType: query.arrType ?? null, includeLineage: query.includeLineage ?? false }, { '*': 'query.', entityType: 'params.' }),
    }),
  });

  router.add({
    method: 'get',
    path: '/pcd/export',
    operationId: 'exportEntity',
    summary: 'Export one entity of the resolved state as portable JSON (data carries no database ids or timestamps; the entity id is beside it)',
    tags,
    query: z.object({ databaseId: idParam(), entityType: PortableTypeSchema, name: text({ min: 1, max: 200, trim: false }) }),
    responses: {
      200: { description: 'The portable entity (the X-Arrgo-Cache-Status header says when the state is incomplete)', schema: PortableEntitySchema, headers: CacheStatusHeaderDoc },
      404: { description: 'No such database or entity' },
      503: { description: 'The database cache is not available (not pulled yet, building, or failed)' },
    },
    conditional: true,
    handler: async ({ query }) => ({ view: await pcd.exportEntity(query.databaseId, query.entityType, query.name, { '*': 'query.' }) }),
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
      200: { description: 'Imported', schema: z.object({ success: z.boolean(), warnings: PatternWarningsSchema }) },
      404: { description: 'No such database' },
      503: { description: 'The database cache is not available' },
    },
    handler: async ({ body }) => {
      const { warnings } = await pcd.importEntity(body, { migration: 'body.', entityType: 'body.', '*': 'body.data.' });
      return { body: { success: true, ...(warnings.length > 0 ? { warnings } : {}) } };
    },
  });

  router.add({
    method: 'get',
    path: '/pcd/{databaseId}/entities/{entityType}/{name}',
    operationId: 'getEntity',
    summary: 'One entity in the base layer, the user layer (field-level overrides) or the resolved state (optional lineage), with the detail of its pending conflicts',
    tags,
    params: z.object({ databaseId: idParam(), entityType: PortableTypeSchema, name: text({ min: 1, max: 200, trim: false }) }),
    query: z.object({
      layer: LayerSchema.optional().openapi({ description: 'Default resolved' }),
      includeLineage: booleanQuery.optional().openapi({ description: 'Lineage is produced only with layer resolved' }),
    }),
    responses: {
      200: { description: 'The entity (exists false when it is absent from the requested layer)', schema: EntityDetailSchema, headers: CacheStatusHeaderDoc },
      400: { description: 'The database cache is not ready' },
      404: { description: 'No such database, or the entity is in neither the base nor the resolved state' },
    },
    conditional: true,
    handler: async ({ params, query }) => ({
      view: await pcd.entity(params.databaseId, params.entityType, params.name, { layer: query.layer, includeLineage: query.includeLineage ?? false }, { '*': 'query.' }),
    }),
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
      200: { description: 'Stored (changed false when the edit changes nothing)', schema: z.object({ success: z.boolean(), changed: z.boolean(), warnings: PatternWarningsSchema }) },
      404: { description: 'No such database or entity' },
      503: { description: 'The database cache is not available' },
    },
    handler: async ({ params, body }) => {
      const { changed, warnings } = await pcd.editEntity(params.databaseId, params.entityType, params.name, body, { '*': 'data' in body ? 'body.data.' : 'body.changes.' });
      return { body: { success: true, changed, ...(warnings.length > 0 ? { warnings } : {}) } };
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
      await pcd.deleteEntity(params.databaseId, params.entityType, params.name);
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
    handler: async ({ params }) => ({ body: await pcd.userOps(params.databaseId) }),
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
      await pcd.revertUserOp(params.databaseId, params.opId);
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
      nodeKind: GraphNodeKindSchema.optional(),
      maxEdges: integerQuery(1, GRAPH_EDGE_CAP).optional().openapi({ description: `Lower the edge cap (at most ${GRAPH_EDGE_CAP})` }),
    }),
    responses: {
      200: { description: `The graph; at most ${GRAPH_EDGE_CAP} edges (truncated says when the cap applied; cacheStatus when the state is incomplete)`, schema: GraphSchema, headers: CacheStatusHeaderDoc },
    },
    conditional: true,
    handler: async ({ params, query }) => ({
      view: await pcd.graph(params.databaseId, { arrType: query.arrType ?? null, nodeKind: query.nodeKind ?? null, maxEdges: query.maxEdges ?? GRAPH_EDGE_CAP }, { '*': 'query.' }),
    }),
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
    conditional: true,
    handler: async ({ params }) => ({ view: await pcd.musicAppMetadataProfiles(params.databaseId) }),
  });

  router.add({
    method: 'get',
    path: '/compatibility/parity',
    operationId: 'getParity',
    summary: 'Parity map between Radarr, Sonarr and Lidarr, with per-profile compatibility when databaseId is given',
    tags: ['Compatibility'],
    query: z.object({ databaseId: idParam().optional() }),
    responses: { 200: { description: 'The parity map', schema: ParityMapSchema }, 404: { description: 'No such database' } },
    conditional: true,
    handler: async ({ query }) => ({ view: await pcd.parity(query.databaseId) }),
  });
}
