import { bucketExpiry, bucketMs, bucketStart, countedAfter, retryAfterSeconds, type BucketCount, type RateLimitRule } from '../../../src/domain/rate-limit';

const rule: RateLimitRule = { name: 'compare', limit: 2, windowMs: 60_000 };

/** The storage's view: buckets of the hits so far, as the shared table holds them. */
function take(buckets: BucketCount[], now: number): number {
  const counted = buckets.filter((b) => b.bucketStart > countedAfter(rule, now));
  const wait = retryAfterSeconds(rule, counted, now);
  if (wait === 0) {
    const start = bucketStart(rule, now);
    const bucket = buckets.find((b) => b.bucketStart === start);
    if (bucket) bucket.hits += 1;
    else buckets.push({ bucketStart: start, hits: 1 });
  }
  return wait;
}

describe('shared sliding-window rate limit rules', () => {
  it('cuts a window into 60 buckets of at least 100 ms', () => {
    expect(bucketMs(rule)).toBe(1000);
    expect(bucketMs({ ...rule, windowMs: 10_000 })).toBe(167);
    expect(bucketMs({ ...rule, windowMs: 1000 })).toBe(100);
    expect(bucketStart(rule, 12_345)).toBe(12_000);
    expect(bucketExpiry(rule, 12_000)).toBe(73_000);
  });

  it('admits `limit` hits per window and says when the next one fits', () => {
    const buckets: BucketCount[] = [];
    expect(take(buckets, 0)).toBe(0);
    expect(take(buckets, 10_000)).toBe(0);
    // The first hit's bucket [0, 1 s) counts until 61 s.
    expect(take(buckets, 20_000)).toBe(41);
    expect(take(buckets, 60_500)).toBe(1);
    expect(take(buckets, 61_001)).toBe(0);
    expect(take(buckets, 61_002)).toBe(10);
  });

  it('never admits more than `limit` hits within any window, whatever their spacing', () => {
    const strict: RateLimitRule = { name: 'compare', limit: 20, windowMs: 60_000 };
    const admitted: number[] = [];
    const buckets: BucketCount[] = [];
    for (let now = 0; now < 300_000; now += 737) {
      const counted = buckets.filter((b) => b.bucketStart > countedAfter(strict, now));
      if (retryAfterSeconds(strict, counted, now) === 0) {
        admitted.push(now);
        const start = bucketStart(strict, now);
        const bucket = buckets.find((b) => b.bucketStart === start);
        if (bucket) bucket.hits += 1;
        else buckets.push({ bucketStart: start, hits: 1 });
      }
    }
    for (const t of admitted) expect(admitted.filter((u) => u >= t && u < t + strict.windowMs).length).toBeLessThanOrEqual(20);
    expect(admitted.length).toBeGreaterThan(80);
  });

  it('counts the hits of all buckets still in force, oldest leaving first', () => {
    const counted = [
      { bucketStart: 5_000, hits: 1 },
      { bucketStart: 1_000, hits: 1 },
    ];
    expect(retryAfterSeconds(rule, counted, 30_000)).toBe(32);
    expect(retryAfterSeconds(rule, [{ bucketStart: 1_000, hits: 1 }], 30_000)).toBe(0);
  });
});
