import type { EntityManager } from '@mikro-orm/core';
import { isPostgres } from '../persistence/orm';
import { bucketExpiry, bucketStart, countedAfter, retryAfterSeconds, type BucketCount, type RateLimitRule } from '../domain/rate-limit';

/** A hit taken from a limit, to give back when the work it paid for did not happen. */
export interface RateLimitHit {
  subject: string;
  bucketStart: number;
}

type Connection = ReturnType<EntityManager['getConnection']>;

/**
 * A rate limit every API process of a deployment shares: its hits are rows of
 * `rate_limit_windows`. A hit is taken by one conditional upsert that counts the window and adds
 * the hit only when it fits. SQLite runs a statement alone; on PostgreSQL the statement runs under
 * an advisory lock per limit and subject, since its count would otherwise read a snapshot taken
 * before a concurrent taker committed. So of two takers of the last slot exactly one gets it,
 * whichever processes they run in.
 */
export class SharedRateLimit {
  constructor(readonly rule: RateLimitRule) {}

  /**
   * Takes one hit for the subject: `{ wait: 0, hit }` when it fits, else the seconds until one
   * would (nothing kept).
   */
  async take(em: EntityManager, subject: string, now = Date.now()): Promise<{ wait: 0; hit: RateLimitHit } | { wait: number; hit?: undefined }> {
    const hit = { subject, bucketStart: bucketStart(this.rule, now) };
    const taken = isPostgres(em)
      ? await em.transactional(async (tx) => {
          const ctx = tx.getTransactionContext();
          await tx.getConnection().execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`rate-limit:${this.rule.name}:${subject}`], 'all', ctx);
          return this.takeIfRoom(tx.getConnection(), hit, now, ctx);
        })
      : await this.takeIfRoom(em.getConnection(), hit, now);
    if (taken) return { wait: 0, hit };
    const rows: { window_start: number | string; hits: number | string }[] = await em
      .getConnection()
      .execute('select window_start, hits from rate_limit_windows where limit_name = ? and subject = ? and window_start > ?', [
        this.rule.name,
        subject,
        countedAfter(this.rule, now),
      ]);
    const counted: BucketCount[] = rows.map((r) => ({ bucketStart: Number(r.window_start), hits: Number(r.hits) }));
    return { wait: Math.max(1, retryAfterSeconds(this.rule, counted, now)) };
  }

  /** Adds the hit when the window has room for it; true when it did. */
  private async takeIfRoom(connection: Connection, hit: RateLimitHit, now: number, ctx?: unknown): Promise<boolean> {
    const taken: { hits: number | string }[] = await connection.execute(
      'insert into rate_limit_windows (limit_name, subject, window_start, hits, expires_at)' +
        ' select cast(? as text), cast(? as text), cast(? as bigint), 1, cast(? as bigint)' +
        ' where (select coalesce(sum(hits), 0) from rate_limit_windows where limit_name = ? and subject = ? and window_start > ?) < ?' +
        ' on conflict (limit_name, subject, window_start) do update set hits = rate_limit_windows.hits + 1 returning hits',
      [this.rule.name, hit.subject, hit.bucketStart, bucketExpiry(this.rule, hit.bucketStart), this.rule.name, hit.subject, countedAfter(this.rule, now), this.rule.limit],
      'all',
      ctx,
    );
    if (!taken.length) return false;
    // A new bucket row: the moment to drop the rows of this limit that no longer count.
    if (Number(taken[0].hits) === 1) await connection.execute('delete from rate_limit_windows where limit_name = ? and expires_at <= ?', [this.rule.name, now], 'run', ctx);
    return true;
  }

  /** Returns a hit (the request it was taken for was refused later or wrote nothing). */
  async giveBack(em: EntityManager, hit: RateLimitHit): Promise<void> {
    await em
      .getConnection()
      .execute('update rate_limit_windows set hits = hits - 1 where limit_name = ? and subject = ? and window_start = ? and hits > 0', [this.rule.name, hit.subject, hit.bucketStart]);
  }
}
