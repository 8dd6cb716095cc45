import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type Database from 'better-sqlite3';
import {
  assessReplay,
  createSeededDatabase,
  regularExpressionPatterns,
  replayCounts,
  replayOps,
  replayUserLayer,
  type OpOutcome,
  type ReplayHealth,
  type SchemaLayerInfo,
  type PcdOp as DomainOp,
  type PcdState,
  type PendingConflict,
  type ProgressCallback,
} from '../../domain/pcd';
import { unevaluablePatterns } from '../../domain/evaluation';
import { notFound, notReady } from '../../errors';
import { type Logger, logFailure } from '../../platform/logger';
import { probe } from '../../platform/profiling';
import type { Orm } from '../../persistence/orm';
import { PcdDatabase, SERVABLE_CACHE_STATUSES, type PcdCacheStats } from '../../persistence/entities';
import { loadStoredLayers } from './op-store';
import { pcdCacheBuildDuration, pcdCacheBuildsTotal } from '../../platform/metrics';

/** A replayed database kept in memory for reads. */
export interface PcdCache extends PcdState {
  databaseId: number;
  contentVersion: number;
  userVersion: number;
  outcomes: OpOutcome[];
  conflicts: PendingConflict[];
  builtAt: Date;
  stats: PcdCacheStats;
  /** ready, degraded (failed ops: the state is incomplete) or failed (no entity from a non-empty repository). */
  health: ReplayHealth;
  schema: SchemaLayerInfo;
  /** Values derived from this exact state, computed once (e.g. sync sources per app family and selection). */
  memo<T>(key: string, compute: () => T): T;
}

interface Entry {
  /** The base replay (schema, base, tweaks) for this contentVersion. */
  contentVersion: number;
  status: 'building' | 'ready' | 'failed';
  building?: Promise<void>;
  base?: Database.Database;
  baseOutcomes?: OpOutcome[];
  baseMs?: number;
  schema?: SchemaLayerInfo;
  /** Base and tweak ops of the repository (a replay of a non-empty repository must yield entities). */
  repositoryOps?: number;
  cache?: PcdCache;
  /** The user-layer replay under way, which concurrent reads of the same userVersion join. */
  resolving?: { userVersion: number; cache: Promise<PcdCache> };
  error?: string;
  /** The build failed reading the stored ops (the database was unreachable): the next read or warm-up builds again. */
  retryable?: boolean;
}

/** What a read needs to know of the database's row to find its current cache. */
type DatabaseVersions = Pick<PcdDatabase, 'id' | 'enabled' | 'lastPulledAt' | 'contentVersion' | 'userVersion'>;

/** Cache states in the order this process built them (read views are memoized per state). */
const generations = new WeakMap<PcdCache, number>();
let lastGeneration = 0;

/** The cache state's number: higher is newer, unique in the process (a cache built elsewhere is numbered on first sight). */
export function cacheGeneration(cache: PcdCache): number {
  let generation = generations.get(cache);
  if (generation === undefined) {
    generation = ++lastGeneration;
    generations.set(cache, generation);
  }
  return generation;
}

/** Ops replayed between yields, so a long build never stalls the event loop for long. */
const BATCH = 200;

/**
 * One in-memory SQLite cache per database (schema+base+tweaks, and the resolved copy with the
 * user layer). A base rebuild runs in the background; reads meanwhile answer "not ready". A user
 * edit only replays the (small) user layer on a copy of base, synchronously.
 */
export class PcdCacheManager {
  private readonly entries = new Map<number, Entry>();
  private readonly stateListeners = new Set<(cache: PcdCache) => void | Promise<void>>();
  /** The database-row read that requests arriving now will share (see rowFor). */
  private pendingRows: { ids: Set<number>; rows: Promise<Map<number, DatabaseVersions>> } | null = null;

  constructor(
    private readonly orm: Orm,
    private readonly logger: Logger,
  ) {}

  /** The current cache for reads; throws not_found or not_ready (a stale base starts a rebuild). */
  async get(databaseId: number): Promise<PcdCache> {
    const row = await this.rowFor(databaseId);
    if (!row) throw notFound(`Database ${databaseId} not found`);
    if (!row.enabled) throw notReady(`Database ${databaseId} is not ready: it is disabled`);
    if (!row.lastPulledAt) throw notReady(`Database ${databaseId} is not ready: it has not been pulled yet`);
    const entry = this.entries.get(databaseId);
    if (entry?.status === 'ready' && entry.contentVersion === row.contentVersion) {
      const cache = await this.resolved(databaseId, entry, row.userVersion);
      if (cache.health.reason === 'schema_gaps') {
        const gaps = cache.schema.gaps;
        throw notReady(
          `Database ${databaseId} cannot be read: its schema dependency lacks columns arrgo reads (${gaps.slice(0, 5).join(', ')}${gaps.length > 5 ? `, and ${gaps.length - 5} more` : ''})`,
        );
      }
      return cache;
    }
    if (entry?.status === 'failed' && entry.contentVersion === row.contentVersion && !entry.retryable) {
      throw notReady(`Database ${databaseId} is not ready: its cache failed to build`);
    }
    void this.startBaseBuild(databaseId, row.contentVersion);
    throw notReady(`Database ${databaseId} is not ready: its cache is being built`);
  }

  /**
   * The database's row as stored now. Reads of concurrent requests share one query: it starts on
   * the next turn of the event loop, after every request that joined it arrived, so it sees every
   * write committed before any of them (an edit followed by a read is never answered from the
   * state before the edit), and a burst of reads costs one query instead of one each.
   */
  private rowFor(databaseId: number): Promise<DatabaseVersions | undefined> {
    let batch = this.pendingRows;
    if (!batch) {
      const ids = new Set<number>();
      const rows = new Promise<Map<number, DatabaseVersions>>((resolve, reject) => {
        setImmediate(() => {
          this.pendingRows = null;
          this.orm.em
            .fork()
            .find(PcdDatabase, { id: { $in: [...ids] } }, { fields: ['id', 'enabled', 'lastPulledAt', 'contentVersion', 'userVersion'] })
            .then((found) => resolve(new Map(found.map((row) => [row.id, row]))), reject);
        });
      });
      batch = this.pendingRows = { ids, rows };
    }
    batch.ids.add(databaseId);
    return batch.rows.then((rows) => rows.get(databaseId));
  }

  /**
   * Builds (or reuses) the cache for the stored ops and waits for it. Used by the pull workflow.
   * A caller that has just read the database's versions passes them, sparing a read of the row.
   */
  async build(databaseId: number, onProgress?: ProgressCallback, stored?: Pick<PcdDatabase, 'contentVersion' | 'userVersion'>): Promise<PcdCache> {
    const row = stored ?? (await this.orm.em.fork().findOneOrFail(PcdDatabase, { id: databaseId }));
    let entry = this.entries.get(databaseId);
    if (!(entry?.status === 'ready' && entry.contentVersion === row.contentVersion)) {
      await this.startBaseBuild(databaseId, row.contentVersion, onProgress);
      entry = this.entries.get(databaseId)!;
      if (entry.status !== 'ready') throw new Error(entry.error ?? 'cache build failed');
    }
    return this.resolved(databaseId, entry, row.userVersion);
  }

  /**
   * Keeps caches of enabled, pulled databases current in the background (base and user layer), so reads
   * in a process that did not run the pull or the edit (the API of a split deployment) rarely meet a rebuild.
   */
  startWarming(intervalMs = 5000): () => void {
    let running = false;
    const tick = async () => {
      if (running) return;
      running = true;
      try {
        const rows = await this.orm.em.fork().find(PcdDatabase, { enabled: true, cacheStatus: { $in: [...SERVABLE_CACHE_STATUSES] } }, { fields: ['id', 'contentVersion', 'userVersion', 'lastPulledAt'] });
        for (const row of rows) {
          if (!row.lastPulledAt) continue;
          const entry = this.entries.get(row.id);
          if (!entry || (entry.contentVersion !== row.contentVersion && entry.status !== 'building') || (entry.status === 'failed' && entry.retryable)) {
            await this.startBaseBuild(row.id, row.contentVersion);
          }
          // The user layer too: a new state is then built (and its views warmed) before a read asks for it.
          const current = this.entries.get(row.id);
          if (current?.status === 'ready' && current.contentVersion === row.contentVersion) await this.resolved(row.id, current, row.userVersion);
        }
      } catch (error) {
        logFailure(this.logger, 'warn', {}, error, 'pcd cache warm-up failed');
      } finally {
        running = false;
      }
    };
    const timer = setInterval(() => void tick(), intervalMs);
    timer.unref();
    void tick();
    return () => clearInterval(timer);
  }

  /**
   * Calls `listener` after each new cache state, on a later turn of the event loop (so the build's caller
   * is answered first). Derived views warm themselves with it; returns the unsubscribe.
   */
  onStateBuilt(listener: (cache: PcdCache) => void | Promise<void>): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  status(databaseId: number): 'absent' | Entry['status'] {
    return this.entries.get(databaseId)?.status ?? 'absent';
  }

  readyCount(): number {
    return [...this.entries.values()].filter((e) => e.status === 'ready').length;
  }

  evict(databaseId: number): void {
    const entry = this.entries.get(databaseId);
    this.entries.delete(databaseId);
    closeEntry(entry);
  }

  closeAll(): void {
    for (const id of [...this.entries.keys()]) this.evict(id);
  }

  private startBaseBuild(databaseId: number, contentVersion: number, onProgress?: ProgressCallback): Promise<void> {
    const current = this.entries.get(databaseId);
    if (current?.status === 'building' && current.contentVersion === contentVersion && current.building) return current.building;
    const entry: Entry = { contentVersion, status: 'building' };
    entry.building = this.buildBase(databaseId, entry, onProgress).finally(() => {
      entry.building = undefined;
    });
    this.entries.set(databaseId, entry);
    if (current && current !== entry) closeEntry(current);
    return entry.building;
  }

  private async buildBase(databaseId: number, entry: Entry, onProgress?: ProgressCallback): Promise<void> {
    const started = process.hrtime.bigint();
    try {
      await yieldToEventLoop();
      const layers = await loadStoredLayers(this.orm.em.fork(), databaseId).catch((error: unknown) => {
        entry.retryable = true;
        throw error;
      });
      const seeded = createSeededDatabase(layers.schema);
      const outcomes: OpOutcome[] = [...seeded.outcomes];
      const ops: DomainOp[] = [...layers.base, ...layers.tweaks];
      const total = outcomes.length + ops.length + layers.user.length;
      for (let i = 0; i < ops.length; i += BATCH) {
        outcomes.push(...probe('replay', 'base', () => replayOps(seeded.db, seeded.ctx, ops.slice(i, i + BATCH), { onProgress, progressOffset: seeded.outcomes.length + i, progressTotal: total })));
        await yieldToEventLoop();
      }
      if (this.entries.get(databaseId) !== entry) {
        seeded.db.close();
        return;
      }
      entry.base = seeded.db;
      entry.baseOutcomes = outcomes;
      entry.baseMs = Number(process.hrtime.bigint() - started) / 1e6;
      entry.schema = seeded.schema;
      entry.repositoryOps = ops.length;
      entry.status = 'ready';
      observeCacheBuild('base', 'ready', entry.baseMs);
      this.logger.info({ databaseId, ops: outcomes.length, ms: Math.round(entry.baseMs) }, 'pcd base cache built');
    } catch (error) {
      entry.status = 'failed';
      observeCacheBuild('base', 'failed', Number(process.hrtime.bigint() - started) / 1e6);
      entry.error = error instanceof Error ? error.message : String(error);
      logFailure(this.logger, 'error', { databaseId, retryable: entry.retryable === true }, error, 'pcd cache build failed');
    }
  }

  /** The resolved cache for the current user layer, replaying it on a copy of base when it changed. */
  private resolved(databaseId: number, entry: Entry, userVersion: number): Promise<PcdCache> {
    if (entry.cache && entry.cache.userVersion === userVersion) return Promise.resolve(entry.cache);
    if (entry.resolving?.userVersion === userVersion) return entry.resolving.cache;
    const cache = this.replayUser(databaseId, entry, userVersion).finally(() => {
      if (entry.resolving?.cache === cache) entry.resolving = undefined;
    });
    entry.resolving = { userVersion, cache };
    return cache;
  }

  private announceState(cache: PcdCache): void {
    for (const listener of this.stateListeners) {
      setImmediate(() => {
        Promise.resolve()
          .then(() => listener(cache))
          .catch((error) => {
            logFailure(this.logger, 'warn', { databaseId: cache.databaseId }, error, 'warming a new pcd cache state failed');
          });
      });
    }
  }

  private async replayUser(databaseId: number, entry: Entry, userVersion: number): Promise<PcdCache> {
    const started = process.hrtime.bigint();
    const { user } = await loadStoredLayers(this.orm.em.fork(), databaseId);
    const replayed = probe('replay', 'user layer', () => replayUserLayer(entry.base!, user));
    const outcomes = [...entry.baseOutcomes!, ...replayed.outcomes];
    const failures = outcomes.filter((o) => o.status === 'failed');
    const failedByReason: Record<string, number> = {};
    for (const f of failures) failedByReason[f.reason ?? 'invalid'] = (failedByReason[f.reason ?? 'invalid'] ?? 0) + 1;
    const counts = replayCounts(outcomes);
    const health = assessReplay({ outcomes, base: entry.base!, repositoryOps: entry.repositoryOps ?? 0, schema: entry.schema });
    const previous = entry.cache;
    if (previous && previous.userVersion > userVersion) {
      // A newer user layer was replayed meanwhile: answer that one (never go back to an older state).
      replayed.resolved.close();
      return previous;
    }
    const memos = new Map<string, unknown>();
    entry.cache = {
      memo<T>(key: string, compute: () => T): T {
        if (!memos.has(key)) memos.set(key, compute());
        return memos.get(key) as T;
      },
      databaseId,
      contentVersion: entry.contentVersion,
      userVersion,
      base: entry.base!,
      resolved: replayed.resolved,
      outcomes,
      conflicts: replayed.conflicts,
      builtAt: new Date(),
      health,
      schema: entry.schema!,
      stats: {
        totalOps: counts.ops,
        applied: counts.applied,
        skipped: counts.skipped,
        skippedWrites: counts.skippedWrites,
        firstSkippedWrites: health.firstSkippedWrites,
        failed: counts.failed,
        conflicts: replayed.conflicts.length,
        failedByReason,
        failedOps: health.failedOps,
        failedOpsByReason: health.failedByReason,
        firstFailed: health.firstFailed,
        entities: health.entities,
        schemaGaps: entry.schema!.gaps.slice(0, 20),
        ...unevaluableStats(replayed.resolved),
        builtAt: new Date().toISOString(),
        durationMs: Math.round((entry.baseMs ?? 0) + Number(process.hrtime.bigint() - started) / 1e6),
      },
    };
    cacheGeneration(entry.cache);
    previous?.resolved.close();
    this.announceState(entry.cache);
    observeCacheBuild('user', health.status, Number(process.hrtime.bigint() - started) / 1e6);
    return entry.cache;
  }
}

/**
 * The regular expressions of the state that custom-format evaluation cannot answer as .NET would
 * (docs/evaluation.md, ".NET regular expressions"): reported with the construct named when a
 * database is linked or pulled, never evaluated differently.
 */
function unevaluableStats(db: Database.Database): Pick<PcdCacheStats, 'unevaluablePatterns' | 'firstUnevaluablePatterns'> {
  let found: { name: string; reason: string }[];
  try {
    found = unevaluablePatterns(regularExpressionPatterns(db));
  } catch {
    return {}; // no regular_expressions table (schema gaps are reported on their own)
  }
  return { unevaluablePatterns: found.length, firstUnevaluablePatterns: found.slice(0, MAX_LISTED_UNEVALUABLE) };
}

const MAX_LISTED_UNEVALUABLE = 20;

function observeCacheBuild(layer: 'base' | 'user', result: string, ms: number): void {
  pcdCacheBuildsTotal.inc({ layer, result });
  pcdCacheBuildDuration.observe({ layer }, ms / 1000);
}

function closeEntry(entry: Entry | undefined): void {
  if (!entry) return;
  entry.cache?.resolved.close();
  entry.base?.close();
}
