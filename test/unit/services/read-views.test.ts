import { ifNoneMatchHits } from '../../../src/api/http/route';
import { cacheGeneration, type PcdCache } from '../../../src/services/pcd/cache-manager';
import { ReadViewMemo, serializeView } from '../../../src/services/pcd/read-views';

/** A cache state: the memo only needs its identity and database id. */
const state = (databaseId: number) => ({ databaseId }) as PcdCache;
const KB = 1024;

describe('ReadViewMemo', () => {
  it('computes a view once per cache state and query, and recomputes for a new state', () => {
    const memo = new ReadViewMemo();
    const first = state(1);
    let computed = 0;
    const compute = (value: string) => () => ({ body: { value, n: ++computed }, headers: { 'X-Arrgo-Cache-Status': 'ready' } });
    const a = memo.view(first, 'resolved:qp', compute('a'));
    expect(memo.view(first, 'resolved:qp', compute('ignored'))).toBe(a);
    expect(JSON.parse(a.body.toString())).toEqual({ value: 'a', n: 1 });
    expect(memo.view(first, 'graph', compute('g')).body.toString()).toBe('{"value":"g","n":2}');
    expect(memo.stats().views).toBe(2);

    const second = state(1);
    const b = memo.view(second, 'resolved:qp', compute('b'));
    expect(JSON.parse(b.body.toString())).toEqual({ value: 'b', n: 3 });
    // The newer state dropped every view of the older one.
    expect(memo.stats().views).toBe(1);
    // A request still holding the older state is answered from it, but never stored or served to others.
    const late = memo.view(first, 'resolved:qp', compute('late'));
    expect(JSON.parse(late.body.toString())).toEqual({ value: 'late', n: 4 });
    expect(memo.view(second, 'resolved:qp', compute('x'))).toBe(b);
    expect(memo.stats().views).toBe(1);
  });

  it('orders states by when they were built, not by when a request first shows them', () => {
    const memo = new ReadViewMemo();
    const older = state(3);
    const newer = state(3);
    cacheGeneration(older); // the cache manager numbers each state as it builds it
    cacheGeneration(newer);
    const fresh = memo.view(newer, 'v', () => ({ body: 'newer' }));
    // A request that read the older state before the rebuild finishes late: answered, not stored.
    expect(memo.view(older, 'v', () => ({ body: 'older' })).body.toString()).toBe('"older"');
    expect(memo.view(newer, 'v', () => ({ body: 'recomputed' }))).toBe(fresh);
    expect(memo.stats().views).toBe(1);
  });

  it('keeps databases apart and gives equal bytes equal strong tags', () => {
    const memo = new ReadViewMemo();
    const one = memo.view(state(1), 'v', () => ({ body: { same: true }, headers: { 'X-Arrgo-Cache-Status': 'ready' } }));
    const two = memo.view(state(2), 'v', () => ({ body: { same: true }, headers: { 'X-Arrgo-Cache-Status': 'ready' } }));
    expect(two).not.toBe(one);
    expect(two.etag).toBe(one.etag);
    expect(one.etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    // The tag covers the headers that travel with the body.
    expect(serializeView({ same: true }, { 'X-Arrgo-Cache-Status': 'degraded' }).etag).not.toBe(one.etag);
    expect(serializeView({ same: false }, { 'X-Arrgo-Cache-Status': 'ready' }).etag).not.toBe(one.etag);
  });

  it('stays within its byte bound, evicting the least recently used view first', () => {
    const memo = new ReadViewMemo(200 * KB);
    const cache = state(1);
    const body = (kb: number) => () => ({ body: 'x'.repeat(kb * KB) });
    memo.view(cache, 'a', body(40));
    memo.view(cache, 'b', body(40));
    memo.view(cache, 'c', body(40));
    memo.view(cache, 'd', body(40));
    memo.view(cache, 'a', () => {
      throw new Error('a is memoized');
    });
    memo.view(cache, 'e', body(40)); // over the bound: b, the least recently used, goes
    expect(memo.stats().bytes).toBeLessThanOrEqual(200 * KB);
    expect(memo.stats().views).toBe(4);
    let recomputed = '';
    memo.view(cache, 'b', () => ((recomputed = 'b'), { body: 'x' }));
    expect(recomputed).toBe('b');
    expect(memo.stats().views).toBe(5);
    // A view over a quarter of the bound is served but not kept.
    const big = memo.view(cache, 'big', body(60));
    expect(big.body.length).toBe(60 * KB + 2);
    expect(memo.stats().views).toBe(5);
    // 0 turns the memo off.
    const off = new ReadViewMemo(0);
    off.view(cache, 'a', body(1));
    expect(off.stats()).toEqual({ views: 0, bytes: 0, maxBytes: 0 });
  });

  it('passes errors through without storing anything', () => {
    const memo = new ReadViewMemo();
    expect(() => memo.view(state(1), 'v', () => { throw new Error('bad query'); })).toThrow('bad query');
    expect(memo.stats().views).toBe(0);
  });
});

describe('If-None-Match (weak comparison, RFC 9110)', () => {
  const tag = '"abc"';
  it.each([
    ['"abc"', true],
    ['W/"abc"', true],
    ['"x", "abc"', true],
    ['"x",W/"abc"', true],
    ['*', true],
    [' * ', true],
    ['"abcd"', false],
    ['abc', false],
    ['"x"', false],
    ['', false],
  ])('%j names "abc": %s', (header, hit) => {
    expect(ifNoneMatchHits(header, tag)).toBe(hit);
  });
  it('ignores a missing header', () => expect(ifNoneMatchHits(undefined, tag)).toBe(false));
});
