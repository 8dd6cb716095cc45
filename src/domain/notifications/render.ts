import type { ChannelKind, NotificationPayload, Severity } from './types';

/** Embed colours by severity (decimal RGB, as Discord takes them). */
export const DISCORD_COLORS: Record<Severity, number> = { info: 0x3498db, success: 0x2ecc71, warning: 0xf39c12, danger: 0xe74c3c };

/** The event as delivered: a gate event carries how long the rollout has waited at send time. */
export function atDelivery(event: NotificationPayload, now: Date): NotificationPayload {
  if (event.type !== 'rollout.awaiting_gate' || typeof event.data.waitingSince !== 'string') return event;
  const waitedSeconds = Math.max(0, Math.floor((now.getTime() - Date.parse(event.data.waitingSince)) / 1000));
  return {
    ...event,
    fields: [...event.fields, { name: 'Waiting', value: humanDuration(waitedSeconds) }],
    data: { ...event.data, waitedSeconds },
  };
}

export function humanDuration(seconds: number): string {
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  return hours < 48 ? `${hours}h ${minutes % 60}m` : `${Math.floor(hours / 24)}d ${hours % 24}h`;
}

/** The body of a generic webhook: versioned, with the delivery id (also the Idempotency-Key header). */
export function webhookBody(event: NotificationPayload, deliveryId: string): Record<string, unknown> {
  return { version: 1, deliveryId, event };
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * A Discord webhook message in the *arr apps' manner: one embed per event with the app's name as
 * author, a coloured bar by severity, inline fields and a timestamp; links in the description.
 * Discord's limits are kept (title 256, description 4096, 25 fields of 256/1024).
 */
export function discordBody(event: NotificationPayload): Record<string, unknown> {
  const links = [event.links.api.startsWith('http') ? `[Open in arrgo](${event.links.api})` : `API: \`${event.links.api}\``, ...(event.links.temporal ? [`[Temporal workflow](${event.links.temporal})`] : [])];
  return {
    username: 'arrgo',
    embeds: [
      {
        author: { name: 'arrgo' },
        title: clip(event.title, 256),
        ...(event.links.api.startsWith('http') ? { url: event.links.api } : {}),
        description: clip(`${event.description}\n\n${links.join(' · ')}`, 4096),
        color: DISCORD_COLORS[event.severity],
        fields: event.fields.slice(0, 25).map((f) => ({ name: clip(f.name, 256), value: clip(f.value || '-', 1024), inline: true })),
        timestamp: event.occurredAt,
        footer: { text: clip(`${event.type} · ${event.id}`, 2048) },
      },
    ],
  };
}

export function renderBody(kind: ChannelKind, event: NotificationPayload, deliveryId: string): Record<string, unknown> {
  return kind === 'discord' ? discordBody(event) : webhookBody(event, deliveryId);
}
