import { createHmac } from 'node:crypto';
import { healthScheduleId } from '../../src/services/schedules';
import { dbKinds, type DbKind } from '../helpers/databases';
import { addInstance, linkDatabase, SAMPLE_PCD, type FleetInstance } from '../helpers/fleet';
import { eventually, startArrgo, type Harness, type HttpResult } from '../helpers/harness';
import { startReceiver, type Receiver } from '../helpers/receiver';

const SECRET = 'whsec-0123456789abcdef-signing';
const ENV = {
  NOTIFY_RETRY_INITIAL_INTERVAL_MS: '200',
  NOTIFY_RETRY_MAX_ATTEMPTS: '5',
  NOTIFY_REQUEST_TIMEOUT_MS: '2000',
  NOTIFY_GATE_WAIT_MINUTES: '0',
  NOTIFY_DRIFT_WINDOW_MINUTES: '30',
  ARRGO_PUBLIC_URL: 'http://127.0.0.1:7979',
  TEMPORAL_UI_URL: 'http://127.0.0.1:8233',
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function verifySignature(request: { headers: Record<string, unknown>; raw: string }, secret: string): boolean {
  const timestamp = String(request.headers['x-arrgo-timestamp']);
  const expected = `sha256=${createHmac('sha256', secret).update(`${timestamp}.${request.raw}`).digest('hex')}`;
  return request.headers['x-arrgo-signature'] === expected;
}

describe.each(dbKinds())('notifications on %s', (db: DbKind) => {
  let h: Harness;
  let databaseId: number;
  const instances: FleetInstance[] = [];
  const receivers: Receiver[] = [];
  const responses: HttpResult[] = [];

  const receiver = async () => {
    const r = await startReceiver();
    receivers.push(r);
    return r;
  };
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await h.request(method, path, body);
    responses.push(res);
    return res;
  };
  const channel = async (name: string, url: string, events: string[], extra: Record<string, unknown> = {}) => {
    const res = await call('POST', '/notifications/channels', { name, kind: 'webhook', url, secret: SECRET, events, ...extra });
    expect(res.status).toBe(201);
    return res.body.id as number;
  };
  const deliveriesOf = async (query: string) => (await call('GET', `/notifications/deliveries?${query}`)).body.items as any[];

  beforeAll(async () => {
    h = await startArrgo({ db, env: ENV });
    databaseId = await linkDatabase(h, 'sample', SAMPLE_PCD);
  });
  afterAll(async () => {
    await h?.close();
    for (const i of instances) await i.emulator.close();
    for (const r of receivers) await r.close();
  });

  it('manages channels: URL and secret are write-only, bad input is a precise 400', async () => {
    const r = await receiver();
    const created = await call('POST', '/notifications/channels', { name: 'ops', kind: 'webhook', url: r.url, secret: SECRET, events: ['sync.failed', 'drift.detected'] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'ops', kind: 'webhook', events: ['sync.failed', 'drift.detected'], enabled: true, urlSet: true, secretSet: true });
    expect(created.body).not.toHaveProperty('url');
    expect(created.body).not.toHaveProperty('secret');
    const id = created.body.id;
    expect((await call('GET', `/notifications/channels/${id}`)).body).toMatchObject({ id, name: 'ops' });
    expect((await call('GET', '/notifications/channels')).body).toMatchObject({ totalRecords: 1, items: [expect.objectContaining({ id })] });
    expect((await call('PATCH', `/notifications/channels/${id}`, { enabled: false, events: ['health.dropped'] })).body).toMatchObject({ enabled: false, events: ['health.dropped'] });

    const bad: [unknown, number, RegExp][] = [
      [{ name: 'x', kind: 'webhook', url: r.url, events: ['sync.failed'] }, 400, /secret: required for a webhook channel/],
      [{ name: 'x', kind: 'webhook', url: 'ftp://127.0.0.1/x', secret: SECRET, events: ['sync.failed'] }, 400, /url/],
      [{ name: 'x', kind: 'discord', url: r.url, events: ['sync.failed'] }, 400, /Discord webhook URL/],
      [{ name: 'x', kind: 'discord', url: r.discordUrl, secret: SECRET, events: ['sync.failed'] }, 400, /a Discord channel takes no secret/],
      [{ name: 'x', kind: 'webhook', url: r.url, secret: 'short', events: ['sync.failed'] }, 400, /secret/],
      [{ name: 'x', kind: 'webhook', url: r.url, secret: SECRET, events: ['nope'] }, 400, /events/],
      [{ name: 'x', kind: 'webhook', url: r.url, secret: SECRET, events: [] }, 400, /events/],
      [{ name: 'ops', kind: 'webhook', url: r.url, secret: SECRET, events: ['sync.failed'] }, 400, /already exists/],
      [{ name: 'x'.repeat(101), kind: 'webhook', url: r.url, secret: SECRET, events: ['sync.failed'] }, 400, /name/],
      [{ name: 'x', kind: 'webhook', url: `http://127.0.0.1/${'a'.repeat(2001)}`, secret: SECRET, events: ['sync.failed'] }, 400, /url/],
    ];
    for (const [body, status, message] of bad) {
      const res = await call('POST', '/notifications/channels', body);
      expect([res.status, res.body.error]).toEqual([status, expect.stringMatching(message)]);
      expect(res.text).not.toContain(r.token);
      expect(res.text).not.toContain(SECRET);
    }
    expect((await call('PATCH', `/notifications/channels/${id}`, { kind: 'discord' })).body.error).toMatch(/keeps its kind/);
    expect((await call('PATCH', `/notifications/channels/${id}`, {})).status).toBe(400);
    expect((await call('GET', '/notifications/channels/999999')).status).toBe(404);
    expect((await call('GET', '/notifications/deliveries?status=lost')).status).toBe(400);
    expect((await call('GET', '/notifications/deliveries/not-an-id')).status).toBe(400);
    expect((await call('DELETE', `/notifications/channels/${id}`)).status).toBe(204);
    expect((await call('GET', `/notifications/channels/${id}`)).status).toBe(404);
  });

  it('delivers drift on an emulated instance exactly once, signed; repeated drift is coalesced; the return to in-sync is sent', async () => {
    const hook = await receiver();
    const discord = await receiver();
    const hookId = await channel('drift-hook', hook.url, ['drift.detected', 'drift.resolved']);
    await call('POST', '/notifications/channels', { name: 'drift-discord', kind: 'discord', url: discord.discordUrl, events: ['drift.detected'] });
    const radarr = await addInstance(h, 'movie_app', { name: 'notify-radarr', databaseId });
    instances.push(radarr);
    expect((await call('POST', `/instances/${radarr.id}/sync?wait=true`, {})).body.status).toBe('applied');
    expect((await call('POST', `/drift/${radarr.id}/check`)).body.status).toBe('in-sync');

    radarr.emulator.state.delayProfiles[0].usenetDelay = 77;
    expect((await call('POST', `/drift/${radarr.id}/check`)).body).toMatchObject({ status: 'drifted', counts: { drifted: 1, missing: 0 } });
    await eventually(async () => hook.requests.length, (n) => n >= 1);
    await eventually(async () => discord.requests.length, (n) => n >= 1);

    // Repeated drift within the window (now also a missing custom format): coalesced.
    const formats = radarr.emulator.state.customFormats;
    formats.splice(formats.findIndex((cf: { name: string }) => cf.name === 'Cam'), 1);
    expect((await call('POST', `/drift/${radarr.id}/check`)).body).toMatchObject({ status: 'drifted', counts: { missing: 1 } });
    await sleep(1500);
    expect(hook.requests).toHaveLength(1);
    expect(discord.requests).toHaveLength(1);

    const [request] = hook.requests;
    expect(verifySignature(request, SECRET)).toBe(true);
    expect(verifySignature(request, 'another-secret-0000000')).toBe(false);
    expect(request.headers['idempotency-key']).toMatch(/^dlv-[0-9a-f]{32}$/);
    expect(request.headers['x-arrgo-event']).toBe('drift.detected');
    const event = request.body.event;
    expect(request.body).toMatchObject({ version: 1, deliveryId: request.headers['idempotency-key'] });
    expect(event).toMatchObject({
      id: expect.stringMatching(new RegExp(`^drift:${radarr.id}:\\d+$`)),
      type: 'drift.detected',
      severity: 'warning',
      subject: { kind: 'instance', id: radarr.id, name: 'notify-radarr' },
      data: { instanceId: radarr.id, status: 'drifted', previousStatus: 'in-sync', counts: { drifted: 1, missing: 0, unmanaged: expect.any(Number) } },
      links: { api: `http://127.0.0.1:7979/api/v1/drift/${radarr.id}`, temporal: expect.stringMatching(/^http:\/\/127\.0\.0\.1:8233\/namespaces\/[^/]+\/workflows\/.+drift/) },
    });
    const embed = discord.requests[0].body.embeds[0];
    expect(discord.requests[0].body.username).toBe('arrgo');
    expect(embed).toMatchObject({ title: 'notify-radarr drifted from its desired configuration', color: 0xf39c12, url: `http://127.0.0.1:7979/api/v1/drift/${radarr.id}`, timestamp: event.occurredAt });
    expect(embed.fields).toEqual(expect.arrayContaining([{ name: 'Drifted', value: '1', inline: true }, { name: 'Missing', value: '0', inline: true }]));
    expect(discord.requests[0].headers['x-arrgo-signature']).toBeUndefined();

    const logged = await deliveriesOf(`channelId=${hookId}`);
    expect(logged).toEqual([expect.objectContaining({ eventId: event.id, status: 'delivered', attempts: 1, lastStatusCode: 200, channelName: 'drift-hook' })]);

    // Synced back: the resolution is sent (receivers were told of the drift).
    expect((await call('POST', `/instances/${radarr.id}/sync?wait=true`, {})).body.status).toBe('applied');
    await eventually(() => call('GET', `/drift/${radarr.id}`), (r) => r.body.status === 'in-sync', 30_000).catch(() => undefined);
    if ((await call('GET', `/drift/${radarr.id}`)).body.status !== 'in-sync') await call('POST', `/drift/${radarr.id}/check`);
    await eventually(async () => hook.requests.length, (n) => n >= 2);
    await sleep(500);
    expect(hook.requests.map((r) => r.body.event.type)).toEqual(['drift.detected', 'drift.resolved']);
    expect(discord.requests).toHaveLength(1); // it does not want resolutions
    expect(new Set(hook.requests.map((r) => r.headers['idempotency-key'])).size).toBe(2);
  });

  it('retries 503 with backoff: the third attempt delivers and the log shows three attempts', async () => {
    const r = await receiver();
    r.script([503, 503]);
    const id = await channel('flaky', r.url, ['sync.failed']);
    const first = await call('POST', `/notifications/channels/${id}/test?wait=true`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ eventType: 'test', attempts: 1, lastStatusCode: 503, lastError: 'server_error' });
    expect(['retrying', 'delivered']).toContain(first.body.status);
    const sent = await eventually(() => call('GET', `/notifications/deliveries/${first.body.id}`), (res) => res.body.finishedAt !== null);
    expect(sent.body).toMatchObject({ eventType: 'test', status: 'delivered', attempts: 3, lastStatusCode: 200, lastError: null });
    expect(sent.body.attemptLog.map((a: { statusCode: number; outcome: string }) => [a.statusCode, a.outcome])).toEqual([
      [503, 'retry'],
      [503, 'retry'],
      [200, 'delivered'],
    ]);
    // Exponential backoff: the attempts run under a doubling retry policy that never retries a final answer.
    const history = await h.service.temporal.client.workflow.getHandle(sent.body.workflowId).fetchHistory();
    const scheduled = history.events!.find((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'deliverNotification')!.activityTaskScheduledEventAttributes!;
    expect(scheduled.retryPolicy).toMatchObject({ backoffCoefficient: 2, maximumAttempts: 5, nonRetryableErrorTypes: expect.arrayContaining(['notification_rejected']) });
    expect(Number(scheduled.retryPolicy!.initialInterval!.nanos) / 1e6 + Number(scheduled.retryPolicy!.initialInterval!.seconds ?? 0) * 1000).toBe(200);
    // The row is closed by the last attempt; the workflow records its final status just after.
    const handle = h.service.temporal.client.workflow.getHandle(sent.body.workflowId);
    await handle.result();
    const described = await handle.describe();
    expect(described.typedSearchAttributes.get({ name: 'ArrgoKind', type: 'KEYWORD' } as never)).toBe('notification-delivery');
    expect(described.typedSearchAttributes.get({ name: 'ArrgoTrigger', type: 'KEYWORD' } as never)).toBe('test');
    expect(described.typedSearchAttributes.get({ name: 'ArrgoSyncStatus', type: 'KEYWORD' } as never)).toBe('delivered');
    expect(await described.staticSummary()).toBe('Notify webhook channel "flaky": arrgo test notification');
    expect(await described.staticDetails()).toContain(`delivery ${sent.body.id}`);
    expect(sent.body.workflowUrl).toBe(`http://127.0.0.1:8233/namespaces/${h.namespace}/workflows/${encodeURIComponent(sent.body.workflowId)}`);
    expect(r.requests.map((q) => q.answered)).toEqual([503, 503, 200]);
    expect(new Set(r.requests.map((q) => q.headers['idempotency-key'])).size).toBe(1);
    expect(r.requests.every((q) => verifySignature(q, SECRET))).toBe(true);
    expect((await call('GET', `/notifications/deliveries/${sent.body.id}`)).body).toMatchObject({ attempts: 3, status: 'delivered' });
  });

  it('does not retry a 400', async () => {
    const r = await receiver();
    r.script([400]);
    const id = await channel('strict', r.url, ['sync.failed']);
    const sent = await call('POST', `/notifications/channels/${id}/test?wait=true`);
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ status: 'failed', attempts: 1, lastStatusCode: 400, lastError: 'rejected', finishedAt: expect.any(String) });
    await sleep(1500); // several retry intervals
    expect(r.requests).toHaveLength(1);
    expect((await deliveriesOf(`channelId=${id}&status=failed`)).map((d) => d.id)).toEqual([sent.body.id]);
    expect(await deliveriesOf(`channelId=${id}&status=delivered`)).toEqual([]);
  });

  it('notifies a rollout at the gate once (refreshing the evidence does not repeat it), then its end', async () => {
    const r = await receiver();
    await channel('gate', r.url, ['rollout.awaiting_gate', 'rollout.aborted', 'rollout.completed']);
    const canary = await addInstance(h, 'movie_app', { name: 'gate-canary', databaseId });
    const target = await addInstance(h, 'movie_app', { name: 'gate-target', databaseId });
    instances.push(canary, target);
    const started = await call('POST', '/canary/rollouts', { arrType: 'movie_app', canaryInstanceId: canary.id, targetInstanceIds: [target.id], sections: ['qualityProfiles', 'delayProfiles'], partialPolicy: 'gate' });
    expect(started.status).toBeLessThan(300);
    const rolloutId = started.body.id;
    const gated = await eventually(() => call('GET', `/canary/rollouts/${rolloutId}`), (res) => res.body.status === 'awaiting_confirmation', 90_000);
    await eventually(async () => r.requests.length, (n) => n >= 1);
    const again = await call('POST', `/canary/rollouts/${rolloutId}/refresh-evidence`, { stateToken: gated.body.stateToken });
    expect(again.body).toMatchObject({ status: 'awaiting_confirmation' });
    expect(again.body.stateToken).not.toBe(gated.body.stateToken);
    await sleep(1000);
    expect(r.requests).toHaveLength(1);
    const gate = r.requests[0].body.event;
    expect(gate).toMatchObject({ id: `rollout:${rolloutId}:gate`, type: 'rollout.awaiting_gate', data: { rolloutId, waitedSeconds: expect.any(Number), waitingSince: expect.any(String) }, links: { api: `http://127.0.0.1:7979/api/v1/canary/rollouts/${rolloutId}` } });
    expect(gate.fields).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'Waiting' })]));

    expect((await call('POST', `/canary/rollouts/${rolloutId}/abort`, { stateToken: again.body.stateToken })).status).toBe(200);
    await eventually(async () => r.requests.length, (n) => n >= 2);
    expect(r.requests.map((q) => q.body.event.type)).toEqual(['rollout.awaiting_gate', 'rollout.aborted']);
    // The end says why: the stored reason of the rollout.
    const reason = 'Aborted at the gate by the operator; the remaining instance was left untouched.';
    expect(r.requests[1].body.event).toMatchObject({ id: `rollout:${rolloutId}:aborted`, description: reason, data: { status: 'aborted', statusReasonCode: 'gate_declined', statusReason: reason } });
    expect((await deliveriesOf('eventType=rollout.awaiting_gate')).map((d) => d.eventId)).toEqual([`rollout:${rolloutId}:gate`]);
  });

  it('notifies a partial sync run and a failed PCD pull, with links to the preview and the database', async () => {
    const r = await receiver();
    await channel('failures', r.url, ['sync.failed', 'pcd.pull_failed']);
    const radarr = await addInstance(h, 'movie_app', { name: 'failing-radarr', databaseId });
    instances.push(radarr);
    radarr.emulator.state.delayProfiles[0].usenetDelay = 4242;
    radarr.emulator.state.naming.standardMovieFormat = '{Movie Title}';
    const fault = radarr.emulator.faults.add({ kind: 'status', status: 400, method: 'PUT', path: '/config/naming/*' });
    const synced = await call('POST', `/instances/${radarr.id}/sync?wait=true`, {});
    radarr.emulator.faults.remove(fault.id);
    expect(synced.body.status).toBe('failed');
    const broken = await call('POST', '/databases', { name: 'broken-notify', source: { kind: 'git', url: 'file:///nonexistent/notify.git' } });
    await eventually(() => call('GET', `/databases/${broken.body.id}`), (res) => res.body.cache.status === 'failed');
    await eventually(async () => r.requests.length, (n) => n >= 2);
    const events = Object.fromEntries(r.requests.map((q) => [q.body.event.type, q.body.event]));
    expect(events['sync.failed']).toMatchObject({
      type: 'sync.failed',
      severity: 'warning',
      title: 'Sync of failing-radarr was partial',
      data: { instanceId: radarr.id, status: 'partial', trigger: expect.any(String) },
      links: { api: `http://127.0.0.1:7979/api/v1/sync/previews/${synced.body.id}`, temporal: expect.stringContaining('/workflows/') },
    });
    expect(events['sync.failed'].id).toMatch(/^sync-run:\d+:partial$/);
    expect(events['pcd.pull_failed']).toMatchObject({ type: 'pcd.pull_failed', severity: 'danger', subject: { kind: 'database', id: broken.body.id, name: 'broken-notify' }, data: { reason: 'fetch_failed' }, links: { api: `http://127.0.0.1:7979/api/v1/databases/${broken.body.id}` } });
    expect(JSON.stringify(events)).not.toContain('nonexistent');
  });

  it('notifies a dropped health band on the scheduled snapshot, and a failed reference-guide sync', async () => {
    const r = await receiver();
    await channel('health', r.url, ['health.dropped', 'ref_guide.sync_failed']);
    const radarr = await addInstance(h, 'movie_app', { name: 'health-radarr', databaseId });
    instances.push(radarr);
    await call('POST', `/instances/${radarr.id}/sync?wait=true`, {});
    await call('POST', `/drift/${radarr.id}/check`);
    expect((await call('POST', `/config-health/${radarr.id}/recompute`)).body.overall.band).toBe('healthy');
    // Everything removed by hand: the next scheduled snapshot scores lower.
    const state = radarr.emulator.state;
    state.customFormats.splice(0);
    state.qualityProfiles.splice(state.qualityProfiles.findIndex((p: { name: string }) => p.name === 'Movies 1080p'), 1);
    state.delayProfiles[0].usenetDelay = 999;
    state.naming.standardMovieFormat = '{Movie Title} hand edited';
    state.mediaManagement.downloadPropersAndRepacks = 'doNotUpgrade';
    for (const definition of state.qualityDefinitions) definition.maxSize = 1;
    await call('POST', `/drift/${radarr.id}/check`);
    await h.service.temporal.client.schedule.getHandle(healthScheduleId(h.taskQueue)).trigger();
    await eventually(async () => r.requests.filter((q) => q.body.event.type === 'health.dropped' && q.body.event.subject.id === radarr.id).length, (n) => n === 1, 60_000);
    const dropped = r.requests.find((q) => q.body.event.subject.id === radarr.id)!.body.event;
    expect(dropped).toMatchObject({ type: 'health.dropped', data: { instanceId: radarr.id, from: 'healthy', to: expect.stringMatching(/^(attention|needs-review)$/) }, links: { api: `http://127.0.0.1:7979/api/v1/config-health/${radarr.id}` } });

    const source = await call('POST', '/ref-guide/sources', { name: 'gone-guide', origin: { kind: 'git', url: 'file:///nonexistent/guide.git' }, arrType: 'movie_app', enabled: false });
    expect((await call('POST', `/ref-guide/sources/${source.body.id}/sync?wait=true`)).body.status).toBe('failed');
    await eventually(async () => r.requests.filter((q) => q.body.event.type === 'ref_guide.sync_failed').length, (n) => n === 1);
    const guide = r.requests.find((q) => q.body.event.type === 'ref_guide.sync_failed')!.body.event;
    expect(guide).toMatchObject({ subject: { kind: 'ref-guide-source', id: source.body.id, name: 'gone-guide' }, data: { reason: 'fetch_failed' }, links: { api: `http://127.0.0.1:7979/api/v1/ref-guide/sources/${source.body.id}`, temporal: expect.stringContaining('ref-guide-sync') } });
  });

  it('keeps URLs and secrets out of every response and log line', async () => {
    const tokens = receivers.map((r) => r.token);
    expect(tokens.length).toBeGreaterThan(3);
    for (const res of responses) {
      expect(res.text).not.toContain(SECRET);
      for (const token of tokens) expect(res.text).not.toContain(token);
    }
    const openapi = (await h.get('/openapi.json')).text;
    expect(openapi).not.toContain(SECRET);
    const logs = h.logs.join('\n');
    expect(logs).not.toContain(SECRET);
    for (const token of tokens) expect(logs).not.toContain(token);
    expect(logs).toContain('notification delivered');
  });
});
