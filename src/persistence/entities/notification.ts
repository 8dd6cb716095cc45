import { EntitySchema } from '@mikro-orm/core';
import type { ChannelKind, DeliveryAttempt, DeliveryStatus, NotificationEventType, NotificationPayload, Severity } from '../../domain/notifications';
import { createdAtColumn, updatedAtColumn } from './timestamps';

/** A place arrgo speaks up: a signed generic webhook or a Discord webhook. */
export class NotificationChannel {
  id!: number;
  name!: string;
  kind!: ChannelKind;
  /** AES-256-GCM sealed URL (SecretBox); write-only in the API. */
  urlSealed!: string;
  /** Sealed HMAC secret of a webhook channel; null for Discord. */
  secretSealed: string | null = null;
  events: NotificationEventType[] = [];
  enabled: boolean = true;
  createdAt: Date = new Date();
  updatedAt: Date = new Date();
}

export const NotificationChannelSchema = new EntitySchema<NotificationChannel>({
  class: NotificationChannel,
  tableName: 'notification_channels',
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    name: { type: 'string', length: 100, unique: true },
    kind: { type: 'string', length: 20 },
    urlSealed: { type: 'text', fieldName: 'url_sealed' },
    secretSealed: { type: 'text', fieldName: 'secret_sealed', nullable: true },
    events: { type: 'json' },
    enabled: { type: 'boolean', default: true },
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
});

/** An event arrgo raised, under its stable id; a coalesced one names the event it was folded into. */
export class NotificationEvent {
  id!: string;
  type!: NotificationEventType;
  severity!: Severity;
  /** What the event is about (`instance:3`, `rollout:7`): the flood guard's key. */
  subjectKey!: string;
  payload!: NotificationPayload;
  occurredAt!: Date;
  coalescedInto: string | null = null;
  coalescedCount: number = 0;
}

export const NotificationEventSchema = new EntitySchema<NotificationEvent>({
  class: NotificationEvent,
  tableName: 'notification_events',
  indexes: [
    { name: 'notification_events_subject_index', properties: ['subjectKey', 'type', 'occurredAt'] },
    { name: 'notification_events_occurred_index', properties: ['occurredAt', 'id'] },
  ],
  properties: {
    id: { type: 'string', length: 120, primary: true },
    type: { type: 'string', length: 40 },
    severity: { type: 'string', length: 10 },
    subjectKey: { type: 'string', length: 60, fieldName: 'subject_key' },
    payload: { type: 'json' },
    occurredAt: { type: 'datetime', fieldName: 'occurred_at' },
    coalescedInto: { type: 'string', length: 120, fieldName: 'coalesced_into', nullable: true },
    coalescedCount: { type: 'integer', fieldName: 'coalesced_count', default: 0 },
  },
});

/** One event to one channel: the delivery log row, and the workflow's idempotency key. */
export class NotificationDelivery {
  id!: string;
  eventId!: string;
  eventType!: NotificationEventType;
  channelId: number | null = null;
  channelName!: string;
  channelKind!: ChannelKind;
  status!: DeliveryStatus;
  attempts: number = 0;
  lastStatusCode: number | null = null;
  lastError: string | null = null;
  attemptLog: DeliveryAttempt[] = [];
  workflowId!: string;
  createdAt: Date = new Date();
  lastAttemptAt: Date | null = null;
  finishedAt: Date | null = null;
}

export const NotificationDeliverySchema = new EntitySchema<NotificationDelivery>({
  class: NotificationDelivery,
  tableName: 'notification_deliveries',
  uniques: [{ name: 'notification_deliveries_event_channel_unique', properties: ['eventId', 'channelId'] }],
  indexes: [
    { name: 'notification_deliveries_created_index', properties: ['createdAt', 'id'] },
    { name: 'notification_deliveries_channel_index', properties: ['channelId', 'createdAt', 'id'] },
    { name: 'notification_deliveries_status_index', properties: ['status', 'createdAt', 'id'] },
  ],
  properties: {
    id: { type: 'string', length: 40, primary: true },
    eventId: { type: 'string', length: 120, fieldName: 'event_id' },
    eventType: { type: 'string', length: 40, fieldName: 'event_type' },
    channelId: { type: 'integer', fieldName: 'channel_id', nullable: true },
    channelName: { type: 'string', length: 100, fieldName: 'channel_name' },
    channelKind: { type: 'string', length: 20, fieldName: 'channel_kind' },
    status: { type: 'string', length: 20 },
    attempts: { type: 'integer', default: 0 },
    lastStatusCode: { type: 'integer', fieldName: 'last_status_code', nullable: true },
    lastError: { type: 'string', length: 40, fieldName: 'last_error', nullable: true },
    attemptLog: { type: 'json', fieldName: 'attempt_log' },
    workflowId: { type: 'string', length: 300, fieldName: 'workflow_id' },
    createdAt: createdAtColumn(),
    lastAttemptAt: { type: 'datetime', fieldName: 'last_attempt_at', nullable: true },
    finishedAt: { type: 'datetime', fieldName: 'finished_at', nullable: true },
  },
});
