import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startDevServer, type DevServer } from '../../src/platform/temporal-dev-server';
import { dbKinds } from '../helpers/databases';
import { addInstance, linkDatabase, SAMPLE_PCD, type FleetInstance } from '../helpers/fleet';
import { eventually, startArrgo, testNamespace, type Harness } from '../helpers/harness';
import { parsePrometheusText, sampleSum } from '../helpers/prometheus';
import { startReceiver, type Receiver } from '../helpers/receiver';
import { freeStablePort } from '../setup/ports';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The transactional outbox with Temporal down: an arrgo whose Temporal dev server (its own, with a
 * database file, so a restart keeps the workflows) is stopped keeps answering, accepts an edit,
 * and reports the edit's effect waiting in GET /health; once Temporal is back, the drift check
 * the edit queued runs and its drift event is delivered exactly once.
 */
describe.each(dbKinds())('outbox while Temporal is down on %s', (db) => {
  let temporalDir: string;
  let port: number;
  let temporal: DevServer | null = null;
  let h: Harness;
  let receiver: Receiver;
  let radarr: FleetInstance;
  let target: FleetInstance;
  let databaseId: number;

  const startTemporal = async () => {
    temporal = await startDevServer({ port, uiPort: null, dbFile: path.join(temporalDir, 'temporal.db'), logFile: path.join(temporalDir, 'temporal.log'), namespaces: [testNamespace()] });
  };
  const outboxRows = async () => (await h.service.orm.em.fork().getConnection().execute('select id, kind, attempts, last_error from outbox order by id')) as { id: string; kind: string; attempts: number; last_error: string | null }[];

  beforeAll(async () => {
    temporalDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arrgo-outbox-temporal-'));
    port = await freeStablePort();
    await startTemporal();
    h = await startArrgo({
      db,
      env: { TEMPORAL_ADDRESS: `127.0.0.1:${port}`, DRIFT_CHECK_AFTER_EDIT: 'true', NOTIFY_RETRY_INITIAL_INTERVAL_MS: '200', NOTIFY_REQUEST_TIMEOUT_MS: '2000' },
    });
    receiver = await startReceiver();
    databaseId = await linkDatabase(h, 'sample', SAMPLE_PCD);
    radarr = await addInstance(h, 'movie_app', { name: 'outbox-radarr', databaseId });
    target = await addInstance(h, 'movie_app', { name: 'outbox-target', databaseId });
  }, 180_000);
  afterAll(async () => {
    await h?.close();
    await radarr?.emulator.close();
    await target?.emulator.close();
    await receiver?.close();
    await temporal?.stop();
    fs.rmSync(temporalDir, { recursive: true, force: true });
  });

  it('keeps an edit and a drift while Temporal is down, shows the backlog, and delivers exactly one drift notification after it returns', async () => {
    expect((await h.post('/notifications/channels', { name: 'drift', kind: 'webhook', url: receiver.url, secret: 'whsec-outbox-0123456789', events: ['drift.detected'] })).status).toBe(201);
    expect((await h.post(`/instances/${radarr.id}/sync?wait=true`, {})).body.status).toBe('applied');
    expect((await h.post(`/drift/${radarr.id}/check`)).body.status).toBe('in-sync');
    expect(await outboxRows()).toEqual([]);

    await temporal!.stop();
    temporal = null;
    // Writes the user waits on (a preview, a rollout, an adoption) are refused and leave nothing behind.
    const count = async (table: string) => Number((await h.service.orm.em.fork().getConnection().execute(`select count(*) as n from ${table}`))[0].n);
    const before = { previews: await count('sync_previews'), rollouts: await count('canary_rollouts'), adoptions: await count('adoptions') };
    const unavailable = { error: 'The workflow service is unavailable; try again shortly' };
    expect(await h.post('/sync/previews', { instanceId: radarr.id })).toMatchObject({ status: 503, body: unavailable });
    expect(await h.post('/canary/rollouts', { arrType: 'movie_app', canaryInstanceId: radarr.id, targetInstanceIds: [target.id], sections: ['delayProfiles'], partialPolicy: 'gate' })).toMatchObject({ status: 503, body: unavailable });
    expect(await h.post(`/instances/${radarr.id}/adopt`, { databaseId })).toMatchObject({ status: 503, body: unavailable });
    expect({ previews: await count('sync_previews'), rollouts: await count('canary_rollouts'), adoptions: await count('adoptions') }).toEqual(before);

    // The rollout's target takes no further part (its drift is not this test's).
    expect((await h.patch(`/instances/${target.id}`, { enabled: false })).status).toBe(200);

    // The instance drifts by hand, and the desired configuration is edited: the edit is accepted.
    radarr.emulator.state.delayProfiles[0].usenetDelay = 77;
    const edit = await h.patch(`/pcd/${databaseId}/entities/quality_profile/${encodeURIComponent('Movies 1080p')}`, { changes: [{ path: 'description', value: 'Edited while Temporal was down' }] });
    expect(edit.status).toBe(200);
    expect(edit.body).toMatchObject({ success: true });
    // Reads go on.
    expect((await h.get(`/drift/${radarr.id}`)).body.status).toBe('in-sync');
    // Writes whose effect can wait are accepted: a database linked and a guide source created now get their first pull and sync later.
    const late = await h.post('/databases', { name: 'late', source: { kind: 'local', path: SAMPLE_PCD } });
    expect(late.status).toBe(201);
    expect(late.body.cache.status).toBe('pending');
    const guideDir = fs.mkdtempSync(path.join(temporalDir, 'guide-'));
    const source = await h.post('/ref-guide/sources', { name: 'late guide', origin: { kind: 'local', path: guideDir }, arrType: 'movie_app' });
    expect(source.status).toBe(201);

    // Their effects wait in the outbox; the relay's failed publishes back off.
    const waiting = await eventually(() => outboxRows(), (rows) => rows.length === 3 && rows.every((r) => r.attempts >= 1), 30_000);
    expect(waiting.map((r) => [r.id, r.kind])).toEqual([
      [`drift-check:${radarr.id}`, 'drift-check'],
      [`pcd-pull:${late.body.id}`, 'pcd-pull'],
      [`ref-guide-sync:${source.body.id}`, 'ref-guide-sync'],
    ]);
    expect(waiting.every((r) => r.last_error !== null)).toBe(true);
    const health = await h.request('GET', '/health', undefined, { auth: false });
    expect(health.status).toBe(200);
    expect(health.body.components.jobs.status).toBe('unhealthy');
    expect(health.body.components.outbox).toMatchObject({ backlog: 3, status: 'healthy' });
    expect(health.body.components.outbox.message).toMatch(/^3 outbox entries waiting for Temporal; the oldest for \d+ s$/);
    expect(health.body.components.outbox.oldestAgeSeconds).toBeGreaterThanOrEqual(0);
    const metrics = parsePrometheusText(await (await fetch(`${h.baseUrl}/metrics`, { headers: { 'X-Api-Key': h.apiKey } })).text());
    expect(sampleSum(metrics, 'arrgo_outbox_backlog')).toBe(3);
    expect(sampleSum(metrics, 'arrgo_outbox_oldest_age_seconds')).toBeGreaterThanOrEqual(health.body.components.outbox.oldestAgeSeconds);
    await sleep(1500);
    expect(receiver.requests).toHaveLength(0);

    await startTemporal();
    // The check runs, stores the drift with its event in one transaction, and the event is delivered once.
    await eventually(() => h.get(`/drift/${radarr.id}`), (r) => r.body.status === 'drifted', 90_000);
    await eventually(async () => receiver.requests.length, (n) => n >= 1, 60_000);
    await eventually(() => outboxRows(), (rows) => rows.length === 0, 30_000);
    await eventually(() => h.get(`/databases/${late.body.id}`), (r) => r.body.cache.status === 'ready', 60_000);
    // The empty directory holds no guide: the sync ran and says so.
    await eventually(() => h.get(`/ref-guide/sources/${source.body.id}`), (r) => !['pending', 'syncing'].includes(r.body.sync.status), 60_000);
    await sleep(2000);
    expect(receiver.requests).toHaveLength(1);
    expect(receiver.requests[0].headers['x-arrgo-event']).toBe('drift.detected');
    const deliveries = (await h.get('/notifications/deliveries?eventType=drift.detected')).body.items;
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0].status).toBe('delivered');
    expect((await h.get('/health')).body.components.outbox).toEqual({ status: 'healthy', message: 'Nothing waiting for Temporal', backlog: 0, oldestAgeSeconds: 0 });

    // A relay that published and died before deleting the row publishes it again: still one delivery.
    const [event] = (await h.service.orm.em.fork().getConnection().execute('select id, subject_key, payload from notification_events where type = ?', ['drift.detected'])) as { id: string; subject_key: string; payload: unknown }[];
    const payload = typeof event.payload === 'string' ? JSON.parse(event.payload) : event.payload;
    await h.service.orm.em.fork().getConnection().execute(
      'insert into outbox (id, kind, payload, created_at, attempts, next_attempt_at, last_error) values (?, ?, ?, ?, 0, ?, null)',
      [`notification:${event.id}`, 'notification', JSON.stringify({ event: payload, subjectKey: event.subject_key }), Date.now(), Date.now()],
    );
    await eventually(() => outboxRows(), (rows) => rows.length === 0, 30_000);
    await sleep(1500);
    expect(receiver.requests).toHaveLength(1);
    expect((await h.get('/notifications/deliveries?eventType=drift.detected')).body.items).toHaveLength(1);
  }, 300_000);
});
