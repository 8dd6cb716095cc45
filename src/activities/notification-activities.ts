import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { postWebhook } from '../clients/webhook';
import { ATTEMPT_LOG_LIMIT, atDelivery, classifyAttempt, renderBody, type DeliveryAttempt, type DeliveryError, type NotificationPayload } from '../domain/notifications';
import { CanaryRollout, NotificationChannel, NotificationDelivery, NotificationEvent } from '../persistence/entities';
import { notificationDeliveriesTotal } from '../platform/metrics';
import { ChannelService } from '../services/notifications/channel-service';
import { webhookSignature } from '../services/notifications/signature';
import { DELIVERY_REJECTED, DELIVERY_RETRYABLE, type NotificationDeliveryResult } from '../workflows/contracts';
import type { ActivityDeps } from './deps';

export function notificationActivities(deps: ActivityDeps) {
  const em = () => deps.orm.em;
  const result = (row: NotificationDelivery): NotificationDeliveryResult => ({ deliveryId: row.id, status: row.status, attempts: row.attempts, lastStatusCode: row.lastStatusCode });

  return {
    /**
     * One attempt: POST the rendered event (signed for webhooks) with the delivery id as the
     * Idempotency-Key, and record the attempt. A delivery already recorded as delivered (the
     * worker died after the receiver answered) is not sent again.
     */
    async deliverNotification(deliveryId: string): Promise<NotificationDeliveryResult> {
      const ctx = Context.current();
      const row = await em().findOneOrFail(NotificationDelivery, { id: deliveryId });
      if (row.status === 'delivered' || row.status === 'failed' || row.status === 'skipped') return result(row);
      const channel = row.channelId === null ? null : await em().findOne(NotificationChannel, { id: row.channelId });
      if (!channel) {
        await settle(row, 'failed', 'channel_deleted');
        throw ApplicationFailure.nonRetryable('The channel was deleted before the delivery', DELIVERY_REJECTED);
      }
      const event = await em().findOneOrFail(NotificationEvent, { id: row.eventId });
      const target = new ChannelService(em(), deps.secretBox).target(channel);
      const sentAt = new Date();
      const body = JSON.stringify(renderBody(target.kind, atDelivery(event.payload as NotificationPayload, sentAt), row.id));
      const headers: Record<string, string> = { 'idempotency-key': row.id, 'x-arrgo-delivery': row.id, 'x-arrgo-event': event.type };
      if (target.kind === 'webhook' && target.secret) {
        const timestamp = Math.floor(sentAt.getTime() / 1000);
        headers['x-arrgo-timestamp'] = String(timestamp);
        headers['x-arrgo-signature'] = webhookSignature(target.secret, timestamp, body);
      }
      const answer = await postWebhook(target.url, body, headers, deps.config.notifications.requestTimeoutMs);
      const classified = classifyAttempt(answer);
      const statusCode = 'status' in answer ? answer.status : null;
      const attempt: DeliveryAttempt = { attempt: ctx.info.attempt, at: sentAt.toISOString(), statusCode, outcome: classified.outcome, error: classified.error };
      const fork = em().fork();
      const fresh = await fork.findOneOrFail(NotificationDelivery, { id: deliveryId });
      fresh.attempts = Math.max(fresh.attempts + 1, ctx.info.attempt);
      fresh.lastStatusCode = statusCode;
      fresh.lastError = classified.error;
      fresh.lastAttemptAt = sentAt;
      fresh.attemptLog = [...fresh.attemptLog, attempt].slice(-ATTEMPT_LOG_LIMIT);
      fresh.status = classified.outcome === 'delivered' ? 'delivered' : classified.outcome === 'rejected' ? 'failed' : 'retrying';
      if (classified.outcome !== 'retry') fresh.finishedAt = new Date();
      await fork.flush();
      const logged = { deliveryId, eventId: row.eventId, channelKind: target.kind, attempt: ctx.info.attempt, statusCode, outcome: classified.outcome, error: classified.error };
      if (classified.outcome === 'delivered') {
        notificationDeliveriesTotal.inc({ result: 'delivered', channel_kind: target.kind });
        deps.logger.info(logged, 'notification delivered');
        return result(fresh);
      }
      if (classified.outcome === 'rejected') {
        notificationDeliveriesTotal.inc({ result: 'rejected', channel_kind: target.kind });
        deps.logger.warn(logged, 'notification rejected by the receiver (not retried)');
        throw ApplicationFailure.nonRetryable(`The receiver refused the notification (${statusCode ?? classified.error})`, DELIVERY_REJECTED);
      }
      notificationDeliveriesTotal.inc({ result: 'retried', channel_kind: target.kind });
      deps.logger.warn(logged, 'notification attempt failed; retrying with backoff');
      throw ApplicationFailure.retryable(`The notification was not accepted (${classified.error}); retrying`, DELIVERY_RETRYABLE);
    },

    /** Whether a delayed delivery still has something to say (a gate reminder: the rollout still waits). */
    async notificationStillRelevant(deliveryId: string): Promise<boolean> {
      const row = await em().findOneOrFail(NotificationDelivery, { id: deliveryId });
      if (row.eventType !== 'rollout.awaiting_gate') return true;
      const event = await em().findOneOrFail(NotificationEvent, { id: row.eventId });
      const rolloutId = (event.payload as NotificationPayload).subject.id;
      const rollout = rolloutId === null ? null : await em().findOne(CanaryRollout, { id: rolloutId }, { fields: ['status'] });
      return rollout?.status === 'awaiting_confirmation';
    },

    /** Closes a delivery that will not be (or could not be) delivered. */
    async finishNotificationDelivery(deliveryId: string, status: 'failed' | 'skipped'): Promise<NotificationDeliveryResult> {
      const row = await em().findOneOrFail(NotificationDelivery, { id: deliveryId });
      if (row.status === 'delivered' || row.finishedAt) return result(row);
      await settle(row, status, status === 'skipped' ? 'not_relevant' : (row.lastError as DeliveryError | null));
      notificationDeliveriesTotal.inc({ result: status, channel_kind: row.channelKind });
      deps.logger.info({ deliveryId, status, attempts: row.attempts }, 'notification delivery closed');
      return result(row);
    },
  };

  async function settle(row: NotificationDelivery, status: 'failed' | 'skipped', error: DeliveryError | null): Promise<void> {
    row.status = status;
    row.lastError = error;
    row.finishedAt = new Date();
    await em().flush();
  }

}
