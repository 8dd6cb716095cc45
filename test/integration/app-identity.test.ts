import { startEmulator, type Emulator } from '../../src/emulators';
import { addInstance, leakMarkers, linkDatabase, previewUntil, replaceApp, SAMPLE_PCD, startMovieRollout, type FleetInstance } from '../helpers/fleet';
import { eventually, startArrgo, type Harness } from '../helpers/harness';

const SECTIONS = ['qualityProfiles', 'delayProfiles', 'mediaManagement'];
const MISMATCH = {
  code: 'appMismatch',
  message: "The app at this instance's URL is not a Radarr instance: it answers as Sonarr (series_app).",
  recoveryAction: 'Point the instance at its Radarr app, or register the app at that URL as a series_app instance.',
  detectedArrType: 'series_app',
};

/**
 * Issue 25, finding 1: configuration of one app family is never written into (or read from) an
 * app of another. Registration refuses it; an app replaced behind a registered URL fails every
 * preview, apply, drift check, canary and compare with appMismatch, and the app sees no write.
 */
describe('the app behind an instance is of the instance type', () => {
  let h: Harness;
  let databaseId: number;
  const instances: FleetInstance[] = [];
  const emulators: Emulator[] = [];

  const radarr = async (name: string) => {
    const instance = await addInstance(h, 'movie_app', { name, databaseId });
    instances.push(instance);
    return instance;
  };
  const noWrites = (emulator: Emulator) => expect(emulator.writes.log).toEqual([]);

  beforeAll(async () => {
    h = await startArrgo();
    databaseId = await linkDatabase(h, 'sample', SAMPLE_PCD);
  });
  afterAll(async () => {
    await h?.close();
    for (const instance of instances) await instance.emulator.close();
    for (const emulator of emulators) await emulator.close();
  });

  it('refuses to register a movie_app instance at an emulated Sonarr or Lidarr, and stores nothing', async () => {
    const apiKey = 'identity-key-0123456789';
    const sonarr = await startEmulator({ app: 'sonarr', apiKey });
    const lidarr = await startEmulator({ app: 'lidarr', apiKey });
    emulators.push(sonarr, lidarr);
    const atSonarr = await h.post('/instances', { name: 'radarr at sonarr', arrType: 'movie_app', baseUrl: sonarr.baseUrl, apiKey });
    expect(atSonarr.status).toBe(400);
    expect(atSonarr.body).toEqual({
      code: 'appMismatch',
      error: 'Invalid request: body.arrType: the app at baseUrl answers as Sonarr (series_app), but arrType is movie_app (Radarr). Give the address of a Radarr app, or use arrType series_app for this one; nothing was stored.',
    });
    // Lidarr answers under another API version: it is still recognised.
    const atLidarr = await h.post('/instances', { name: 'radarr at lidarr', arrType: 'movie_app', baseUrl: lidarr.baseUrl, apiKey });
    expect(atLidarr.status).toBe(400);
    expect(atLidarr.body.error).toContain('answers as Lidarr (music_app), but arrType is movie_app (Radarr)');
    for (const res of [atSonarr, atLidarr]) for (const marker of [apiKey, ...sonarr.leakMarkers, ...lidarr.leakMarkers]) expect(res.text).not.toContain(marker);
    const names = (await h.get('/instances?pageSize=200')).body.items.map((i: { name: string }) => i.name);
    expect(names).not.toContain('radarr at sonarr');
    expect(names).not.toContain('radarr at lidarr');
    noWrites(sonarr);
    noWrites(lidarr);

    // The same app registered with its own type is verified.
    const right = await h.post('/instances', { name: 'sonarr at sonarr', arrType: 'series_app', baseUrl: sonarr.baseUrl, apiKey });
    expect(right.status).toBe(201);
    expect(right.body.verification).toMatchObject({ status: 'verified', appName: 'Sonarr', version: sonarr.version, reason: null });
    await h.del(`/instances/${right.body.id}`);
  });

  it('fails a preview with appMismatch once the app behind the URL is replaced, and writes nothing', async () => {
    const instance = await radarr('swapped before preview');
    const sonarr = await replaceApp(instance, 'sonarr');
    const created = await h.post('/sync/previews', { instanceId: instance.id });
    const failed = await previewUntil(h, created.body.id, ['failed', 'ready']);
    expect(failed.body).toMatchObject({ status: 'failed', failure: MISMATCH });
    // A one-step sync (preview then apply) stops at its preview too.
    const synced = await h.post(`/instances/${instance.id}/sync?wait=true`, {});
    expect(synced.body).toMatchObject({ status: 'failed', failure: MISMATCH });
    for (const marker of leakMarkers(instance)) expect(failed.text + synced.text).not.toContain(marker);
    noWrites(sonarr);
    // The connection test says so too, and the instance is unverified from then on.
    const tested = await h.post(`/instances/${instance.id}/test`);
    expect(tested.body).toEqual({ reachable: true, appName: 'Sonarr', version: sonarr.version, matchesArrType: false, detectedArrType: 'series_app', reason: 'appMismatch', message: MISMATCH.message, recoveryAction: MISMATCH.recoveryAction });
    expect((await h.get(`/instances/${instance.id}`)).body.verification).toMatchObject({ status: 'unverified', reason: 'appMismatch', appName: 'Sonarr' });
  });

  it('refuses to apply a preview taken while the app was Radarr once it is replaced: 409 appMismatch, no write', async () => {
    const instance = await radarr('swapped before apply');
    const created = await h.post('/sync/previews', { instanceId: instance.id });
    const ready = await previewUntil(h, created.body.id, ['ready', 'failed']);
    expect(ready.body.status).toBe('ready');
    expect(ready.body.counts.create).toBeGreaterThan(0);
    const sonarr = await replaceApp(instance, 'sonarr');
    const applied = await h.post(`/sync/previews/${created.body.id}/apply`);
    expect(applied.status).toBe(409);
    expect(applied.body).toEqual({ code: 'appMismatch', error: `Preview ${created.body.id} was not applied and nothing was written: ${MISMATCH.message} ${MISMATCH.recoveryAction}` });
    expect((await h.get(`/sync/previews/${created.body.id}`)).body).toMatchObject({ status: 'failed', failure: MISMATCH });
    noWrites(sonarr);
  });

  it('fails a drift check with app_mismatch (status error), comparing nothing', async () => {
    const instance = await radarr('swapped before drift');
    const before = await h.post(`/drift/${instance.id}/check`);
    expect(before.body.status).toBe('drifted');
    const sonarr = await replaceApp(instance, 'sonarr');
    const checked = await h.post(`/drift/${instance.id}/check`);
    expect(checked.body).toMatchObject({ status: 'error', reason: 'app_mismatch', detectedVersion: before.body.detectedVersion, contentCheckedAt: before.body.contentCheckedAt });
    noWrites(sonarr);
  });

  it('reports app_mismatch for the instance in a compare, beside the instances that answer', async () => {
    const good = await radarr('compare good');
    const swapped = await radarr('compare swapped');
    await replaceApp(swapped, 'sonarr');
    const res = await h.get(`/pcd/${databaseId}/resolved/qualityProfile/${encodeURIComponent('Movies 1080p')}/compare?instanceIds=${good.id},${swapped.id}&includeLive=true`);
    expect(res.status).toBe(200);
    const [first, second] = res.body.instances;
    expect(first).toMatchObject({ instanceId: good.id, supported: true, present: true });
    expect(first.error).toBeUndefined();
    expect(second).toEqual({ instanceId: swapped.id, instanceName: 'compare swapped', arrType: 'movie_app', supported: true, present: true, desired: null, error: 'app_mismatch' });
    noWrites(swapped.emulator);
  });

  it('aborts a rollout whose canary is another app, and fails a target replaced after the gate; neither sees a write', async () => {
    const until = (id: number, statuses: string[]) => eventually(() => h.get(`/canary/rollouts/${id}`), (r) => statuses.includes(r.body.status), 90_000);

    const canary = await radarr('canary swapped');
    const untouched = await radarr('canary swapped target');
    const sonarr = await replaceApp(canary, 'sonarr');
    const started = await startMovieRollout(h, canary, [untouched], { sections: SECTIONS, partialPolicy: 'gate' });
    expect(started.status).toBe(201);
    const aborted = await until(started.body.id, ['aborted', 'awaiting_confirmation']);
    expect(aborted.body).toMatchObject({ status: 'aborted', canaryStatus: 'failed', remainingPreview: null });
    expect(aborted.body.canary.diagnostics.failure).toMatchObject(MISMATCH);
    noWrites(sonarr);
    noWrites(untouched.emulator);

    const [lead, target, other] = [await radarr('lead'), await radarr('target swapped after gate'), await radarr('target kept')];
    const rollout = await startMovieRollout(h, lead, [target, other], { sections: SECTIONS, partialPolicy: 'gate' });
    const gated = await until(rollout.body.id, ['awaiting_confirmation', 'aborted']);
    expect(gated.body.remainingPreview.availability).toBe('available');
    const replaced = await replaceApp(target, 'sonarr');
    await h.post(`/canary/rollouts/${rollout.body.id}/proceed`, { stateToken: gated.body.stateToken });
    const done = await until(rollout.body.id, ['completed', 'failed']);
    expect(done.body.status).toBe('failed');
    const result = (id: number) => done.body.rolloutResults.find((r: { instanceId: number }) => r.instanceId === id);
    expect(result(target.id)).toMatchObject({ status: 'failed', diagnostics: { failure: MISMATCH } });
    expect(result(target.id).summary).toBe(`Not synced: ${MISMATCH.message}`);
    expect(result(other.id).status).toBe('success');
    noWrites(replaced);
    for (const marker of leakMarkers(target)) expect(JSON.stringify(done.body)).not.toContain(marker);
  });
});
