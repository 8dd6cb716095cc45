import type { DeliveryStatus } from '../../domain/notifications';
import { defineWorkflow } from './define';

/** What a delivery workflow needs besides its delivery row: the retry policy comes from the config. */
export interface NotificationDeliveryInput {
  deliveryId: string;
  /** Wait before the first attempt (a rollout's gate reminder); then the event must still hold. */
  delayMs: number;
  /** Start-to-close of one attempt (the request timeout plus bookkeeping). */
  attemptTimeoutMs: number;
  retry: { initialIntervalMs: number; maximumAttempts: number };
}

export interface NotificationDeliveryResult {
  deliveryId: string;
  status: DeliveryStatus;
  attempts: number;
  lastStatusCode: number | null;
}

/** The receiver answered a final 4xx (or a redirect): never retried. */
export const DELIVERY_REJECTED = 'notification_rejected';
/** A timeout, no connection, 408, 429 or 5xx: retried with exponential backoff. */
export const DELIVERY_RETRYABLE = 'notification_retryable';

/** One event to one channel: `<tq>-notify-<deliveryId>`, never started twice (the id is the idempotency key). */
export const notificationDeliveryWorkflow = defineWorkflow<(input: NotificationDeliveryInput) => Promise<NotificationDeliveryResult>>('notificationDeliveryWorkflow');

export function notificationWorkflowId(taskQueue: string, deliveryId: string): string {
  return `${taskQueue}-notify-${deliveryId}`;
}
