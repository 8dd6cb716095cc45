import { PcdDatabaseLifecycle } from '../../services/pcd/database-lifecycle';
import type { ApiDeps } from '../deps';
import type { ApiRouter } from '../http/route';
import { waitedResponse, waitMs, waitQuery } from '../http/wait';
import { idParam, z } from '../http/zod';
import { DatabaseCreateSchema, DatabasePatchSchema, DatabaseSchema, PullResultSchema, PullStateSchema } from '../schemas/databases';

const IdParams = z.object({ id: idParam() });
const tags = ['Databases'];

export function registerDatabaseRoutes(router: ApiRouter, deps: ApiDeps): void {
  const databases = () => new PcdDatabaseLifecycle(deps);

  router.add({
    method: 'post',
    path: '/databases',
    operationId: 'linkDatabase',
    summary: 'Link a PCD database from a git repository or a local directory, and start its first pull',
    tags,
    body: DatabaseCreateSchema,
    responses: { 201: { description: 'Linked; the first pull runs in the background (cache.status building)', schema: DatabaseSchema } },
    handler: async ({ body }) => ({ status: 201, body: await databases().link(body) }),
  });

  router.add({
    method: 'get',
    path: '/databases',
    operationId: 'listDatabases',
    summary: 'List linked PCD databases',
    tags,
    responses: { 200: { description: 'Databases, oldest first', schema: z.array(DatabaseSchema) } },
    handler: async () => ({ body: await databases().list() }),
  });

  router.add({
    method: 'get',
    path: '/databases/{id}',
    operationId: 'getDatabase',
    summary: 'Get one linked database with its manifest, commit and cache status',
    tags,
    params: IdParams,
    responses: { 200: { description: 'The database', schema: DatabaseSchema }, 404: { description: 'No such database' } },
    handler: async ({ params }) => ({ body: await databases().get(params.id) }),
  });

  router.add({
    method: 'patch',
    path: '/databases/{id}',
    operationId: 'updateDatabase',
    summary: 'Rename, enable or disable a database, or change its branch (pull to apply a branch change)',
    tags,
    params: IdParams,
    body: DatabasePatchSchema,
    responses: { 200: { description: 'The updated database', schema: DatabaseSchema }, 404: { description: 'No such database' } },
    handler: async ({ params, body }) => ({ body: await databases().update(params.id, body) }),
  });

  router.add({
    method: 'delete',
    path: '/databases/{id}',
    operationId: 'deleteDatabase',
    summary: 'Unlink a database: its clone, imported ops and user edits are removed',
    tags,
    params: IdParams,
    responses: { 204: { description: 'Unlinked' }, 404: { description: 'No such database' } },
    handler: async ({ params }) => {
      await databases().unlink(params.id);
      return { status: 204 };
    },
  });

  router.add({
    method: 'post',
    path: '/databases/{id}/pull',
    operationId: 'pullDatabase',
    summary: 'Fetch, import new base ops and rebuild the cache (a Temporal workflow; concurrent pulls join one run)',
    description: 'A request made while a pull runs joins it, and a pull that had already begun fetching fetches again before it finishes, so the answer includes every commit made before the request.',
    tags,
    params: IdParams,
    query: z.object(waitQuery('the pull has finished')),
    responses: {
      200: { description: 'Finished (wait=true): status ready or failed', schema: PullResultSchema },
      202: { description: 'Started (not waited for, or the wait bound passed): status started; follow cache.status on the database', schema: PullResultSchema },
      404: { description: 'No such database' },
      409: { description: 'A rollback of the database is running' },
    },
    handler: async ({ params, query }) => waitedResponse(await databases().pullExisting(params.id, waitMs(query))),
  });

  router.add({
    method: 'get',
    path: '/databases/{id}/pull',
    operationId: 'getDatabasePull',
    summary: "The database's pull, running or last run: its step (fetching, importing, replaying, done, failed) and what the steps behind it found",
    description: 'Poll it while a pull runs (cache.status building) to show its progress.',
    tags,
    params: IdParams,
    responses: { 200: { description: 'The pull', schema: PullStateSchema }, 404: { description: 'No such database' } },
    handler: async ({ params }) => ({ body: await databases().pullState(params.id) }),
  });
}
