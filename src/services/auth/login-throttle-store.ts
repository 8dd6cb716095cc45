import { FAILURE_WINDOW_MS, PENDING_TTL_MS, type FailureRecord, type ThrottleChange, type ThrottleRecordStore } from '../../domain/auth/login-throttle';
import { unavailable } from '../../errors';
import { sha256Hex } from '../../platform/crypto';
import type { Orm } from '../../persistence/orm';

const KEY_MAX = 255;
/** Concurrent changes of one key are rare; after this many lost races the sign-in is refused for now. */
const MAX_ATTEMPTS = 20;

interface Row {
  failures: number | string;
  quiet_from: number | string;
  pending: number | string;
  pending_since: number | string;
  version: number | string;
}

/**
 * Failed sign-ins in the `login_throttle` table, shared by every API process: each change reads the
 * key's row and writes it back only if its `version` is still the one read (insert-if-absent for a
 * new key), retrying on a lost race, so no failure counted by another process is overwritten.
 */
export class DatabaseThrottleStore implements ThrottleRecordStore {
  constructor(private readonly orm: Orm) {}

  async update<T>(rawKey: string, now: number, change: (record: FailureRecord | undefined) => ThrottleChange<T>): Promise<T> {
    // Keys hold a username or a client address; one too long for the column is stored by its digest.
    const key = rawKey.length > KEY_MAX ? `sha256:${sha256Hex(rawKey)}` : rawKey;
    const connection = this.orm.em.getConnection();
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const [row]: Row[] = await connection.execute('select failures, quiet_from, pending, pending_since, version from login_throttle where throttle_key = ?', [key]);
      const { next, result } = change(row ? toRecord(row) : undefined);
      let changed: number;
      if (!row) {
        if (!next) return result;
        changed = await affected(
          connection.execute(
            'insert into login_throttle (throttle_key, failures, quiet_from, pending, pending_since, version) values (?, ?, ?, ?, ?, 1) on conflict (throttle_key) do nothing',
            [key, next.failures, next.quietFrom, next.pending, next.pendingSince],
            'run',
          ),
        );
        // A new key: the moment to drop keys whose failures no longer count.
        if (changed) await this.prune(now);
      } else if (!next) {
        changed = await affected(connection.execute('delete from login_throttle where throttle_key = ? and version = ?', [key, Number(row.version)], 'run'));
      } else {
        changed = await affected(
          connection.execute(
            'update login_throttle set failures = ?, quiet_from = ?, pending = ?, pending_since = ?, version = version + 1 where throttle_key = ? and version = ?',
            [next.failures, next.quietFrom, next.pending, next.pendingSince, key, Number(row.version)],
            'run',
          ),
        );
      }
      if (changed) return result;
    }
    throw unavailable('Sign-in is busy: try again in a moment');
  }

  /** Deletes every record `currentRecord` would forget (the same rule, in SQL). */
  private async prune(now: number): Promise<void> {
    await this.orm.em
      .getConnection()
      .execute('delete from login_throttle where quiet_from < ? and (pending = 0 or pending_since < ?)', [now - FAILURE_WINDOW_MS, now - PENDING_TTL_MS], 'run');
  }
}

function toRecord(row: Row): FailureRecord {
  return { failures: Number(row.failures), quietFrom: Number(row.quiet_from), pending: Number(row.pending), pendingSince: Number(row.pending_since) };
}

async function affected(result: Promise<unknown>): Promise<number> {
  return ((await result) as { affectedRows?: number }).affectedRows ?? 0;
}
