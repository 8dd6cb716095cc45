import { wakeableDelay } from '../../../src/services/wakeable-delay';

describe('wakeableDelay', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  const settledYet = async (promise: Promise<void>) => {
    let settled = false;
    void promise.then(() => (settled = true));
    await Promise.resolve();
    await Promise.resolve();
    return settled;
  };

  it('ends after its time when nobody wakes it', async () => {
    const delay = wakeableDelay(20);
    jest.advanceTimersByTime(19);
    expect(await settledYet(delay.done)).toBe(false);
    jest.advanceTimersByTime(1);
    expect(await settledYet(delay.done)).toBe(true);
  });

  it('ends at once when woken, leaving no timer behind; a second wake does nothing', async () => {
    const delay = wakeableDelay(60_000);
    delay.wake();
    expect(await settledYet(delay.done)).toBe(true);
    expect(jest.getTimerCount()).toBe(0);
    expect(() => delay.wake()).not.toThrow();
  });
});
