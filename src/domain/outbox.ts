import type { NotificationPayload } from './notifications';

/**
 * The transactional outbox: what leaves the application database for Temporal is first written as
 * a row in the same transaction as the state change that causes it, and a relay publishes the
 * rows. A row's id is the idempotency key of its effect (the event id, the workflow id), so a row
 * published twice has one effect.
 */
export const OUTBOX_KINDS = ['notification', 'drift-check', 'pcd-pull', 'ref-guide-sync'] as const;
export type OutboxKind = (typeof OUTBOX_KINDS)[number];

export interface OutboxPayloads {
  /** A notification event: recorded, flood-guarded and delivered to its channels. */
  notification: { event: NotificationPayload; subjectKey: string };
  /** A drift check of one instance, after an edit of a database it syncs from. */
  'drift-check': { instanceId: number; databaseId: number };
  /** The first pull of a database just linked. */
  'pcd-pull': { databaseId: number };
  /** The first sync of a reference-guide source just created. */
  'ref-guide-sync': { sourceId: number };
}

export type OutboxEntry = { [K in OutboxKind]: { id: string; kind: K; payload: OutboxPayloads[K] } }[OutboxKind];

export function notificationOutboxEntry(event: NotificationPayload, subjectKey: string): OutboxEntry {
  return { id: `notification:${event.id}`, kind: 'notification', payload: { event, subjectKey } };
}

/** One pending check per instance: edits made while one waits share it. */
export function driftCheckOutboxEntry(instanceId: number, databaseId: number): OutboxEntry {
  return { id: `drift-check:${instanceId}`, kind: 'drift-check', payload: { instanceId, databaseId } };
}

export function pcdPullOutboxEntry(databaseId: number): OutboxEntry {
  return { id: `pcd-pull:${databaseId}`, kind: 'pcd-pull', payload: { databaseId } };
}

export function refGuideSyncOutboxEntry(sourceId: number): OutboxEntry {
  return { id: `ref-guide-sync:${sourceId}`, kind: 'ref-guide-sync', payload: { sourceId } };
}

const FIRST_RETRY_MS = 1000;
const MAX_RETRY_MS = 60_000;

/** How long a row waits after its n-th failed publish (n ≥ 1): doubling from 1 s, at most a minute. */
export function outboxRetryDelayMs(failedAttempts: number): number {
  return Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.min(16, Math.max(0, failedAttempts - 1)));
}

/** A backlog older than this makes the service's health degraded (Temporal is not taking events). */
export const OUTBOX_STALE_SECONDS = 60;
