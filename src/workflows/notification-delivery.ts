import { ActivityFailure, proxyActivities, proxyLocalActivities, setCurrentDetails, sleep, upsertSearchAttributes } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { DELIVERY_REJECTED, SA, type NotificationDeliveryInput, type NotificationDeliveryResult } from './contracts';

const bookkeeping = proxyLocalActivities<Activities>({ startToCloseTimeout: '30 seconds', retry: { maximumAttempts: 10 } });

/**
 * Delivers one event to one channel. Each attempt is an activity: timeouts, 408, 429 and 5xx are
 * retried with exponential backoff (the interval doubles), any other 4xx is final. The workflow id
 * is derived from the delivery id, so one event reaches one channel once; a worker that dies
 * mid-attempt is replaced and the attempt runs again with the same Idempotency-Key.
 */
export async function notificationDeliveryWorkflow(input: NotificationDeliveryInput): Promise<NotificationDeliveryResult> {
  const { deliverNotification } = proxyActivities<Activities>({
    startToCloseTimeout: input.attemptTimeoutMs,
    retry: {
      initialInterval: input.retry.initialIntervalMs,
      backoffCoefficient: 2,
      maximumAttempts: input.retry.maximumAttempts,
      nonRetryableErrorTypes: [DELIVERY_REJECTED, 'AppError'],
    },
  });
  if (input.delayMs > 0) {
    setCurrentDetails(`Waiting ${Math.round(input.delayMs / 1000)} s before notifying (sent only if the event still holds then)`);
    await sleep(input.delayMs);
    if (!(await bookkeeping.notificationStillRelevant(input.deliveryId))) {
      return finish(await bookkeeping.finishNotificationDelivery(input.deliveryId, 'skipped'));
    }
  }
  setCurrentDetails(`Delivering (up to ${input.retry.maximumAttempts} attempts, backoff from ${input.retry.initialIntervalMs} ms)`);
  try {
    return finish(await deliverNotification(input.deliveryId));
  } catch (error) {
    // Retries exhausted, or a final answer: the attempts are in the delivery log.
    if (!(error instanceof ActivityFailure)) throw error;
    return finish(await bookkeeping.finishNotificationDelivery(input.deliveryId, 'failed'));
  }
}

function finish(result: NotificationDeliveryResult): NotificationDeliveryResult {
  upsertSearchAttributes([{ key: SA.syncStatus, value: result.status }]);
  setCurrentDetails(`${result.status} after ${result.attempts} attempt(s)${result.lastStatusCode === null ? '' : `; last answer HTTP ${result.lastStatusCode}`}`);
  return result;
}
