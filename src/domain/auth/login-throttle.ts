/**
 * Failed sign-ins, counted per key (a username, a client address). After FAILURES_BEFORE_LOCK
 * failures the key is locked for LOCK_FIRST_MS, and every further failure after a lock doubles it
 * (at most LOCK_MAX_MS). A key quiet for FAILURE_WINDOW_MS after its last failure (or lock) starts
 * over. Attempts whose outcome is pending count too, so parallel guesses cannot pass the limit.
 */
export const FAILURES_BEFORE_LOCK = 5;
export const FAILURE_WINDOW_MS = 15 * 60_000;
export const LOCK_FIRST_MS = 60_000;
export const LOCK_MAX_MS = 60 * 60_000;
/** Keys remembered at once; beyond it the least recently failed are forgotten. */
export const THROTTLE_MAX_KEYS = 10_000;

interface FailureRecord {
  failures: number;
  /** End of the current lock, or the time of the last failure while not locked. */
  quietFrom: number;
  /** Attempts begun and not yet settled. */
  pending: number;
}

/** How long a key with this many failures is locked after its latest one. */
export function lockMs(failures: number): number {
  if (failures < FAILURES_BEFORE_LOCK) return 0;
  return Math.min(LOCK_MAX_MS, LOCK_FIRST_MS * 2 ** (failures - FAILURES_BEFORE_LOCK));
}

/** Throttle keys of one attempt: usernames compare without case, so spellings share a count. */
export function throttleKeys(username: string, clientAddress: string): string[] {
  return [`user:${username.toLowerCase()}`, `address:${clientAddress}`];
}

export class LoginThrottle {
  // Insertion order is recency order: a failure re-inserts its key.
  private readonly records = new Map<string, FailureRecord>();

  constructor(private readonly maxKeys = THROTTLE_MAX_KEYS) {}

  /**
   * Seconds the attempt must wait (the longest of its keys), or 0: then it may go ahead and
   * counts as pending until `fail` or `succeed` settles it.
   */
  begin(keys: string[], now: number): number {
    let wait = 0;
    for (const key of keys) {
      const record = this.current(key, now);
      if (!record) continue;
      if (record.failures >= FAILURES_BEFORE_LOCK && record.quietFrom > now) wait = Math.max(wait, Math.ceil((record.quietFrom - now) / 1000));
      // The attempts in flight could lock the key: this one waits for their outcome.
      else if (record.pending > 0 && record.failures + record.pending >= FAILURES_BEFORE_LOCK) wait = Math.max(wait, 1);
    }
    if (wait > 0) return wait;
    for (const key of keys) {
      const record = this.current(key, now) ?? { failures: 0, quietFrom: now, pending: 0 };
      record.pending += 1;
      this.records.set(key, record);
    }
    return 0;
  }

  fail(keys: string[], now: number): void {
    for (const key of keys) {
      const record = this.records.get(key) ?? { failures: 0, quietFrom: now, pending: 1 };
      const failures = record.failures + 1;
      this.records.delete(key);
      this.records.set(key, { failures, quietFrom: now + lockMs(failures), pending: Math.max(0, record.pending - 1) });
    }
    this.evictBeyondBound();
  }

  /** A successful sign-in clears its username (never the address: one good account must not reset it). */
  succeed(keys: string[], usernameKey: string): void {
    for (const key of keys) {
      const record = this.records.get(key);
      if (!record) continue;
      record.pending = Math.max(0, record.pending - 1);
      if (key === usernameKey || (record.failures === 0 && record.pending === 0)) this.records.delete(key);
    }
  }

  private current(key: string, now: number): FailureRecord | undefined {
    const record = this.records.get(key);
    if (record && record.pending === 0 && now - record.quietFrom > FAILURE_WINDOW_MS) {
      this.records.delete(key);
      return undefined;
    }
    return record;
  }

  private evictBeyondBound(): void {
    for (const [key, record] of this.records) {
      if (this.records.size <= this.maxKeys) return;
      if (record.pending === 0) this.records.delete(key);
    }
  }
}
