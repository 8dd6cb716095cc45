import { SlidingWindowLimiter } from '../../../src/services/rate-limit';

describe('SlidingWindowLimiter', () => {
  it('admits `limit` events per window per key and says when the next one fits', () => {
    const limiter = new SlidingWindowLimiter<string>(2, 60_000);
    expect(limiter.take('a', 0)).toBe(0);
    expect(limiter.take('a', 10_000)).toBe(0);
    expect(limiter.take('a', 20_000)).toBe(40); // the first event leaves the window at 60 s
    expect(limiter.take('b', 20_000)).toBe(0);
    expect(limiter.take('a', 60_001)).toBe(0);
    expect(limiter.retryAfterSeconds('a', 60_002)).toBe(10);
  });
});
