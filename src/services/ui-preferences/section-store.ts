import { UniqueConstraintViolationException, type EntityManager, type EntityName, type FilterQuery } from '@mikro-orm/core';
import { rateLimited } from '../../errors';
import { KeyedMutex } from '../pcd/user-ops';
import { SharedRateLimit } from '../shared-rate-limit';

/** Stored updates one section may take per window, across all API processes (both tables count separately). */
export const SECTION_UPDATES_PER_WINDOW = 30;
export const SECTION_UPDATE_WINDOW_SECONDS = 60;

interface SectionRow {
  sectionKey: string;
  updatedAt: Date;
}

/**
 * The optimistic-concurrency token of a PATCH: undefined writes unconditionally, null requires that
 * the section has no row yet, a date requires the stored updated_at to be exactly that instant.
 */
export type ExpectedUpdatedAt = Date | null | undefined;

export type SectionWrite<R> = { outcome: 'stored' | 'unchanged'; row: R } | { outcome: 'conflict'; current: R | null };

/**
 * Keyed rows of one section table with optimistic concurrency on updated_at. Writes of one section
 * are serialised in this process (so concurrent requests with one token make exactly one winner);
 * the conditional UPDATE / INSERT keeps that true across processes, and the rate limit is counted
 * in the database (`SharedRateLimit`), so it holds across processes too.
 */
export class SectionStore<R extends SectionRow, V extends Omit<R, 'sectionKey' | 'updatedAt'>> {
  private readonly mutex = new KeyedMutex<string>();
  private readonly limiter: SharedRateLimit;

  /** `limitName` names the table's rate limit in `rate_limit_windows`. */
  constructor(
    private readonly entity: EntityName<R>,
    private readonly label: string,
    limitName: string,
  ) {
    this.limiter = new SharedRateLimit({ name: limitName, limit: SECTION_UPDATES_PER_WINDOW, windowMs: SECTION_UPDATE_WINDOW_SECONDS * 1000 });
  }

  async list(em: EntityManager, offset: number, limit: number): Promise<{ items: R[]; total: number }> {
    const [items, total] = await em.fork().findAndCount(this.entity, {} as FilterQuery<R>, { orderBy: { sectionKey: 'asc' } as never, offset, limit });
    return { items, total };
  }

  /**
   * `next` returns the values the section should hold, or null when the request changes nothing
   * (then nothing is written, the token stays and the rate limit is not charged).
   */
  update(em: EntityManager, sectionKey: string, expected: ExpectedUpdatedAt, next: (current: R | null) => V | null): Promise<SectionWrite<R>> {
    return this.mutex.run(sectionKey, async () => {
      const current = await this.read(em, sectionKey);
      if (!tokenMatches(current, expected)) return { outcome: 'conflict', current };
      const values = next(current);
      if (!values) return { outcome: 'unchanged', row: current! };
      const now = Date.now();
      const { wait, hit } = await this.limiter.take(em, sectionKey, now);
      if (!hit) throw rateLimited(`Too many updates of ${this.label} ${sectionKey}: at most ${SECTION_UPDATES_PER_WINDOW} per ${SECTION_UPDATE_WINDOW_SECONDS} s; try again in ${wait} s`, wait);
      // updated_at is the token, so it must change on every write even within one millisecond.
      const updatedAt = new Date(Math.max(now, (current?.updatedAt.getTime() ?? 0) + 1));
      const written = await (current ? this.updateIf(em, current, values, updatedAt) : this.insert(em, sectionKey, values, updatedAt)).catch(async (error: unknown) => {
        await this.limiter.giveBack(em, hit);
        throw error;
      });
      if (!written) {
        await this.limiter.giveBack(em, hit);
        return { outcome: 'conflict', current: await this.read(em, sectionKey) };
      }
      return { outcome: 'stored', row: { ...values, sectionKey, updatedAt } as unknown as R };
    });
  }

  private read(em: EntityManager, sectionKey: string): Promise<R | null> {
    return em.fork().findOne(this.entity, { sectionKey } as FilterQuery<R>);
  }

  private async updateIf(em: EntityManager, current: R, values: V, updatedAt: Date): Promise<boolean> {
    const where = { sectionKey: current.sectionKey, updatedAt: current.updatedAt } as FilterQuery<R>;
    return (await em.fork().nativeUpdate(this.entity, where, { ...values, updatedAt } as never)) === 1;
  }

  private async insert(em: EntityManager, sectionKey: string, values: V, updatedAt: Date): Promise<boolean> {
    try {
      await em.fork().insert(this.entity, { ...values, sectionKey, updatedAt } as never);
      return true;
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) return false;
      throw error;
    }
  }
}

function tokenMatches(current: SectionRow | null, expected: ExpectedUpdatedAt): boolean {
  if (expected === undefined) return true;
  if (expected === null) return current === null;
  return current !== null && current.updatedAt.getTime() === expected.getTime();
}
