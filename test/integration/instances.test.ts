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
    expect(fetched.body).toEqual(created.body);

    await h.post('/instances', { name: 'Sonarr', arrType: 'series_app', baseUrl: 'http://127.0.0.1:8989', apiKey: 'sonarr-key-0000', enabled: false });
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

    await h.post('/instances', { name: 'Dup', arrType: 'movie_app', baseUrl: 'http://x:1', apiKey: 'k' });
    const dup = await h.post('/instances', { name: 'Dup', arrType: 'series_app', baseUrl: 'http://x:2', apiKey: 'k' });
    expect(dup.status).toBe(400);
    expect(dup.body.error).toBe('An instance named "Dup" already exists');
  });

  it('tests a connection through a Temporal workflow: reachable, 401 and unreachable', async () => {
    const good = await h.post('/instances', { name: 'Probe ok', arrType: 'movie_app', baseUrl: stub.baseUrl, apiKey: APP_KEY });
    const ok = await h.post(`/instances/${good.body.id}/test`);
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ reachable: true, appName: 'Radarr', version: '6.1.0.10293', matchesArrType: true });
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
});
