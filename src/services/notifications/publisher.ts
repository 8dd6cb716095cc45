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
  return { publicUrl: config.publicUrl, temporalUiUrl: config.temporal.uiUrl ?? temporalUiUrl, namespace: config.temporal.namespace };
}

/**
 * Records an event under its stable id and starts one delivery workflow per enabled channel that
 * wants it. Safe to repeat: the event row, the delivery rows (one per event and channel) and the
 * workflow ids are all derived from the event id, so a retried publish finds what the first made
 * and never starts a second delivery. Drift passes the flood guard first.
 */
export async function publishNotification(deps: PublishDeps, event: NotificationPayload, subjectKey: string, only?: { channelId: number }): Promise<PublishResult> {
  const em = deps.em.fork();
  let stored = await em.findOne(NotificationEvent, { id: event.id });
  if (!stored) stored = await recordEvent(deps, em, event, subjectKey);
  if (stored.coalescedInto) {
    deps.logger.info({ eventId: event.id, type: event.type, coalescedInto: stored.coalescedInto }, 'notification coalesced by the flood guard');
    return { eventId: event.id, coalesced: true, deliveryIds: [] };
  }
  const channels = only
    ? await em.find(NotificationChannel, { id: only.channelId })
    : (await em.find(NotificationChannel, { enabled: true }, { orderBy: { id: 'asc' } })).filter((c) => (c.events as string[]).includes(event.type));
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
  return { eventId: event.id, coalesced: false, deliveryIds: ids };
}

async function recordEvent(deps: PublishDeps, em: EntityManager, event: NotificationPayload, subjectKey: string): Promise<NotificationEvent> {
  const lastTold = DRIFT_TYPES.includes(event.type)
    ? await em.findOne(NotificationEvent, { subjectKey, type: { $in: DRIFT_TYPES }, coalescedInto: null }, { orderBy: { occurredAt: 'desc' } })
    : null;
  const windowMs = deps.config.notifications.driftWindowMinutes * 60_000;
  const coalesced = DRIFT_TYPES.includes(event.type) && coalesceDrift(event.type, lastTold, new Date(event.occurredAt), windowMs);
  const row = em.create(NotificationEvent, {
    id: event.id,
    type: event.type,
    severity: event.severity,
    subjectKey,
    payload: event,
    occurredAt: new Date(event.occurredAt),
    // Folded into what receivers last heard; a resolution of drift nobody heard of folds into itself.
    coalescedInto: coalesced ? (lastTold?.id ?? event.id) : null,
    coalescedCount: 0,
  });
  if (coalesced && lastTold) lastTold.coalescedCount += 1;
  try {
    await em.flush();
    return row;
  } catch (error) {
    if (!(error instanceof UniqueConstraintViolationException)) throw error;
    em.clear();
    return em.findOneOrFail(NotificationEvent, { id: event.id });
  }
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
