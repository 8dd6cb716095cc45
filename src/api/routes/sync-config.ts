import { SyncConfigService } from '../../services/sync/sync-config-service';
import type { ApiDeps } from '../deps';
import type { ApiRouter } from '../http/route';
import { idParam, z } from '../http/zod';
import { SyncConfigBodySchema, SyncConfigSchema } from '../schemas/sync';

const tags = ['Sync'];
const IdParams = z.object({ id: idParam() });

export function registerSyncConfigRoutes(router: ApiRouter, deps: ApiDeps): void {
  const service = () => SyncConfigService.of(deps);

  router.add({
    method: 'put',
    path: '/instances/{id}/sync-config',
    operationId: 'putSyncConfig',
    summary: 'Set which databases feed the instance, in priority order, and what each syncs (names are checked against each resolved database)',
    tags,
    params: IdParams,
    body: SyncConfigBodySchema,
    responses: {
      200: { description: 'The stored configuration', schema: SyncConfigSchema },
      400: { description: 'A name not in its database, a profile the app family cannot use, a database listed twice or missing, more than 8 databases, or databaseId and databases both given' },
      404: { description: 'No such instance' },
      503: { description: 'The database cache is not ready' },
    },
    handler: async ({ params, body }) => ({ body: await service().put(params.id, body) }),
  });

  router.add({
    method: 'get',
    path: '/instances/{id}/sync-config',
    operationId: 'getSyncConfig',
    summary: "The instance's sync configuration",
    tags,
    params: IdParams,
    responses: { 200: { description: 'The configuration', schema: SyncConfigSchema }, 404: { description: 'No such instance, or none configured' } },
    handler: async ({ params }) => ({ body: await service().get(params.id) }),
  });

  router.add({
    method: 'delete',
    path: '/instances/{id}/sync-config',
    operationId: 'deleteSyncConfig',
    summary: 'Stop syncing the instance (nothing in the app is touched)',
    tags,
    params: IdParams,
    responses: { 204: { description: 'Removed' }, 404: { description: 'No such instance, or none configured' } },
    handler: async ({ params }) => {
      await service().delete(params.id);
      return { status: 204 };
    },
  });
}
