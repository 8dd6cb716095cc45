import { SyncHistoryService } from '../../services/sync/history-service';
import { validationError } from '../../errors';
import type { ApiDeps } from '../deps';
import { page, paginated, paginationQuery } from '../http/pagination';
import type { ApiRouter } from '../http/route';
import { idParam, text, z } from '../http/zod';
import { ArrTypeSchema } from '../schemas/common';
import { HistorySettingsPatchSchema, HistorySettingsSchema, SyncHistoryItemSchema, SyncRunStatusSchema, SyncSectionSchema, SyncTriggerSchema } from '../schemas/sync';

const tags = ['Sync history'];
const dateTime = z.string().max(64).datetime({ offset: true, message: 'must be an ISO 8601 date-time' }).transform((v) => new Date(v));

export function registerSyncHistoryRoutes(router: ApiRouter, deps: ApiDeps): void {
  const history = () => new SyncHistoryService(deps);

  router.add({
    method: 'get',
    path: '/sync-history',
    operationId: 'listSyncHistory',
    summary: 'Sync runs, newest first; every filter is optional and they combine with AND',
    tags,
    query: z
      .object({
        instanceId: idParam().optional(),
        arrType: ArrTypeSchema.optional(),
        status: SyncRunStatusSchema.optional(),
        trigger: SyncTriggerSchema.optional(),
        section: SyncSectionSchema.optional(),
        from: dateTime.optional().openapi({ description: 'Lower bound on startedAt (inclusive)' }),
        to: dateTime.optional().openapi({ description: 'Upper bound on startedAt (inclusive)' }),
        q: text({ min: 1, max: 200 }).optional().openapi({ description: 'Free text on the instance name or the error' }),
        ...paginationQuery,
      })
      .strict(),
    responses: { 200: { description: 'A page of runs', schema: paginated(SyncHistoryItemSchema) } },
    handler: async ({ query }) => {
      if (query.from && query.to && query.from > query.to) throw validationError('Invalid request: query.from must not be after query.to');
      const { items, total } = await history().list(query);
      return { body: page(items, total, query.page, query.pageSize) };
    },
  });

  router.add({
    method: 'get',
    path: '/sync-history/settings',
    operationId: 'getSyncHistorySettings',
    summary: 'Retention settings of the sync history',
    tags,
    responses: { 200: { description: 'The settings', schema: HistorySettingsSchema } },
    handler: async () => ({ body: await history().settings() }),
  });

  router.add({
    method: 'patch',
    path: '/sync-history/settings',
    operationId: 'updateSyncHistorySettings',
    summary: 'Change retention; creates, updates or deletes the Temporal Schedule that applies it',
    tags,
    body: HistorySettingsPatchSchema,
    responses: { 200: { description: 'The settings now in force', schema: HistorySettingsSchema } },
    handler: async ({ body }) => ({ body: await history().updateSettings(body) }),
  });

  // After /sync-history/settings, which this path would otherwise shadow.
  router.add({
    method: 'get',
    path: '/sync-history/{id}',
    operationId: 'getSyncRun',
    summary: "One sync run: a preview's runId while it applies (items synced so far) and after (its outcome)",
    tags,
    params: z.object({ id: idParam() }),
    responses: { 200: { description: 'The run', schema: SyncHistoryItemSchema }, 404: { description: 'No such run (or removed by retention)' } },
    handler: async ({ params }) => ({ body: await history().get(params.id) }),
  });
}
