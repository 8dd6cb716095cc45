/** What arrgo speaks up about. `test` is only ever sent by the test endpoint. */
export const NOTIFICATION_EVENT_TYPES = [
  'drift.detected',
  'drift.resolved',
  'rollout.awaiting_gate',
  'rollout.completed',
  'rollout.failed',
  'rollout.aborted',
  'sync.failed',
  'health.dropped',
  'pcd.pull_failed',
  'ref_guide.sync_failed',
] as const;
export type SubscribableEventType = (typeof NOTIFICATION_EVENT_TYPES)[number];
export type NotificationEventType = SubscribableEventType | 'test';

export const CHANNEL_KINDS = ['webhook', 'discord'] as const;
export type ChannelKind = (typeof CHANNEL_KINDS)[number];

export type Severity = 'info' | 'success' | 'warning' | 'danger';

export const DELIVERY_STATUSES = ['pending', 'retrying', 'delivered', 'failed', 'skipped'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** Why an attempt did not deliver (pre-authored; never the receiver's body or the URL). */
export type DeliveryError = 'timeout' | 'unreachable' | 'server_error' | 'rate_limited' | 'rejected' | 'redirect' | 'channel_deleted' | 'not_relevant';

export interface DeliveryAttempt {
  attempt: number;
  at: string;
  statusCode: number | null;
  outcome: 'delivered' | 'retry' | 'rejected';
  error: DeliveryError | null;
}

export type SubjectKind = 'instance' | 'rollout' | 'sync-run' | 'database' | 'ref-guide-source' | 'channel';

export interface NotificationField {
  name: string;
  value: string;
}

/** An event as stored and sent: everything a receiver needs, with deep links. */
export interface NotificationPayload {
  id: string;
  type: NotificationEventType;
  severity: Severity;
  title: string;
  description: string;
  occurredAt: string;
  subject: { kind: SubjectKind; id: number | null; name: string | null };
  fields: NotificationField[];
  links: { api: string; temporal: string | null };
  data: Record<string, unknown>;
}

/** Where links point: the API (absolute when a public URL is configured) and the Temporal Web UI. */
export interface LinkContext {
  /** ARRGO_PUBLIC_URL (its path includes URL_BASE). */
  publicUrl: string | null;
  /** URL_BASE ('' at the root): the start of API paths when no public URL is configured. */
  urlBase: string;
  temporalUiUrl: string | null;
  namespace: string;
}
