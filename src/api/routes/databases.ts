import { WorkflowIdConflictPolicy } from '@temporalio/common';
import type { PullResult } from '../../workflows/pcd-pull';
import { deploymentScopedId } from '../../platform/schedules';
import { PcdDatabaseService, toDatabaseView } from '../../services/pcd/database-service';
import { cloneDirectory } from '../../services/pcd/source-files';
import { RollbackService } from '../../services/snapshots/rollback-service';
import { startWorkflow, translateTemporalError } from '../../services/workflow-runner';
import { SA } from '../../workflows/search-attributes';
import type { ApiDeps } from '../deps';
import type { ApiRouter } from '../http/route';
import { booleanQuery, idParam, z } from '../http/zod';
import { DatabaseCreateSchema, DatabasePatchSchema, DatabaseSchema, PullResultSchema } from '../schemas/databases';

const IdParams = z.object({ id: idParam() });
const tags = ['Databases'];

export function registerDatabaseRoutes(router: ApiRouter, deps: ApiDeps): void {
  const service = () => new PcdDatabaseService(deps.orm.em);

  /** Starts (or joins) the pull workflow of a database; waits for it when asked. */
  const pull = async (id: number, wait: boolean) => {
    const workflowId = deploymentScopedId(deps.temporal.taskQueue, `pcd-pull-${id}`);
    const handle = await startWorkflow(deps.temporal, 'pcdPullWorkflow', {
      workflowId,
      args: [id],
      conflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
      staticSummary: `Pull of PCD database ${id}`,
      searchAttributes: [
        { key: SA.kind, value: 'pcd-pull' },
        { key: SA.databaseId, value: id },
      ],
    });
    let result: PullResult | null = null;
    if (wait) {
      try {
        result = (await handle.result()) as PullResult;
      } catch (error) {
        throw translateTemporalError(error);
      }
    }
    deps.orm.em.clear();
    const database = toDatabaseView(await service().load(id));
    return {
      workflowId,
      status: result ? result.status : ('started' as const),
      ...(result?.status === 'failed' ? { reason: result.reason } : {}),
      ...(result?.status === 'ready' ? { cacheStatus: result.cacheStatus } : {}),
      database,
    };
  };

  router.add({
    method: 'post',
    path: '/databases',
    operationId: 'linkDatabase',
    summary: 'Link a PCD database from a git repository or a local directory, and start its first pull',
    tags,
    body: DatabaseCreateSchema,
    responses: { 201: { description: 'Linked; the first pull runs in the background (cache.status building)', schema: DatabaseSchema } },
    handler: async ({ body }) => {
      const created = await service().create(body);
      await pull(created.id, false);
      deps.orm.em.clear();
      return { status: 201, body: toDatabaseView(await service().load(created.id)) };
    },
  });

  router.add({
    method: 'get',
    path: '/databases',
    operationId: 'listDatabases',
    summary: 'List linked PCD databases',
    tags,
    responses: { 200: { description: 'Databases, oldest first', schema: z.array(DatabaseSchema) } },
    handler: async () => ({ body: (await service().list()).map(toDatabaseView) }),
  });

  router.add({
    method: 'get',
    path: '/databases/{id}',
    operationId: 'getDatabase',
    summary: 'Get one linked database with its manifest, commit and cache status',
    tags,
    params: IdParams,
    responses: { 200: { description: 'The database', schema: DatabaseSchema }, 404: { description: 'No such database' } },
    handler: async ({ params }) => ({ body: toDatabaseView(await service().load(params.id)) }),
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
    handler: async ({ params, body }) => {
      const database = await service().update(params.id, body);
      if (body.enabled === false) deps.pcdCaches.evict(params.id);
      return { body: toDatabaseView(database) };
    },
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
      const database = await service().load(params.id);
      await service().delete(params.id, database.sourceKind === 'git' ? cloneDirectory(deps.config.dataDir, params.id) : null);
      deps.pcdCaches.evict(params.id);
      return { status: 204 };
    },
  });

  router.add({
    method: 'post',
    path: '/databases/{id}/pull',
    operationId: 'pullDatabase',
    summary: 'Fetch, import new base ops and rebuild the cache (a Temporal workflow; concurrent pulls join one run)',
    tags,
    params: IdParams,
    query: z.object({ wait: booleanQuery.optional().openapi({ description: 'Answer when the pull has finished' }) }),
    responses: {
      200: { description: 'Finished (wait=true)', schema: PullResultSchema },
      202: { description: 'Started; follow cache.status on the database', schema: PullResultSchema },
      404: { description: 'No such database' },
      409: { description: 'A rollback of the database is running' },
    },
    handler: async ({ params, query }) => {
      await service().load(params.id);
      await new RollbackService(deps.orm, deps.temporal, deps.config).assertNoRollbackRunning(params.id);
      const result = await pull(params.id, query.wait ?? false);
      return { status: query.wait ? 200 : 202, body: result };
    },
  });
}
