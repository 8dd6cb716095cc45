import { createHash, createHmac } from 'node:crypto';
import { deliveryKey } from '../../domain/notifications';

/** The signature header's value: `sha256=` and the hex HMAC-SHA256 of `<timestamp>.<body>` under the channel's secret. */
export function webhookSignature(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex')}`;
}

/** `dlv-` and 32 hex characters, derived from the event id and the channel id (stable on a re-publish). */
export function deliveryId(eventId: string, channelId: number): string {
  return `dlv-${createHash('sha256').update(deliveryKey(eventId, channelId), 'utf8').digest('hex').slice(0, 32)}`;
}
