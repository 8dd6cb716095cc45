/**
 * Sliding-window rate limits whose counts live in shared storage (one row per limit, subject and
 * bucket), so every API process of a deployment draws on the same allowance. A window is cut into
 * RATE_LIMIT_BUCKETS buckets; a hit counts until its bucket's end plus the window has passed, so a
 * limit may hold a hit up to one bucket longer than the window but never admits more than `limit`
 * hits within any window.
 */
export interface RateLimitRule {
  /** Names the limit in storage (`compare`, `ui-preference`, ...). */
  name: string;
  limit: number;
  windowMs: number;
}

export interface BucketCount {
  bucketStart: number;
  hits: number;
}

export const RATE_LIMIT_BUCKETS = 60;
/** Buckets are at least this long, so a short window does not write a row per request. */
const MIN_BUCKET_MS = 100;

export function bucketMs(rule: RateLimitRule): number {
  return Math.max(MIN_BUCKET_MS, Math.ceil(rule.windowMs / RATE_LIMIT_BUCKETS));
}

export function bucketStart(rule: RateLimitRule, now: number): number {
  const size = bucketMs(rule);
  return now - (now % size);
}

/** The instant a bucket's hits stop counting (and its row may be pruned). */
export function bucketExpiry(rule: RateLimitRule, start: number): number {
  return start + bucketMs(rule) + rule.windowMs;
}

/** Buckets starting after this instant still count at `now`. */
export function countedAfter(rule: RateLimitRule, now: number): number {
  return now - rule.windowMs - bucketMs(rule);
}

/**
 * Seconds until one more hit fits (0: it fits now), given the counted buckets other than the
 * hit being decided (`buckets` must hold only buckets that still count).
 */
export function retryAfterSeconds(rule: RateLimitRule, buckets: readonly BucketCount[], now: number): number {
  let remaining = buckets.reduce((sum, b) => sum + b.hits, 0);
  if (remaining < rule.limit) return 0;
  for (const bucket of [...buckets].sort((a, b) => a.bucketStart - b.bucketStart)) {
    remaining -= bucket.hits;
    if (remaining < rule.limit) return Math.max(1, Math.ceil((bucketExpiry(rule, bucket.bucketStart) - now) / 1000));
  }
  return 1;
}
