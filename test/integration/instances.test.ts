import { Instance } from '../../src/persistence/entities';
import { dbKinds, type DbKind } from '../helpers/databases';
import { eventually, startArrgo, type Harness } from '../helpers/harness';
import { startStatusStub, type StatusStub } from '../helpers/status-stub';

const APP_KEY = 'radarr-key-0123456789abcdef';

describe.each(dbKinds())('instances on %s', (db: DbKind) => {
  let h: Harness;
  let stub: StatusStub;

  beforeAll(async () => {
    [h, stub] = await Promise.all([startArrgo({ db }), startStatusStub({ apiKey: APP_KEY, appName: 'Radarr', version: '6.1.0.10293' })]);
  });
  afterAll(async () => {
    await h?.close();
    await stub?.close();
  });

  it('creates, reads, lists, updates and deletes an instance without ever returning the key', async () => {
    const created = await h.post('/instances', { name: 'Radarr 4K', arrType: 'movie_app', baseUrl: stub.baseUrl + '/', apiKey: APP_KEY, tags: ['4k', '4k'] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Radarr 4K', arrType: 'movie_app', baseUrl: stub.baseUrl, enabled: true, tags: ['4k'], apiKeySet: true });
    expect(created.text).not.toContain(APP_KEY);
    const id = created.body.id;

    const fetched = await h.get(`/instances/${id}`);
    expect(fetched.status).toBe(200);
    const { connectionTest, ...stored } = created.body;
    expect(connectionTest).toEqual({ reachable: true, appName: 'Radarr', version: '6.1.0.10293', matchesArrType: true, detectedArrType: 'movie_app' });
    expect(fetched.body).toEqual(stored);

    await h.post('/instances', { name: 'Sonarr', arrType: 'series_app', baseUrl: 'http://127.0.0.1:9', apiKey: 'sonarr-key-0000', enabled: false });
    const all = await h.get('/instances');
    expect(all.body).toMatchObject({ page: 1, totalRecords: 2, totalPages: 1, hasNext: false });
    const movies = await h.get('/instances?arrType=movie_app');
    expect(movies.body.items.map((i: { name: string }) => i.name)).toEqual(['Radarr 4K']);
    const disabled = await h.get('/instances?enabled=false');
    expect(disabled.body.items.map((i: { name: string }) => i.name)).toEqual(['Sonarr']);
    const paged = await h.get('/instances?pageSize=1&page=2');
    expect(paged.body).toMatchObject({ page: 2, pageSize: 1, totalRecords: 2, totalPages: 2, hasNext: false });

    const patched = await h.patch(`/instances/${id}`, { enabled: false, tags: ['uhd'] });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ enabled: false, tags: ['uhd'] });

    for (const res of [all, movies, disabled, paged, patched]) expect(res.text).not.toContain(APP_KEY);

    const removed = await h.del(`/instances/${id}`);
    expect(removed.status).toBe(204);
    expect((await h.get(`/instances/${id}`)).status).toBe(404);
  });

  it('stores the API key encrypted at rest', async () => {
    const created = await h.post('/instances', { name: 'Encrypted', arrType: 'movie_app', baseUrl: stub.baseUrl, apiKey: APP_KEY });
    const rows: { api_key_sealed: string }[] = await h.service.orm.em.fork().getConnection().execute('select api_key_sealed from instances where id = ?', [created.body.id]);
    expect(rows[0].api_key_sealed).toMatch(/^v1\./);
    expect(rows[0].api_key_sealed).not.toContain(APP_KEY);
    await h.del(`/instances/${created.body.id}`);
  });

  it('rejects bad input with 400 naming the field, and duplicates', async () => {
    const cases: [unknown, string][] = [
      [{ arrType: 'movie_app', baseUrl: 'http://x:1', apiKey: 'k' }, 'body.name is required'],
      [{ name: 'a', arrType: 'tv_app', baseUrl: 'http://x:1', apiKey: 'k' }, 'body.arrType must be one of'],
      [{ name: 'a', arrType: 'movie_app', baseUrl: 'ftp://x', apiKey: 'k' }, 'body.baseUrl'],
      [{ name: 'a', arrType: 'movie_app', baseUrl: 'http://x:1', apiKey: 'k', extra: 1 }, 'unknown field(s): extra'],
      [{ name: 'a', arrType: 'movie_app', baseUrl: 'http://x:1', apiKey: 'k', tags: 'x' }, 'body.tags must be an array'],
    ];
    for (const [body, message] of cases) {
      const res = await h.post('/instances', body);
      expect(res.status).toBe(400);
      expect(res.body.error).toContain(message);
    }
    const malformed = await h.request('POST', '/instances', '{"name":', {});
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ error: 'Invalid request: body is not valid JSON' });
    expect((await h.get('/instances/abc')).body.error).toContain('params.id must be a positive integer');
    expect((await h.get('/instances?pageSize=5000')).body.error).toContain('query.pageSize must be between 1 and 200');
    expect((await h.patch('/instances/1', {})).status).toBe(400);

    await h.post('/instances', { name: 'Dup', arrType: 'movie_app', baseUrl: 'http://127.0.0.1:9', apiKey: 'k' });
    const dup = await h.post('/instances', { name: 'Dup', arrType: 'series_app', baseUrl: 'http://127.0.0.1:9', apiKey: 'k' });
    expect(dup.status).toBe(400);
    expect(dup.body.error).toBe('An instance named "Dup" already exists');
  });

  it('tests a connection through a Temporal workflow: reachable, 401 and unreachable', async () => {
    const good = await h.post('/instances', { name: 'Probe ok', arrType: 'movie_app', baseUrl: stub.baseUrl, apiKey: APP_KEY });
    const ok = await h.post(`/instances/${good.body.id}/test`);
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ reachable: true, appName: 'Radarr', version: '6.1.0.10293', matchesArrType: true, detectedArrType: 'movie_app' });
    expect(stub.requests.at(-1)).toEqual({ path: '/api/v3/system/status', apiKey: APP_KEY });

    const wrongKey = 'wrong-key-should-not-leak-42';
    const bad = await h.post('/instances', { name: 'Probe 401', arrType: 'movie_app', baseUrl: stub.baseUrl, apiKey: wrongKey });
    const unauthorized = await h.post(`/instances/${bad.body.id}/test`);
    expect(unauthorized.status).toBe(200);
    expect(unauthorized.body).toMatchObject({ reachable: false, reason: 'unauthorized' });
    expect(unauthorized.text).not.toContain(wrongKey);
    expect(unauthorized.text).not.toContain('stub.internal.example');

    const down = await h.post('/instances', { name: 'Probe down', arrType: 'music_app', baseUrl: 'http://127.0.0.1:9', apiKey: APP_KEY });
    const unreachable = await h.post(`/instances/${down.body.id}/test`);
    expect(unreachable.body).toMatchObject({ reachable: false, reason: 'unreachable' });
    expect(unreachable.text).not.toContain('127.0.0.1');

    expect((await h.post('/instances/999999/test')).status).toBe(404);

    // The workflow is findable by its search attributes.
    const query = `ArrgoKind = 'instance-test' AND ArrgoInstanceIds = '${good.body.id}' AND TaskQueue = '${h.taskQueue}'`;
    const found = await eventually(async () => {
      const ids: string[] = [];
      for await (const wf of h.service.temporal.client.workflow.list({ query })) ids.push(wf.workflowId);
      return ids;
    }, (ids) => ids.length >= 1);
    expect(found.length).toBeGreaterThanOrEqual(1);

    // Keys never reach a log line.
    const logs = h.logs.join('\n');
    expect(logs).not.toContain(APP_KEY);
    expect(logs).not.toContain(wrongKey);
    expect(logs).not.toContain(h.apiKey);
  });
  it('tests the connection at registration: verified, or stored unverified with the same reasons as /test', async () => {
    const before = Date.now();
    const good = await h.post('/instances', { name: 'Verified radarr', arrType: 'movie_app', baseUrl: stub.baseUrl, apiKey: APP_KEY });
    expect(good.status).toBe(201);
    expect(good.body.verification).toEqual({ status: 'verified', checkedAt: expect.any(String), appName: 'Radarr', version: '6.1.0.10293', reason: null });
    expect(Date.parse(good.body.verification.checkedAt)).toBeGreaterThanOrEqual(before - 1000);
    // The candidate connection was asked with the key given, at the app's API path.
    expect(stub.requests.at(-1)).toEqual({ path: '/api/v3/system/status', apiKey: APP_KEY });

    const wrongKey = 'wrong-key-at-registration-77';
    const locked = await h.post('/instances', { name: 'Wrong key radarr', arrType: 'movie_app', baseUrl: stub.baseUrl, apiKey: wrongKey });
    expect(locked.status).toBe(201);
    expect(locked.body.connectionTest).toEqual({
      reachable: false,
      reason: 'unauthorized',
      message: 'The app instance rejected the API key.',
      recoveryAction: "Update the instance's API key from the app's Settings > General page, then retry.",
    });
    expect(locked.body.verification).toMatchObject({ status: 'unverified', reason: 'unauthorized', appName: null, version: null });
    expect(locked.text).not.toContain(wrongKey);
    expect(locked.text).not.toContain('stub.internal.example');

    const down = await h.post('/instances', { name: 'Down lidarr', arrType: 'music_app', baseUrl: 'http://127.0.0.1:9', apiKey: APP_KEY });
    expect(down.status).toBe(201);
    expect(down.body.connectionTest).toMatchObject({ reachable: false, reason: 'unreachable', message: 'The app instance could not be reached.' });
    expect(down.body.verification).toMatchObject({ status: 'unverified', reason: 'unreachable' });
    expect(JSON.stringify(down.body.connectionTest)).not.toContain('127.0.0.1');

    // A later test records its outcome on the instance: the key is fixed, the test verifies it.
    await h.patch(`/instances/${locked.body.id}`, { apiKey: APP_KEY });
    expect((await h.get(`/instances/${locked.body.id}`)).body.verification).toMatchObject({ status: 'verified', reason: null, appName: 'Radarr' });
    stub.requests.length = 0;
    const retested = await h.post(`/instances/${down.body.id}/test`);
    expect(retested.body).toMatchObject({ reachable: false, reason: 'unreachable' });
    const after = (await h.get(`/instances/${down.body.id}`)).body.verification;
    expect(Date.parse(after.checkedAt)).toBeGreaterThan(Date.parse(down.body.verification.checkedAt));

    // Instances registered before verification existed are never-verified: listed as such with the unverified ones.
    const em = h.service.orm.em.fork();
    em.create(Instance, { name: 'Old radarr', arrType: 'movie_app', baseUrl: stub.baseUrl, apiKeySealed: 'v1.sealed', enabled: true, tags: [], createdAt: new Date(), updatedAt: new Date() });
    await em.flush();
    const unverified = await h.get('/instances?verified=false&pageSize=200');
    const byName = new Map(unverified.body.items.map((i: { name: string; verification: { status: string } }) => [i.name, i.verification.status]));
    expect(byName.get('Down lidarr')).toBe('unverified');
    expect(byName.get('Old radarr')).toBe('never-verified');
    expect(byName.has('Verified radarr')).toBe(false);
    expect(byName.has('Wrong key radarr')).toBe(false);
    const verified = await h.get('/instances?verified=true&pageSize=200');
    expect(verified.body.items.every((i: { verification: { status: string } }) => i.verification.status === 'verified')).toBe(true);
    expect(verified.body.items.map((i: { name: string }) => i.name)).toEqual(expect.arrayContaining(['Verified radarr', 'Wrong key radarr']));
    for (const name of ['Verified radarr', 'Wrong key radarr', 'Down lidarr', 'Old radarr']) {
      const found = [...unverified.body.items, ...verified.body.items].find((i: { name: string }) => i.name === name);
      await h.del(`/instances/${found.id}`);
    }
  });

  it('refuses an app of another type at registration and on a change, naming both types; nothing is stored or changed', async () => {
    const sonarr = await startStatusStub({ apiKey: APP_KEY, appName: 'Sonarr', version: '4.0.19.2805' });
    try {
      const refused = await h.post('/instances', { name: 'Not a radarr', arrType: 'movie_app', baseUrl: sonarr.baseUrl, apiKey: APP_KEY });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        code: 'appMismatch',
        error: 'Invalid request: body.arrType: the app at baseUrl answers as Sonarr (series_app), but arrType is movie_app (Radarr). Give the address of a Radarr app, or use arrType series_app for this one; nothing was stored.',
      });
      expect(refused.text).not.toContain(APP_KEY);
      expect(refused.text).not.toContain(sonarr.baseUrl);
      expect((await h.get('/instances?pageSize=200')).body.items.map((i: { name: string }) => i.name)).not.toContain('Not a radarr');

      const radarr = await h.post('/instances', { name: 'Changing radarr', arrType: 'movie_app', baseUrl: stub.baseUrl, apiKey: APP_KEY });
      const stored = (await h.get(`/instances/${radarr.body.id}`)).body;
      const retyped = await h.patch(`/instances/${radarr.body.id}`, { arrType: 'series_app', tags: ['tv'] });
      expect(retyped.status).toBe(400);
      expect(retyped.body).toEqual({
        code: 'appMismatch',
        error: 'Invalid request: body.arrType: the app at baseUrl answers as Radarr (movie_app), but arrType is series_app (Sonarr). Give the address of a Sonarr app, or use arrType movie_app for this one; nothing was changed.',
      });
      const moved = await h.patch(`/instances/${radarr.body.id}`, { baseUrl: sonarr.baseUrl });
      expect(moved.status).toBe(400);
      expect(moved.body.code).toBe('appMismatch');
      expect(moved.body.error).toMatch(/^Invalid request: body\.baseUrl: the app at baseUrl answers as Sonarr \(series_app\), but arrType is movie_app \(Radarr\)\./);
      // The stored values stay, the rest of the refused patch included.
      expect((await h.get(`/instances/${radarr.body.id}`)).body).toEqual(stored);

      // Both changed together name an app that is what it says: accepted and verified.
      const both = await h.patch(`/instances/${radarr.body.id}`, { arrType: 'series_app', baseUrl: sonarr.baseUrl });
      expect(both.status).toBe(200);
      expect(both.body).toMatchObject({ arrType: 'series_app', baseUrl: sonarr.baseUrl, verification: { status: 'verified', appName: 'Sonarr' }, connectionTest: { matchesArrType: true } });
      // A change that does not touch the app is not tested.
      const renamed = await h.patch(`/instances/${radarr.body.id}`, { name: 'Now a sonarr', baseUrl: sonarr.baseUrl + '/' });
      expect(renamed.body.connectionTest).toBeUndefined();
      await h.del(`/instances/${radarr.body.id}`);
    } finally {
      await sonarr.close();
    }
  });

  it("refuses a base URL that ends in the app's API path", async () => {
    for (const baseUrl of [`${stub.baseUrl}/api/v3`, `${stub.baseUrl}/api/v3/`, `${stub.baseUrl}/radarr/API/v1//`]) {
      const res = await h.post('/instances', { name: 'With api path', arrType: 'movie_app', baseUrl, apiKey: APP_KEY });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/^Invalid request: body\.baseUrl must be the app's address without its API path: drop the trailing \/(api|API)\/v[13] \(arrgo adds the API path itself\)$/);
      expect(res.text).not.toContain(APP_KEY);
    }
    const created = await h.post('/instances', { name: 'Api path later', arrType: 'movie_app', baseUrl: stub.baseUrl, apiKey: APP_KEY });
    const patched = await h.patch(`/instances/${created.body.id}`, { baseUrl: `${stub.baseUrl}/api/v3` });
    expect(patched.status).toBe(400);
    expect(patched.body.error).toContain('body.baseUrl must be the app');
    // A URL base that merely contains "api" is an address like any other.
    const based = await h.patch(`/instances/${created.body.id}`, { baseUrl: `${stub.baseUrl}/api-radarr` });
    expect(based.status).toBe(200);
    await h.del(`/instances/${created.body.id}`);
  });
});
