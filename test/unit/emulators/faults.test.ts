/**
 * Fault injection (programmatic and over the /__emulator/ control endpoints) and the write log.
 */
import { EmulatorControlClient, FAKE_SECRET, startEmulator, type Emulator } from '../../../src/emulators';
import { parseArgs } from '../../../src/emulators/cli';
import { API_KEY, call, releaseTitleFormat } from './support';

describe('emulator faults', () => {
  let emulator: Emulator;
  beforeAll(async () => {
    emulator = await startEmulator({ app: 'radarr', apiKey: API_KEY });
  });
  afterAll(() => emulator.close());
  beforeEach(() => emulator.reset());

  test('status faults answer with the status and a body that carries the address, key and a fake secret', async () => {
    emulator.faults.add({ kind: 'status', status: 503, path: '/system/status' });
    const response = await call(emulator, 'GET', '/system/status');
    expect(response.status).toBe(503);
    for (const marker of emulator.leakMarkers) expect(response.text).toContain(marker);
    expect(response.text).toContain(FAKE_SECRET);
    // Persistent until removed.
    expect((await call(emulator, 'GET', '/system/status')).status).toBe(503);
    emulator.faults.clear();
    expect((await call(emulator, 'GET', '/system/status')).status).toBe(200);
  });

  test('one-shot faults, method filters and globs on the full or API-relative path', async () => {
    emulator.faults.add({ kind: 'status', status: 401, times: 1, method: 'GET', path: '/api/v3/tag' });
    emulator.faults.add({ kind: 'status', status: 422, method: 'POST', path: '/customformat*', times: 2 });
    expect((await call(emulator, 'GET', '/tag')).status).toBe(401);
    expect((await call(emulator, 'GET', '/tag')).status).toBe(200);
    expect((await call(emulator, 'GET', '/customformat')).status).toBe(200);
    expect((await call(emulator, 'POST', '/customformat', releaseTitleFormat('A'))).status).toBe(422);
    expect((await call(emulator, 'POST', '/customformat', releaseTitleFormat('A'))).status).toBe(422);
    expect((await call(emulator, 'POST', '/customformat', releaseTitleFormat('A'))).status).toBe(201);
    expect(emulator.faults.list()).toEqual([]);
    // Faulted writes are logged but not counted.
    expect(emulator.writes.count('customformat', 'POST')).toBe(1);
    expect(emulator.writes.log.map((entry) => [entry.status, entry.applied, entry.fault])).toEqual([
      [422, false, 'status'],
      [422, false, 'status'],
      [201, true, undefined],
    ]);
  });

  test('a RegExp path and a custom body', async () => {
    emulator.faults.add({ kind: 'status', status: 400, path: /\/qualityprofile\/\d+$/, body: 'plain text', times: 1 });
    const response = await call(emulator, 'GET', '/qualityprofile/1');
    expect(response.status).toBe(400);
    expect(response.text).toBe('plain text');
    expect(response.headers.get('content-type')).toContain('text/plain');
  });

  test('latency delays, then the request is handled normally', async () => {
    emulator.faults.add({ kind: 'latency', delayMs: 150, path: '/system/status', times: 1 });
    const started = Date.now();
    const response = await call(emulator, 'GET', '/system/status');
    expect(response.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  test('malformed JSON with 200', async () => {
    emulator.faults.add({ kind: 'malformed', path: '/qualityprofile', times: 1 });
    const response = await call(emulator, 'GET', '/qualityprofile');
    expect(response.status).toBe(200);
    expect(() => JSON.parse(response.text)).toThrow();
  });

  test('hang never answers; reset destroys the connection', async () => {
    emulator.faults.add({ kind: 'hang', path: '/system/status', times: 1 });
    await expect(fetch(`${emulator.baseUrl}/api/v3/system/status`, { headers: { 'X-Api-Key': API_KEY }, signal: AbortSignal.timeout(200) })).rejects.toMatchObject({
      name: 'TimeoutError',
    });
    emulator.faults.add({ kind: 'reset', path: '/system/status', times: 1 });
    await expect(fetch(`${emulator.baseUrl}/api/v3/system/status`, { headers: { 'X-Api-Key': API_KEY } })).rejects.toThrow();
    expect((await call(emulator, 'GET', '/system/status')).status).toBe(200);
  });

  test('resetAfter applies the write, then destroys the connection instead of answering', async () => {
    emulator.faults.add({ kind: 'resetAfter', method: 'POST', path: '/customformat', times: 1 });
    await expect(fetch(`${emulator.baseUrl}/api/v3/customformat`, { method: 'POST', headers: { 'X-Api-Key': API_KEY, 'Content-Type': 'application/json' }, body: JSON.stringify(releaseTitleFormat('Lost Answer')) })).rejects.toThrow();
    expect(emulator.state.customFormats.map((f) => f.name)).toEqual(['Lost Answer']);
    expect(emulator.writes.count('customformat', 'POST')).toBe(1);
    expect(emulator.writes.log.map((entry) => [entry.status, entry.applied, entry.fault])).toEqual([[201, true, 'resetAfter']]);
    // A retry of the same create is refused: the app already has it.
    expect((await call(emulator, 'POST', '/customformat', releaseTitleFormat('Lost Answer'))).status).toBe(400);
  });

  test('invalid fault specs are refused', () => {
    expect(() => emulator.faults.add({ kind: 'status', status: 200 })).toThrow();
    expect(() => emulator.faults.add({ kind: 'latency' })).toThrow();
    expect(() => emulator.faults.add({ kind: 'status', status: 500, times: 0 })).toThrow();
    expect(() => emulator.faults.add({ kind: 'nope' as never })).toThrow();
  });

  test('control endpoints drive faults, writes and state over HTTP (with the API key)', async () => {
    expect((await call(emulator, 'GET', '/__emulator/faults', undefined, { absolute: true, apiKey: null })).status).toBe(401);
    const added = await call(emulator, 'POST', '/__emulator/faults', { kind: 'status', status: 500, pathRegex: 'customformat$', method: 'GET' }, { absolute: true });
    expect(added.status).toBe(201);
    expect(added.body.path).toBe('regex:customformat$');
    expect((await call(emulator, 'GET', '/customformat')).status).toBe(500);
    expect((await call(emulator, 'GET', '/__emulator/faults', undefined, { absolute: true })).body).toHaveLength(1);
    expect((await call(emulator, 'DELETE', `/__emulator/faults/${added.body.id}`, undefined, { absolute: true })).status).toBe(200);
    expect((await call(emulator, 'GET', '/customformat')).status).toBe(200);
    expect((await call(emulator, 'POST', '/__emulator/faults', { kind: 'status', status: 99 }, { absolute: true })).status).toBe(400);

    await call(emulator, 'POST', '/tag', { label: 'one' });
    const writes = await call(emulator, 'GET', '/__emulator/writes', undefined, { absolute: true });
    expect(writes.body.counts).toEqual({ tag: { POST: 1 } });
    expect(writes.body.log[0]).toMatchObject({ method: 'POST', kind: 'tag', status: 201, applied: true, body: { label: 'one' } });
    const state = await call(emulator, 'GET', '/__emulator/state', undefined, { absolute: true });
    expect(state.body.tags).toEqual([{ id: 1, label: 'one' }]);
    expect((await call(emulator, 'POST', '/__emulator/reset', undefined, { absolute: true })).status).toBe(200);
    expect((await call(emulator, 'GET', '/tag')).body).toEqual([]);
    expect((await call(emulator, 'GET', '/__emulator/writes', undefined, { absolute: true })).body.total).toBe(0);
  });

  test('ignoreField accepts a write and keeps the stored value of the field, set programmatically or over the control endpoint', async () => {
    const before = emulator.state.qualityDefinitions[5];
    const sent = { ...(await call(emulator, 'GET', `/qualitydefinition/${before.id}`)).body, maxSize: 123, minSize: 2, preferredSize: 100 };
    emulator.faults.add({ kind: 'ignoreField', resource: 'qualitydefinition', field: 'maxSize' });
    const answer = await call(emulator, 'PUT', '/qualitydefinition/update', [sent]);
    expect(answer.status).toBe(202);
    const stored = (await call(emulator, 'GET', `/qualitydefinition/${before.id}`)).body;
    expect([stored.minSize, stored.maxSize]).toEqual([2, before.maxSize]);
    // The write was accepted and is counted as applied.
    expect(emulator.writes.count('qualitydefinition', 'PUT')).toBe(1);
    expect(emulator.faults.list().map((f) => [f.kind, f.hits])).toEqual([['ignoreField', 1]]);
    // Another resource is not touched; a config resource keeps its field too.
    emulator.faults.clear();
    const control = new EmulatorControlClient(emulator.baseUrl, emulator.apiKey);
    await control.addFault({ kind: 'ignoreField', resource: 'mediamanagement', field: 'recycleBinCleanupDays' });
    const media = (await call(emulator, 'GET', '/config/mediamanagement')).body;
    expect((await call(emulator, 'PUT', '/config/mediamanagement', { ...media, recycleBinCleanupDays: 14, minimumFreeSpaceWhenImporting: 200 })).status).toBe(202);
    const after = (await call(emulator, 'GET', '/config/mediamanagement')).body;
    expect([after.recycleBinCleanupDays, after.minimumFreeSpaceWhenImporting]).toEqual([media.recycleBinCleanupDays, 200]);
    expect(() => emulator.faults.add({ kind: 'ignoreField', resource: 'naming' })).toThrow('an ignoreField fault needs a resource and a field');
  });

});

describe('EmulatorControlClient (for emulators in another process)', () => {
  test('faults, writes, state and reset', async () => {
    const emulator = await startEmulator({ app: 'sonarr', apiKey: API_KEY });
    try {
      const control = new EmulatorControlClient(emulator.baseUrl, API_KEY);
      const fault = await control.addFault({ kind: 'status', status: 502, path: /system\/status$/, times: 1 });
      expect(fault.path).toBe('regex:system\\/status$');
      expect(await control.listFaults()).toHaveLength(1);
      expect((await call(emulator, 'GET', '/system/status')).status).toBe(502);
      expect(await control.listFaults()).toHaveLength(0);
      await control.addFault({ kind: 'status', status: 500, path: '/tag' });
      await control.clearFaults();
      await call(emulator, 'POST', '/tag', { label: 'x' });
      expect((await control.writes()).counts).toEqual({ tag: { POST: 1 } });
      expect((await control.state()).tags).toEqual([{ id: 1, label: 'x' }]);
      await control.reset();
      expect((await control.state()).tags).toEqual([]);
      await expect(new EmulatorControlClient(emulator.baseUrl, 'wrong').state()).rejects.toThrow('HTTP 401');
    } finally {
      await emulator.close();
    }
  });
});

describe('emulator CLI arguments', () => {
  test('parses the demo invocation', () => {
    expect(parseArgs(['--app', 'radarr', '--port', '7878', '--api-key', 'k'])).toEqual({ app: 'radarr', port: 7878, apiKey: 'k', host: '127.0.0.1', version: undefined });
    expect(parseArgs(['--app=lidarr', '--api-key=k', '--host', '0.0.0.0'])).toMatchObject({ app: 'lidarr', port: 0, host: '0.0.0.0' });
    expect(() => parseArgs(['--app', 'radarr'])).toThrow('--api-key');
    expect(() => parseArgs(['--app', 'radarr', '--api-key', 'k', '--port', 'x'])).toThrow('--port');
  });
});

describe('emulator lifecycle', () => {
  test('close ends hung requests; a fixed port can be reused afterwards', async () => {
    const first = await startEmulator({ app: 'lidarr', apiKey: API_KEY });
    first.faults.add({ kind: 'hang' });
    const pending = fetch(`${first.baseUrl}/api/v1/system/status`, { headers: { 'X-Api-Key': API_KEY } }).catch((error: Error) => error);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await first.close();
    expect(await pending).toMatchObject({ name: 'TypeError' });
    const second = await startEmulator({ app: 'lidarr', apiKey: API_KEY, port: first.port });
    try {
      expect(second.baseUrl).toBe(first.baseUrl);
      expect((await call(second, 'GET', '/system/status')).body.appName).toBe('Lidarr');
    } finally {
      await second.close();
    }
  });
});
