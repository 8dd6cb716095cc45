import { LoginThrottle } from '../../src/domain/auth/login-throttle';
import type { Orm } from '../../src/persistence/orm';
import { DatabaseThrottleStore } from '../../src/services/auth/login-throttle-store';
import { SharedRateLimit } from '../../src/services/shared-rate-limit';
import { dbKinds, twoConnections } from '../helpers/databases';
import { addInstance, linkDatabase, SAMPLE_PCD, type FleetInstance } from '../helpers/fleet';
import { eventually, startArrgo, type Harness, type HttpResult } from '../helpers/harness';
import { startApiProcess, type ApiProcess } from '../helpers/worker-process';

const PASSWORD = 'correct horse battery staple';
const ENV = { HEALTH_RECOMPUTE_MIN_INTERVAL_SECONDS: '30' };

/**
 * Two API processes on one database, as `npm run api` started twice: the harness's own (it also
 * runs the worker) and `node dist/main.js --role api`. Requests alternate between them, so a
 * limit counted per process would admit about twice its allowance.
 */
describe.each(dbKinds())('limits shared by two API processes on %s', (db) => {
  let h: Harness;
  let other: ApiProcess;
  let radarr: FleetInstance;
  let databaseId: number;
  /** The two processes, taken in turn. */
  const processes = () => [h.request, other.request];

  beforeAll(async () => {
    h = await startArrgo({ db, env: ENV });
    other = await startApiProcess(h, ENV);
    databaseId = await linkDatabase(h, 'sample', SAMPLE_PCD);
    radarr = await addInstance(h, 'movie_app', { name: 'radarr', databaseId });
  }, 180_000);
  afterAll(async () => {
    await other?.stop();
    await h?.close();
    await radarr?.emulator.close();
  });

  it('refuses the 21st compare in a minute whichever process gets it (429 with Retry-After)', async () => {
    const comparePath = `/pcd/${databaseId}/resolved/delayProfile/Standard/compare?instanceIds=${radarr.id}`;
    // The second process builds its own cache of the database on first use.
    await eventually(() => other.request('GET', `/pcd/${databaseId}/resolved/delayProfile`), (r) => r.status === 200, 60_000);
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await processes()[i % 2]('GET', comparePath)).status);
    expect(statuses).toEqual(Array(20).fill(200));
    for (const request of processes()) {
      const refused = await request('GET', comparePath);
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ error: expect.stringMatching(/^Too many compare requests: at most 20 per 60 s; try again in \d+ s$/) });
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(61);
    }
  });

  it('counts failed sign-ins across both processes: the sixth attempt is throttled on either', async () => {
    const login = (i: number, password: string): Promise<HttpResult> =>
      processes()[i % 2]('POST', '/auth/login', { username: 'admin', password }, { auth: false });
    expect((await h.request('POST', '/auth/setup', { username: 'admin', password: PASSWORD }, { auth: false })).status).toBe(201);
    const failures: number[] = [];
    for (let i = 0; i < 5; i++) failures.push((await login(i, `wrong password ${i}`)).status);
    expect(failures).toEqual([401, 401, 401, 401, 401]);
    for (let i = 0; i < 2; i++) {
      // Even the right password is refused meanwhile, by both processes.
      const throttled = await login(i, PASSWORD);
      expect(throttled.status).toBe(429);
      expect(throttled.body).toEqual({ error: expect.stringMatching(/^Too many failed sign-ins: try again in (59|60) s$/) });
      expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThanOrEqual(59);
      expect(throttled.headers.getSetCookie()).toEqual([]);
    }
  });

  it('limits stored updates of a UI-preference section across both processes (the 31st is 429)', async () => {
    const update = (i: number) => processes()[i % 2]('PATCH', '/ui-preferences', { section_key: 'shared:limit:one', mode: i % 2 ? 'basic' : 'advanced' });
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await update(i)).status);
    expect(statuses).toEqual(Array(30).fill(200));
    // Both processes refuse a 31st update that would change the section (it holds basic now).
    for (const request of processes()) {
      const limited = await request('PATCH', '/ui-preferences', { section_key: 'shared:limit:one', mode: 'advanced' });
      expect(limited.status).toBe(429);
      expect(limited.body.error).toMatch(/^Too many updates of UI preference shared:limit:one: at most 30 per 60 s; try again in \d+ s$/);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
  });

  it('limits health recomputes of an instance across both processes, also when both start at once', async () => {
    await h.post(`/drift/${radarr.id}/check`);
    const recompute = `/config-health/${radarr.id}/recompute`;
    // Each process checks and claims the limit in the database: of two simultaneous recomputes one runs.
    const [a, b] = await Promise.all(processes().map((request) => request('POST', recompute)));
    expect([a.status, b.status].sort()).toEqual([200, 429]);
    for (const request of processes()) {
      const limited = await request('POST', recompute);
      expect(limited.status).toBe(429);
      expect(limited.body.error).toMatch(new RegExp(`^Health of instance ${radarr.id} was recomputed moments ago; try again in \\d+ s$`));
      const retryAfter = Number(limited.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(25);
      expect(retryAfter).toBeLessThanOrEqual(31);
    }
  });
});

/** Two connections (as two processes hold) racing on one database: the counts stay exact. */
describe.each(dbKinds())('shared limit counters under concurrent writers on %s', (db) => {
  let orms: Orm[] = [];
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ orms, close } = await twoConnections(db));
  });
  afterAll(async () => {
    await close?.();
  });

  it('admits exactly the allowance when 40 requests race for 20 slots', async () => {
    const limit = new SharedRateLimit({ name: 'compare', limit: 20, windowMs: 60_000 });
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => limit.take(orms[i % 2].em.fork(), 'all')));
    // Takes are serialised per limit and subject: racers never share (or both lose) the last slot.
    expect(results.filter((r) => r.wait === 0)).toHaveLength(20);
    expect(results.filter((r) => r.wait > 0).every((r) => r.wait >= 59 && r.wait <= 61)).toBe(true);
    expect((await limit.take(orms[0].em.fork(), 'all')).wait).toBeGreaterThan(0);
    const [{ hits }] = await orms[0].em.getConnection().execute(`select sum(hits) as hits from rate_limit_windows where limit_name = 'compare'`);
    expect(Number(hits)).toBe(20);
  });

  it('gives a single slot to exactly one of two simultaneous takers, every time', async () => {
    const limit = new SharedRateLimit({ name: 'recompute', limit: 1, windowMs: 30_000 });
    for (let round = 0; round < 25; round++) {
      const results = await Promise.all(orms.map((orm) => limit.take(orm.em.fork(), `instance-${round}`)));
      expect(results.map((r) => r.wait === 0).sort()).toEqual([false, true]);
    }
  });

  it('loses no failed sign-in when both connections count failures of one key at once', async () => {
    const throttles = orms.map((orm) => new LoginThrottle(new DatabaseThrottleStore(orm)));
    const now = Date.now();
    await Promise.all(Array.from({ length: 4 }, (_, i) => throttles[i % 2].fail(['user:racer'], now)));
    const [row] = await orms[1].em.getConnection().execute(`select failures, pending from login_throttle where throttle_key = 'user:racer'`);
    expect({ failures: Number(row.failures), pending: Number(row.pending) }).toEqual({ failures: 4, pending: 0 });
    await throttles[0].fail(['user:racer'], now);
    expect(await throttles[1].begin(['user:racer'], now + 1000)).toBe(59);
  });
});
