import { ChannelService } from '../../services/notifications/channel-service';
import { DeliveryService } from '../../services/notifications/delivery-service';
import type { ApiDeps } from '../deps';
import { page, paginated, paginationQuery } from '../http/pagination';
import type { ApiRouter } from '../http/route';
import { waitedResponse, waitMs, waitQuery } from '../http/wait';
import { idParam, integerQuery, INT32_MAX, text, z } from '../http/zod';
import { ChannelCreateSchema, ChannelPatchSchema, ChannelSchema, DeliverySchema, DeliveryStatusSchema, EventTypeSchema } from '../schemas/notifications';

const IdParams = z.object({ id: idParam() });
const tags = ['Notifications'];

const SIGNING = [
  'Every request is a JSON POST with `Idempotency-Key` and `X-Arrgo-Delivery` (the delivery id, stable per event and channel: a receiver that sees it twice has the event already), and `X-Arrgo-Event` (the event type).',
  'Webhook channels add `X-Arrgo-Timestamp` (Unix seconds) and `X-Arrgo-Signature: sha256=<hex>`, the HMAC-SHA256 of `<timestamp>.<raw body>` under the channel secret.',
  'Discord channels get one embed per event, coloured by severity, with inline fields and links to the API resource and the Temporal workflow.',
].join(' ');

export function registerNotificationRoutes(router: ApiRouter, deps: ApiDeps): void {
  const channels = () => ChannelService.of(deps);
  const deliveries = () => DeliveryService.of(deps);

  router.add({
    method: 'post',
    path: '/notifications/channels',
    operationId: 'createNotificationChannel',
    summary: 'Add a notification channel (webhook or Discord)',
    description: `The URL and secret are encrypted at rest (AES-256-GCM, like instance API keys), never returned and never logged. ${SIGNING}`,
    tags,
    body: ChannelCreateSchema,
    responses: { 201: { description: 'Created', schema: ChannelSchema } },
    handler: async ({ body }) => ({ status: 201, body: await channels().create(body) }),
  });

  router.add({
    method: 'get',
    path: '/notifications/channels',
    operationId: 'listNotificationChannels',
    summary: 'List notification channels',
    tags,
    query: z.object({ ...paginationQuery }),
    responses: { 200: { description: 'Channels, oldest first', schema: paginated(ChannelSchema) } },
    handler: async ({ query }) => {
      const { items, total } = await channels().list(query.page, query.pageSize);
      return { body: page(items, total, query.page, query.pageSize) };
    },
  });

  router.add({
    method: 'get',
    path: '/notifications/channels/{id}',
    operationId: 'getNotificationChannel',
    summary: 'Get one notification channel',
    tags,
    params: IdParams,
    responses: { 200: { description: 'The channel', schema: ChannelSchema }, 404: { description: 'No such channel' } },
    handler: async ({ params }) => ({ body: await channels().get(params.id) }),
  });

  router.add({
    method: 'patch',
    path: '/notifications/channels/{id}',
    operationId: 'updateNotificationChannel',
    summary: 'Change a channel (any subset; url and secret replace the stored ones; the kind stays)',
    tags,
    params: IdParams,
    body: ChannelPatchSchema,
    responses: { 200: { description: 'The updated channel', schema: ChannelSchema }, 404: { description: 'No such channel' } },
    handler: async ({ params, body }) => ({ body: await channels().update(params.id, body) }),
  });

  router.add({
    method: 'delete',
    path: '/notifications/channels/{id}',
    operationId: 'deleteNotificationChannel',
    summary: 'Remove a channel (its deliveries stay in the log under its name)',
    tags,
    params: IdParams,
    responses: { 204: { description: 'Deleted' }, 404: { description: 'No such channel' } },
    handler: async ({ params }) => {
      await channels().delete(params.id);
      return { status: 204 };
    },
  });

  router.add({
    method: 'post',
    path: '/notifications/channels/{id}/test',
    operationId: 'testNotificationChannel',
    summary: 'Send a test event to the channel (a delivery workflow like any other)',
    description: 'Answers 202 with the delivery as recorded so far; `wait=true` answers 200 once the first attempt is recorded (delivered, refused, or retrying with the receiver\'s status code), at most waitSeconds later. Retries with backoff go on in the delivery workflow; follow them in the delivery log.',
    tags,
    params: IdParams,
    query: z.object(waitQuery("the first attempt is recorded (delivered, refused, or retrying with the receiver's status code)")),
    responses: {
      200: { description: 'The delivery after its first attempt (wait=true)', schema: DeliverySchema },
      202: { description: 'The delivery, started (not waited for, or the wait bound passed)', schema: DeliverySchema },
      404: { description: 'No such channel' },
    },
    handler: async ({ params, query }) => waitedResponse(await deliveries().sendTest(params.id, waitMs(query))),
  });

  router.add({
    method: 'get',
    path: '/notifications/deliveries',
    operationId: 'listNotificationDeliveries',
    summary: 'The delivery log: one row per event and channel with status, attempts, last code and time',
    tags,
    query: z.object({
      channelId: integerQuery(1, INT32_MAX).optional(),
      status: DeliveryStatusSchema.optional(),
      eventType: z.union([EventTypeSchema, z.literal('test')]).optional(),
      eventId: text({ min: 1, max: 120 }).optional(),
      ...paginationQuery,
    }),
    responses: { 200: { description: 'Deliveries, newest first', schema: paginated(DeliverySchema) } },
    handler: async ({ query }) => {
      const { items, total } = await deliveries().list(query);
      return { body: page(items, total, query.page, query.pageSize) };
    },
  });

  router.add({
    method: 'get',
    path: '/notifications/deliveries/{deliveryId}',
    operationId: 'getNotificationDelivery',
    summary: 'One delivery with its attempt log',
    tags,
    params: z.object({ deliveryId: text({ min: 1, max: 40 }).regex(/^dlv-[0-9a-f]{32}$/, 'must be a delivery id (dlv- and 32 hex digits)') }),
    responses: { 200: { description: 'The delivery', schema: DeliverySchema }, 404: { description: 'No such delivery' } },
    handler: async ({ params }) => ({ body: await deliveries().get(params.deliveryId) }),
  });
}
