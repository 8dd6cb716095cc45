import { gzipSync } from 'node:zlib';
import * as historyService from '../../src/services/sync/history-service';
import { InstanceService } from '../../src/services/instance-service';
import { historyRetentionScheduleId } from '../../src/platform/schedules';
import { SyncRun } from '../../src/persistence/entities';
import { dbKinds, type DbKind } from '../helpers/databases';
import { eventually, startArrgo, type Harness } from '../helpers/harness';

/** Regression tests of issue 10's defects: bad input is a precise 4xx, never a 500. */
describe.each(dbKinds())('request hardening on %s', (db: DbKind) => {
  let h: Harness;
  const instance = { name: 'Radarr', arrType: 'movie_app', baseUrl: 'http://127.0.0.1:9/', apiKey: 'k'.repeat(32) };
  beforeAll(async () => {
    h = await startArrgo({ db });
  });
  afterAll(async () => {
    await h?.close();
  });

  const raw = (method: string, apiPath: string, body: string | Buffer | undefined, headers: Record<string, string>) =>
    fetch(`${h.baseUrl}/api/v1${apiPath}`, { method, headers: { 'X-Api-Key': h.apiKey, ...headers }, body }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));

  it('answers malformed percent-encoding in a path parameter with 400 naming the parameter (defect 1)', async () => {
    const res = await h.get('/instances/%zz');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Invalid request: params.id is not valid percent-encoding' });
    const nested = await h.request('DELETE', '/pcd/1/entities/custom_format/%E0%A4%A');
    expect(nested.status).toBe(400);
    expect(nested.body).toEqual({ error: 'Invalid request: params.name is not valid percent-encoding' });
    const unknown = await h.get('/no-such/%zz');
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ error: 'Invalid request: the path is not valid percent-encoding' });
  });

  it('refuses NUL and control characters in every body and query string with 400 (defect 2)', async () => {
    const create = await h.post('/instances', { ...instance, name: 'a\u0000b' });
    expect(create.status).toBe(400);
    expect(create.body).toEqual({ error: 'Invalid request: body.name must not contain control characters' });
    const created = await h.post('/instances', instance);
    expect(created.status).toBe(201);
    const patch = await h.patch(`/instances/${created.body.id}`, { tags: ['ok', 'bell\u0007'] });
    expect(patch.status).toBe(400);
    expect(patch.body).toEqual({ error: 'Invalid request: body.tags.1 must not contain control characters' });
    const database = await h.post('/databases', { name: 'x\u0000', source: { kind: 'local', path: '/tmp' } });
    expect(database.status).toBe(400);
    expect(database.body).toEqual({ error: 'Invalid request: body.name must not contain control characters' });
    const search = await h.get('/sync-history?q=a%00b');
    expect(search.status).toBe(400);
    expect(search.body).toEqual({ error: 'Invalid request: query.q must not contain control characters' });
    // Free-form values (portable entity data) cannot smuggle NUL either.
    const imported = await h.post('/pcd/import', { databaseId: 1, layer: 'user', entityType: 'custom_format', data: { name: 'x', nested: ['ok', 'n\u0000'] } });
    expect(imported.status).toBe(400);
    expect(imported.body).toEqual({ error: 'Invalid request: body.data.nested.1 must not contain NUL characters' });
    let deep: unknown = 'n\u0000';
    for (let i = 0; i < 70; i++) deep = { d: deep };
    const tooDeep = await h.post('/pcd/import', { databaseId: 1, layer: 'user', entityType: 'custom_format', data: { name: 'x', deep } });
    expect(tooDeep.status).toBe(400);
    expect(tooDeep.body).toEqual({ error: 'Invalid request: body is nested more than 64 levels deep' });
    expect(h.logs.join('\n')).not.toContain('unrecognized token');
  });

  it('sends search values to the database as bound parameters, not SQL text (defect 2)', async () => {
    const em = h.service.orm.em.fork();
    const now = new Date();
    const run = (instanceName: string, error: string | null) =>
      em.create(SyncRun, {
        instanceId: null,
        instanceName,
        arrType: 'movie_app',
        trigger: 'manual',
        sectionsAttempted: [],
        sectionsKey: ',',
        status: 'failed',
        sectionsRun: 0,
        itemsSynced: 0,
        failureCount: 0,
        entityChangeCount: 0,
        entityOutcomeCount: 0,
        error,
        outcomes: [],
        workflowId: `hardening-${instanceName.length}-${Math.random()}`,
        previewId: null,
        rolloutId: null,
        startedAt: now,
        finishedAt: now,
        createdAt: now,
      } as never);
    run(`O'Brien? "quoted" ');drop table sync_runs;--`, null);
    run('plain', "it's $1 and ? marks");
    run('Radarr 50%_off', null);
    run('Radarr 50abcoff', null);
    await em.flush();
    const list = (q: string) => historyService.listSyncRuns(h.service.orm.em.fork(), { q, page: 1, pageSize: 50 });
    expect((await list(`O'Brien? "quoted" ');drop`)).items.map((i) => i.instanceName)).toEqual([`O'Brien? "quoted" ');drop table sync_runs;--`]);
    expect((await list("it's $1 and ?")).items.map((i) => i.instanceName)).toEqual(['plain']);
    // % and _ match literally on both drivers, case-insensitively.
    expect((await list('50%_OFF')).items.map((i) => i.instanceName)).toEqual(['Radarr 50%_off']);
    if (db === 'sqlite') {
      // Inlined into SQL text, a NUL ends the statement ("unrecognized token"); bound, it is just a value.
      expect((await list('a\u0000b')).total).toBe(0);
    }
  });

  it('answers a body that does not match its Content-Encoding with 400, and an unknown encoding with 415 (defect 3)', async () => {
    const plain = JSON.stringify(instance);
    for (const encoding of ['gzip', 'br', 'deflate']) {
      const res = await raw('POST', '/instances', plain, { 'Content-Type': 'application/json', 'Content-Encoding': encoding });
      expect({ encoding, ...res }).toEqual({ encoding, status: 400, body: { error: 'Invalid request: the body could not be read (check Content-Encoding and Content-Length)' } });
    }
    const unknown = await raw('POST', '/instances', plain, { 'Content-Type': 'application/json', 'Content-Encoding': 'compress' });
    expect(unknown).toEqual({ status: 415, body: { error: 'Unsupported Content-Encoding: send the body as identity, gzip, deflate or br' } });
    const gzipped = await raw('POST', '/instances', gzipSync(JSON.stringify({ ...instance, name: 'Gzipped' })), { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
    expect(gzipped.status).toBe(201);
    expect(gzipped.body.name).toBe('Gzipped');
  });

  it('bounds every integer: retention days, entry caps, ids (defect 4)', async () => {
    for (const [body, error] of [
      [{ retentionDays: 1e308 }, 'Invalid request: body.retentionDays must be at most 3650'],
      [{ retentionDays: 3651 }, 'Invalid request: body.retentionDays must be at most 3650'],
      [{ retentionMaxEntries: 1_000_001 }, 'Invalid request: body.retentionMaxEntries must be at most 1000000'],
    ] as const) {
      const res = await h.patch('/sync-history/settings', body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error });
    }
    expect((await h.patch('/sync-history/settings', { retentionDays: 3650 })).body).toMatchObject({ retentionDays: 3650 });
    const bigId = await h.get('/instances/2147483648');
    expect(bigId.status).toBe(400);
    expect(bigId.body).toEqual({ error: 'Invalid request: params.id must be at most 2147483647' });
    const bigBodyId = await h.post('/sync/previews', { instanceId: 2147483648 });
    expect(bigBodyId.status).toBe(400);
    expect(bigBodyId.body).toEqual({ error: 'Invalid request: body.instanceId must be at most 2147483647' });
    expect((await h.get('/instances/2147483647')).status).toBe(404);
  });

  it('refuses credentials in a base URL (defect 7)', async () => {
    const res = await h.post('/instances', { ...instance, name: 'With userinfo', baseUrl: 'http://user:pass@radarr.local:7878/' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Invalid request: body.baseUrl must not contain a user name or password (user:pass@host): the app authenticates with its API key' });
    expect(JSON.stringify(h.logs)).not.toContain('user:pass@radarr.local');
    const created = await h.post('/instances', { ...instance, name: 'Later userinfo' });
    const patch = await h.patch(`/instances/${created.body.id}`, { baseUrl: 'http://user@radarr.local/' });
    expect(patch.status).toBe(400);
    expect((await h.get(`/instances/${created.body.id}`)).body.baseUrl).toBe('http://127.0.0.1:9');
  });

  it('answers a body in another content type with 415 naming application/json; PATCH takes merge-patch+json (defect 8)', async () => {
    const body = JSON.stringify(instance);
    for (const type of ['text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const res = await raw('POST', '/instances', body, { 'Content-Type': type });
      expect({ type, ...res }).toEqual({ type, status: 415, body: { error: 'Unsupported Media Type: send the request body as application/json' } });
    }
    const untyped = await fetch(`${h.baseUrl}/api/v1/instances`, { method: 'POST', headers: { 'X-Api-Key': h.apiKey }, body: new Blob([body]) });
    expect(untyped.status).toBe(415);
    const created = await h.post('/instances', { ...instance, name: 'Merge patch' });
    const merge = await raw('PATCH', `/instances/${created.body.id}`, JSON.stringify({ enabled: false }), { 'Content-Type': 'application/merge-patch+json' });
    expect(merge.status).toBe(200);
    expect(merge.body.enabled).toBe(false);
    const mergePost = await raw('POST', '/instances', body, { 'Content-Type': 'application/merge-patch+json' });
    expect(mergePost.status).toBe(415);
    const doc = (await h.get('/openapi.json')).body;
    expect(doc.paths['/api/v1/instances'].post.responses['415']).toBeDefined();
    expect(Object.keys(doc.paths['/api/v1/instances/{id}'].patch.requestBody.content)).toEqual(['application/json', 'application/merge-patch+json']);
    // No body at all is still "required", not 415.
    const empty = await h.request('POST', '/instances');
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({ error: 'Invalid request: body is required' });
  });

  it('refuses unknown query parameters by name', async () => {
    const res = await h.get('/instances?pagesize=5');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Invalid request: query has unknown field(s): pagesize' });
    expect((await h.get(`/instances/1?x=1`)).body).toEqual({ error: 'Invalid request: query has unknown field(s): x' });
  });

  it('logs a 500 at error level with request id, route, error class and a redacted message; the stack only at debug', async () => {
    const spy = jest
      .spyOn(InstanceService.prototype, 'list')
      .mockRejectedValueOnce(new Error(`select * from "instances" where "name" = 'secret-input' - connect ECONNREFUSED db.internal.example:5432 password=hunter2 at /srv/app/node_modules/x.js`));
    try {
      const res = await h.request('GET', '/instances', undefined, { headers: { 'X-Request-Id': 'req-500-test' } });
      expect(res.status).toBe(500);
    } finally {
      spy.mockRestore();
    }
    const lines = h.logs.filter((l) => l.includes('"requestId":"req-500-test"')).map((l) => JSON.parse(l));
    const failed = lines.find((l) => l.msg === 'request failed');
    expect(failed).toMatchObject({ level: 50, method: 'GET', route: '/instances', errorClass: 'Error' });
    expect(failed.err).toBeUndefined();
    expect(JSON.stringify(failed)).not.toMatch(/secret-input|db\.internal|hunter2|node_modules|\/srv\/app|select \*/);
    expect(failed.message).toBe('connect ECONNREFUSED [host] password=[redacted] at [path]');
    const detail = lines.find((l) => l.msg === 'request failure detail');
    expect(detail.level).toBe(20);
    expect(detail.err.stack).toEqual(expect.any(String));
  });

  it('keeps verbose health detail behind the API key; the plain report stays public', async () => {
    const anonymous = await h.request('GET', '/health?verbose=true', undefined, { auth: false });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ error: 'API key required for verbose health detail: send it in the X-Api-Key header' });
    const plain = await h.request('GET', '/health', undefined, { auth: false });
    expect(plain.status).toBe(200);
    expect(plain.body.components.backups.count).toBeUndefined();
    const verbose = await h.get('/health?verbose=true');
    expect(verbose.status).toBe(200);
    expect(verbose.body.components.jobs.lastRun).toEqual(expect.any(Object));
  });

  it('reports jobs degraded when the last run of a scheduled workflow failed (defect 4)', async () => {
    // The retention run fails for real: its table is gone for a moment.
    const connection = h.service.orm.em.getConnection();
    await connection.execute('alter table sync_runs rename to sync_runs_away');
    try {
      await h.service.temporal.client.schedule.getHandle(historyRetentionScheduleId(h.taskQueue)).trigger();
      const health = await eventually(
        () => h.request('GET', '/health', undefined, { auth: false }),
        (r) => r.body.components.jobs.status === 'degraded',
        60_000,
        500,
      );
      expect(health.body.status).toBe('degraded');
      expect(health.body.components.jobs.message).toBe('The last run of scheduled job sync-history-retention failed; see the workflow in the Temporal UI');
    } finally {
      await connection.execute('alter table sync_runs_away rename to sync_runs');
    }
    await h.service.temporal.client.schedule.getHandle(historyRetentionScheduleId(h.taskQueue)).trigger();
    const recovered = await eventually(
      () => h.request('GET', '/health', undefined, { auth: false }),
      (r) => r.body.components.jobs.status === 'healthy',
      60_000,
      500,
    );
    expect(recovered.body.components.jobs.message).toMatch(/^Temporal reachable; worker polling/);
  });
});
