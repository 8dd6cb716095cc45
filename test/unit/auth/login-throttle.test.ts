import { FAILURES_BEFORE_LOCK, FAILURE_WINDOW_MS, LOCK_FIRST_MS, LOCK_MAX_MS, LoginThrottle, lockMs, throttleKeys } from '../../../src/domain/auth/login-throttle';

const keys = throttleKeys('Admin', '10.0.0.1');

function failTimes(throttle: LoginThrottle, times: number, at: number): void {
  for (let i = 0; i < times; i++) {
    expect(throttle.begin(keys, at)).toBe(0);
    throttle.fail(keys, at);
  }
}

describe('failed sign-in throttling', () => {
  it('locks a key after five failures for a minute, doubling with each failure after a lock, at most an hour', () => {
    expect([4, 5, 6, 7, 20].map(lockMs)).toEqual([0, LOCK_FIRST_MS, 2 * LOCK_FIRST_MS, 4 * LOCK_FIRST_MS, LOCK_MAX_MS]);
    const throttle = new LoginThrottle();
    failTimes(throttle, FAILURES_BEFORE_LOCK, 0);
    expect(throttle.begin(keys, 1000)).toBe(59);
    expect(throttle.begin(keys, LOCK_FIRST_MS)).toBe(0);
    throttle.fail(keys, LOCK_FIRST_MS);
    expect(throttle.begin(keys, LOCK_FIRST_MS)).toBe(120);
  });

  it('counts usernames without case and addresses apart: either key locks the attempt', () => {
    const throttle = new LoginThrottle();
    failTimes(throttle, FAILURES_BEFORE_LOCK, 0);
    expect(throttle.begin(throttleKeys('ADMIN', '10.9.9.9'), 1)).toBe(60);
    expect(throttle.begin(throttleKeys('someone', '10.0.0.1'), 1)).toBe(60);
    expect(throttle.begin(throttleKeys('someone', '10.9.9.9'), 1)).toBe(0);
  });

  it('clears the username on success but never the address', () => {
    const throttle = new LoginThrottle();
    failTimes(throttle, FAILURES_BEFORE_LOCK - 1, 0);
    expect(throttle.begin(keys, 1)).toBe(0);
    throttle.succeed(keys, keys[0]);
    // One more failure locks the address (four before), not the username (cleared).
    expect(throttle.begin(throttleKeys('other', '10.0.0.1'), 2)).toBe(0);
    throttle.fail(throttleKeys('other', '10.0.0.1'), 2);
    expect(throttle.begin(throttleKeys('admin', '10.5.5.5'), 3)).toBe(0);
    expect(throttle.begin(throttleKeys('third', '10.0.0.1'), 3)).toBe(60);
  });

  it('forgets a key quiet for the window after its last failure', () => {
    const throttle = new LoginThrottle();
    failTimes(throttle, FAILURES_BEFORE_LOCK - 1, 0);
    failTimes(throttle, 1, FAILURE_WINDOW_MS + 1);
    expect(throttle.begin(keys, FAILURE_WINDOW_MS + 2)).toBe(0);
  });

  it('lets attempts in flight count: parallel guesses cannot pass the limit', () => {
    const throttle = new LoginThrottle();
    failTimes(throttle, FAILURES_BEFORE_LOCK - 1, 0);
    expect(throttle.begin(keys, 1)).toBe(0);
    expect(throttle.begin(keys, 1)).toBe(1);
    throttle.fail(keys, 1);
    expect(throttle.begin(keys, 2)).toBe(60);
  });

  it('remembers a bounded number of keys', () => {
    const throttle = new LoginThrottle(4);
    for (let i = 0; i < 10; i++) {
      const k = throttleKeys(`user-${i}`, `10.0.0.${i}`);
      throttle.begin(k, i);
      throttle.fail(k, i);
    }
    expect((throttle as unknown as { records: Map<string, unknown> }).records.size).toBe(4);
  });
});
