import { createHash } from 'node:crypto';
import { cacheGeneration, type PcdCache } from './cache-manager';

/**
 * A read view serialized once: the JSON bytes, its strong entity tag and the headers that go with
 * it. The API sends the bytes as they are (no JSON.stringify per request) and answers 304 when the
 * client's If-None-Match names the tag.
 */
export interface SerializedView {
  body: Buffer;
  /** Strong entity tag: a hash of the bytes and headers, so equal bytes give equal tags, on any process. */
  etag: string;
  headers: Record<string, string>;
}

/** The default bound of the memo: 64 MiB of serialized bodies per process. */
export const DEFAULT_READ_VIEW_CACHE_BYTES = 64 * 1024 * 1024;

interface Memoized {
  databaseId: number;
  generation: number;
  view: SerializedView;
  /** What the entry counts against the bound: its bytes plus its key and bookkeeping. */
  cost: number;
}

const ENTRY_OVERHEAD = 256;

export function serializeView(body: unknown, headers: Record<string, string> = {}): SerializedView {
  const bytes = Buffer.from(JSON.stringify(body), 'utf8');
  const hash = createHash('sha256').update(bytes);
  for (const [name, value] of Object.entries(headers).sort(([a], [b]) => (a < b ? -1 : 1))) hash.update(`\n${name.toLowerCase()}:${value}`);
  return { body: bytes, etag: `"${hash.digest('base64url').slice(0, 32)}"`, headers };
}

/**
 * Serialized read views over the in-memory PCD caches, memoized per cache state: the key is the
 * database, its cache state (the PcdCache object, numbered in build order by cacheGeneration: a
 * pull, edit, revert, import or rollback builds a new one) and the view with its normalized query. The first read of a newer state drops every
 * view of the database's older states, and a request still holding an older state is served
 * without storing it, so no response ever comes from a state older than the one its request read.
 * Memory is bounded: at most `maxBytes` in all (bodies plus keys and a fixed overhead per entry),
 * least recently used evicted first; a view larger than a quarter of the bound is served without
 * being kept. `maxBytes` 0 turns it off.
 */
export class ReadViewMemo {
  /** Insertion order is recency order: a hit moves its entry to the end. */
  private readonly entries = new Map<string, Memoized>();
  /** The newest cache state seen per database. */
  private readonly current = new Map<number, number>();
  private bytes = 0;

  constructor(readonly maxBytes: number = DEFAULT_READ_VIEW_CACHE_BYTES) {}

  /**
   * The view `name` (with its normalized query) of this cache state, computed and serialized on
   * first use. `compute` returns the body and its headers; errors it throws pass through uncached.
   */
  view(cache: PcdCache, name: string, compute: () => { body: unknown; headers?: Record<string, string> }): SerializedView {
    const databaseId = cache.databaseId;
    const generation = cacheGeneration(cache);
    const newest = this.current.get(databaseId) ?? 0;
    if (generation > newest) {
      this.dropDatabase(databaseId);
      this.current.set(databaseId, generation);
    }
    const key = `${databaseId}:${generation}:${name}`;
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.view;
    }
    const computed = compute();
    const view = serializeView(computed.body, computed.headers);
    const cost = view.body.length + 2 * key.length + ENTRY_OVERHEAD;
    if (generation === this.current.get(databaseId) && cost <= this.maxBytes / 4) {
      this.entries.set(key, { databaseId, generation, view, cost });
      this.bytes += cost;
      this.evict();
    }
    return view;
  }

  /** Forgets every view of a database (unlinked, or its cache evicted). */
  dropDatabase(databaseId: number): void {
    for (const [key, entry] of this.entries) {
      if (entry.databaseId !== databaseId) continue;
      this.entries.delete(key);
      this.bytes -= entry.cost;
    }
  }

  stats(): { views: number; bytes: number; maxBytes: number } {
    return { views: this.entries.size, bytes: this.bytes, maxBytes: this.maxBytes };
  }

  private evict(): void {
    for (const [key, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) return;
      this.entries.delete(key);
      this.bytes -= entry.cost;
    }
  }
}
