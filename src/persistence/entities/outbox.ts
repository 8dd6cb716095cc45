import { BigIntType, EntitySchema } from '@mikro-orm/core';

/**
 * A pending effect of a committed state change (domain/outbox.ts): written in the transaction of
 * the change, deleted by the relay once Temporal took it (services/outbox).
 */
export class OutboxRow {
  /** The effect's idempotency key (`notification:<event id>`, `drift-check:<instance id>`). */
  id!: string;
  kind!: string;
  payload!: Record<string, unknown>;
  /** Epoch milliseconds. */
  createdAt!: number;
  /** Failed publishes so far. */
  attempts!: number;
  /** Epoch milliseconds: not published before (backoff, or the lease of a relay publishing it). */
  nextAttemptAt!: number;
  /** The class of the last failure (a code, never error text). */
  lastError!: string | null;
}

export const OutboxRowSchema = new EntitySchema<OutboxRow>({
  class: OutboxRow,
  tableName: 'outbox',
  indexes: [{ name: 'outbox_next_attempt_index', properties: ['nextAttemptAt'] }],
  properties: {
    id: { type: 'string', length: 255, primary: true },
    kind: { type: 'string', length: 40 },
    payload: { type: 'json' },
    createdAt: { type: new BigIntType('number'), fieldName: 'created_at' },
    attempts: { type: 'integer' },
    nextAttemptAt: { type: new BigIntType('number'), fieldName: 'next_attempt_at' },
    lastError: { type: 'string', length: 80, nullable: true, fieldName: 'last_error' },
  },
});
