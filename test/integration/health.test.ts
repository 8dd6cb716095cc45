import fs from 'node:fs';
import path from 'node:path';
import { LATEST_MIGRATION } from '../../src/persistence/orm';
import { dbKinds, type DbKind } from '../helpers/databases';
import { eventually, startArrgo, type Harness } from '../helpers/harness';

describe.each(dbKinds())('health and backups on %s', (db: DbKind) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startArrgo({ db, env: { BACKUP_ENABLED: 'true', BACKUP_RETENTION_DAYS: '3', TEMPORAL_UI_URL: 'http://127.0.0.1:8233/' } });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('reports every component; verbose adds the details', async () => {
    const res = await h.request('GET', '/health', undefined, { auth: false });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.components).sort()).toEqual(['backups', 'jobs', 'logs', 'outbox', 'repos', 'sqlite']);
    expect(res.body.components.outbox).toEqual({ status: 'healthy', message: 'Nothing waiting for Temporal', backlog: 0, oldestAgeSeconds: 0 });
    expect(res.body).toMatchObject({ version: expect.any(String), uptime: expect.any(Number), timestamp: expect.any(String) });
    expect(res.body.components.sqlite).toMatchObject({ status: 'healthy', migration: LATEST_MIGRATION, responseTimeMs: expect.any(Number) });
    expect(res.body.components.sqlite.driver).toBeUndefined();
    expect(res.body.components.repos).toEqual({ status: 'healthy', message: 'No PCD databases linked' });
    expect(res.body).not.toHaveProperty('temporalUi');

    const verbose = await h.get('/health?verbose=true');
    expect(verbose.body.components.sqlite.driver).toBe(db);
    expect(verbose.body.components.repos).toMatchObject({ total: 0, enabled: 0, cached: 0, disabled: 0 });
    expect(verbose.body.components.jobs).toMatchObject({ status: 'healthy', lastRun: expect.any(Object) });
    expect(verbose.body.components.jobs.lastRun).toHaveProperty(`${h.taskQueue}-backup`);
    expect(verbose.body.components.logs).toMatchObject({ status: 'healthy', fileCount: expect.any(Number), totalSize: expect.any(String) });
    expect(verbose.body.components.backups).toMatchObject({ enabled: true, retentionDays: 3 });
    // The console's settings page links to the Temporal Web UI's list of arrgo's workflows.
    expect(verbose.body.temporalUi).toBe(`http://127.0.0.1:8233/namespaces/${h.namespace}/workflows`);
    expect((await h.get('/health?verbose=maybe')).status).toBe(400);
  });

  it('takes a first backup through the schedule and reports it', async () => {
    const dir = path.join(h.dataDir, 'backups');
    const pattern = db === 'sqlite' ? /^arrgo-\d{8}T\d{6}Z\.sqlite$/ : /^arrgo-\d{8}T\d{6}Z\.json$/;
    const files = await eventually(
      async () => (fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => pattern.test(f)) : []),
      (f) => f.length >= 1,
    );
    if (db === 'postgresql') {
      const dump = JSON.parse(fs.readFileSync(path.join(dir, files[0]), 'utf8'));
      expect(dump).toMatchObject({ format: 'arrgo-backup', driver: 'postgresql' });
      expect(Object.keys(dump.tables)).toEqual(expect.arrayContaining(['instances', 'app_settings', 'mikro_orm_migrations']));
    }
    const verbose = await eventually(() => h.get('/health?verbose=true'), (r) => r.body.components.backups.count >= 1);
    expect(verbose.body.components.backups).toMatchObject({ status: 'healthy', count: 1, lastBackup: expect.any(String) });
    expect(verbose.body.components.jobs.lastRun[`${h.taskQueue}-backup`]).toEqual(expect.any(String));
  });
});

describe('health when Temporal is down', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startArrgo({ role: 'api', env: { TEMPORAL_ADDRESS: '127.0.0.1:9' } });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('still answers, with jobs unhealthy and the service degraded', async () => {
    const res = await h.request('GET', '/health', undefined, { auth: false });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('degraded');
    expect(res.body.components.sqlite.status).toBe('healthy');
    expect(res.body.components.jobs).toEqual({ status: 'unhealthy', message: 'Temporal is unreachable: workflows and schedules cannot run' });
    // No TEMPORAL_UI_URL and no embedded dev server: no address to link to.
    expect((await h.get('/health?verbose=true')).body.temporalUi).toBeNull();
  });
});

describe('health when no worker polls', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startArrgo({ role: 'api' });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('reports jobs degraded with a message', async () => {
    const res = await h.get('/health');
    expect(res.body.status).toBe('degraded');
    expect(res.body.components.jobs.status).toBe('degraded');
    expect(res.body.components.jobs.message).toContain('no worker is polling');
  });
});
