import { RefGuideService } from '../../services/ref-guide';
import type { ApiDeps } from '../deps';
import { paginationQuery, page } from '../http/pagination';
import type { ApiRouter } from '../http/route';
import { waitedResponse, waitMs, waitQuery } from '../http/wait';
import { idParam, text, z } from '../http/zod';
import {
  RefEntityTypeSchema,
  RefGuideEntityListSchema,
  RefGuideEntitySchema,
  RefGuideImportBodySchema,
  RefGuideImportResultSchema,
  RefGuideSettingsInputSchema,
  RefGuideSettingsSchema,
  RefGuideSourceCreateSchema,
  RefGuideSourceDetailSchema,
  RefGuideSourcePatchSchema,
  RefGuideSourceSchema,
  RefGuideSyncResultSchema,
  RefIdSchema,
} from '../schemas/ref-guide';

const tags = ['Reference guides'];
const IdParams = z.object({ id: idParam() });
const EntityParams = z.object({ id: idParam(), refId: RefIdSchema });
const notFound = (what: string) => ({ description: `No such ${what}` });
const notReady = { description: 'The source has no cache yet (never synced successfully)' };

export function registerRefGuideRoutes(router: ApiRouter, deps: ApiDeps): void {
  const service = new RefGuideService(deps);

  router.add({
    method: 'post',
    path: '/ref-guide/sources',
    operationId: 'createRefGuideSource',
    summary: 'Add a reference-guide source (TRaSH Guides for Radarr or Sonarr) from a git repository or a local directory, and start its first sync',
    description: 'A duplicate name is a 400, as for PCD databases. The first sync runs in the background: follow sync.status.',
    tags,
    body: RefGuideSourceCreateSchema,
    responses: { 201: { description: 'Created', schema: RefGuideSourceSchema } },
    handler: async ({ body }) => ({ status: 201, body: await service.create(body) }),
  });

  router.add({
    method: 'get',
    path: '/ref-guide/sources',
    operationId: 'listRefGuideSources',
    summary: 'List reference-guide sources, oldest first',
    tags,
    responses: { 200: { description: 'Sources', schema: z.array(RefGuideSourceSchema) } },
    handler: async () => ({ body: await service.list() }),
  });

  router.add({
    method: 'get',
    path: '/ref-guide/sources/{id}',
    operationId: 'getRefGuideSource',
    summary: 'One source with its last good sync (commit, time, entity counts), the last attempt and, while syncing, its progress',
    tags,
    params: IdParams,
    responses: { 200: { description: 'The source', schema: RefGuideSourceDetailSchema }, 404: notFound('source') },
    handler: async ({ params }) => ({ body: await service.get(params.id) }),
  });

  router.add({
    method: 'patch',
    path: '/ref-guide/sources/{id}',
    operationId: 'updateRefGuideSource',
    summary: 'Rename, enable or disable a source, change its branch (sync to apply) or the databases it is the reference of',
    tags,
    params: IdParams,
    body: RefGuideSourcePatchSchema,
    responses: { 200: { description: 'The updated source', schema: RefGuideSourceSchema }, 404: notFound('source') },
    handler: async ({ params, body }) => ({ body: await service.update(params.id, body) }),
  });

  router.add({
    method: 'delete',
    path: '/ref-guide/sources/{id}',
    operationId: 'deleteRefGuideSource',
    summary: 'Remove a source with its cache (and its clone)',
    tags,
    params: IdParams,
    responses: { 204: { description: 'Removed' }, 404: notFound('source') },
    handler: async ({ params }) => {
      await service.delete(params.id);
      return { status: 204 };
    },
  });

  router.add({
    method: 'post',
    path: '/ref-guide/sources/{id}/sync',
    operationId: 'syncRefGuideSource',
    summary: 'Fetch the source (shallow git fetch) and replace its cache (a Temporal workflow; concurrent syncs join one run)',
    description: 'A failed sync keeps the last good cache and records a sanitized reason (sync.reason). Unchanged entities are not rewritten.',
    tags,
    params: IdParams,
    query: z.object(waitQuery('the sync has finished')),
    responses: {
      200: { description: 'Finished (wait=true): status ready or failed', schema: RefGuideSyncResultSchema },
      202: { description: 'Started or joined (not waited for, or the wait bound passed): status started; follow sync.status on the source', schema: RefGuideSyncResultSchema },
      404: notFound('source'),
    },
    handler: async ({ params, query }) => waitedResponse(await service.sync(params.id, waitMs(query))),
  });

  router.add({
    method: 'get',
    path: '/ref-guide/sources/{id}/entities',
    operationId: 'listRefGuideEntities',
    summary: 'Cached entities of a source (without their JSON), by type then name, paginated like sync history',
    tags,
    params: IdParams,
    query: z.object({
      type: RefEntityTypeSchema.optional(),
      q: text({ min: 1, max: 100 }).optional().openapi({ description: 'Case-insensitive substring of the name (% and _ match literally)' }),
      ...paginationQuery,
    }),
    responses: { 200: { description: 'A page of entities', schema: RefGuideEntityListSchema }, 404: notFound('source'), 409: notReady },
    handler: async ({ params, query }) => {
      const listed = await service.entities(params.id, { type: query.type, q: query.q }, query.page, query.pageSize);
      return { body: { source: listed.source, ...page(listed.items, listed.total, query.page, query.pageSize) } };
    },
  });

  router.add({
    method: 'get',
    path: '/ref-guide/sources/{id}/entities/{refId}',
    operationId: 'getRefGuideEntity',
    summary: 'One cached entity of a source by refId (trash_id) and type',
    description: 'Errors: 400 for a missing or invalid source id, refId or type (an unknown type names the allowed ones); 404 for a source or entity that is not found; 409 when the source has no cache yet.',
    tags,
    params: EntityParams,
    query: z.object({ type: RefEntityTypeSchema }),
    responses: { 200: { description: 'The entity', schema: RefGuideEntitySchema }, 404: notFound('source or entity'), 409: notReady },
    handler: async ({ params, query }) => ({ body: await service.entity(params.id, query.type, params.refId) }),
  });

  router.add({
    method: 'post',
    path: '/ref-guide/sources/{id}/entities/{refId}/import',
    operationId: 'importRefGuideEntity',
    summary: 'Copy a guide custom format (with its regular expressions), quality profile (with its formats, scored from a score set) or quality size (as quality definitions) into a PCD user layer',
    description:
      'Goes through the import planner of POST /pcd/import, one user op per entity. Existing names are reported in skipped, never overwritten, except custom formats with existingFormats merge (the conditions of the source app family become the guide ones; listed in updated). dryRun: true answers the same plan (what would be created, which names exist) and stores nothing. Every created op can be reverted with DELETE /pcd/{databaseId}/user-ops/{opId}; if a step fails, the ops this import wrote are reverted.',
    tags,
    params: EntityParams,
    body: RefGuideImportBodySchema,
    responses: {
      200: { description: 'What was created (or, on a dry run, would be) and what was skipped', schema: RefGuideImportResultSchema },
      404: notFound('source, entity or database'),
      409: notReady,
      503: { description: 'The database cache is not available' },
    },
    handler: async ({ params, body }) => ({ body: await service.import(params.id, params.refId, body) }),
  });

  router.add({
    method: 'get',
    path: '/ref-guide/settings',
    operationId: 'getRefGuideSettings',
    summary: 'Refresh schedule settings and the state of the schedule',
    tags,
    responses: { 200: { description: 'Settings', schema: RefGuideSettingsSchema } },
    handler: async () => ({ body: await service.settings() }),
  });

  router.add({
    method: 'put',
    path: '/ref-guide/settings',
    operationId: 'putRefGuideSettings',
    summary: 'Enable (resume) or disable (pause) the refresh of every enabled source and set its interval (a Temporal Schedule)',
    tags,
    body: RefGuideSettingsInputSchema,
    responses: { 200: { description: 'Settings now in force', schema: RefGuideSettingsSchema } },
    handler: async ({ body }) => ({ body: await service.updateSettings(body) }),
  });
}
