import type { EntityManager } from '@mikro-orm/core';
import type { LinkContext, NotificationPayload } from '../domain/notifications';
import { notificationOutboxEntry, type OutboxEntry } from '../domain/outbox';
import { linkContext } from '../services/notifications/publisher';
import { enqueueOutbox } from '../services/outbox/outbox-store';
import type { ActivityDeps } from './deps';
import { logFailure } from '../platform/logger';

/** Where an event raised in the worker links to. */
export function activityLinks(deps: ActivityDeps): LinkContext {
  return linkContext(deps.config, deps.temporalUiUrl ?? null);
}

/**
 * Raises an event from inside an activity: the event is written to the outbox, in the caller's
 * transaction when one is given (`tx`, so it commits with the state change that caused it),
 * else in one of its own; the process's relay publishes it. Without a transaction, a failure to
 * write never fails the activity that raised the event: it is logged (without detail that could
 * carry a URL) and the activity's own work stands.
 */
export async function notify(deps: ActivityDeps, build: (links: LinkContext) => NotificationPayload | null, subjectKey: string, tx?: EntityManager): Promise<void> {
  if (tx) {
    const event = build(activityLinks(deps));
    if (event) await enqueueOutbox(tx, [notificationOutboxEntry(event, subjectKey)]);
    return;
  }
  try {
    const event = build(activityLinks(deps));
    if (!event) return;
    await deps.orm.em.fork().transactional((own) => enqueueOutbox(own, [notificationOutboxEntry(event, subjectKey)]));
    deps.outbox?.kick();
  } catch (error) {
    logFailure(deps.logger, 'warn', { subjectKey }, error, 'notification could not be written to the outbox');
  }
}

/** The outbox entry of an event built with the activity's links (null when nothing alerts). */
export function notificationEntry(deps: ActivityDeps, build: (links: LinkContext) => NotificationPayload | null, subjectKey: string): OutboxEntry | null {
  const event = build(activityLinks(deps));
  return event ? notificationOutboxEntry(event, subjectKey) : null;
}
