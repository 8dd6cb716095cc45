import type { DeliveryError } from './types';

/** What the receiver's answer (or the lack of one) means for the delivery. */
export type AttemptOutcome = { outcome: 'delivered'; error: null } | { outcome: 'retry'; error: DeliveryError } | { outcome: 'rejected'; error: DeliveryError };

/**
 * 2xx delivered; timeouts, no connection, 408, 429 and 5xx are retried with backoff; any other
 * answer (other 4xx, or a redirect, which is never followed with the signed body) is final.
 */
export function classifyAttempt(result: { status: number } | { failure: 'timeout' | 'unreachable' }): AttemptOutcome {
  if ('failure' in result) return { outcome: 'retry', error: result.failure };
  const { status } = result;
  if (status >= 200 && status < 300) return { outcome: 'delivered', error: null };
  if (status === 408) return { outcome: 'retry', error: 'timeout' };
  if (status === 429) return { outcome: 'retry', error: 'rate_limited' };
  if (status >= 500) return { outcome: 'retry', error: 'server_error' };
  if (status >= 300 && status < 400) return { outcome: 'rejected', error: 'redirect' };
  return { outcome: 'rejected', error: 'rejected' };
}

/** The delivery id: stable per event and channel, so a second publish of one event finds the first. */
export function deliveryKey(eventId: string, channelId: number): string {
  return `${eventId}|${channelId}`;
}

/** At most this many attempts are kept in a delivery's attempt log (the count keeps going). */
export const ATTEMPT_LOG_LIMIT = 20;
