import { newRunRecord } from '../../src/activities/sync-activities';
import type { ArrType } from '../../src/domain/arr-types';
import { SyncPreview, SyncRun } from '../../src/persistence/entities';
import { addInstance, leakMarkers, linkDatabase, previewUntil, SAMPLE_PCD, type FleetInstance } from '../helpers/fleet';
import { eventually, startArrgo, type Harness } from '../helpers/harness';
import { describeWithShared, sharedPath } from '../helpers/shared-data';

describe('sync previews and applies through the workflows', () => {
  let h: Harness;
  let databaseId: number;
  const fleet: Partial<Record<ArrType, FleetInstance>> = {};

  beforeAll(async () => {
    h = await startArrgo();
    databaseId = await linkDatabase(h, 'sample', SAMPLE_PCD);
    for (const arrType of ['movie_app', 'series_app', 'music_app'] as ArrType[]) {
      fleet[arrType] = await addInstance(h, arrType, { name: `${arrType} main`, databaseId });
    }
  });
  afterAll(async () => {
    await h?.close();
    for (const instance of Object.values(fleet)) await instance?.emulator.close();
  });

  it('validates and stores the per-instance sync configuration', async () => {
    const radarr = fleet.movie_app!;
    const stored = await h.get(`/instances/${radarr.id}/sync-config`);
    expect(stored.body).toMatchObject({ instanceId: radarr.id, databaseId, qualityProfiles: ['Movies 1080p'], delayProfile: 'Standard', namespace: null, deleteUnmanaged: false });
    const cases: [Record<string, unknown>, string][] = [
      [{ databaseId, qualityProfiles: ['Nope'] }, 'body.qualityProfiles.0 quality profile "Nope" not found'],
      [{ databaseId, qualityProfiles: ['Music Lossless'] }, 'is not compatible with movie_app'],
      [{ databaseId, metadataProfile: 'Studio Albums' }, 'body.metadataProfile applies to music_app instances only'],
      [{ databaseId, naming: 'Missing' }, 'body.naming movie_app_naming "Missing" not found'],
      [{ databaseId: 999 }, 'body.databaseId database 999 not found'],
      [{ databaseId, namespace: '[bad]' }, 'body.namespace'],
      [{ qualityProfiles: [] }, 'body.databaseId is required'],
    ];
    for (const [body, message] of cases) {
      const res = await h.put(`/instances/${radarr.id}/sync-config`, body);
      expect([res.status, res.body.error]).toEqual([400, expect.stringContaining(message)]);
    }
    expect((await h.get('/instances/9999/sync-config')).status).toBe(404);
  });

  it('previews then applies the sample PCD to Radarr, Sonarr and Lidarr; a new preview shows everything unchanged', async () => {
    for (const instance of Object.values(fleet) as FleetInstance[]) {
      const created = await h.post('/sync/previews', { instanceId: instance.id });
      expect(created.status).toBe(202);
      expect(created.body).toMatchObject({ instanceId: instance.id, status: 'generating', arrType: instance.arrType });
      const ready = await previewUntil(h, created.body.id, ['ready', 'failed']);
      expect(ready.body.status).toBe('ready');
      expect(ready.body.generatedAt).toEqual(expect.any(Number));
      expect(ready.body.counts.create + ready.body.counts.update).toBeGreaterThan(0);
      expect(ready.body.qualityProfiles.customFormats.length).toBeGreaterThan(0);
      const managed = ready.body.qualityProfiles.qualityProfiles.filter((c: { category?: string }) => c.category !== 'unmanaged');
      expect(managed).toEqual([expect.objectContaining({ entityType: 'qualityProfile', action: 'create', remoteId: null, fields: [] })]);
      // The app's own default profiles are reported as unmanaged and left alone.
      expect(ready.body.qualityProfiles.qualityProfiles.filter((c: { category?: string }) => c.category === 'unmanaged').every((c: { action: string }) => c.action === 'unchanged')).toBe(true);
      expect(ready.body.delayProfiles.profile).toMatchObject({ entityType: 'delayProfile', remoteId: 1 });
      expect(ready.body.sectionOutcomes.every((o: { failure: unknown }) => o.failure === null)).toBe(true);
      if (instance.arrType === 'music_app') expect(ready.body.metadataProfiles.profile).toMatchObject({ entityType: 'metadataProfile' });
      else expect(ready.body.metadataProfiles).toBeNull();

      const applied = await h.post(`/sync/previews/${created.body.id}/apply?wait=true`);
      expect(applied.status).toBe(200);
      expect(applied.body).toMatchObject({ status: 'applied', failure: null, runId: expect.any(Number) });
      // The preview's run: what the console shows as the apply's outcome.
      const run = await h.get(`/sync-history/${applied.body.runId}`);
      expect(run.body).toMatchObject({ id: applied.body.runId, previewId: created.body.id, instanceId: instance.id, status: 'success', failureCount: 0, finishedAt: expect.any(String) });
      expect(run.body.entityOutcomeCount).toBeGreaterThan(0);
      expect(instance.emulator.writes.count('customformat', 'POST')).toBe(ready.body.counts.create - 1 - (instance.arrType === 'music_app' ? 1 : 0));
      expect(instance.emulator.writes.count('qualityprofile', 'POST')).toBe(1);

      const again = await h.post('/sync/previews', { instanceId: instance.id });
      const second = await previewUntil(h, again.body.id, ['ready', 'failed']);
      expect(second.body.counts).toEqual({ create: 0, update: 0, delete: 0, unchanged: ready.body.counts.create + ready.body.counts.update + ready.body.counts.unchanged });
      for (const change of [...second.body.qualityProfiles.customFormats, ...second.body.qualityProfiles.qualityProfiles]) expect(change.action).toBe('unchanged');
    }
    const history = await h.get('/sync-history?status=success');
    expect(history.body.totalRecords).toBe(3);
    expect(history.body.items[0]).toMatchObject({ trigger: 'manual', status: 'success', failureCount: 0 });
    // Outcomes are counted per write confirmed by the app (a bulk quality-definition write is one).
    expect(history.body.items.every((i: { entityOutcomeCount: number; entityChangeCount: number }) => i.entityOutcomeCount > 0 && i.entityChangeCount > 0)).toBe(true);
  });

  it('syncs in one step, and finds sync workflows by their search attributes', async () => {
    const lidarr = fleet.music_app!;
    lidarr.emulator.state.delayProfiles[0].usenetDelay = 999;
    const synced = await h.post(`/instances/${lidarr.id}/sync?wait=true`, {});
    expect(synced.status).toBe(200);
    expect(synced.body).toMatchObject({ status: 'applied', counts: { update: 1 } });
    expect(synced.body.delayProfiles.profile.fields).toEqual([{ field: 'usenetDelay', type: 'changed', current: 999, desired: expect.any(Number) }]);
    // Visibility is eventually consistent: the last search-attribute update may take a moment.
    const query = `ArrgoKind = 'sync' AND ArrgoInstanceIds = '${lidarr.id}' AND ArrgoArrType = 'music_app' AND ArrgoTrigger = 'manual' AND ArrgoSyncStatus = 'applied' AND TaskQueue = '${h.taskQueue}'`;
    const found = await eventually(async () => {
      const ids: string[] = [];
      for await (const wf of h.service.temporal.client.workflow.list({ query })) ids.push(wf.workflowId);
      return ids;
    }, (ids) => ids.length >= 2);
    expect(found.length).toBeGreaterThanOrEqual(2);
  });

  it('refuses to apply an expired preview, or one whose instance changed since, with code stale', async () => {
    const sonarr = fleet.series_app!;
    const short = await h.post('/sync/previews', { instanceId: sonarr.id, ttlSeconds: 1 });
    await previewUntil(h, short.body.id, ['expired']);
    const expired = await h.post(`/sync/previews/${short.body.id}/apply`);
    expect(expired.status).toBe(409);
    expect(expired.body).toMatchObject({ code: 'stale', error: expect.stringContaining('stale') });

    const preview = await h.post('/sync/previews', { instanceId: sonarr.id });
    await previewUntil(h, preview.body.id, ['ready']);
    sonarr.emulator.state.delayProfiles[0].torrentDelay = 7;
    const moved = await h.post(`/sync/previews/${preview.body.id}/apply`);
    expect(moved.status).toBe(409);
    expect(moved.body.code).toBe('stale');
    const after = await h.get(`/sync/previews/${preview.body.id}`);
    expect(after.body).toMatchObject({ status: 'expired', failure: { code: 'stale' } });

    const applied = await h.get(`/sync/previews?instanceId=${sonarr.id}&status=applied`);
    const again = await h.post(`/sync/previews/${applied.body.items[0].id}/apply`);
    expect(again.status).toBe(409);
    expect(again.body.code).toBeUndefined();
    expect((await h.post('/sync/previews/99999/apply')).status).toBe(404);
  });

  it('ends the run an apply recorded before its workflow task was lost, when the retried apply is refused stale', async () => {
    const sonarr = fleet.series_app!;
    const preview = await h.post('/sync/previews', { instanceId: sonarr.id });
    await previewUntil(h, preview.body.id, ['ready']);
    // What an accepted apply leaves when its worker dies before the workflow task completes: the run
    // recorded (startSyncRun is a local activity), which the history does not have. (The chaos soak met it
    // with the apply request already past the API's check of the preview, as here.)
    const em = h.service.orm.em.fork();
    const stored = await em.findOneOrFail(SyncPreview, { id: preview.body.id }, { exclude: ['plan'] });
    const orphan = em.create(SyncRun, newRunRecord(stored, { trigger: 'manual', rolloutId: null, workflowId: stored.workflowId! }));
    await em.flush();

    // The app changes meanwhile (another preview applied), so the retried apply is refused.
    sonarr.emulator.state.delayProfiles[0].torrentDelay = 11;
    const retried = await h.post(`/sync/previews/${preview.body.id}/apply`);
    expect([retried.status, retried.body.code]).toEqual([409, 'stale']);
    const run = await eventually(() => h.get(`/sync-history/${orphan.id}`), (r) => r.body.status !== 'running');
    expect(run.body).toMatchObject({ id: orphan.id, status: 'failed', finishedAt: expect.any(String) });
    expect((await h.get(`/sync/previews/${preview.body.id}`)).body).toMatchObject({ status: 'expired', failure: { code: 'stale' } });
  });

  it('applies two previews of one instance one at a time: the second, computed against the same state, is refused stale and writes nothing', async () => {
    const sonarr = fleet.series_app!;
    sonarr.emulator.state.delayProfiles[0].torrentDelay = 13;
    const previews = await Promise.all([0, 1].map(() => h.post('/sync/previews', { instanceId: sonarr.id })));
    for (const preview of previews) expect((await previewUntil(h, preview.body.id, ['ready'])).body.counts).toMatchObject({ create: 0, update: 1, delete: 0 });
    const putsBefore = sonarr.emulator.writes.count('delayprofile', 'PUT');
    // The first write is slow, so the other apply is accepted (its check of the app finds what both
    // previews saw) while that write is in flight: the race the chaos soak met with its two sync lanes.
    const slow = sonarr.emulator.faults.add({ kind: 'latency', delayMs: 1500, method: 'PUT', path: '/delayprofile/*', times: 1 });
    try {
      const applies = await Promise.all(previews.map((preview) => h.post(`/sync/previews/${preview.body.id}/apply?wait=true`)));
      const outcomes = applies.map((a) => [a.status, a.body.status, a.body.failure?.code ?? null]).sort();
      expect(outcomes).toEqual([
        [200, 'applied', null],
        [200, 'failed', 'stale'],
      ]);
      expect(sonarr.emulator.writes.count('delayprofile', 'PUT') - putsBefore).toBe(1);
      const refused = applies.find((a) => a.body.status === 'failed')!;
      expect((await h.get(`/sync-history/${refused.body.runId}`)).body).toMatchObject({ status: 'failed', entityOutcomeCount: 0 });
    } finally {
      sonarr.emulator.faults.remove(slow.id);
    }
    expect(sonarr.emulator.state.delayProfiles[0].torrentDelay).not.toBe(13);
  });

  it.each([
    ['401', { kind: 'status', status: 401 }, 'unauthorized'],
    ['403', { kind: 'status', status: 403 }, 'unauthorized'],
    ['404', { kind: 'status', status: 404 }, 'notFound'],
    ['422', { kind: 'status', status: 422 }, 'rejected'],
    ['503', { kind: 'status', status: 503 }, 'serverError'],
    ['malformed JSON', { kind: 'malformed' }, 'invalidResponse'],
    ['hang past the timeout', { kind: 'hang' }, 'timeout'],
    ['connection reset', { kind: 'reset' }, 'unreachable'],
  ])('turns a %s from the app into failure evidence %s without leaking', async (_label, fault, code) => {
    const radarr = fleet.movie_app!;
    const id = radarr.emulator.faults.add({ ...(fault as object), method: 'GET', path: '/customformat' } as never);
    try {
      const created = await h.post('/sync/previews', { instanceId: radarr.id });
      const failed = await previewUntil(h, created.body.id, ['failed', 'ready']);
      expect(failed.body.status).toBe('failed');
      expect(failed.body.failure).toMatchObject({ code: 'sectionErrors' });
      const outcome = failed.body.sectionOutcomes.find((o: { section: string }) => o.section === 'qualityProfiles');
      expect(outcome.failure).toMatchObject({ code, message: expect.any(String), recoveryAction: expect.any(String) });
      expect(failed.body.sectionOutcomes.find((o: { section: string }) => o.section === 'delayProfiles').failure).toBeNull();
      for (const marker of leakMarkers(radarr)) expect(failed.text).not.toContain(marker);
    } finally {
      radarr.emulator.faults.remove(id.id);
    }
  });

  it('reports an unreachable instance', async () => {
    const gone = await addInstance(h, 'movie_app', { name: 'gone radarr', databaseId });
    await gone.emulator.close();
    const created = await h.post('/sync/previews', { instanceId: gone.id });
    const failed = await previewUntil(h, created.body.id, ['failed']);
    expect(failed.body.sectionOutcomes[0].failure.code).toBe('unreachable');
    for (const marker of leakMarkers(gone)) expect(failed.text).not.toContain(marker);
  });

  it('records a failed apply: a rejected write is not retried, and history shows the run', async () => {
    const radarr = fleet.movie_app!;
    radarr.emulator.state.delayProfiles[0].usenetDelay = 4242;
    radarr.emulator.state.naming.standardMovieFormat = '{Movie Title}';
    const id = radarr.emulator.faults.add({ kind: 'status', status: 400, method: 'PUT', path: '/config/naming/*' });
    try {
      const synced = await h.post(`/instances/${radarr.id}/sync?wait=true`, {});
      expect(synced.body).toMatchObject({ status: 'failed', failure: { code: 'executionFailed' } });
      expect(synced.body.failure.message).toContain('rejected the request');
      for (const marker of leakMarkers(radarr)) expect(synced.text).not.toContain(marker);
      const refused = radarr.emulator.writes.log.filter((w: { path: string; applied: boolean }) => w.path.includes('/config/naming') && !w.applied);
      expect(refused).toHaveLength(1); // 4xx: no retry
      const history = await h.get(`/sync-history?instanceId=${radarr.id}&status=partial`);
      expect(history.body.items[0]).toMatchObject({ failureCount: 1, error: expect.stringContaining('rejected'), entityOutcomeCount: 1 });
    } finally {
      radarr.emulator.faults.remove(id.id);
    }
  });

  it('retries a 5xx with backoff and completes', async () => {
    const sonarr = fleet.series_app!;
    sonarr.emulator.state.delayProfiles[0].usenetDelay = 31;
    const id = sonarr.emulator.faults.add({ kind: 'status', status: 503, method: 'PUT', path: '/delayprofile/*', times: 2 });
    try {
      const synced = await h.post(`/instances/${sonarr.id}/sync?wait=true`, {});
      expect(synced.body).toMatchObject({ status: 'applied', failure: null });
      expect(sonarr.emulator.writes.log.filter((w: { path: string }) => w.path.startsWith('/api/v3/delayprofile')).length).toBeGreaterThanOrEqual(3);
    } finally {
      sonarr.emulator.faults.remove(id.id);
    }
  });

  it('forgets an instance\'s configuration, drift and health when it is deleted, keeping its history by name', async () => {
    const extra = await addInstance(h, 'movie_app', { name: 'to delete', databaseId });
    await h.post(`/instances/${extra.id}/sync?wait=true`, {});
    await h.post(`/drift/${extra.id}/check`);
    expect((await h.del(`/instances/${extra.id}`)).status).toBe(204);
    expect((await h.get(`/instances/${extra.id}/sync-config`)).status).toBe(404);
    expect((await h.get(`/drift/${extra.id}`)).status).toBe(404);
    const history = await h.get('/sync-history?q=to%20delete');
    expect(history.body.items[0]).toMatchObject({ instanceId: null, instanceName: 'to delete', status: 'success' });
    await extra.emulator.close();
  });

  it('refuses to unlink a database that feeds instances', async () => {
    const res = await h.del(`/databases/${databaseId}`);
    expect(res.status).toBe(409);
    expect(res.body.error).toContain('feeds');
  });

  it('validates preview requests', async () => {
    expect((await h.post('/sync/previews', { instanceId: 'x' })).body.error).toContain('body.instanceId');
    expect((await h.post('/sync/previews', { instanceId: fleet.movie_app!.id, sections: ['metadataProfiles'] })).body.error).toContain('body.sections.0 metadataProfiles is not a section of movie_app');
    expect((await h.post('/sync/previews', { instanceId: 424242 })).status).toBe(404);
    await h.patch(`/instances/${fleet.movie_app!.id}`, { enabled: false });
    expect((await h.post('/sync/previews', { instanceId: fleet.movie_app!.id })).body.error).toContain('is disabled');
    await h.patch(`/instances/${fleet.movie_app!.id}`, { enabled: true });
    const eventuallyListed = await eventually(() => h.get('/sync/previews?pageSize=2'), (r) => r.body.items.length === 2);
    expect(eventuallyListed.body.hasNext).toBe(true);
  });
});

describeWithShared(['data', 'pcd', 'trash-pcd'], 'trash-pcd profiles synced to Radarr and Sonarr', () => {
  let h: Harness;
  let databaseId: number;
  const instances: FleetInstance[] = [];

  beforeAll(async () => {
    h = await startArrgo();
    databaseId = await linkDatabase(h, 'trash', sharedPath('data', 'pcd', 'trash-pcd'));
  });
  afterAll(async () => {
    await h?.close();
    for (const instance of instances) await instance.emulator.close();
  });

  it.each([['movie_app'], ['series_app']] as [ArrType][])('previews, applies and re-previews as unchanged on %s', async (arrType) => {
    const parity = await h.get(`/compatibility/parity?databaseId=${databaseId}`);
    const compatible = parity.body.profiles.filter((p: { compatibleArrTypes: string[] }) => p.compatibleArrTypes.includes(arrType)).map((p: { name: string }) => p.name);
    expect(compatible.length).toBeGreaterThanOrEqual(3);
    const qualityProfiles = compatible.slice(0, 4);
    const instance = await addInstance(h, arrType, { name: `trash ${arrType}`, databaseId, config: { databaseId, qualityProfiles, namespace: 'trash' } });
    instances.push(instance);
    const synced = await h.post(`/instances/${instance.id}/sync?wait=true`, {});
    expect(synced.body).toMatchObject({ status: 'applied', failure: null });
    expect(synced.body.counts.create).toBeGreaterThan(qualityProfiles.length);
    const names = instance.emulator.state.qualityProfiles.map((p: { name: string }) => p.name);
    for (const name of qualityProfiles) expect(names).toContain(`${name} [trash]`);
    const again = await h.post('/sync/previews', { instanceId: instance.id });
    const after = await previewUntil(h, again.body.id, ['ready']);
    expect(after.body.counts).toMatchObject({ create: 0, update: 0, delete: 0 });
    const profileNames = after.body.qualityProfiles.qualityProfiles.filter((c: { category?: string }) => !c.category).map((c: { name: string }) => c.name);
    expect(profileNames.sort()).toEqual([...qualityProfiles].sort()); // display names: namespace stripped
  });
});
