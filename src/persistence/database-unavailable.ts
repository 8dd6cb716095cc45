/**
 * Whether a failed query failed because the database cannot be reached right now (a PostgreSQL
 * restart, a dropped connection, a full pool), as opposed to a bad query or a constraint: the API
 * answers those 503 so clients retry, as they do for an unreachable Temporal.
 */

/** Node's socket errors and pg's connection-level SQLSTATEs (class 08, and 57P01-57P03: shutdown, crash, starting up). */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', '57P01', '57P02', '57P03']);
/**
 * What pg and knex say without a code when a connection ends or none can be had (MikroORM puts
 * the query before it: `select … - Connection terminated unexpectedly`). knex ends a transaction
 * whose BEGIN, COMMIT or ROLLBACK failed (its connection dropped), and the statements queued in it
 * then fail with "Transaction query already complete", the connection's error lost (chaos seed 1:
 * a rollout's start during a PostgreSQL restart).
 */
const UNREACHABLE_MESSAGES = [
  /(^|- )Connection terminated\b/,
  /(^|- )Client has encountered a connection error/,
  /(^|- )Timeout acquiring a connection/,
  /(^|- )Transaction query already complete\b/,
];

export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 3) return false;
  const { code, name, message, cause, previous } = error as { code?: unknown; name?: unknown; message?: unknown; cause?: unknown; previous?: unknown };
  if (typeof code === 'string' && (UNREACHABLE_CODES.has(code) || code.startsWith('08'))) return true;
  if (name === 'KnexTimeoutError' || name === 'ConnectionException') return true;
  if (typeof message === 'string' && UNREACHABLE_MESSAGES.some((pattern) => pattern.test(message))) return true;
  // MikroORM wraps the driver's error (`previous`); AggregateError-like causes carry it too.
  return isDatabaseUnavailable(previous, depth + 1) || isDatabaseUnavailable(cause, depth + 1);
}
