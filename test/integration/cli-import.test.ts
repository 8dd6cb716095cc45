import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startEmulator, type Emulator } from '../../src/emulators';
import { runCliBinary } from '../helpers/cli';
import { linkDatabase, SAMPLE_PCD } from '../helpers/fleet';
import { eventually, startArrgo, type Harness } from '../helpers/harness';
import { seedAsRecyclarr, type RecyclarrSeed } from '../helpers/recyclarr-seed';
import { describeWithShared, sharedPath } from '../helpers/shared-data';

const GUIDES = ['data', 'trash-guides'];
const FIXTURE = path.resolve(__dirname, '..', 'fixtures', 'import', 'recyclarr.yml');
const GUIDE = (app: string) => sharedPath(...GUIDES, 'docs', 'json', app);
/** What the sample file's sync by Recyclarr left in each app (test/fixtures/import/recyclarr.yml). */
const RECYCLARR_SYNCED: Record<'radarr' | 'sonarr', RecyclarrSeed> = {
  radarr: {
    guideDir: GUIDE('radarr'),
    profileTrashId: 'd1d67249d3890e49bc12e275d989a7e9',
    skipGroups: ['d9cc9a504e5ede6294c8b973aad4f028'],
    addGroupsSelectAll: ['f737e18b5824d6ebb2d57b957ae2fd6c'],
    scores: { '496f355514737f7d83bf7aa4d24f8169': 120 },
    qualityDefinition: { type: 'movie' },
  },
  sonarr: { guideDir: GUIDE('sonarr'), profileTrashId: '72dae194fc92bf828f32cde7744e51a1', qualityDefinition: { type: 'series', preferredRatio: 0.5 } },
};
const KEYS = { radarr: 'import-radarr-key-0123456789abcdef', sonarr: 'import-sonarr-key-0123456789abcdef' };

describeWithShared(GUIDES, 'arrgo import recyclarr (the real binary against the real service and guide)', () => {
  let h: Harness;
  let dir: string;
  let databaseId: number;
  const emulators: Emulator[] = [];
  const arrgo = (args: string[]) =>
    runCliBinary(args, { cwd: dir, env: { ARRGO_URL: h.baseUrl, ARRGO_API_KEY: h.apiKey, NO_COLOR: '1', RADARR_MAIN_KEY: KEYS.radarr, SERIES_MAIN_KEY: KEYS.sonarr } });
  const fixtureLine = async (text: string) => (await readFile(FIXTURE, 'utf8')).split('\n').findIndex((l) => l.includes(text)) + 1;
  const profile = async (name: string) => (await h.get(`/pcd/${databaseId}/entities/quality_profile/${encodeURIComponent(name)}`)).body.entity as { customFormats: Record<string, { name: string; score: number }[]> };
  const scoreOf = (p: { customFormats: Record<string, { name: string; score: number }[]> }, name: string) => Object.values(p.customFormats).flat().find((f) => f.name === name)?.score;

  beforeAll(async () => {
    h = await startArrgo();
    const [radarr, sonarr] = await Promise.all([startEmulator({ app: 'radarr', apiKey: KEYS.radarr }), startEmulator({ app: 'sonarr', apiKey: KEYS.sonarr })]);
    emulators.push(radarr, sonarr);
    await seedAsRecyclarr(radarr.baseUrl, KEYS.radarr, RECYCLARR_SYNCED.radarr);
    await seedAsRecyclarr(sonarr.baseUrl, KEYS.sonarr, RECYCLARR_SYNCED.sonarr);
    databaseId = await linkDatabase(h, 'mine', SAMPLE_PCD);
    for (const arrType of ['movie_app', 'series_app']) {
      const source = (await h.post('/ref-guide/sources', { name: `guide-${arrType}`, origin: { kind: 'local', path: sharedPath(...GUIDES) }, arrType })).body.id;
      await eventually(() => h.get(`/ref-guide/sources/${source}`), (r) => r.body.lastSyncedAt !== null, 60_000);
    }
    dir = await mkdtemp(path.join(os.tmpdir(), 'arrgo-import-'));
    const text = (await readFile(FIXTURE, 'utf8')).replace('http://127.0.0.1:17878/', `${radarr.baseUrl}/`).replace('http://127.0.0.1:18989', sonarr.baseUrl);
    await writeFile(path.join(dir, 'recyclarr.yml'), text);
  }, 180_000);

  afterAll(async () => {
    await Promise.all(emulators.map((e) => e.close()));
    await h?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('has help with examples; a file that is not YAML is refused with its line (exit 1)', async () => {
    for (const command of [['import'], ['import', 'recyclarr'], ['import', 'configarr']]) {
      const help = await arrgo([...command, '--help']);
      expect({ command, code: help.code, example: /\nExamples?:\n {2}\$ arrgo /.test(help.stdout) }).toEqual({ command, code: 0, example: true });
    }
    await writeFile(path.join(dir, 'broken.yml'), 'radarr:\n  movies:\n    base_url: [unclosed\n');
    const run = await arrgo(['import', 'recyclarr', 'broken.yml', '--database', 'mine']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^arrgo: broken\.yml cannot be imported:\nbroken\.yml:\d+:\d+: /);
  });

  it('--dry-run shows the ops and the fleet file and stores nothing', async () => {
    const run = await arrgo(['import', 'recyclarr', 'recyclarr.yml', '--database', 'mine', '--dry-run', '-o', 'json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(out.dryRun).toBe(true);
    expect(out.created).toEqual(expect.arrayContaining([expect.objectContaining({ entityType: 'quality_profile', name: 'HD Bluray + WEB', opId: null }), expect.objectContaining({ entityType: 'custom_format', name: 'TrueHD ATMOS', opId: null })]));
    expect(out.fleet.instances.map((i: { name: string }) => i.name)).toEqual(['movies-main', 'series-main']);
    expect((await h.get(`/pcd/${databaseId}/user-ops`)).body).toEqual([]);
  });

  it('writes the user ops and scores, the fleet file, and reports what is not carried over with its line', async () => {
    const run = await arrgo(['import', 'recyclarr', 'recyclarr.yml', '--database', 'mine', '-f', 'arrgo.yaml']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`recyclarr.yml:${await fixtureLine('media_naming:')}:`);
    expect(run.stdout).toContain(`recyclarr.yml:${await fixtureLine('until_quality:')}:`);
    expect(run.stdout).toMatch(/quality profile House Movies: not in the database/);
    expect(run.stdout).toContain('!secret radarr_main_key became !env RADARR_MAIN_KEY');
    expect(run.stdout).toContain("~ custom_format x265 (HD): the database had it; its conditions for this app family are now the guide's");
    expect(run.stdout).toContain("~ custom_format BR-DISK: the database had it; its conditions for this app family are now the guide's"); // created by the Radarr import
    const hd = await profile('HD Bluray + WEB');
    expect(scoreOf(hd, 'TrueHD ATMOS')).toBe(120); // assign_scores_to's score, not the guide's 5000
    expect(scoreOf(hd, 'ITVX')).toBe(0); // [Streaming Services] UK, added with select_all: the guide gives it no score
    expect(scoreOf(hd, 'BR-DISK')).toBe(-10000); // [Unwanted] Unwanted Formats: a default group of the guide profile
    expect(scoreOf(hd, 'NF')).toBeUndefined(); // [Streaming Services] General: a default group the file skips
    const fleetText = await readFile(path.join(dir, 'arrgo.yaml'), 'utf8');
    expect(fleetText).toContain('apiKey: !env RADARR_MAIN_KEY');
    expect(fleetText).not.toContain(KEYS.radarr);

    const plan = await arrgo(['apply', '-f', 'arrgo.yaml']);
    expect(plan.stderr).toBe('');
    expect(plan.code).toBe(0);
    const again = await arrgo(['plan', '-f', 'arrgo.yaml']);
    expect(again.code).toBe(0);
    const instances = (await h.get('/instances?pageSize=100')).body.items as { name: string }[];
    expect(instances.map((i) => i.name).sort()).toEqual(['movies-main', 'series-main']);
  });

  const preview = async (instance: string, section = 'qualityProfiles') => {
    const run = await arrgo(['sync', 'preview', instance, '--section', section]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    return { hunks: run.stdout.split('\n').filter((l) => l.startsWith('@@')), summary: /: (\d+) to create, (\d+) to update, (\d+) to delete, (\d+) unchanged/.exec(run.stdout)?.slice(1, 4) };
  };

  it('a sync preview of movies-main, which Recyclarr had synced, changes nothing', async () => {
    // The sample database has its own "x265 (HD)": the import merged the guide's Radarr conditions into it (listed as
    // updated), so Radarr gets the guide's format as Recyclarr synced it; every other format, the profile's items, cutoff
    // and scores match too.
    expect(await preview('movies-main')).toEqual({ hunks: [], summary: ['0', '0', '0'] });
    const x265 = (await h.get(`/pcd/${databaseId}/entities/custom_format/${encodeURIComponent('x265 (HD)')}`)).body.entity as { conditions: { name: string; arrType: string }[] };
    // Radarr's and Sonarr's guide conditions (Sonarr's stored suffixed, synced as "x265/HEVC"); the shared "Not 2160p" is the
    // guide's already; the database's own x265 condition (for every app) still applies to Lidarr.
    expect(x265.conditions.map((c) => `${c.name}:${c.arrType}`).sort()).toEqual(['Not 2160p:all', 'x265 (Lidarr):music_app', 'x265/HEVC (Sonarr):series_app', 'x265/HEVC:movie_app']);
  });

  it('a sync preview of series-main, which Recyclarr had synced into the same database, changes nothing; movies-main still none', async () => {
    // BR-DISK, LQ, WEB Tier 01, ... were created by the Radarr import; the Sonarr import merged Sonarr's conditions into them.
    expect(await preview('series-main')).toEqual({ hunks: [], summary: ['0', '0', '0'] });
    expect(await preview('movies-main')).toEqual({ hunks: [], summary: ['0', '0', '0'] });
    const extras = (await h.get(`/pcd/${databaseId}/entities/custom_format/Extras`)).body.entity as { conditions: { name: string; arrType: string }[] };
    // Radarr's and Sonarr's "Extras" differ in pattern: Sonarr's is stored scoped and suffixed, and synced as "Extras".
    expect(extras.conditions.map((c) => `${c.name}:${c.arrType}`).sort()).toEqual(['Extras (Sonarr):series_app', 'Extras:movie_app']);
  });

  it("quality_definition: each instance syncs the guide's quality sizes (Sonarr's at preferred_ratio 0.5), which Recyclarr had set: 0 changes", async () => {
    const fleet = await readFile(path.join(dir, 'arrgo.yaml'), 'utf8');
    expect(fleet).toMatch(/qualityDefinitions: movie\n/);
    expect(fleet).toMatch(/qualityDefinitions: series \(preferred 0\.5\)\n/);
    const series = (await h.get(`/pcd/${databaseId}/entities/series_app_quality_definitions/${encodeURIComponent('series (preferred 0.5)')}`)).body.entity as { entries: { quality: string; minSize: number; maxSize: number; preferredSize: number }[] };
    expect(series.entries.filter((e) => e.quality === 'WEBDL-1080p' || e.quality === 'Remux-1080p')).toEqual([
      { quality: 'WEBDL-1080p', minSize: 15, maxSize: 0, preferredSize: 507.5 }, // the guide's 15..1000 (the limit: no maximum), half way
      { quality: 'Remux-1080p', minSize: 69.1, maxSize: 0, preferredSize: 534.6 }, // 534.55, to the even tenth
    ]);
    for (const instance of ['movies-main', 'series-main']) expect({ instance, ...(await preview(instance, 'mediaManagement')) }).toEqual({ instance, hunks: [], summary: ['0', '0', '0'] });
  });

  it('a second import writes nothing new: every name exists and the scores are already set', async () => {
    const run = await arrgo(['import', 'recyclarr', 'recyclarr.yml', '--database', 'mine', '-o', 'json']);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(out.created).toEqual([]);
    expect(out.updated).toEqual([]);
    expect(out.profileEdits.find((e: { profile: string }) => e.profile === 'HD Bluray + WEB').changed).toBe(false);
  });
});

const CONFIGARR_FIXTURE = path.resolve(__dirname, '..', 'fixtures', 'import', 'configarr.yml');
const CONFIGARR_KEY = 'import-configarr-key-0123456789abcdef';

describeWithShared(GUIDES, 'arrgo import configarr (the real binary against the real service and guide)', () => {
  let h: Harness;
  let dir: string;
  let radarr: Emulator;
  const arrgo = (args: string[]) =>
    runCliBinary(args, { cwd: dir, env: { ARRGO_URL: h.baseUrl, ARRGO_API_KEY: h.apiKey, NO_COLOR: '1', MOVIES_4K_KEY: CONFIGARR_KEY, LIDARR_KEY: 'import-lidarr-key-0123456789abcdef' } });
  const fixtureLine = async (text: string) => (await readFile(CONFIGARR_FIXTURE, 'utf8')).split('\n').findIndex((l) => l.includes(text)) + 1;

  beforeAll(async () => {
    h = await startArrgo();
    radarr = await startEmulator({ app: 'radarr', apiKey: CONFIGARR_KEY });
    // What the sample file's sync by Configarr left: the guide profile with its default groups, the UK streaming
    // group (every member required), and x265 (HD) scored -500 on the profile.
    await seedAsRecyclarr(radarr.baseUrl, CONFIGARR_KEY, {
      guideDir: GUIDE('radarr'),
      profileTrashId: 'd1d67249d3890e49bc12e275d989a7e9',
      addGroupsSelectAll: ['f737e18b5824d6ebb2d57b957ae2fd6c'],
      scores: { dc98083864ea246d05a42df0d05f81cc: -500 },
    });
    await linkDatabase(h, 'mine', SAMPLE_PCD);
    const source = (await h.post('/ref-guide/sources', { name: 'guide-movie_app', origin: { kind: 'local', path: sharedPath(...GUIDES) }, arrType: 'movie_app' })).body.id;
    await eventually(() => h.get(`/ref-guide/sources/${source}`), (r) => r.body.lastSyncedAt !== null, 60_000);
    dir = await mkdtemp(path.join(os.tmpdir(), 'arrgo-import-configarr-'));
    await writeFile(path.join(dir, 'configarr.yml'), (await readFile(CONFIGARR_FIXTURE, 'utf8')).replace('http://127.0.0.1:17879', radarr.baseUrl));
  }, 180_000);

  afterAll(async () => {
    await radarr?.close();
    await h?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('imports and applies; a sync preview of movies-4k, which Configarr had synced, changes nothing; what is not carried over is reported with its line', async () => {
    const run = await arrgo(['import', 'configarr', 'configarr.yml', '--database', 'mine', '-f', 'arrgo.yaml']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const notCarried = run.stdout.split('\n').filter((l) => /^\s+configarr\.yml:\d+:\d+: /.test(l)).map((l) => l.trim().split(': ')[0] + ': ' + l.trim().split(': ')[1]);
    expect(notCarried).toEqual([
      `configarr.yml:${await fixtureLine('trashGuideUrl:')}:1: trashGuideUrl`,
      `configarr.yml:${await fixtureLine('recyclarrConfigUrl:')}:1: recyclarrConfigUrl`,
      `configarr.yml:${await fixtureLine('localCustomFormatsPath:')}:1: localCustomFormatsPath`,
      `configarr.yml:${await fixtureLine('customFormatDefinitions:')}:1: customFormatDefinitions`,
      `configarr.yml:${await fixtureLine('include:')}:5: radarr.movies-4k.include`,
      `configarr.yml:${(await fixtureLine('aaaaaaaa')) - 1}:5: lidarr.music.custom_formats`,
      `configarr.yml:${await fixtureLine('whisparr:')}:1: whisparr`,
    ]);
    expect(run.stdout).toContain('!secret LIDARR_KEY became !env LIDARR_KEY');
    const fleetText = await readFile(path.join(dir, 'arrgo.yaml'), 'utf8');
    expect(fleetText).toContain('apiKey: !env MOVIES_4K_KEY');
    expect(fleetText).not.toContain('plain-text-key');

    const applied = await arrgo(['apply', '-f', 'arrgo.yaml']);
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    const preview = await arrgo(['sync', 'preview', 'movies-4k', '--section', 'qualityProfiles']);
    expect(preview.code).toBe(0);
    expect({ hunks: preview.stdout.split('\n').filter((l) => l.startsWith('@@')), summary: /: (\d+) to create, (\d+) to update, (\d+) to delete/.exec(preview.stdout)?.slice(1, 4) }).toEqual({ hunks: [], summary: ['0', '0', '0'] });
  });
});
