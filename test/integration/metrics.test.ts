import { addInstance, linkDatabase, SAMPLE_PCD, type FleetInstance } from '../helpers/fleet';
import { eventually, startArrgo, type Harness } from '../helpers/harness';
import { parsePrometheusText, sampleSum, type Family } from '../helpers/prometheus';
import { startReceiver, type Receiver } from '../helpers/receiver';

const LISTED = [
  ['arrgo_http_request_duration_seconds', 'histogram'],
  ['arrgo_sync_runs_total', 'counter'],
  ['arrgo_sync_apply_duration_seconds', 'histogram'],
  ['arrgo_instances', 'gauge'],
  ['arrgo_rollouts', 'gauge'],
  ['arrgo_rollout_gate_wait_seconds', 'gauge'],
  ['arrgo_outbox_backlog', 'gauge'],
  ['arrgo_outbox_oldest_age_seconds', 'gauge'],
  ['arrgo_pcd_cache_builds_total', 'counter'],
  ['arrgo_pcd_cache_build_duration_seconds', 'histogram'],
  ['arrgo_notification_deliveries_total', 'counter'],
  ['arrgo_worker_activity_schedule_to_start_seconds', 'histogram'],
  ['arrgo_worker_activity_execution_seconds', 'histogram'],
] as const;

describe('GET /metrics', () => {
  let h: Harness;
  let radarr: FleetInstance;
  let receiver: Receiver;

  const scrape = async (): Promise<{ families: Map<string, Family>; text: string }> => {
    const res = await fetch(`${h.baseUrl}/metrics`, { headers: { 'X-Api-Key': h.apiKey } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    return { families: parsePrometheusText(text), text };
  };

  beforeAll(async () => {
    h = await startArrgo({ env: { NOTIFY_RETRY_INITIAL_INTERVAL_MS: '200', NOTIFY_REQUEST_TIMEOUT_MS: '2000' } });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await h?.close();
    await radarr?.emulator.close();
    await receiver?.close();
  });

  it('takes the API key (header or Bearer) unless METRICS_PUBLIC is true', async () => {
    const none = await fetch(`${h.baseUrl}/metrics`);
    expect(none.status).toBe(401);
    expect(((await none.json()) as { error: string }).error).toMatch(/API key required/);
    expect((await fetch(`${h.baseUrl}/metrics`, { headers: { 'X-Api-Key': 'wrong-key-0000000000' } })).status).toBe(401);
    expect((await fetch(`${h.baseUrl}/metrics`, { headers: { Authorization: `Bearer ${h.apiKey}` } })).status).toBe(200);
    const open = await startArrgo({ env: { METRICS_PUBLIC: 'true' } });
    try {
      const res = await fetch(`${open.baseUrl}/metrics`);
      expect(res.status).toBe(200);
      expect(parsePrometheusText(await res.text()).has('arrgo_sync_runs_total')).toBe(true);
      expect((await open.get('/instances')).status).toBe(200);
      expect((await open.request('GET', '/instances', undefined, { auth: false })).status).toBe(401); // the API still needs the key
    } finally {
      await open.close();
    }
    const doc = await h.get('/openapi.json');
    expect(doc.body.paths['/metrics'].get).toMatchObject({ operationId: 'getMetrics', tags: ['Metrics'] });
  });

  it('parses, carries every listed metric, and the values move when the test syncs', async () => {
    const before = await scrape();
    for (const [name, type] of LISTED) expect([name, before.families.get(name)?.type]).toEqual([name, type]);

    const databaseId = await linkDatabase(h, 'sample', SAMPLE_PCD);
    radarr = await addInstance(h, 'movie_app', { name: 'metrics-radarr', databaseId });
    const channel = await h.post('/notifications/channels', { name: 'm', kind: 'webhook', url: receiver.url, secret: 'metrics-secret-0123456789', events: ['sync.failed'] });
    const mid = await scrape();
    expect(sampleSum(mid.families, 'arrgo_instances', { drift_status: 'never-checked' })).toBe(1);

    expect((await h.post(`/instances/${radarr.id}/sync?wait=true`, {})).body.status).toBe('applied');
    expect((await h.post(`/drift/${radarr.id}/check`)).body.status).toBe('in-sync');
    expect((await h.post(`/notifications/channels/${channel.body.id}/test?wait=true`)).body.status).toBe('delivered');
    const after = await eventually(scrape, (s) => sampleSum(s.families, 'arrgo_sync_runs_total', { status: 'success' }) > sampleSum(before.families, 'arrgo_sync_runs_total', { status: 'success' }));
    const f = after.families;
    const moved = (name: string, labels: Record<string, string> = {}) => [name, JSON.stringify(labels), sampleSum(f, name, labels) - sampleSum(before.families, name, labels)];

    expect(moved('arrgo_sync_runs_total', { status: 'success', trigger: 'manual' })).toEqual(['arrgo_sync_runs_total', expect.any(String), 1]);
    expect(moved('arrgo_sync_apply_duration_seconds_count', { status: 'success' })[2]).toBe(1);
    expect(sampleSum(f, 'arrgo_instances', { drift_status: 'in-sync' })).toBe(1);
    expect(sampleSum(f, 'arrgo_instances', { drift_status: 'never-checked' })).toBe(0);
    expect(sampleSum(f, 'arrgo_rollouts', { status: 'awaiting_confirmation' })).toBe(0);
    expect(sampleSum(f, 'arrgo_rollout_gate_wait_seconds')).toBe(0);
    expect([sampleSum(f, 'arrgo_outbox_backlog'), sampleSum(f, 'arrgo_outbox_oldest_age_seconds')]).toEqual([0, 0]);
    expect(moved('arrgo_pcd_cache_builds_total', { layer: 'base', result: 'ready' })[2]).toBeGreaterThanOrEqual(1);
    expect(moved('arrgo_pcd_cache_build_duration_seconds_count', { layer: 'base' })[2]).toBeGreaterThanOrEqual(1);
    expect(moved('arrgo_notification_deliveries_total', { result: 'delivered', channel_kind: 'webhook' })[2]).toBe(1);
    expect(moved('arrgo_worker_activity_execution_seconds_count', { activity: 'applySyncPlan', outcome: 'completed' })[2]).toBe(1);
    expect(moved('arrgo_worker_activity_schedule_to_start_seconds_count', { activity: 'deliverNotification' })[2]).toBe(1);
    expect(moved('arrgo_http_request_duration_seconds_count', { method: 'POST', route: '/api/v1/instances/{id}/sync', status: '200' })[2]).toBe(1);
    expect(moved('arrgo_http_request_duration_seconds_count', { method: 'POST', route: '/api/v1/drift/{instanceId}/check', status: '200' })[2]).toBe(1);

    // Labels are bounded: no instance key, no URL, no id of a resource.
    const forbidden = [radarr.apiKey, h.apiKey, radarr.emulator.baseUrl, receiver.url, receiver.token, 'metrics-secret-0123456789', '://', 'metrics-radarr'];
    for (const family of f.values()) {
      for (const sample of family.samples) {
        for (const [label, value] of Object.entries(sample.labels)) {
          for (const bad of forbidden) expect(`${sample.name}{${label}="${value}"}`).not.toContain(bad);
          if (label === 'route') expect(value).not.toMatch(/\/\d+(\/|$)/);
        }
      }
    }
    for (const bad of forbidden) expect(after.text).not.toContain(bad);
  });
});
