import type { EntityManager } from '@mikro-orm/core';
import { bucketExpiry, bucketStart, countedAfter, retryAfterSeconds, type BucketCount, type RateLimitRule } from '../domain/rate-limit';

/** A hit taken from a limit, to give back when the work it paid for did not happen. */
export interface RateLimitHit {
  subject: string;
  bucketStart: number;
}

/**
 * A rate limit every API process of a deployment shares: its hits are rows of
 * `rate_limit_windows`, added by one atomic upsert-increment (PostgreSQL and SQLite alike), so
 * two processes cannot both take the last slot. Each statement commits on its own.
 */
export class SharedRateLimit {
  constructor(readonly rule: RateLimitRule) {}

  /**
   * Takes one hit for the subject: `{ wait: 0, hit }` when it fits, else the seconds until one
   * would (nothing kept). The hit is counted before the window is read, so of two concurrent
   * takers of the last slot at most one sees room.
   */
  async take(em: EntityManager, subject: string, now = Date.now()): Promise<{ wait: 0; hit: RateLimitHit } | { wait: number; hit?: undefined }> {
    const connection = em.getConnection();
    const start = bucketStart(this.rule, now);
    const inserted: { hits: number | string }[] = await connection.execute(
      'insert into rate_limit_windows (limit_name, subject, window_start, hits, expires_at) values (?, ?, ?, 1, ?)' +
        ' on conflict (limit_name, subject, window_start) do update set hits = rate_limit_windows.hits + 1 returning hits',
      [this.rule.name, subject, start, bucketExpiry(this.rule, start)],
    );
    // A new bucket row: the moment to drop the rows of this limit that no longer count.
    if (Number(inserted[0]?.hits) === 1) await connection.execute('delete from rate_limit_windows where limit_name = ? and expires_at <= ?', [this.rule.name, now]);
    const rows: { window_start: number | string; hits: number | string }[] = await connection.execute(
      'select window_start, hits from rate_limit_windows where limit_name = ? and subject = ? and window_start > ?',
      [this.rule.name, subject, countedAfter(this.rule, now)],
    );
    const others: BucketCount[] = rows.map((r) => ({ bucketStart: Number(r.window_start), hits: Number(r.hits) - (Number(r.window_start) === start ? 1 : 0) }));
    const wait = retryAfterSeconds(this.rule, others, now);
    const hit = { subject, bucketStart: start };
    if (wait === 0) return { wait: 0, hit };
    await this.giveBack(em, hit);
    return { wait };
  }

  /** Returns a hit (the request it was taken for was refused later or wrote nothing). */
  async giveBack(em: EntityManager, hit: RateLimitHit): Promise<void> {
    await em
      .getConnection()
      .execute('update rate_limit_windows set hits = hits - 1 where limit_name = ? and subject = ? and window_start = ? and hits > 0', [this.rule.name, hit.subject, hit.bucketStart]);
  }
}
