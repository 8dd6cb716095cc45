import { UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/core';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { Config } from '../../config';
import { coalesceDrift, type LinkContext, type NotificationEventType, type NotificationPayload } from '../../domain/notifications';
import type { Logger } from '../../platform/logger';
import type { TemporalGateway } from '../../platform/temporal-client';
import { NotificationChannel, NotificationDelivery, NotificationEvent } from '../../persistence/entities';
import { notificationDeliveryWorkflow, notificationWorkflowId, searchAttributes, type NotificationDeliveryInput } from '../../workflows/contracts';
import { startWorkflow } from '../workflow-runner';
import { deliveryId } from './signature';

export interface PublishDeps {
  em: EntityManager;
  /** The API's gateway, or the worker's client inside an activity. */
  temporal: Pick<TemporalGateway, 'client' | 'taskQueue'>;
  config: Config;
  logger: Logger;
}

export interface PublishResult {
  eventId: string;
  coalesced: boolean;
  deliveryIds: string[];
}

const DRIFT_TYPES: NotificationEventType[] = ['drift.detected', 'drift.resolved'];

/** Where an event's links point, from the configuration and the Temporal UI's address. */
export function linkContext(config: Config, temporalUiUrl: string | null): LinkContext {
  return { publicUrl: config.publicUrl, urlBase: config.urlBase, temporalUiUrl: config.temporal.uiUrl ?? temporalUiUrl, namespace: config.temporal.namespace };
}

/**
 * Records an event under its stable id and starts one delivery workflow per enabled channel that
 * wants it. Safe to repeat: the event row, the delivery rows (one per event and channel) and the
 * workflow ids are all derived from the event id, so a retried publish finds what the first made
 * and never starts a second delivery. Drift passes the flood guard first.
 */
export async function publishNotification(deps: PublishDeps, event: NotificationPayload, subjectKey: string, only?: { channelId: number }): Promise<PublishResult> {
  const [result] = await publishNotifications(deps, [{ event, subjectKey }], only);
  return result;
}

/** Events published per statement batch (bounded for SQLite's parameter limit). */
const PUBLISH_CHUNK = 100;

/**
 * publishNotification for several events at once (a polling run's drift transitions): the events
 * are recorded with one read of what is already stored, one read of what each drift subject's
 * receivers last heard, one transaction and one read of the channels, instead of four statements
 * per event. Results are in the order given.
 */
export async function publishNotifications(deps: PublishDeps, items: { event: NotificationPayload; subjectKey: string }[], only?: { channelId: number }): Promise<PublishResult[]> {
  const results: PublishResult[] = [];
  for (let i = 0; i < items.length; i += PUBLISH_CHUNK) results.push(...(await publishChunk(deps, items.slice(i, i + PUBLISH_CHUNK), only)));
  return results;
}

async function publishChunk(deps: PublishDeps, items: { event: NotificationPayload; subjectKey: string }[], only?: { channelId: number }): Promise<PublishResult[]> {
  if (!items.length) return [];
  const em = deps.em.fork();
  const stored = await recordEvents(deps, em, items);
  let channels: NotificationChannel[] | null = null;
  const results: PublishResult[] = [];
  for (const { event } of items) {
    const row = stored.get(event.id)!;
    if (row.coalescedInto) {
      deps.logger.info({ eventId: event.id, type: event.type, coalescedInto: row.coalescedInto }, 'notification coalesced by the flood guard');
      results.push({ eventId: event.id, coalesced: true, deliveryIds: [] });
      continue;
    }
    channels ??= only ? await em.find(NotificationChannel, { id: only.channelId }) : await em.find(NotificationChannel, { enabled: true }, { orderBy: { id: 'asc' } });
    const wanted = only ? channels : channels.filter((c) => (c.events as string[]).includes(event.type));
    results.push({ eventId: event.id, coalesced: false, deliveryIds: await deliver(deps, em, event, wanted) });
  }
  return results;
}

async function deliver(deps: PublishDeps, em: EntityManager, event: NotificationPayload, channels: NotificationChannel[]): Promise<string[]> {
  const ids: string[] = [];
  for (const channel of channels) {
    const id = deliveryId(event.id, channel.id);
    const workflowId = notificationWorkflowId(deps.temporal.taskQueue, id);
    if (!(await em.findOne(NotificationDelivery, { id }))) {
      em.create(NotificationDelivery, {
        id,
        eventId: event.id,
        eventType: event.type,
        channelId: channel.id,
        channelName: channel.name,
        channelKind: channel.kind,
        status: 'pending',
        attempts: 0,
        lastStatusCode: null,
        lastError: null,
        attemptLog: [],
        workflowId,
        createdAt: new Date(),
        lastAttemptAt: null,
        finishedAt: null,
      });
      try {
        await em.flush();
      } catch (error) {
        if (!(error instanceof UniqueConstraintViolationException)) throw error;
        em.clear();
      }
    }
    await startDelivery(deps, { id, workflowId, channelName: channel.name, channelKind: channel.kind, event });
    ids.push(id);
  }
  if (ids.length) deps.logger.info({ eventId: event.id, type: event.type, deliveries: ids.length }, 'notification published');
  return ids;
}

/**
 * The stored row of each event, recording those not stored yet (in one transaction). A drift
 * event passes the flood guard against what its subject's receivers last heard, including an
 * event recorded earlier in the same batch.
 */
async function recordEvents(deps: PublishDeps, em: EntityManager, items: { event: NotificationPayload; subjectKey: string }[]): Promise<Map<string, NotificationEvent>> {
  const isDrift = (item: { event: NotificationPayload }) => DRIFT_TYPES.includes(item.event.type);
  const driftSubjects = [...new Set(items.filter(isDrift).map((i) => i.subjectKey))];
  const lastToldIds = await lastToldDriftIds(em, driftSubjects);
  const loaded = await em.find(NotificationEvent, { id: { $in: [...new Set([...items.map((i) => i.event.id), ...lastToldIds])] } });
  const byId = new Map(loaded.map((e) => [e.id, e]));
  const lastTold = new Map<string, NotificationEvent>();
  for (const id of lastToldIds) if (byId.has(id)) lastTold.set(byId.get(id)!.subjectKey, byId.get(id)!);
  const stored = new Map<string, NotificationEvent>();
  let created = false;
  const windowMs = deps.config.notifications.driftWindowMinutes * 60_000;
  for (const item of items) {
    const { event, subjectKey } = item;
    const existing = byId.get(event.id);
    if (existing) {
      stored.set(event.id, existing);
      continue;
    }
    const told = isDrift(item) ? (lastTold.get(subjectKey) ?? null) : null;
    const coalesced = isDrift(item) && coalesceDrift(event.type, told, new Date(event.occurredAt), windowMs);
    const row = em.create(NotificationEvent, {
      id: event.id,
      type: event.type,
      severity: event.severity,
      subjectKey,
      payload: event,
      occurredAt: new Date(event.occurredAt),
      // Folded into what receivers last heard; a resolution of drift nobody heard of folds into itself.
      coalescedInto: coalesced ? (told?.id ?? event.id) : null,
      coalescedCount: 0,
    });
    if (coalesced && told) told.coalescedCount += 1;
    if (isDrift(item) && !coalesced) lastTold.set(subjectKey, row);
    byId.set(event.id, row);
    stored.set(event.id, row);
    created = true;
  }
  if (!created) return stored;
  try {
    await em.flush();
    return stored;
  } catch (error) {
    if (!(error instanceof UniqueConstraintViolationException)) throw error;
    // Another publish of one of these events won the race: record them one at a time.
    em.clear();
    if (items.length === 1) return new Map([[items[0].event.id, await em.findOneOrFail(NotificationEvent, { id: items[0].event.id })]]);
    const one = new Map<string, NotificationEvent>();
    for (const item of items) one.set(item.event.id, (await recordEvents(deps, em, [item])).get(item.event.id)!);
    return one;
  }
}

/** Per drift subject, the id of the latest drift event its receivers heard (not coalesced). */
async function lastToldDriftIds(em: EntityManager, subjectKeys: string[]): Promise<string[]> {
  if (!subjectKeys.length) return [];
  const keys = subjectKeys.map(() => '?').join(', ');
  const types = DRIFT_TYPES.map(() => '?').join(', ');
  const rows: { id: string; subject_key: string }[] = await em.getConnection().execute(
    `select e.id, e.subject_key from notification_events e where e.subject_key in (${keys}) and e.type in (${types}) and e.coalesced_into is null` +
      ` and e.occurred_at = (select max(l.occurred_at) from notification_events l where l.subject_key = e.subject_key and l.type in (${types}) and l.coalesced_into is null)`,
    [...subjectKeys, ...DRIFT_TYPES, ...DRIFT_TYPES],
  );
  // Events at the same instant: one of them, as a findOne ordered by time would give.
  const bySubject = new Map<string, string>();
  for (const row of rows) if (!bySubject.has(row.subject_key)) bySubject.set(row.subject_key, row.id);
  return [...bySubject.values()];
}

async function startDelivery(deps: PublishDeps, delivery: { id: string; workflowId: string; channelName: string; channelKind: string; event: NotificationPayload }): Promise<void> {
  const { config } = deps;
  const gateDelay =
    delivery.event.type === 'rollout.awaiting_gate' ? Math.max(0, config.notifications.gateWaitMinutes * 60_000 - (Date.now() - Date.parse(delivery.event.occurredAt))) : 0;
  const input: NotificationDeliveryInput = {
    deliveryId: delivery.id,
    delayMs: gateDelay,
    attemptTimeoutMs: config.notifications.requestTimeoutMs + 5000,
    retry: config.notifications.retry,
  };
  const instanceIds = delivery.event.subject.kind === 'instance' && delivery.event.subject.id !== null ? [delivery.event.subject.id] : undefined;
  try {
    await startWorkflow(deps.temporal, notificationDeliveryWorkflow, {
      workflowId: delivery.workflowId,
      // Never two deliveries of one event to one channel, not even after the first one closed.
      reusePolicy: 'REJECT_DUPLICATE',
      args: [input],
      staticSummary: `Notify ${delivery.channelKind} channel "${delivery.channelName}": ${delivery.event.title}`.slice(0, 400),
      staticDetails: `Event ${delivery.event.id} (${delivery.event.type}); delivery ${delivery.id}. Retries timeouts, 408, 429 and 5xx with exponential backoff (first ${config.notifications.retry.initialIntervalMs} ms, ${config.notifications.retry.maximumAttempts} attempts); other 4xx are final.`,
      searchAttributes: searchAttributes({ kind: 'notification-delivery', trigger: delivery.event.type, ...(instanceIds ? { instanceIds } : {}) }),
    });
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return;
    throw error;
  }
}
