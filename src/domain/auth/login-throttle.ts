/**
 * Failed sign-ins, counted per key (a username, a client address). After FAILURES_BEFORE_LOCK
 * failures the key is locked for LOCK_FIRST_MS, and every further failure after a lock doubles it
 * (at most LOCK_MAX_MS). A key quiet for FAILURE_WINDOW_MS after its last failure (or lock) starts
 * over. Attempts whose outcome is pending count too, so parallel guesses cannot pass the limit.
 * The records live in a store every API process shares (`ThrottleRecordStore`), changed one key
 * at a time by atomic read-modify-write.
 */
export const FAILURES_BEFORE_LOCK = 5;
export const FAILURE_WINDOW_MS = 15 * 60_000;
export const LOCK_FIRST_MS = 60_000;
export const LOCK_MAX_MS = 60 * 60_000;
/** Attempts pending longer than this are taken as abandoned (their process died before settling them). */
export const PENDING_TTL_MS = 60_000;

export interface FailureRecord {
  failures: number;
  /** End of the current lock, or the time of the last failure while not locked. */
  quietFrom: number;
  /** Attempts begun and not yet settled. */
  pending: number;
  /** When the latest pending attempt began. */
  pendingSince: number;
}

/** The new record of a key (undefined: forget the key) and what the caller learns. */
export interface ThrottleChange<T> {
  next: FailureRecord | undefined;
  result: T;
}

/** Applies `change` to one key's record atomically (no other change of that key in between), at `now`. */
export interface ThrottleRecordStore {
  update<T>(key: string, now: number, change: (record: FailureRecord | undefined) => ThrottleChange<T>): Promise<T>;
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

/** The record in force at `now`: abandoned attempts dropped, a key quiet for the window forgotten. */
export function currentRecord(record: FailureRecord | undefined, now: number): FailureRecord | undefined {
  if (!record) return undefined;
  const pending = record.pending > 0 && now - record.pendingSince > PENDING_TTL_MS ? 0 : record.pending;
  if (pending === 0 && now - record.quietFrom > FAILURE_WINDOW_MS) return undefined;
  return { ...record, pending };
}

/** Seconds an attempt must wait for this key (0: it may go ahead and counts as pending). */
export function beginAttempt(stored: FailureRecord | undefined, now: number): ThrottleChange<number> {
  const record = currentRecord(stored, now);
  if (record && record.failures >= FAILURES_BEFORE_LOCK && record.quietFrom > now) return { next: record, result: Math.ceil((record.quietFrom - now) / 1000) };
  // The attempts in flight could lock the key: this one waits for their outcome.
  if (record && record.pending > 0 && record.failures + record.pending >= FAILURES_BEFORE_LOCK) return { next: record, result: 1 };
  const base = record ?? { failures: 0, quietFrom: now, pending: 0, pendingSince: now };
  return { next: { ...base, pending: base.pending + 1, pendingSince: now }, result: 0 };
}

/** Takes back a begun attempt of a key (another key of the attempt refused it). */
export function abandonAttempt(stored: FailureRecord | undefined, now: number): ThrottleChange<void> {
  const record = currentRecord(stored, now);
  if (!record) return { next: undefined, result: undefined };
  const next = { ...record, pending: Math.max(0, record.pending - 1) };
  return { next: next.failures === 0 && next.pending === 0 ? undefined : next, result: undefined };
}

export function failAttempt(stored: FailureRecord | undefined, now: number): ThrottleChange<void> {
  const record = currentRecord(stored, now) ?? { failures: 0, quietFrom: now, pending: 1, pendingSince: now };
  const failures = record.failures + 1;
  return { next: { failures, quietFrom: now + lockMs(failures), pending: Math.max(0, record.pending - 1), pendingSince: record.pendingSince }, result: undefined };
}

/** A successful sign-in clears its username (never the address: one good account must not reset it). */
export function succeedAttempt(stored: FailureRecord | undefined, now: number, isUsernameKey: boolean): ThrottleChange<void> {
  if (isUsernameKey) return { next: undefined, result: undefined };
  return abandonAttempt(stored, now);
}

/** The throttle of one deployment over its shared record store. */
export class LoginThrottle {
  constructor(private readonly store: ThrottleRecordStore) {}

  /**
   * Seconds the attempt must wait (the longest of its keys), or 0: then it may go ahead and
   * counts as pending on every key until `fail` or `succeed` settles it.
   */
  async begin(keys: string[], now: number): Promise<number> {
    const begun: string[] = [];
    let wait = 0;
    for (const key of keys) {
      const keyWait = await this.store.update(key, now, (record) => beginAttempt(record, now));
      if (keyWait === 0) begun.push(key);
      wait = Math.max(wait, keyWait);
    }
    if (wait > 0) for (const key of begun) await this.store.update(key, now, (record) => abandonAttempt(record, now));
    return wait;
  }

  async fail(keys: string[], now: number): Promise<void> {
    for (const key of keys) await this.store.update(key, now, (record) => failAttempt(record, now));
  }

  async succeed(keys: string[], usernameKey: string, now: number): Promise<void> {
    for (const key of keys) await this.store.update(key, now, (record) => succeedAttempt(record, now, key === usernameKey));
  }
}
