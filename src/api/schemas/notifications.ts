import { CHANNEL_KINDS, DELIVERY_STATUSES, NOTIFICATION_EVENT_TYPES } from '../../domain/notifications';
import { text, z } from '../http/zod';

export const ChannelKindSchema = z.enum(CHANNEL_KINDS).openapi({ description: '`webhook`: a JSON POST signed with HMAC-SHA256; `discord`: a Discord webhook (embeds)' });
export const EventTypeSchema = z.enum(NOTIFICATION_EVENT_TYPES).openapi('NotificationEventType');
export const DeliveryStatusSchema = z.enum(DELIVERY_STATUSES).openapi('NotificationDeliveryStatus');

const name = text({ min: 1, max: 100 });
const url = text({ min: 1, max: 2000 })
  .url()
  .refine((v) => /^https?:\/\//i.test(v), 'must be an http:// or https:// URL')
  .openapi({ description: 'Where events are POSTed. Write-only: encrypted at rest, never returned or logged.', writeOnly: true, example: 'https://hooks.example.org/arrgo' });
const secret = text({ min: 16, max: 256, trim: false }).openapi({
  description: 'Webhook channels only: the HMAC-SHA256 key of the X-Arrgo-Signature header. Write-only: encrypted at rest, never returned or logged.',
  writeOnly: true,
});
const events = z.array(EventTypeSchema).min(1).max(NOTIFICATION_EVENT_TYPES.length).openapi({ description: 'The events this channel receives (at least one)' });

export const ChannelCreateSchema = z
  .object({ name, kind: ChannelKindSchema, url, secret: secret.optional(), events, enabled: z.boolean().optional() })
  .strict()
  .openapi('NotificationChannelCreate');

export const ChannelPatchSchema = z
  .object({ name: name.optional(), kind: ChannelKindSchema.optional(), url: url.optional(), secret: secret.optional(), events: events.optional(), enabled: z.boolean().optional() })
  .strict()
  .refine((v) => Object.keys(v).length > 0, 'must name at least one field to change')
  .openapi('NotificationChannelPatch');

export const ChannelSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    kind: ChannelKindSchema,
    events: z.array(EventTypeSchema),
    enabled: z.boolean(),
    urlSet: z.boolean().openapi({ description: 'A URL is stored (never returned)' }),
    secretSet: z.boolean().openapi({ description: 'A signing secret is stored (never returned)' }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('NotificationChannel');

export const DeliverySchema = z
  .object({
    id: z.string().openapi({ description: 'Delivery id: also the Idempotency-Key header the receiver gets (stable per event and channel)' }),
    eventId: z.string().openapi({ description: 'The stable event id (e.g. `drift:3:1732350000000`, `rollout:7:gate`)' }),
    eventType: z.union([EventTypeSchema, z.literal('test')]),
    channelId: z.number().int().nullable().openapi({ description: 'null once the channel was deleted' }),
    channelName: z.string(),
    channelKind: ChannelKindSchema,
    status: DeliveryStatusSchema,
    attempts: z.number().int(),
    lastStatusCode: z.number().int().nullable(),
    lastError: z.string().nullable().openapi({ description: '`timeout`, `unreachable`, `server_error`, `rate_limited`, `rejected`, `redirect`, `channel_deleted`, `not_relevant`' }),
    attemptLog: z.array(
      z.object({
        attempt: z.number().int(),
        at: z.string(),
        statusCode: z.number().int().nullable(),
        outcome: z.enum(['delivered', 'retry', 'rejected']),
        error: z.string().nullable(),
      }),
    ),
    createdAt: z.string(),
    lastAttemptAt: z.string().nullable(),
    finishedAt: z.string().nullable(),
    workflowId: z.string(),
    workflowUrl: z.string().nullable().openapi({ description: 'The delivery workflow in the Temporal Web UI, when its address is known' }),
  })
  .openapi('NotificationDelivery');
