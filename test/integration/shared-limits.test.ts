import { dbKinds } from '../helpers/databases';
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
    const path = `/pcd/${databaseId}/resolved/delayProfile/Standard/compare?instanceIds=${radarr.id}`;
    // The second process builds its own cache of the database on first use.
    await eventually(() => other.request('GET', `/pcd/${databaseId}/resolved/delayProfile`), (r) => r.status === 200, 60_000);
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await processes()[i % 2]('GET', path)).status);
    expect(statuses).toEqual(Array(20).fill(200));
    for (const request of processes()) {
      const refused = await request('GET', path);
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
    expect((await h.request('POST', '/auth/setup', { username: 'admin', password: PASSWORD }, { auth: false })).status).toBe(200);
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
    for (const i of [30, 31]) {
      const limited = await update(i);
      expect(limited.status).toBe(429);
      expect(limited.body.error).toMatch(/^Too many updates of UI preference shared:limit:one: at most 30 per 60 s; try again in \d+ s$/);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
  });

  it('limits health recomputes of an instance across both processes', async () => {
    await h.post(`/drift/${radarr.id}/check`);
    const first = await h.post(`/config-health/${radarr.id}/recompute`);
    expect(first.status).toBe(200);
    const limited = await other.request('POST', `/config-health/${radarr.id}/recompute`);
    expect(limited.status).toBe(429);
    expect(limited.body.error).toMatch(new RegExp(`^Health of instance ${radarr.id} was recomputed moments ago; try again in \\d+ s$`));
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(25);
    expect(retryAfter).toBeLessThanOrEqual(31);
  });
});
