import type { CustomFormatResource } from '../../src/domain/app-resources';
import { addInstance, linkDatabase, previewUntil, sampleSyncConfig, SAMPLE_PCD, type FleetInstance } from '../helpers/fleet';
import { dbKinds } from '../helpers/databases';
import { startArrgo, type Harness } from '../helpers/harness';

/** Two databases on one Radarr: the sample PCD twice, the second with its own Atmos pattern and profile name. */
for (const db of dbKinds()) describe(`several databases per instance, in order (${db})`, () => {
  let h: Harness;
  let one: number;
  let two: number;
  let radarr: FleetInstance;
  const OTHER_ATMOS = '\\bATMOS[ ._-]?X\\b';
  const { databaseId: _first, ...selection } = sampleSyncConfig('movie_app', 0);
  const ordered = (first: number, second: number) => ({
    databases: [first, second].map((databaseId) => ({ databaseId, selection: databaseId === one ? selection : { qualityProfiles: ['Movies Alt'] } })),
  });
  const atmosOnApp = () => radarr.emulator.state.customFormats.filter((cf: { name: string }) => cf.name === 'Atmos');
  const patternOf = (format: CustomFormatResource) => format.specifications!.find((s) => s.name === 'Atmos')!.fields!.find((f) => f.name === 'value')!.value;

  beforeAll(async () => {
    h = await startArrgo({ db });
    one = await linkDatabase(h, 'one', SAMPLE_PCD);
    two = await linkDatabase(h, 'two', SAMPLE_PCD);
    const pattern = await h.patch(`/pcd/${two}/entities/regular_expression/Atmos`, { changes: [{ path: 'pattern', value: OTHER_ATMOS }] });
    expect(pattern.status).toBe(200);
    const renamed = await h.patch(`/pcd/${two}/entities/quality_profile/${encodeURIComponent('Movies 1080p')}`, { changes: [{ path: 'name', value: 'Movies Alt' }] });
    expect(renamed.status).toBe(200);
    radarr = await addInstance(h, 'movie_app', { name: 'radarr two databases', databaseId: one, config: ordered(one, two) });
  });
  afterAll(async () => {
    await h?.close();
    await radarr?.emulator.close();
  });

  it('stores the databases in order, answers the first one as databaseId, and refuses bad lists precisely', async () => {
    const stored = await h.get(`/instances/${radarr.id}/sync-config`);
    expect(stored.body).toMatchObject({ databaseId: one, qualityProfiles: ['Movies 1080p'], naming: 'Standard' });
    expect(stored.body.databases.map((d: { databaseId: number; selection: { qualityProfiles: string[] } }) => [d.databaseId, d.selection.qualityProfiles])).toEqual([
      [one, ['Movies 1080p']],
      [two, ['Movies Alt']],
    ]);
    const cases: [Record<string, unknown>, string][] = [
      [{ databases: [{ databaseId: one, selection: {} }, { databaseId: one, selection: {} }] }, 'body.databases.1.databaseId database ' + one + ' is listed twice'],
      [{ databases: [{ databaseId: one, selection: {} }, { databaseId: 999, selection: {} }] }, 'body.databases.1.databaseId database 999 not found'],
      [{ databases: [{ databaseId: two, selection: { qualityProfiles: ['Movies 1080p'] } }] }, 'body.databases.0.selection.qualityProfiles.0 quality profile "Movies 1080p" not found in database ' + two],
      [{ databaseId: one, databases: [{ databaseId: two, selection: {} }] }, 'either databaseId'],
      [{ databases: [{ databaseId: two, selection: {} }], naming: 'Standard' }, 'put the selection fields inside its entry'],
      [{ databases: Array.from({ length: 9 }, (_, i) => ({ databaseId: i + 1, selection: {} })) }, 'body.databases'],
      [{ databases: [] }, 'body.databases'],
    ];
    for (const [body, message] of cases) {
      const res = await h.put(`/instances/${radarr.id}/sync-config`, body);
      expect([res.status, res.body.error]).toEqual([400, expect.stringContaining(message)]);
    }
    // The second database feeds the instance as much as the first: it cannot be deleted.
    const refused = await h.del(`/databases/${two}`);
    expect([refused.status, refused.body.error]).toEqual([409, expect.stringContaining(`feeds 1 instance (${radarr.id})`)]);
  });

  it("applies the higher database's version of a colliding format, names the collision and the loser, and swapping the order swaps the winner", async () => {
    const created = await h.post('/sync/previews', { instanceId: radarr.id });
    const ready = await previewUntil(h, created.body.id, ['ready', 'failed']);
    expect(ready.body.status).toBe('ready');
    expect(ready.body.databases).toEqual([
      { databaseId: one, name: 'one' },
      { databaseId: two, name: 'two' },
    ]);
    expect(ready.body.collisions).toEqual([
      { entityType: 'customFormat', name: 'Atmos', winner: { databaseId: one, databaseName: 'one' }, losers: [{ databaseId: two, databaseName: 'two' }], kind: 'formatOverride', profile: 'Movies Alt' },
      ...['Cam', "Director's Cut", 'Preferred Groups', 'x265 (HD)'].map((name) => expect.objectContaining({ entityType: 'customFormat', name, kind: 'formatOverride' })),
    ]);
    const origin = (entityType: 'customFormats' | 'qualityProfiles', name: string) => ready.body.qualityProfiles[entityType].find((c: { name: string }) => c.name === name);
    expect(origin('customFormats', 'Atmos')).toMatchObject({ action: 'create', databaseId: one });
    expect(origin('qualityProfiles', 'Movies 1080p')).toMatchObject({ action: 'create', databaseId: one });
    expect(origin('qualityProfiles', 'Movies Alt')).toMatchObject({ action: 'create', databaseId: two });
    expect(ready.body.delayProfiles.profile.databaseId).toBe(one);

    const applied = await h.post(`/sync/previews/${created.body.id}/apply?wait=true`);
    expect(applied.body).toMatchObject({ status: 'applied', failure: null });
    expect(atmosOnApp().map(patternOf)).toEqual(['\\bATMOS\\b']);
    const profiles = radarr.emulator.state.qualityProfiles.map((p: { name: string }) => p.name);
    expect(profiles).toEqual(expect.arrayContaining(['Movies 1080p', 'Movies Alt']));
    // A drift check compares the app with both databases: in sync, the second database's profile managed.
    const drift = await h.post(`/drift/${radarr.id}/check`);
    expect(drift.body.status).toBe('in-sync');
    expect(drift.body.unmanaged.map((u: { name: string }) => u.name)).not.toContain('Movies Alt');
    const atmosId = atmosOnApp()[0].id;
    const postsBefore = radarr.emulator.writes.count('customformat', 'POST');

    const swapped = await h.put(`/instances/${radarr.id}/sync-config`, ordered(two, one));
    expect([swapped.status, swapped.body.databaseId, swapped.body.qualityProfiles]).toEqual([200, two, ['Movies Alt']]);
    const next = await previewUntil(h, (await h.post('/sync/previews', { instanceId: radarr.id })).body.id, ['ready', 'failed']);
    expect(next.body.status).toBe('ready');
    expect(next.body.collisions[0]).toEqual({ entityType: 'customFormat', name: 'Atmos', winner: { databaseId: two, databaseName: 'two' }, losers: [{ databaseId: one, databaseName: 'one' }], kind: 'formatOverride', profile: 'Movies 1080p' });
    const atmos = next.body.qualityProfiles.customFormats.find((c: { name: string }) => c.name === 'Atmos');
    expect(atmos).toMatchObject({ action: 'update', databaseId: two, remoteId: atmosId });
    expect(next.body.qualityProfiles.customFormats.filter((c: { action: string }) => c.action !== 'unchanged').map((c: { name: string }) => c.name)).toEqual(['Atmos']);
    // Drift sees the swap too: Atmos is now drifted from database two's version.
    const swappedDrift = await h.post(`/drift/${radarr.id}/check`);
    expect(swappedDrift.body.drift.map((d: { name: string }) => d.name)).toEqual(['Atmos']);

    expect((await h.post(`/sync/previews/${next.body.id}/apply?wait=true`)).body).toMatchObject({ status: 'applied', failure: null });
    expect(atmosOnApp().map((f: { id: number }) => f.id)).toEqual([atmosId]);
    expect(atmosOnApp().map(patternOf)).toEqual([OTHER_ATMOS]);
    expect(radarr.emulator.writes.count('customformat', 'POST')).toBe(postsBefore);
  });

  it('keeps the single-database body working as the one-element list', async () => {
    const res = await h.put(`/instances/${radarr.id}/sync-config`, sampleSyncConfig('movie_app', one));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ databaseId: one, qualityProfiles: ['Movies 1080p'], databases: [{ databaseId: one, selection: expect.objectContaining({ qualityProfiles: ['Movies 1080p'] }) }] });
    const preview = await previewUntil(h, (await h.post('/sync/previews', { instanceId: radarr.id })).body.id, ['ready', 'failed']);
    expect(preview.body).toMatchObject({ status: 'ready', databases: [{ databaseId: one, name: 'one' }], collisions: [] });
    // Back to database one's Atmos; the profile of database two is no longer synced (unmanaged).
    expect(preview.body.qualityProfiles.customFormats.find((c: { name: string }) => c.name === 'Atmos')).toMatchObject({ action: 'update', databaseId: one });
    expect(preview.body.qualityProfiles.qualityProfiles.find((c: { name: string }) => c.name === 'Movies Alt')).toMatchObject({ category: 'unmanaged', action: 'unchanged' });
    expect(preview.body.qualityProfiles.qualityProfiles.find((c: { name: string }) => c.name === 'Movies Alt').databaseId).toBeUndefined();
    expect((await h.del(`/databases/${two}`)).status).toBe(204);
  });
});
