import type { ArrType } from '../../src/domain/arr-types';
import { addInstance, leakMarkers, linkDatabase, type FleetInstance } from '../helpers/fleet';
import { startArrgo, type Harness } from '../helpers/harness';
import { describeWithShared, sharedPath } from '../helpers/shared-data';

describeWithShared(['data', 'pcd', 'trash-pcd'], 'cross-instance compare of one trash-pcd entity', () => {
  let h: Harness;
  let databaseId: number;
  let profile: string;
  const fleet: Record<string, FleetInstance> = {};

  beforeAll(async () => {
    h = await startArrgo();
    databaseId = await linkDatabase(h, 'trash', sharedPath('data', 'pcd', 'trash-pcd'));
    const parity = await h.get(`/compatibility/parity?databaseId=${databaseId}`);
    const both = (p: { compatibleArrTypes: ArrType[] }) => p.compatibleArrTypes.includes('movie_app') && p.compatibleArrTypes.includes('series_app');
    profile = parity.body.profiles.find(both).name;
    const add = async (key: string, arrType: ArrType, config: Record<string, unknown>) => {
      fleet[key] = await addInstance(h, arrType, { name: key, databaseId, config: { databaseId, ...config } });
    };
    await add('radarr-4k', 'movie_app', { qualityProfiles: [profile], namespace: '4k' });
    await add('radarr-hd', 'movie_app', { qualityProfiles: [], namespace: 'hd' });
    await add('sonarr', 'series_app', { qualityProfiles: [profile], namespace: null });
    await add('lidarr', 'music_app', { qualityProfiles: [] });
    await add('radarr-down', 'movie_app', { qualityProfiles: [profile], namespace: 'down' });
    await fleet['radarr-down'].emulator.close();
  }, 180_000);
  afterAll(async () => {
    await h?.close();
    for (const instance of Object.values(fleet)) await instance.emulator.close().catch(() => undefined);
  });

  const url = (ids: (number | string)[], extra = '') => `/pcd/${databaseId}/resolved/qualityProfile/${encodeURIComponent(profile)}/compare?instanceIds=${ids.join(',')}${extra}`;

  it('gives per-instance transformed payloads with namespaces, unsupported and unreachable instances inline, and diffs against the baseline', async () => {
    const order = ['radarr-4k', 'radarr-hd', 'sonarr', 'lidarr', 'radarr-down'];
    const res = await h.get(url(order.map((k) => fleet[k].id)));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ databaseId, entityType: 'qualityProfile', name: profile });
    const [r4k, rhd, sonarr, lidarr, down] = res.body.instances;
    expect(res.body.instances.map((i: { instanceId: number }) => i.instanceId)).toEqual(order.map((k) => fleet[k].id));

    expect(r4k).toMatchObject({ instanceName: 'radarr-4k', arrType: 'movie_app', supported: true, present: true });
    expect(r4k.error).toBeUndefined();
    expect(r4k.live).toBeUndefined();
    expect(r4k.desired.name).toBe(`${profile} [4k]`);
    expect(r4k.desired.items.length).toBeGreaterThan(0);
    expect(Object.keys(r4k.desired.formatScores).length).toBeGreaterThan(0);

    expect(rhd).toMatchObject({ arrType: 'movie_app', supported: true, present: false });
    expect(rhd.desired.name).toBe(`${profile} [hd]`);
    expect(sonarr).toMatchObject({ arrType: 'series_app', supported: true, present: true });
    expect(sonarr.desired.name).toBe(profile);
    expect(lidarr).toEqual({ instanceId: fleet.lidarr.id, instanceName: 'lidarr', arrType: 'music_app', supported: false, present: false, desired: null, error: 'incompatible' });
    expect(down).toMatchObject({ arrType: 'movie_app', supported: true, present: true, desired: null, error: 'unreachable' });

    // Baseline is the 4K Radarr: the HD Radarr differs only in what the namespace names, Sonarr in the app's own shape.
    expect(res.body.baselineInstanceId).toBe(fleet['radarr-4k'].id);
    expect(res.body.diffs.map((d: { instanceId: number }) => d.instanceId)).toEqual([fleet['radarr-hd'].id, fleet.sonarr.id]);
    const [hdDiff, sonarrDiff] = res.body.diffs;
    expect(hdDiff.changes).toHaveLength(1);
    expect(hdDiff.changes[0]).toEqual({ entityType: 'qualityProfile', name: `${profile} [hd]`, action: 'unchanged', remoteId: null, fields: [] });
    expect(hdDiff.changes[0]).not.toHaveProperty('section');
    expect(hdDiff.changes[0]).not.toHaveProperty('category');
    expect(sonarrDiff.changes[0]).toMatchObject({ entityType: 'qualityProfile', name: profile, action: 'update' });
    expect(sonarrDiff.changes[0].fields.length).toBeGreaterThan(0);
    // Radarr has a WORKPRINT quality that Sonarr lacks: the baseline's value is `current`, the instance's `desired`.
    expect(sonarrDiff.changes[0].fields).toContainEqual({ field: 'items.WORKPRINT', type: 'removed', current: { name: 'WORKPRINT', allowed: false }, desired: null });

    const text = JSON.stringify(res.body);
    for (const marker of Object.values(fleet).flatMap(leakMarkers)) expect(text).not.toContain(marker);
  });

  it('compares a custom format: namespaced payloads, present where a selected profile scores it, incompatible where the transform leaves it out', async () => {
    const profileCompare = await h.get(url([fleet['radarr-4k'].id]));
    const scoredOnRadarr = Object.keys(profileCompare.body.instances[0].desired.formatScores).map((n) => n.replace(/ \[4k\]$/, ''));
    // trash-pcd's profile scores it for Radarr only, and its conditions are Radarr's: the transform leaves it out for Sonarr.
    const format = scoredOnRadarr[0];
    const res = await h.get(`/pcd/${databaseId}/resolved/customFormat/${encodeURIComponent(format)}/compare?instanceIds=${[fleet['radarr-4k'].id, fleet['radarr-hd'].id, fleet.sonarr.id].join(',')}`);
    expect(res.status).toBe(200);
    const [r4k, rhd, sonarr] = res.body.instances;
    expect(r4k).toMatchObject({ supported: true, present: true, desired: { name: `${format} [4k]` } });
    expect(r4k.desired.specifications.length).toBeGreaterThan(0);
    expect(rhd).toMatchObject({ supported: true, present: false, desired: { name: `${format} [hd]` } });
    expect(sonarr).toEqual({ instanceId: fleet.sonarr.id, instanceName: 'sonarr', arrType: 'series_app', supported: false, present: false, desired: null, error: 'incompatible' });
    expect(res.body.diffs).toEqual([{ instanceId: fleet['radarr-hd'].id, changes: [{ entityType: 'customFormat', name: `${format} [hd]`, action: 'unchanged', remoteId: null, fields: [] }] }]);
  });

  it('refuses 9 ids, duplicate ids, unknown ids and entity types it cannot compare', async () => {
    const nine = await h.get(url([1, 2, 3, 4, 5, 6, 7, 8, 9]));
    expect(nine.status).toBe(400);
    expect(nine.body.error).toMatch(/instanceIds.*at most 8/);
    const dup = await h.get(url([fleet.sonarr.id, fleet.sonarr.id]));
    expect(dup.status).toBe(400);
    expect(dup.body.error).toMatch(/instanceIds.*duplicate instance id/);
    const unknown = await h.get(url([fleet.sonarr.id, 999_999]));
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatch(/instanceIds.*999999/);
    expect((await h.get(url(['x']))).status).toBe(400);
    expect((await h.get(url([]))).status).toBe(400);
    expect((await h.get(`/pcd/${databaseId}/resolved/qualityProfile/${encodeURIComponent(profile)}/compare`)).status).toBe(400);
    const missing = await h.get(`/pcd/${databaseId}/resolved/qualityProfile/No%20Such%20Profile/compare?instanceIds=${fleet.sonarr.id}`);
    expect(missing.status).toBe(404);
    expect((await h.get(`/pcd/999/resolved/qualityProfile/x/compare?instanceIds=${fleet.sonarr.id}`)).status).toBe(404);
    const regex = await h.get(`/pcd/${databaseId}/resolved/regularExpression/x/compare?instanceIds=${fleet.sonarr.id}`);
    expect(regex.status).toBe(400);
    expect(regex.body.error).toMatch(/cannot be compared/);
  });

  it('includeLive shows the raw app payload (the one the sync ledger binds, renamed by hand too), and a second live fetch inside the interval is rate-limited inline', async () => {
    const synced = await h.post(`/instances/${fleet['radarr-4k'].id}/sync?wait=true`, {});
    expect(synced.body).toMatchObject({ status: 'applied' });
    const onApp = fleet['radarr-4k'].emulator.state.qualityProfiles.find((p: { name: string }) => p.name === `${profile} [4k]`)!;
    // Renamed by hand on the app since: the sync ledger still binds it by its id, as a sync would.
    onApp.name = 'Renamed by hand';
    const first = await h.get(url([fleet['radarr-4k'].id, fleet.sonarr.id], '&includeLive=true'));
    onApp.name = `${profile} [4k]`;
    expect(first.status).toBe(200);
    const [r4k, sonarr] = first.body.instances;
    expect(r4k.live).toMatchObject({ id: onApp.id, name: 'Renamed by hand' });
    expect(r4k.error).toBeUndefined();
    expect(sonarr.live).toBeUndefined(); // never synced: the app has no such profile
    expect(sonarr.error).toBeUndefined();

    const second = await h.get(url([fleet['radarr-4k'].id], '&includeLive=true'));
    expect(second.status).toBe(200);
    expect(second.body.instances[0]).toMatchObject({ error: 'rate-limited', supported: true });
    expect(second.body.instances[0].live).toBeUndefined();
    expect(second.body.instances[0].desired.name).toBe(`${profile} [4k]`);
  });

  // Runs last: it spends the process's compare budget (20 a minute).
  it('rate-limits compare requests as a whole with 429 and Retry-After', async () => {
    const statuses: number[] = [];
    let limited;
    for (let i = 0; i < 21 && !limited; i++) {
      const res = await h.get(url([fleet.lidarr.id]));
      if (res.status === 429) limited = res;
      else statuses.push(res.status);
    }
    expect(limited).toBeDefined();
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect(limited!.body.error).toMatch(/at most 20 per 60 s/);
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });
});
