import { deepEqual, diff, formatPath, leaves, parsePath } from '../../../src/domain/diff';

describe('path notation', () => {
  it('joins segments with dots and escapes dots and backslashes inside names', () => {
    expect(formatPath(['conditions', 'HDR10+', 'negate'])).toBe('conditions.HDR10+.negate');
    expect(formatPath(['customFormats', 'all', '1.0 Mono', 'score'])).toBe('customFormats.all.1\\.0 Mono.score');
    expect(formatPath(['a\\b', 'c'])).toBe('a\\\\b.c');
  });

  it('parses what it formats', () => {
    for (const segs of [['a'], ['conditions', 'HDR10+', 'negate'], ['x', '1.0 Mono', 'y'], ['back\\slash', 'dot.ted']]) {
      expect(parsePath(formatPath(segs))).toEqual(segs);
    }
    expect(parsePath('')).toEqual([]);
  });
});

describe('diff', () => {
  it('reports added, changed and removed object fields', () => {
    expect(diff({ a: 1, b: 'x', c: true }, { a: 2, c: true, d: null })).toEqual([
      { field: 'a', type: 'changed', current: 1, desired: 2 },
      { field: 'b', type: 'removed', current: 'x', desired: null },
      { field: 'd', type: 'added', current: null, desired: null },
    ]);
  });

  it('treats a missing side as an empty object', () => {
    expect(diff(null, { name: 'x', n: 1 }).map((c) => [c.field, c.type])).toEqual([
      ['name', 'added'],
      ['n', 'added'],
    ]);
    expect(diff({ name: 'x' }, undefined)).toEqual([{ field: 'name', type: 'removed', current: 'x', desired: null }]);
  });

  it('addresses items of named arrays by name, by default', () => {
    const current = { conditions: [{ name: 'HDR10+', negate: false, required: true }, { name: 'DV', negate: false }] };
    const desired = { conditions: [{ name: 'DV', negate: false }, { name: 'HDR10+', negate: true, required: true }, { name: 'New', negate: false }] };
    expect(diff(current, desired)).toEqual([
      { field: 'conditions.HDR10+.negate', type: 'changed', current: false, desired: true },
      { field: 'conditions.New', type: 'added', current: null, desired: { name: 'New', negate: false } },
    ]);
  });

  it('uses configured keys and reports order changes of ordered arrays', () => {
    const options = { arrays: { qualities: { key: 'name', ordered: true }, 'entries': { key: 'quality' }, 'qualities.*.members': { key: null } } };
    const current = {
      qualities: [
        { name: 'Bluray-1080p', enabled: true },
        { name: 'WEB 1080p', enabled: true, members: ['WEBDL-1080p', 'WEBRip-1080p'] },
      ],
      entries: [{ quality: 'DVD', max: 1 }],
    };
    const desired = {
      qualities: [
        { name: 'WEB 1080p', enabled: true, members: ['WEBRip-1080p', 'WEBDL-1080p'] },
        { name: 'Bluray-1080p', enabled: false },
      ],
      entries: [{ quality: 'DVD', max: 2 }],
    };
    expect(diff(current, desired, options)).toEqual([
      { field: 'qualities', type: 'changed', current: ['Bluray-1080p', 'WEB 1080p'], desired: ['WEB 1080p', 'Bluray-1080p'] },
      { field: 'qualities.WEB 1080p.members', type: 'changed', current: ['WEBDL-1080p', 'WEBRip-1080p'], desired: ['WEBRip-1080p', 'WEBDL-1080p'] },
      { field: 'qualities.Bluray-1080p.enabled', type: 'changed', current: true, desired: false },
      { field: 'entries.DVD.max', type: 'changed', current: 1, desired: 2 },
    ]);
  });

  it('supports wildcard patterns and key functions', () => {
    const options = { arrays: { 'scores.*': { key: (i: unknown) => String((i as { cf: string }).cf) } } };
    expect(diff({ scores: { radarr: [{ cf: 'A', s: 1 }] } }, { scores: { radarr: [{ cf: 'A', s: 2 }] } }, options)).toEqual([
      { field: 'scores.radarr.A.s', type: 'changed', current: 1, desired: 2 },
    ]);
  });

  it('compares primitive arrays and arrays with duplicate keys as one value', () => {
    expect(diff({ tags: ['a', 'b'] }, { tags: ['a', 'c'] })).toEqual([{ field: 'tags', type: 'changed', current: ['a', 'b'], desired: ['a', 'c'] }]);
    const dup = [{ name: 'x', v: 1 }, { name: 'x', v: 2 }];
    expect(diff({ l: dup }, { l: [{ name: 'x', v: 1 }] })[0].field).toBe('l');
    expect(diff({ tags: ['a'] }, { tags: ['a'] })).toEqual([]);
  });

  it('escapes names containing dots in paths', () => {
    expect(diff({ l: [{ name: '2.0 Stereo', s: 1 }] }, { l: [{ name: '2.0 Stereo', s: 3 }] })[0].field).toBe('l.2\\.0 Stereo.s');
  });

  it('reports kind changes and honours ignore patterns', () => {
    expect(diff({ a: [1] }, { a: { x: 1 } })).toEqual([{ field: 'a', type: 'changed', current: [1], desired: { x: 1 } }]);
    expect(diff({ a: 1, meta: { at: 1 } }, { a: 1, meta: { at: 2 } }, { ignore: ['meta'] })).toEqual([]);
  });
});

describe('leaves and deepEqual', () => {
  it('lists leaf paths in diff notation', () => {
    const options = { arrays: { qualities: { key: 'name', ordered: true } } };
    const value = { name: 'P', tags: ['t'], qualities: [{ name: 'A', enabled: true }], nested: { x: null } };
    expect(leaves(value, options)).toEqual([
      { path: 'name', value: 'P' },
      { path: 'tags', value: ['t'] },
      { path: 'qualities', value: ['A'] },
      { path: 'qualities.A.enabled', value: true },
      { path: 'nested.x', value: null },
    ]);
  });

  it('compares structurally', () => {
    expect(deepEqual({ a: [1, { b: 2 }], c: undefined }, { a: [1, { b: 2 }] })).toBe(true);
    expect(deepEqual([1, 2], [2, 1])).toBe(false);
    expect(deepEqual({ a: null }, { a: undefined })).toBe(false);
  });
});
