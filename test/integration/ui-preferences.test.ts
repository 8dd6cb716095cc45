import { dbKinds, type DbKind } from '../helpers/databases';
import { startArrgo, type Harness } from '../helpers/harness';

describe.each(dbKinds())('UI preferences and complexity tiers on %s', (db: DbKind) => {
  let h: Harness;

  beforeAll(async () => {
    h = await startArrgo({ db });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('validates every field of both PATCH bodies', async () => {
    const bad: [string, unknown, RegExp][] = [
      ['/ui-preferences', { mode: 'basic' }, /section_key/],
      ['/ui-preferences', { section_key: 'a:b', mode: 'basic' }, /section_key.*must match/],
      ['/ui-preferences', { section_key: 'A:b:c', mode: 'basic' }, /section_key.*must match/],
      ['/ui-preferences', { section_key: `a:b:${'c'.repeat(93)}`, mode: 'basic' }, /section_key/],
      ['/ui-preferences', { section_key: 'a:b:c', mode: 'expert' }, /mode/],
      ['/ui-preferences', { section_key: 'a:b:c' }, /mode/],
      ['/ui-preferences', { section_key: 'a:b:c', mode: 'basic', expected_updated_at: 'yesterday' }, /expected_updated_at.*date-time/],
      ['/ui-preferences', { section_key: 'a:b:c', mode: 'basic', extra: 1 }, /extra/],
      ['/complexity-tiers', { section_key: 'a:b:c', tier: 'guru' }, /tier/],
      ['/complexity-tiers', { section_key: 'a:b:c' }, /tier/],
      ['/complexity-tiers', { section_key: 'a:b:c', tier: 'beginner', interaction_delta: 101 }, /interaction_delta/],
      ['/complexity-tiers', { section_key: 'a:b:c', tier: 'beginner', interaction_delta: -1 }, /interaction_delta/],
      ['/complexity-tiers', { section_key: 'a:b:c', tier: 'beginner', interaction_delta: 1.5 }, /interaction_delta/],
      ['/complexity-tiers', { section_key: 'a:b:c', tier: 'beginner', advanced_toggle_delta: 21 }, /advanced_toggle_delta/],
      ['/complexity-tiers', { section_key: 'a:b:c', tier: 'beginner', last_suggested_tier: 'guru' }, /last_suggested_tier/],
      ['/complexity-tiers', { section_key: 'a:b:c', tier: 'beginner', suggestion_dismissed_at: 'now' }, /suggestion_dismissed_at/],
    ];
    for (const [path, body, message] of bad) {
      const res = await h.patch(path, body);
      expect([path, JSON.stringify(body), res.status]).toEqual([path, JSON.stringify(body), 400]);
      expect(res.body.error).toMatch(message);
    }
    expect((await h.patch('/ui-preferences', { section_key: `a:b:${'c'.repeat(92)}`, mode: 'basic' })).status).toBe(200);
    expect((await h.request('PATCH', '/ui-preferences', { section_key: 'a:b:c', mode: 'basic' }, { auth: false })).status).toBe(401);
    expect((await h.get('/ui-preferences?sort=asc')).status).toBe(400);
  });

  it('stores a disclosure mode with optimistic concurrency; a conflict carries the current row', async () => {
    const created = await h.patch('/ui-preferences', { section_key: 'pcd:profiles:scores', mode: 'advanced', expected_updated_at: null });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ section_key: 'pcd:profiles:scores', mode: 'advanced', updated_at: expect.any(String), persisted: true });

    const again = await h.patch('/ui-preferences', { section_key: 'pcd:profiles:scores', mode: 'basic', expected_updated_at: null });
    expect(again.status).toBe(409);
    expect(again.body.current).toEqual(created.body);

    const same = await h.patch('/ui-preferences', { section_key: 'pcd:profiles:scores', mode: 'advanced', expected_updated_at: created.body.updated_at });
    expect(same.body).toEqual({ ...created.body, persisted: false });

    const updated = await h.patch('/ui-preferences', { section_key: 'pcd:profiles:scores', mode: 'basic', expected_updated_at: created.body.updated_at });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ mode: 'basic', persisted: true });
    expect(Date.parse(updated.body.updated_at)).toBeGreaterThan(Date.parse(created.body.updated_at));

    const stale = await h.patch('/ui-preferences', { section_key: 'pcd:profiles:scores', mode: 'advanced', expected_updated_at: created.body.updated_at });
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual({ error: expect.stringMatching(/expected_updated_at/), current: { ...updated.body, persisted: true } });

    const unknown = await h.patch('/ui-preferences', { section_key: 'pcd:profiles:nothing', mode: 'advanced', expected_updated_at: created.body.updated_at });
    expect(unknown.status).toBe(409);
    expect(unknown.body.current).toBeNull();

    const list = await h.get('/ui-preferences');
    expect(list.status).toBe(200);
    expect(list.body.items.find((i: { section_key: string }) => i.section_key === 'pcd:profiles:scores')).toEqual({ ...updated.body, persisted: true });
    expect(list.body.items.map((i: { section_key: string }) => i.section_key)).toEqual([...list.body.items.map((i: { section_key: string }) => i.section_key)].sort());
  });

  it.each(['/ui-preferences', '/complexity-tiers'])('100 concurrent %s updates with one expected_updated_at make exactly one winner', async (path) => {
    const section_key = `race:${path.slice(1)}:section`;
    const body = path === '/ui-preferences' ? { section_key, mode: 'advanced' } : { section_key, tier: 'intermediate' };
    const first = await h.patch(path, { ...body, expected_updated_at: null });
    expect(first.status).toBe(200);
    const next = path === '/ui-preferences' ? { mode: 'basic' } : { tier: 'advanced' };
    const results = await Promise.all(Array.from({ length: 100 }, () => h.patch(path, { ...body, ...next, expected_updated_at: first.body.updated_at })));
    const winners = results.filter((r) => r.status === 200);
    const losers = results.filter((r) => r.status === 409);
    expect(winners).toHaveLength(1);
    expect(losers).toHaveLength(99);
    for (const loser of losers) expect(loser.body.current).toEqual(winners[0].body);
  });

  it('rate-limits stored updates per section with 429 and Retry-After', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await h.patch('/ui-preferences', { section_key: 'rate:limit:one', mode: i % 2 ? 'basic' : 'advanced' })).status);
    expect(statuses.slice(0, 30).every((s) => s === 200)).toBe(true);
    const limited = await h.patch('/ui-preferences', { section_key: 'rate:limit:one', mode: 'advanced' });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(limited.body.error).toMatch(/at most 30 per 60 s/);
    // Another section, and a request that changes nothing, are not limited.
    expect((await h.patch('/ui-preferences', { section_key: 'rate:limit:two', mode: 'advanced' })).status).toBe(200);
    expect((await h.patch('/ui-preferences', { section_key: 'rate:limit:one', mode: 'basic' })).status).toBe(200);
  });

  it('counts activity and suggests the next tier by the documented rule, never again after a dismissal', async () => {
    const key = 'sync:instances:advanced';
    let res = await h.patch('/complexity-tiers', { section_key: key, tier: 'beginner', interaction_delta: 3, advanced_toggle_delta: 4 });
    expect(res.body).toEqual({
      section_key: key,
      tier: 'beginner',
      interaction_count: 3,
      advanced_toggle_count: 4,
      last_suggested_tier: null,
      suggestion_dismissed_at: null,
      updated_at: expect.any(String),
      persisted: true,
    });
    res = await h.patch('/complexity-tiers', { section_key: key, tier: 'beginner', advanced_toggle_delta: 1 });
    expect(res.body).toMatchObject({ advanced_toggle_count: 5, last_suggested_tier: 'intermediate' });

    const dismissedAt = '2026-01-02T03:04:05.000Z';
    res = await h.patch('/complexity-tiers', { section_key: key, tier: 'beginner', suggestion_dismissed_at: dismissedAt, expected_updated_at: res.body.updated_at });
    expect(res.body).toMatchObject({ suggestion_dismissed_at: dismissedAt, last_suggested_tier: 'intermediate' });
    res = await h.patch('/complexity-tiers', { section_key: key, tier: 'beginner', advanced_toggle_delta: 20, last_suggested_tier: 'beginner' });
    expect(res.body).toMatchObject({ advanced_toggle_count: 25, last_suggested_tier: null, suggestion_dismissed_at: dismissedAt });
    res = await h.patch('/complexity-tiers', { section_key: key, tier: 'beginner', advanced_toggle_delta: 20 });
    expect(res.body).toMatchObject({ advanced_toggle_count: 45, last_suggested_tier: null });

    // A tier change resets the counters and the dismissal; intermediate needs 10 toggles and 50 interactions.
    res = await h.patch('/complexity-tiers', { section_key: key, tier: 'intermediate', advanced_toggle_delta: 10, interaction_delta: 49 });
    expect(res.body).toMatchObject({ tier: 'intermediate', interaction_count: 49, advanced_toggle_count: 10, last_suggested_tier: null, suggestion_dismissed_at: null });
    res = await h.patch('/complexity-tiers', { section_key: key, tier: 'intermediate', interaction_delta: 1 });
    expect(res.body).toMatchObject({ interaction_count: 50, last_suggested_tier: 'advanced' });

    const unchanged = await h.patch('/complexity-tiers', { section_key: key, tier: 'intermediate' });
    expect(unchanged.body).toEqual({ ...res.body, persisted: false });

    const list = await h.get('/complexity-tiers?pageSize=200');
    expect(list.body.items.find((i: { section_key: string }) => i.section_key === key)).toEqual({ ...res.body, persisted: true });
  });
});
