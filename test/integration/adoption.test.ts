import { startEmulator, type Emulator } from '../../src/emulators';
import { emptyPcd, HAND_MADE_FORMATS, HAND_MADE_NAMING, HAND_TUNED_API_KEY, handTunedRadarrInstance } from '../helpers/adopt-fixtures';
import { postgresAvailable } from '../helpers/databases';
import { linkDatabase } from '../helpers/fleet';
import { eventually, startArrgo, type Harness } from '../helpers/harness';
import { describeWithShared, sharedPath } from '../helpers/shared-data';

/**
 * Adopting an emulated Radarr, hand-tuned with 30 custom formats, two profiles and custom naming,
 * through the real API, worker, Temporal and database: the preview lists exactly what the instance
 * has, the apply writes revertible user ops after one snapshot and selects them, a following sync
 * preview shows no change, and reverting the ops restores the database's resolved state hash.
 */

const DEFAULT_PROFILES = ['Any', 'HD - 720p/1080p', 'HD-1080p', 'HD-720p', 'SD', 'Ultra-HD'];
const OWN_PROFILES = ['My Movies 1080p', 'My Movies 2160p'];

type Entry = { entityType: string; name: string };
const namesOf = (entries: Entry[], type: string) =>
  entries
    .filter((e) => e.entityType === type)
    .map((e) => e.name)
    .sort();

/** The current resolved state hash of a database: a manual snapshot records it. */
async function stateHash(h: Harness, databaseId: number): Promise<string> {
  const snapshot = await h.post(`/databases/${databaseId}/snapshots`, { note: 'state hash' });
  expect(snapshot.status).toBe(201);
  return snapshot.body.stateHash;
}

/** Adopts, applies, checks the sync preview and reverts; returns the adoption after the apply. */
async function adoptApplyRevert(h: Harness, instanceId: number, databaseId: number, expectedDatabaseOverrides: (overrides: Entry[]) => void) {
  const preview = await h.post(`/instances/${instanceId}/adopt?wait=true`, { databaseId });
  expect(preview.status).toBe(200);
  expect(preview.body.status).toBe('ready');
  const adopted = [...preview.body.creates, ...preview.body.overrides, ...preview.body.unchanged];
  // Exactly what the instance has: its 30 formats, its 8 profiles, its settings.
  expect(namesOf(adopted, 'custom_format')).toEqual(HAND_MADE_FORMATS.map((f) => f.name).sort());
  expect(namesOf(adopted, 'quality_profile')).toEqual([...DEFAULT_PROFILES, ...OWN_PROFILES].sort());
  for (const type of ['delay_profile', 'movie_app_naming', 'movie_app_media_settings', 'movie_app_quality_definitions']) expect(namesOf(adopted, type)).toEqual(['Hand-tuned Radarr']);
  expect(preview.body.skipped).toEqual([
    { entityType: 'movie_app_quality_definitions', name: 'Hand-tuned Radarr', reason: expect.stringMatching(/^left out \(PCD has no "no limit" preferred size\): Bluray-1080p, /) },
  ]);
  expectedDatabaseOverrides(preview.body.overrides);
  expect(preview.body.counts).toEqual({ create: preview.body.creates.length, override: preview.body.overrides.length, skipped: 1, unchanged: preview.body.unchanged.length });
  expect(preview.body.selection.qualityProfiles).toHaveLength(8);

  const before = await stateHash(h, databaseId);
  const applied = await h.post(`/adoptions/${preview.body.id}/apply?wait=true`);
  expect(applied.status).toBe(200);
  expect(applied.body).toMatchObject({ status: 'applied', failure: null });
  expect(applied.body.appliedOpIds).toHaveLength(preview.body.creates.length + preview.body.overrides.length);
  const snapshot = await h.get(`/databases/${databaseId}/snapshots/${applied.body.snapshotId}`);
  expect(snapshot.body.stateHash).toBe(before);

  // Applying again is refused; the instance now syncs the adopted entities from this database.
  const again = await h.post(`/adoptions/${preview.body.id}/apply`);
  expect([again.status, again.body.error]).toEqual([409, `Adoption ${preview.body.id} is already applied`]);
  const config = await h.get(`/instances/${instanceId}/sync-config`);
  expect(config.body).toMatchObject({ databaseId, naming: 'Hand-tuned Radarr', delayProfile: 'Hand-tuned Radarr' });

  const sync = await h.post('/sync/previews?wait=true', { instanceId });
  expect(sync.body.status).toBe('ready');
  expect(sync.body.counts).toMatchObject({ create: 0, update: 0, delete: 0 });
  const formats = sync.body.qualityProfiles.customFormats.filter((c: { category?: string }) => c.category !== 'unmanaged');
  expect(formats.length).toBeGreaterThan(10);
  // The app's custom naming is the database's now, as the app holds it.
  const naming = await h.get(`/pcd/export?databaseId=${databaseId}&entityType=movie_app_naming&name=${encodeURIComponent('Hand-tuned Radarr')}`);
  expect(naming.body.data).toEqual({
    name: 'Hand-tuned Radarr',
    rename: true,
    movieFormat: HAND_MADE_NAMING.standardMovieFormat,
    movieFolderFormat: HAND_MADE_NAMING.movieFolderFormat,
    replaceIllegalCharacters: true,
    colonReplacementFormat: 'spaceDash',
  });
  const user = await h.get(`/pcd/${databaseId}/user-ops`);
  expect(user.body.filter((op: { id: number }) => applied.body.appliedOpIds.includes(op.id)).map((op: { outcome: { status: string } }) => op.outcome.status)).toEqual(
    applied.body.appliedOpIds.map(() => 'applied'),
  );

  // Reverting the adoption's ops (newest first) gives back the database as it was.
  for (const opId of [...applied.body.appliedOpIds].reverse()) expect((await h.del(`/pcd/${databaseId}/user-ops/${opId}`)).status).toBe(204);
  expect(await stateHash(h, databaseId)).toBe(before);
  return applied.body;
}

const engines = postgresAvailable() ? (['sqlite', 'postgresql'] as const) : (['sqlite'] as const);

describe.each(engines)('adopting a hand-tuned Radarr into an empty database (%s)', (db) => {
  let h: Harness;
  let instance: { id: number; emulator: Emulator };
  let databaseId: number;
  beforeAll(async () => {
    h = await startArrgo({ db });
    databaseId = await linkDatabase(h, 'empty', emptyPcd());
    instance = await handTunedRadarrInstance(h, 'Hand-tuned Radarr');
  });
  afterAll(async () => {
    await h?.close();
    await instance?.emulator.close();
  });

  it('previews exactly what the instance has, applies it once, syncs back with no change, and reverts to the previous state', async () => {
    const adoption = await adoptApplyRevert(h, instance.id, databaseId, (overrides) => expect(overrides).toEqual([]));
    const listed = await h.get(`/instances/${instance.id}/adoptions`);
    expect(listed.body.map((a: { id: number; status: string }) => [a.id, a.status])).toEqual([[adoption.id, 'applied']]);
    const read = await h.get(`/adoptions/${adoption.id}`);
    expect(read.body).toMatchObject({ id: adoption.id, status: 'applied', instanceName: 'Hand-tuned Radarr', databaseId, select: true });
    expect(read.body.creates).toContainEqual({ entityType: 'regular_expression', name: 'My x265: x265' });
  });

  it('refuses bad input with a precise error, and a stale or discarded adoption', async () => {
    const cases: [string, unknown, number, string][] = [
      [`/instances/${instance.id}/adopt`, { databaseId: 999999 }, 404, 'Database 999999 not found'],
      ['/instances/999999/adopt', { databaseId }, 404, 'Instance 999999 not found'],
      [`/instances/${instance.id}/adopt`, { databaseId, sections: ['metadataProfiles'] }, 400, 'Invalid request: body.sections.0 metadataProfiles is not a section of movie_app instances'],
    ];
    for (const [url, body, status, error] of cases) {
      const r = await h.post(url, body);
      expect([r.status, r.body.error]).toEqual([status, error]);
    }
    const unknownField = await h.post(`/instances/${instance.id}/adopt`, { databaseId, everything: true });
    expect(unknownField.status).toBe(400);
    expect(unknownField.body.error).toMatch(/everything/);
    expect((await h.get('/adoptions/999999')).body).toEqual({ error: 'Adoption 999999 not found' });
    const noInstance = await h.get('/instances/999999/adoptions');
    expect([noInstance.status, noInstance.body]).toEqual([404, { error: 'Instance 999999 not found' }]);
    const badSections = await h.post(`/instances/${instance.id}/adopt`, { databaseId, sections: [] });
    expect(badSections.status).toBe(400);
    expect(badSections.body.error).toMatch(/sections/);
    expect((await h.post('/adoptions/999999/apply')).status).toBe(404);

    // The database moves after the preview: the apply is refused and nothing is written.
    const preview = await h.post(`/instances/${instance.id}/adopt?wait=true`, { databaseId, sections: ['delayProfiles'] });
    expect(preview.body).toMatchObject({ status: 'ready', creates: [{ entityType: 'delay_profile', name: 'Hand-tuned Radarr' }] });
    const imported = await h.post('/pcd/import', {
      databaseId,
      layer: 'user',
      entityType: 'delay_profile',
      data: { name: 'Elsewhere', preferredProtocol: 'prefer_usenet', usenetDelay: 0, torrentDelay: 0, bypassIfHighestQuality: false, bypassIfAboveCustomFormatScore: false, minimumCustomFormatScore: null },
    });
    expect(imported.status).toBe(200);
    const opsBefore = (await h.get(`/pcd/${databaseId}/user-ops`)).body.length;
    const stale = await h.post(`/adoptions/${preview.body.id}/apply`);
    expect([stale.status, stale.body.error]).toEqual([409, `Adoption ${preview.body.id} is stale: database ${databaseId} changed since the preview; start a new adoption`]);
    expect((await h.get(`/pcd/${databaseId}/user-ops`)).body.length).toBe(opsBefore);

    // A fresh one can be discarded; then it can no longer be applied.
    const fresh = await h.post(`/instances/${instance.id}/adopt?wait=true`, { databaseId, sections: ['delayProfiles'], select: false });
    const discarded = await h.del(`/adoptions/${fresh.body.id}`);
    expect([discarded.status, discarded.body.status]).toEqual([200, 'discarded']);
    const late = await h.post(`/adoptions/${fresh.body.id}/apply`);
    expect([late.status, late.body.error]).toEqual([409, `Adoption ${fresh.body.id} is discarded: only a ready adoption can be applied or discarded`]);
  });

  it('asks the app who it is first: a Sonarr behind the Radarr instance fails the adoption with appMismatch', async () => {
    const port = instance.emulator.port;
    await instance.emulator.close();
    instance.emulator = await startEmulator({ app: 'sonarr', apiKey: HAND_TUNED_API_KEY, port });
    const adoption = await h.post(`/instances/${instance.id}/adopt?wait=true`, { databaseId });
    expect(adoption.body).toMatchObject({ status: 'failed', failure: { code: 'appMismatch', detectedArrType: 'series_app' }, creates: [] });
  });
});

describeWithShared(['data', 'pcd', 'trash-pcd'], 'adopting a hand-tuned Radarr into trash-pcd', () => {
  let h: Harness;
  let instance: { id: number; emulator: Emulator };
  let databaseId: number;
  beforeAll(async () => {
    h = await startArrgo();
    databaseId = await linkDatabase(h, 'trash', sharedPath('data', 'pcd', 'trash-pcd'));
    instance = await handTunedRadarrInstance(h, 'Hand-tuned Radarr');
  });
  afterAll(async () => {
    await h?.close();
    await instance?.emulator.close();
  });

  it('previews exactly what the instance has, syncs back with no change after the apply, and reverts to the previous state hash', async () => {
    const adoption = await adoptApplyRevert(h, instance.id, databaseId, (overrides) => {
      // Only entities trash-pcd has under the same name can be overrides.
      for (const o of overrides) expect(['quality_profile', 'custom_format', 'regular_expression']).toContain(o.entityType);
    });
    // Hand-made patterns trash-pcd already holds are reused, not created again.
    const regexes = await eventually(() => h.get(`/pcd/${databaseId}/resolved/regularExpression`), (r) => r.status === 200);
    expect(regexes.body.entities.length).toBeGreaterThan(100);
    expect(adoption.status).toBe('applied');
  });
});
