import type { EntityManager } from '@mikro-orm/core';
import { OUTBOX_STALE_SECONDS, type OutboxEntry } from '../../domain/outbox';

/**
 * Adds entries to the outbox inside the caller's transaction (`em` is the transaction's manager),
 * so they commit or roll back with the state change that caused them. An entry already waiting
 * is due again at once (its effect is idempotent: publishing it twice has one effect).
 */
export async function enqueueOutbox(em: EntityManager, entries: readonly OutboxEntry[], now = Date.now()): Promise<void> {
  const connection = em.getConnection();
  const ctx = em.getTransactionContext();
  for (const entry of entries) {
    await connection.execute(
      'insert into outbox (id, kind, payload, created_at, attempts, next_attempt_at, last_error) values (?, ?, ?, ?, 0, ?, null)' +
        ' on conflict (id) do update set next_attempt_at = excluded.next_attempt_at',
      [entry.id, entry.kind, JSON.stringify(entry.payload), now, now],
      'run',
      ctx,
    );
  }
}

export interface OutboxBacklog {
  /** Entries waiting to be published. */
  backlog: number;
  /** Seconds the oldest waiting entry has waited (0 when none waits). */
  oldestAgeSeconds: number;
}

export async function readOutboxBacklog(em: EntityManager, now = Date.now()): Promise<OutboxBacklog> {
  const [row]: { backlog: number | string; oldest: number | string | null }[] = await em
    .getConnection()
    .execute('select count(*) as backlog, min(created_at) as oldest from outbox');
  const backlog = Number(row?.backlog ?? 0);
  return { backlog, oldestAgeSeconds: backlog && row.oldest !== null ? Math.max(0, Math.floor((now - Number(row.oldest)) / 1000)) : 0 };
}

/** True when the backlog shows that Temporal has not taken events for a while. */
export function outboxStalled(backlog: OutboxBacklog): boolean {
  return backlog.backlog > 0 && backlog.oldestAgeSeconds >= OUTBOX_STALE_SECONDS;
}

/** The process's relay as writers see it: kicked once their transaction committed outbox rows. */
export interface OutboxKick {
  kick(): void;
}
