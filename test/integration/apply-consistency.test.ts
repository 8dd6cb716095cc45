import { addInstance, leakMarkers, linkDatabase, previewUntil, SAMPLE_PCD, type FleetInstance } from '../helpers/fleet';
import { eventually, startArrgo, type Harness } from '../helpers/harness';

/** What an apply reports agrees everywhere: preview, run record, failure codes and drift. */
describe('apply outcomes agree across preview, history and drift', () => {
  let h: Harness;
  let databaseId: number;
  const instances: FleetInstance[] = [];
  beforeAll(async () => {
    h = await startArrgo();
    databaseId = await linkDatabase(h, 'sample', SAMPLE_PCD);
  });
  afterAll(async () => {
    await h?.close();
    for (const instance of instances) await instance.emulator.close();
  });
  const add = async (name: string) => {
    const instance = await addInstance(h, 'movie_app', { name, databaseId });
    instances.push(instance);
    return instance;
  };

  it('names the cause of an executionFailed apply and records what was written before it stopped', async () => {
    const radarr = await add('rejecting radarr');
    radarr.emulator.faults.add({ kind: 'status', status: 400, method: 'PUT', path: '/config/naming/*' });
    const synced = await h.post(`/instances/${radarr.id}/sync?wait=true`, {});
    expect(synced.body.status).toBe('failed');
    const written = radarr.emulator.writes.total();
    expect(written).toBeGreaterThan(5);
    const preview = await h.get(`/sync/previews/${synced.body.id}`);
    expect(preview.body.failure).toMatchObject({ code: 'executionFailed', cause: 'rejected' });
    expect(preview.body.failure.message).toMatch(new RegExp(`^The apply run did not complete successfully: The app instance rejected the request\\. ${written} of \\d+ changes were written before it stopped; the run is recorded as partial\\.$`));
    for (const marker of leakMarkers(radarr)) expect(preview.text).not.toContain(marker);

    const history = await h.get(`/sync-history?instanceId=${radarr.id}`);
    expect(history.body.items).toHaveLength(1);
    const run = history.body.items[0];
    expect(run).toMatchObject({ status: 'partial', failureCount: 1, entityOutcomeCount: written, error: preview.body.failure.message });
    // The custom formats and profiles went in: that section ran, though the naming did not.
    expect(run.sectionsRun).toBeGreaterThanOrEqual(1);
    expect(run.sectionsRun).toBeLessThan(run.sectionsAttempted.length);
  });

  it('reports an unreadable app response as invalidResponse everywhere', async () => {
    const radarr = await add('garbled radarr');
    radarr.emulator.faults.add({ kind: 'malformed', method: 'GET', path: '/system/status' });
    const tested = await h.post(`/instances/${radarr.id}/test`);
    expect(tested.body).toMatchObject({ reachable: false, reason: 'invalidResponse', message: 'The app instance returned a response that could not be read.' });
    radarr.emulator.faults.clear();
    radarr.emulator.faults.add({ kind: 'malformed', method: 'GET', path: '/customformat' });
    const created = await h.post('/sync/previews', { instanceId: radarr.id });
    const failed = await previewUntil(h, created.body.id, ['failed', 'ready']);
    expect(failed.body.sectionOutcomes.find((o: { section: string }) => o.section === 'qualityProfiles').failure.code).toBe('invalidResponse');
  });

  it('refreshes the stored drift result after an apply changed the instance', async () => {
    const radarr = await add('drifting radarr');
    const before = await h.post(`/drift/${radarr.id}/check`);
    expect(before.body.status).toBe('drifted');
    expect(before.body.counts.missing).toBeGreaterThan(0);
    const synced = await h.post(`/instances/${radarr.id}/sync?wait=true`, {});
    expect(synced.body.status).toBe('applied');
    // No check was asked for: the apply itself refreshes the result.
    const after = await eventually(() => h.get(`/drift/${radarr.id}`), (r) => r.body.status !== 'drifted', 30_000);
    expect(after.body).toMatchObject({ status: 'in-sync', counts: { drifted: 0, missing: 0 } });
    expect(Date.parse(after.body.checkedAt)).toBeGreaterThan(Date.parse(before.body.checkedAt));
  });
});
