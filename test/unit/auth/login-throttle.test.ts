import {
  FAILURES_BEFORE_LOCK,
  FAILURE_WINDOW_MS,
  LOCK_FIRST_MS,
  LOCK_MAX_MS,
  LoginThrottle,
  PENDING_TTL_MS,
  lockMs,
  throttleKeys,
  type FailureRecord,
  type ThrottleChange,
  type ThrottleRecordStore,
} from '../../../src/domain/auth/login-throttle';

const keys = throttleKeys('Admin', '10.0.0.1');

/** The store as the database keeps it: one record per key, each change applied whole. */
class MemoryStore implements ThrottleRecordStore {
  readonly records = new Map<string, FailureRecord>();

  async update<T>(key: string, _now: number, change: (record: FailureRecord | undefined) => ThrottleChange<T>): Promise<T> {
    const { next, result } = change(this.records.get(key));
    if (next) this.records.set(key, next);
    else this.records.delete(key);
    return result;
  }
}

async function failTimes(throttle: LoginThrottle, times: number, at: number): Promise<void> {
  for (let i = 0; i < times; i++) {
    expect(await throttle.begin(keys, at)).toBe(0);
    await throttle.fail(keys, at);
  }
}

describe('failed sign-in throttling', () => {
  it('locks a key after five failures for a minute, doubling with each failure after a lock, at most an hour', async () => {
    expect([4, 5, 6, 7, 20].map(lockMs)).toEqual([0, LOCK_FIRST_MS, 2 * LOCK_FIRST_MS, 4 * LOCK_FIRST_MS, LOCK_MAX_MS]);
    const throttle = new LoginThrottle(new MemoryStore());
    await failTimes(throttle, FAILURES_BEFORE_LOCK, 0);
    expect(await throttle.begin(keys, 1000)).toBe(59);
    expect(await throttle.begin(keys, LOCK_FIRST_MS)).toBe(0);
    await throttle.fail(keys, LOCK_FIRST_MS);
    expect(await throttle.begin(keys, LOCK_FIRST_MS)).toBe(120);
  });

  it('counts usernames without case and addresses apart: either key locks the attempt', async () => {
    const throttle = new LoginThrottle(new MemoryStore());
    await failTimes(throttle, FAILURES_BEFORE_LOCK, 0);
    expect(await throttle.begin(throttleKeys('ADMIN', '10.9.9.9'), 1)).toBe(60);
    expect(await throttle.begin(throttleKeys('someone', '10.0.0.1'), 1)).toBe(60);
    expect(await throttle.begin(throttleKeys('someone', '10.9.9.9'), 1)).toBe(0);
  });

  it('takes back the pending attempt of the keys that let it pass when another key refuses it', async () => {
    const store = new MemoryStore();
    const throttle = new LoginThrottle(store);
    await failTimes(throttle, FAILURES_BEFORE_LOCK, 0);
    expect(await throttle.begin(throttleKeys('fresh', '10.0.0.1'), 1)).toBe(60);
    expect(store.records.has('user:fresh')).toBe(false);
  });

  it('clears the username on success but never the address', async () => {
    const store = new MemoryStore();
    const throttle = new LoginThrottle(store);
    await failTimes(throttle, FAILURES_BEFORE_LOCK - 1, 0);
    expect(await throttle.begin(keys, 1)).toBe(0);
    await throttle.succeed(keys, keys[0], 1);
    expect(store.records.get('address:10.0.0.1')).toEqual({ failures: 4, quietFrom: 0, pending: 0, pendingSince: 1 });
    // One more failure locks the address (four before), not the username (cleared).
    expect(await throttle.begin(throttleKeys('other', '10.0.0.1'), 2)).toBe(0);
    await throttle.fail(throttleKeys('other', '10.0.0.1'), 2);
    expect(await throttle.begin(throttleKeys('admin', '10.5.5.5'), 3)).toBe(0);
    expect(await throttle.begin(throttleKeys('third', '10.0.0.1'), 3)).toBe(60);
  });

  it('forgets a key quiet for the window after its last failure', async () => {
    const throttle = new LoginThrottle(new MemoryStore());
    await failTimes(throttle, FAILURES_BEFORE_LOCK - 1, 0);
    await failTimes(throttle, 1, FAILURE_WINDOW_MS + 1);
    expect(await throttle.begin(keys, FAILURE_WINDOW_MS + 2)).toBe(0);
  });

  it('lets attempts in flight count: parallel guesses cannot pass the limit', async () => {
    const throttle = new LoginThrottle(new MemoryStore());
    await failTimes(throttle, FAILURES_BEFORE_LOCK - 1, 0);
    expect(await throttle.begin(keys, 1)).toBe(0);
    expect(await throttle.begin(keys, 1)).toBe(1);
    await throttle.fail(keys, 1);
    expect(await throttle.begin(keys, 2)).toBe(60);
  });

  it('drops an attempt left pending longer than the pending bound (its process died before settling it)', async () => {
    const throttle = new LoginThrottle(new MemoryStore());
    await failTimes(throttle, FAILURES_BEFORE_LOCK - 1, 0);
    expect(await throttle.begin(keys, 1)).toBe(0);
    expect(await throttle.begin(keys, 1 + PENDING_TTL_MS)).toBe(1);
    // Past its bound the abandoned attempt no longer holds the key.
    expect(await throttle.begin(keys, 2 + PENDING_TTL_MS)).toBe(0);
  });
});
