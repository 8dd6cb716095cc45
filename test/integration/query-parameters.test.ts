import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { QUERY_READS_CHANNEL, type QueryReads } from '../../src/api/http/route';
import { addInstance, linkDatabase, previewUntil, SAMPLE_PCD, type FleetInstance } from '../helpers/fleet';
import { eventually, startArrgo, type Harness } from '../helpers/harness';
import { startReceiver, type Receiver } from '../helpers/receiver';

type Schema = Record<string, any>;
interface QueryParameter {
  name: string;
  schema: Schema;
}
interface Operation {
  method: string;
  path: string;
  operationId: string;
  query: QueryParameter[];
}

/**
 * Documented promises: every query parameter the OpenAPI document lists is read by its handler
 * (proved through the router's query-reads diagnostics channel while the real service answers
 * valid requests), and every `wait` answers once the work is done, or with 202 when its bound passes.
 */
describe('documented query parameters', () => {
  let h: Harness;
  let receiver: Receiver;
  let databaseId: number;
  let radarr: FleetInstance;
  let channelId: number;
  let guideSourceId: number;
  let emptyGuide: string;
  const reads = new Map<string, Set<string>>();
  const record = (message: unknown) => {
    const { operationId, read } = message as QueryReads;
    const seen = reads.get(operationId) ?? new Set<string>();
    for (const name of read) seen.add(name);
    reads.set(operationId, seen);
  };

  beforeAll(async () => {
    h = await startArrgo();
    receiver = await startReceiver();
    databaseId = await linkDatabase(h, 'sample', SAMPLE_PCD);
    radarr = await addInstance(h, 'movie_app', { name: 'radarr main', databaseId });
    const channel = await h.post('/notifications/channels', { name: 'hook', kind: 'webhook', url: receiver.url, secret: 'whsec-0123456789abcdef', events: ['sync.failed'] });
    expect(channel.status).toBe(201);
    channelId = channel.body.id;
    // A guide source whose directory holds no guide: its sync fails at once, which is an outcome to wait for.
    emptyGuide = fs.mkdtempSync(path.join(os.tmpdir(), 'arrgo-empty-guide-'));
    const source = await h.post('/ref-guide/sources', { name: 'empty', origin: { kind: 'local', path: emptyGuide }, arrType: 'movie_app' });
    expect(source.status).toBe(201);
    guideSourceId = source.body.id;
    await eventually(() => h.get(`/ref-guide/sources/${guideSourceId}`), (r) => r.body.sync?.status === 'failed');
  });
  afterAll(async () => {
    unsubscribe(QUERY_READS_CHANNEL, record);
    await h?.close();
    await receiver?.close();
    await radarr?.emulator.close();
    if (emptyGuide) fs.rmSync(emptyGuide, { recursive: true, force: true });
  });

  it('are each read by their handler, for every operation of the OpenAPI document', async () => {
    const doc = (await h.get('/openapi.json')).body;
    const operations: Operation[] = [];
    for (const [apiPath, methods] of Object.entries<Record<string, Schema>>(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        const query = (op.parameters ?? []).filter((p: Schema) => p.in === 'query').map((p: Schema) => ({ name: p.name, schema: resolve(doc, p.schema) }));
        if (query.length > 0) operations.push({ method: method.toUpperCase(), path: apiPath, operationId: op.operationId, query });
      }
    }
    expect(operations.length).toBeGreaterThanOrEqual(27);
    expect(operations.filter((op) => op.query.some((p) => p.name === 'wait')).map((op) => op.operationId).sort()).toEqual([
      'adoptInstance',
      'applyAdoption',
      'applySyncPreview',
      'createSyncPreview',
      'pullDatabase',
      'rollbackToSnapshot',
      'syncInstance',
      'syncRefGuideSource',
      'testNotificationChannel',
      'undoRollback',
    ]);

    const snapshot = await h.post(`/databases/${databaseId}/snapshots`, {});
    expect(snapshot.status).toBe(201);
    const rollback = await h.post(`/databases/${databaseId}/snapshots/${snapshot.body.id}/rollback?wait=true`);
    expect(rollback.body.status).toBe('success');
    let previewId = 0;
    let adoptionId = 0;
    // Path parameters: {id} is the resource of the path's collection.
    const idOf: [string, () => number][] = [
      ['/api/v1/databases/{id}', () => databaseId],
      ['/api/v1/instances/{id}', () => radarr.id],
      ['/api/v1/sync/previews/{id}', () => previewId],
      ['/api/v1/adoptions/{id}', () => adoptionId],
      ['/api/v1/notifications/channels/{id}', () => channelId],
      ['/api/v1/ref-guide/sources/{id}', () => guideSourceId],
    ];
    const pathValue = (op: Operation, name: string): string => {
      if (name === 'id') return String(idOf.find(([prefix]) => op.path.startsWith(prefix))![1]());
      const values: Record<string, string> = {
        databaseId: String(databaseId),
        instanceId: String(radarr.id),
        snapshotId: String(snapshot.body.id),
        rollbackId: String(rollback.body.id),
        refId: '820b09bb9acbfde9c35c71e0e565dad8',
        entityType: op.operationId === 'listResolvedEntities' ? 'naming' : 'qualityProfile',
        name: 'Movies 1080p',
      };
      return encodeURIComponent(values[name]);
    };
    // Sample values by parameter name; enums, booleans and integers come from the schema.
    const byName: Record<string, string> = {
      databaseId: String(databaseId),
      instanceId: String(radarr.id),
      channelId: String(channelId),
      instanceIds: String(radarr.id),
      waitSeconds: '30',
      tag: 'x',
      q: 'x',
      eventId: 'x',
      name: 'Movies 1080p',
      profile: 'Movies 1080p',
      from: '2020-01-01T00:00:00Z',
      to: '2030-01-01T00:00:00Z',
      days: '7',
      format: 'json',
      source: 'sync',
    };
    // Values for one operation, and parameters that cannot be combined (one request per group).
    const perOperation: Record<string, Record<string, string>> = {
      listResolvedEntities: { arrType: 'movie_app', layer: 'resolved' },
      exportEntity: { entityType: 'quality_profile' },
    };
    const groups: Record<string, string[][]> = {
      getConfigHealthTrends: [['days'], ['from', 'to', 'profile']],
      exportConfigHealthTrends: [['days', 'format'], ['from', 'to', 'profile', 'format']],
      getTimeline: [
        ['source', 'scopeKind', 'instanceId', 'arrType', 'status', 'from', 'to', 'q', 'page', 'pageSize'],
        ['databaseId', 'page'],
      ],
    };
    const bodies: Record<string, unknown> = { createSyncPreview: { instanceId: radarr.id }, syncInstance: {}, adoptInstance: { databaseId, sections: ['delayProfiles'], select: false } };
    const sent = new Map<string, Set<string>>();

    subscribe(QUERY_READS_CHANNEL, record);
    for (const op of operations) {
      const parameters = new Map(op.query.map((p) => [p.name, p]));
      for (const group of groups[op.operationId] ?? [op.query.map((p) => p.name)]) {
        const search = new URLSearchParams();
        for (const name of group) {
          const value = perOperation[op.operationId]?.[name] ?? byName[name] ?? sample(parameters.get(name)!.schema);
          if (value === undefined) throw new Error(`${op.operationId}: no sample value for query parameter ${name}`);
          search.set(name, value);
        }
        const url = op.path.replace(/\{(\w+)\}/g, (_, name: string) => pathValue(op, name));
        const res = await h.request(op.method, `${url}?${search}`, bodies[op.operationId]);
        // Valid requests: answered, never refused as invalid (a state the request meets, like a guide without a cache, is 409).
        expect([op.operationId, res.status < 500 && res.status !== 400 && res.status !== 404]).toEqual([op.operationId, true]);
        if (op.operationId === 'createSyncPreview') previewId = res.body.id;
        if (op.operationId === 'adoptInstance') adoptionId = res.body.id;
        const names = sent.get(op.operationId) ?? new Set<string>();
        group.forEach((name) => names.add(name));
        sent.set(op.operationId, names);
      }
    }
    unsubscribe(QUERY_READS_CHANNEL, record);

    for (const op of operations) {
      const documented = op.query.map((p) => p.name).sort();
      expect([op.operationId, [...(sent.get(op.operationId) ?? [])].sort()]).toEqual([op.operationId, documented]);
      const read = documented.filter((name) => reads.get(op.operationId)?.has(name));
      expect([op.operationId, read]).toEqual([op.operationId, documented]);
    }
  });

  describe('wait', () => {
    it('POST /sync/previews?wait=true answers once the preview is generated, and 202 while generating when the bound passes', async () => {
      const ready = await h.post('/sync/previews?wait=true', { instanceId: radarr.id });
      expect(ready.status).toBe(200);
      expect(ready.body).toMatchObject({ instanceId: radarr.id, status: 'ready', generatedAt: expect.any(Number) });
      expect(ready.body.counts.unchanged).toBeGreaterThan(0);

      const slow = radarr.emulator.faults.add({ kind: 'latency', delayMs: 2500, method: 'GET', path: '/customformat', times: 1 });
      try {
        const started = Date.now();
        const bounded = await h.post('/sync/previews?wait=true&waitSeconds=1', { instanceId: radarr.id });
        expect([bounded.status, bounded.body.status]).toEqual([202, 'generating']);
        expect(Date.now() - started).toBeLessThan(2500);
        expect((await previewUntil(h, bounded.body.id, ['ready', 'failed'])).body.status).toBe('ready');
      } finally {
        radarr.emulator.faults.remove(slow.id);
      }

      // A generation that fails is an outcome too.
      const down = radarr.emulator.faults.add({ kind: 'status', status: 401, method: 'GET', path: '/customformat' });
      try {
        const failed = await h.post('/sync/previews?wait=true', { instanceId: radarr.id });
        expect([failed.status, failed.body.status]).toEqual([200, 'failed']);
      } finally {
        radarr.emulator.faults.remove(down.id);
      }
    });

    it('POST /sync/previews/{id}/apply?wait=true and POST /instances/{id}/sync?wait=true answer with the outcome, or 202 at the bound', async () => {
      const preview = await h.post('/sync/previews?wait=true', { instanceId: radarr.id });
      const applied = await h.post(`/sync/previews/${preview.body.id}/apply?wait=true`);
      expect([applied.status, applied.body.status]).toEqual([200, 'applied']);

      radarr.emulator.state.delayProfiles[0].usenetDelay = 777;
      const slow = radarr.emulator.faults.add({ kind: 'latency', delayMs: 2500, method: 'GET', path: '/delayprofile', times: 1 });
      try {
        const bounded = await h.post(`/instances/${radarr.id}/sync?wait=true&waitSeconds=1`, {});
        expect(bounded.status).toBe(202);
        expect(['generating', 'applying']).toContain(bounded.body.status);
        expect((await previewUntil(h, bounded.body.id, ['applied', 'failed'])).body.status).toBe('applied');
      } finally {
        radarr.emulator.faults.remove(slow.id);
      }
      radarr.emulator.state.delayProfiles[0].usenetDelay = 778;
      const synced = await h.post(`/instances/${radarr.id}/sync?wait=true&waitSeconds=60`, {});
      expect([synced.status, synced.body.status, synced.body.counts.update]).toEqual([200, 'applied', 1]);
    });

    it('pull, rollback, guide sync and channel test answer with their outcome', async () => {
      const pulled = await h.post(`/databases/${databaseId}/pull?wait=true`);
      expect([pulled.status, pulled.body.status, pulled.body.cacheStatus]).toEqual([200, 'ready', 'ready']);
      const snapshot = await h.post(`/databases/${databaseId}/snapshots`, { note: 'before nothing' });
      const rolled = await h.post(`/databases/${databaseId}/snapshots/${snapshot.body.id}/rollback?wait=true`);
      expect([rolled.status, rolled.body.status]).toEqual([200, 'success']);
      const guide = await h.post(`/ref-guide/sources/${guideSourceId}/sync?wait=true`);
      expect([guide.status, guide.body.status]).toEqual([200, 'failed']);
      const tested = await h.post(`/notifications/channels/${channelId}/test?wait=true`);
      expect([tested.status, tested.body.status, tested.body.attempts]).toEqual([200, 'delivered', 1]);
      // Not waited for: 202 with the state as recorded.
      expect((await h.post(`/databases/${databaseId}/pull`)).status).toBe(202);
    });

    it('refuses a bound without wait=true, and a bound out of range', async () => {
      const alone = await h.post(`/databases/${databaseId}/pull?waitSeconds=5`);
      expect([alone.status, alone.body.error]).toEqual([400, 'Invalid request: query.waitSeconds needs wait=true']);
      const long = await h.post(`/databases/${databaseId}/pull?wait=true&waitSeconds=241`);
      expect([long.status, long.body.error]).toEqual([400, 'Invalid request: query.waitSeconds must be between 1 and 240']);
      const doc = (await h.get('/openapi.json')).body;
      const parameters = doc.paths['/api/v1/sync/previews'].post.parameters;
      expect(parameters.find((p: Schema) => p.name === 'waitSeconds').schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 240 });
      expect(parameters.find((p: Schema) => p.name === 'wait').schema.description).toContain('202 with the current state');
    });
  });
});

function resolve(doc: Schema, schema: Schema): Schema {
  let s = schema;
  while (s?.$ref) s = doc.components.schemas[s.$ref.split('/').pop()!];
  if (s?.allOf) return Object.assign({}, ...s.allOf.map((part: Schema) => resolve(doc, part)));
  if (s?.anyOf) return resolve(doc, s.anyOf[0]);
  return s ?? {};
}

function sample(schema: Schema): string | undefined {
  if (schema.enum) return String(schema.enum[0]);
  if (schema.type === 'boolean') return 'true';
  if (schema.type === 'integer') return String(schema.minimum ?? 1);
  return undefined;
}
