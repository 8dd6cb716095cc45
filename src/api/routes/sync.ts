import { SyncPreviewService } from '../../services/sync/preview-service';
import type { ApiDeps } from '../deps';
import { page, paginated, paginationQuery } from '../http/pagination';
import type { ApiRouter } from '../http/route';
import { waitedResponse, waitMs, waitQuery } from '../http/wait';
import { idParam, z } from '../http/zod';
import { InstanceSyncSchema, PreviewCreateSchema, PreviewSchema } from '../schemas/previews';

const tags = ['Sync'];

export function registerSyncRoutes(router: ApiRouter, deps: ApiDeps): void {
  const previews = () => new SyncPreviewService(deps);

  router.add({
    method: 'post',
    path: '/sync/previews',
    operationId: 'createSyncPreview',
    summary: 'Generate a preview of what a sync would change on one instance (a Temporal workflow)',
    description: 'The preview stays applicable until its staleness TTL passes; it then expires.',
    tags,
    body: PreviewCreateSchema,
    query: z.object(waitQuery('the preview is generated: status ready, or failed')),
    responses: {
      202: { description: 'Generating (not waited for, or the wait bound passed); follow GET /sync/previews/{id}', schema: PreviewSchema },
      200: { description: 'Generated (wait=true): status ready or failed', schema: PreviewSchema },
      404: { description: 'No such instance' },
      503: { description: 'The instance database is not ready' },
    },
    handler: async ({ body, query }) => waitedResponse(await previews().create(body, waitMs(query))),
  });

  router.add({
    method: 'get',
    path: '/sync/previews',
    operationId: 'listSyncPreviews',
    summary: 'Previews, newest first',
    tags,
    query: z.object({
      instanceId: idParam().optional(),
      status: z.enum(['generating', 'ready', 'applying', 'applied', 'failed', 'expired']).optional(),
      ...paginationQuery,
    }),
    responses: { 200: { description: 'A page of previews', schema: paginated(PreviewSchema) } },
    handler: async ({ query }) => {
      const { items, total } = await previews().list(query);
      return { body: page(items, total, query.page, query.pageSize) };
    },
  });

  router.add({
    method: 'get',
    path: '/sync/previews/{id}',
    operationId: 'getSyncPreview',
    summary: 'One preview: status, generation time (epoch ms), sections and their outcomes, the SyncChange groups and counts',
    tags,
    params: z.object({ id: idParam() }),
    responses: { 200: { description: 'The preview', schema: PreviewSchema }, 404: { description: 'No such preview' } },
    handler: async ({ params }) => ({ body: await previews().get(params.id) }),
  });

  router.add({
    method: 'post',
    path: '/sync/previews/{id}/apply',
    operationId: 'applySyncPreview',
    summary: 'Apply a ready preview (a Temporal update on its workflow)',
    description:
      'Refused with 409 and code "stale" when the preview expired or the instance changed since it was generated; 409 and code "appMismatch" when the app at the instance\'s URL now reports another app type (nothing is written; the preview fails with that evidence); 409 when it is not ready. ' +
      'Every apply attempt asks the app who it is (system/status) before its first write. ' +
      'Applies of one instance run one at a time, whichever worker runs them: an apply accepted while another is writing to the instance waits for it (status applying), then checks the app again, and fails with code "stale" (nothing written) when the other apply changed what this preview was computed against.',
    tags,
    params: z.object({ id: idParam() }),
    query: z.object(waitQuery('the apply has finished: status applied or failed')),
    responses: {
      202: { description: 'Applying (not waited for, or the wait bound passed)', schema: PreviewSchema },
      200: { description: 'Applied or failed (wait=true)', schema: PreviewSchema },
      404: { description: 'No such preview' },
      409: { description: 'Stale (code stale), the app is of another type (code appMismatch), or not ready' },
    },
    handler: async ({ params, query }) => waitedResponse(await previews().apply(params.id, waitMs(query))),
  });

  router.add({
    method: 'post',
    path: '/instances/{id}/sync',
    operationId: 'syncInstance',
    summary: 'Preview then apply in one step (one workflow; the preview is kept for the record)',
    tags,
    params: z.object({ id: idParam() }),
    body: InstanceSyncSchema.optional(),
    query: z.object(waitQuery('the workflow has finished: status applied or failed')),
    responses: {
      202: { description: 'Started (not waited for, or the wait bound passed)', schema: PreviewSchema },
      200: { description: 'Finished (wait=true): status applied or failed', schema: PreviewSchema },
      404: { description: 'No such instance' },
      503: { description: 'The instance database is not ready' },
    },
    handler: async ({ params, body, query }) => waitedResponse(await previews().syncInstance(params.id, body?.sections, waitMs(query))),
  });
}
