/**
 * Adoption (the inverse of the sync transform): an emulated app's configuration, inverted and
 * planned into a database, syncs back to exactly what the app holds (no change for anything
 * adopted), per app family, into an empty database, the sample PCD and trash-pcd; entities the
 * database has become overrides of the fields that differ only; patterns arrgo's .NET translator
 * refuses are skipped with the reason, never altered.
 */
import type Database from 'better-sqlite3';
import type { RadarrClient } from '../../../src/clients';
import { copyDatabase, planImport, readEntity, replayPcd, type CustomFormatData, type QualityProfileData } from '../../../src/domain/pcd';
import { appSections, planSync, readSyncSource, type LiveState } from '../../../src/domain/sync';
import { planAdoption, scopedScores, type AdoptionPlan } from '../../../src/domain/sync/adopt';
import { HAND_MADE_FORMATS, seedHandTunedRadarr } from '../../helpers/adopt-fixtures';
import { describeWithShared } from '../../helpers/shared-data';
import { TRASH_PCD_PARTS } from '../pcd/helpers';
import { APPS, fetchLive, pending, sampleDatabase, sampleSelection, startApp, syncRound, trashDatabase, type AppUnderTest } from './helpers';

function emptyDatabase(): Database.Database {
  return replayPcd({ base: [] }).resolved;
}

/** The plan's ops written to a copy of `db`, in order (what the user layer replays). */
function applied(db: Database.Database, plan: AdoptionPlan): Database.Database {
  const copy = copyDatabase(db).db;
  for (const { op } of plan.ops) copy.exec(op.sql);
  return copy;
}

/** What a sync of the adopted selection would still change on the app (nothing, when the round trip holds). */
function resync(db: Database.Database, plan: AdoptionPlan, live: LiveState): string[] {
  const after = applied(db, plan);
  const source = readSyncSource(after, plan.arrType, plan.selection);
  expect(source.missing).toEqual([]);
  const sync = planSync({ arrType: plan.arrType, selection: plan.selection, source, live });
  expect(sync.preview.issues.filter((i) => i.severity === 'error')).toEqual([]);
  return pending(sync);
}

function adopt(db: Database.Database, target: AppUnderTest, live: LiveState, settingsName = 'Adopted'): AdoptionPlan {
  return planAdoption(db, { arrType: target.arrType, live, settingsName, sections: appSections(target.arrType) });
}

const names = (entries: { entityType: string; name: string }[], type: string) =>
  entries
    .filter((e) => e.entityType === type)
    .map((e) => e.name)
    .sort();

/** An emulated Radarr seeded by hand (adopt-fixtures) and its live state. */
async function handTunedRadarr(): Promise<{ target: AppUnderTest; live: LiveState }> {
  const target = await startApp('radarr');
  await seedHandTunedRadarr(target.client as RadarrClient);
  return { target, live: await fetchLive(target.client) };
}

describe('a hand-tuned Radarr', () => {
  let target: AppUnderTest;
  let live: LiveState;
  beforeAll(async () => ({ target, live } = await handTunedRadarr()));
  afterAll(() => target.emulator.close());

  it('into an empty database: everything is created, nothing skipped, and a sync of it changes nothing', () => {
    const db = emptyDatabase();
    const plan = adopt(db, target, live);
    // Radarr's default definitions without a preferred-size limit: PCD has no value for it.
    expect(plan.skipped).toEqual([
      {
        entityType: 'movie_app_quality_definitions',
        name: 'Adopted',
        reason: 'left out (PCD has no "no limit" preferred size): Bluray-1080p, Remux-1080p, HDTV-2160p, WEBDL-2160p, WEBRip-2160p, Bluray-2160p, Remux-2160p, BR-DISK, Raw-HD',
      },
    ]);
    expect(plan.overrides).toEqual([]);
    expect(names(plan.creates, 'custom_format')).toEqual(HAND_MADE_FORMATS.map((f) => f.name).sort());
    expect(names(plan.creates, 'quality_profile')).toEqual(['Any', 'HD - 720p/1080p', 'HD-1080p', 'HD-720p', 'My Movies 1080p', 'My Movies 2160p', 'SD', 'Ultra-HD']);
    expect(plan.creates.filter((e) => !['custom_format', 'quality_profile', 'regular_expression'].includes(e.entityType))).toEqual([
      { entityType: 'delay_profile', name: 'Adopted' },
      { entityType: 'movie_app_naming', name: 'Adopted' },
      { entityType: 'movie_app_media_settings', name: 'Adopted' },
      { entityType: 'movie_app_quality_definitions', name: 'Adopted' },
    ]);
    // One regex per distinct pattern (2160p resolution conditions are not patterns), named after format and condition.
    const patterns = HAND_MADE_FORMATS.flatMap((f) => f.specifications.filter((s) => ['ReleaseTitleSpecification', 'ReleaseGroupSpecification', 'EditionSpecification'].includes(s.implementation)));
    expect(names(plan.creates, 'regular_expression')).toHaveLength(new Set(patterns.map((s) => s.fields[0].value)).size);
    expect(plan.ops).toHaveLength(plan.creates.length);
    expect(plan.selection).toMatchObject({ delayProfile: 'Adopted', naming: 'Adopted', mediaSettings: 'Adopted', qualityDefinitions: 'Adopted', namespace: null, deleteUnmanaged: false });
    expect(plan.selection.qualityProfiles).toHaveLength(8);

    const after = applied(db, plan);
    expect(readEntity(after, 'regular_expression', 'My x265: x265')?.data).toMatchObject({ pattern: '[xh][ .]?265|\\bHEVC\\b' });
    const format = readEntity(after, 'custom_format', 'My Modern UHD')!.data as CustomFormatData;
    expect(format.conditions).toEqual([
      { name: 'Recent', type: 'year', arrType: 'movie_app', negate: false, required: false, minYear: 2015, maxYear: null },
      { name: '2160p', type: 'resolution', arrType: 'movie_app', negate: false, required: true, resolution: '2160p' },
    ]);
    expect((readEntity(after, 'custom_format', 'My Small')!.data as CustomFormatData).conditions[0]).toMatchObject({ minBytes: null, maxBytes: 1.5 * 1024 ** 3 });
    expect((readEntity(after, 'custom_format', 'My Not French')!.data as CustomFormatData).conditions[0]).toMatchObject({ language: 'French', exceptLanguage: true });
    const profile = readEntity(after, 'quality_profile', 'My Movies 1080p')!.data as QualityProfileData;
    // PCD order: most preferred first; the group is the upgrade-until item; scores are Radarr's own.
    expect(profile.qualities.slice(0, 5)).toEqual([
      { type: 'quality', name: 'Remux-2160p', enabled: false, upgradeUntil: false },
      { type: 'quality', name: 'Bluray-2160p', enabled: false, upgradeUntil: false },
      { type: 'quality', name: 'WEBDL-2160p', enabled: false, upgradeUntil: false },
      { type: 'quality', name: 'Bluray-1080p', enabled: true, upgradeUntil: false },
      { type: 'group', name: 'WEB 1080p', enabled: true, upgradeUntil: true, members: ['WEBDL-1080p', 'WEBRip-1080p'] },
    ]);
    expect(profile.customFormats.all).toEqual([]);
    expect(profile.customFormats.movie_app).toContainEqual({ name: 'My Tier 1', score: 1800 });
    expect(profile).toMatchObject({ minimumCustomFormatScore: 10, upgradeUntilScore: 2000, upgradeScoreIncrement: 5, languages: [{ name: 'English', type: 'simple' }] });

    expect(resync(db, plan, live)).toEqual([]);
  });

  it('adopting the same app twice: the second plan writes nothing', () => {
    const db = emptyDatabase();
    const first = adopt(db, target, live);
    const second = adopt(applied(db, first), target, live);
    expect(second.ops).toEqual([]);
    expect(second.creates).toEqual([]);
    expect(second.overrides).toEqual([]);
    expect(second.unchanged.length).toBe(first.creates.length - first.creates.filter((c) => c.entityType === 'regular_expression').length);
  });

  it('a format changed on the app becomes an override of the fields that differ, nothing else', () => {
    const db = emptyDatabase();
    const adopted = applied(db, adopt(db, target, live));
    const changed: LiveState = {
      ...live,
      customFormats: live.customFormats!.map((f) =>
        f.name === 'My HDR' ? { ...f, includeCustomFormatWhenRenaming: false, specifications: f.specifications.map((s) => (s.name === 'Not SDR' ? { ...s, negate: false } : s)) } : f,
      ),
    };
    const plan = adopt(adopted, target, changed);
    expect(plan.creates).toEqual([]);
    expect(plan.overrides).toEqual([
      {
        entityType: 'custom_format',
        name: 'My HDR',
        fields: [
          { field: 'includeInRename', type: 'changed', current: true, desired: false },
          { field: 'conditions.Not SDR.negate', type: 'changed', current: true, desired: false },
        ],
      },
    ]);
    expect(plan.ops.map((o) => o.kind)).toEqual(['update']);
    expect(resync(adopted, plan, changed)).toEqual([]);
  });

  it('a pattern the .NET translator refuses: the format is skipped with the reason, its scores too, nothing is altered', () => {
    const refused = '(?<open>a)(?<-open>b)';
    const format = { id: 999, name: 'Balancing', includeCustomFormatWhenRenaming: false, specifications: [{ ...live.customFormats![0].specifications[0], name: 'Balanced', fields: [{ ...live.customFormats![0].specifications[0].fields[0], value: refused }] }] };
    const profiles = live.qualityProfiles!.map((p) => (p.name === 'My Movies 1080p' ? { ...p, formatItems: [...p.formatItems, { format: 999, name: 'Balancing', score: 42 }] } : p));
    const withRefused: LiveState = { ...live, customFormats: [...live.customFormats!, format], qualityProfiles: profiles };
    const plan = adopt(emptyDatabase(), target, withRefused);
    expect(plan.skipped.filter((s) => s.entityType !== 'movie_app_quality_definitions')).toEqual([
      { entityType: 'custom_format', name: 'Balancing', reason: expect.stringMatching(/^condition "Balanced": arrgo cannot evaluate the pattern \(.+\)$/) },
      { entityType: 'quality_profile', name: 'My Movies 1080p', reason: 'score 42 of custom format "Balancing" not adopted: the format is skipped' },
    ]);
    expect(names(plan.creates, 'custom_format')).not.toContain('Balancing');
    expect(plan.ops.some((o) => o.op.sql.includes(refused))).toBe(false);
  });

  it('other things PCD cannot hold are skipped with their reason', () => {
    const odd: LiveState = {
      ...live,
      customFormats: [
        ...live.customFormats!,
        { id: 901, name: ' Padded', includeCustomFormatWhenRenaming: false, specifications: live.customFormats![0].specifications },
        { id: 902, name: 'Unknown spec', includeCustomFormatWhenRenaming: false, specifications: [{ ...live.customFormats![0].specifications[0], implementation: 'FutureSpecification' }] },
        { id: 903, name: 'Twice', includeCustomFormatWhenRenaming: false, specifications: [live.customFormats![0].specifications[0], live.customFormats![0].specifications[0]] },
      ],
    };
    const plan = adopt(emptyDatabase(), target, odd);
    expect(plan.skipped.filter((s) => s.entityType !== 'movie_app_quality_definitions')).toEqual([
      { entityType: 'custom_format', name: ' Padded', reason: 'the name starts or ends with a space, which PCD names cannot' },
      { entityType: 'custom_format', name: 'Unknown spec', reason: 'condition "x265": FutureSpecification has no PCD condition type' },
      { entityType: 'custom_format', name: 'Twice', reason: 'two conditions are named "x265", which PCD cannot hold' },
    ]);
  });

  it('only the requested sections are adopted', () => {
    const plan = planAdoption(emptyDatabase(), { arrType: 'movie_app', live, settingsName: 'Adopted', sections: ['delayProfiles'] });
    expect(plan.creates).toEqual([{ entityType: 'delay_profile', name: 'Adopted' }]);
    expect(plan.selection.qualityProfiles).toEqual([]);
  });
});

describe('a format carrying two families\' conditions of one name ("Extras" and "Extras (Sonarr)")', () => {
  let target: AppUnderTest;
  let live: LiveState;
  beforeAll(async () => {
    target = await startApp('sonarr');
    live = await fetchLive(target.client);
  });
  afterAll(() => target.emulator.close());

  const database = () => {
    const db = emptyDatabase();
    for (const [entityType, data] of [
      ['regular_expression', { name: 'Extras', pattern: 'movie extras', regex101Id: null, description: null, tags: [] }],
      ['regular_expression', { name: 'Extras (series)', pattern: 'series extras', regex101Id: null, description: null, tags: [] }],
      [
        'custom_format',
        {
          name: 'Extras',
          description: null,
          includeInRename: false,
          tags: [],
          tests: [],
          conditions: [
            { name: 'Extras', type: 'release_title', arrType: 'movie_app', negate: false, required: true, regularExpression: 'Extras' },
            { name: 'Extras (Sonarr)', type: 'release_title', arrType: 'series_app', negate: false, required: true, regularExpression: 'Extras (series)' },
          ],
        },
      ],
    ] as const)
      db.exec(planImport(db, { entityType, data: data as unknown as Record<string, unknown> }).sql);
    return db;
  };
  const sonarrWith = (pattern: string): LiveState => ({
    ...live,
    customFormats: [{ id: 1, name: 'Extras', includeCustomFormatWhenRenaming: false, specifications: [{ name: 'Extras', implementation: 'ReleaseTitleSpecification', negate: false, required: true, fields: [{ name: 'value', value: pattern }] }] } as unknown as NonNullable<LiveState['customFormats']>[number]],
  });

  it('matches the Sonarr app\'s "Extras" with the condition it receives under that name; a change keeps the Radarr condition', () => {
    const db = database();
    expect(planAdoption(db, { arrType: 'series_app', live: sonarrWith('series extras'), settingsName: 'Adopted', sections: ['qualityProfiles'] }).unchanged).toContainEqual({ entityType: 'custom_format', name: 'Extras' });
    const changed = planAdoption(db, { arrType: 'series_app', live: sonarrWith('other extras'), settingsName: 'Adopted', sections: ['qualityProfiles'] });
    expect(changed.overrides.map((o) => o.name)).toEqual(['Extras']);
    const after = readEntity(applied(db, changed), 'custom_format', 'Extras')!.data as CustomFormatData;
    expect(after.conditions.map((c) => `${c.name}:${c.arrType}`).sort()).toEqual(['Extras (Sonarr):series_app', 'Extras:movie_app']);
    const series = after.conditions.find((c) => c.arrType === 'series_app') as { regularExpression: string };
    expect(readEntity(applied(db, changed), 'regular_expression', series.regularExpression)!.data.pattern).toBe('other extras');
  });
});

describe.each(APPS)('$app synced from the sample PCD', ({ app }) => {
  let target: AppUnderTest;
  let live: LiveState;
  beforeAll(async () => {
    target = await startApp(app);
    await syncRound(sampleDatabase(), target, sampleSelection(target.arrType));
    live = await fetchLive(target.client);
  });
  afterAll(() => target.emulator.close());

  it('adopted into an empty database, syncs back with no change', () => {
    const db = emptyDatabase();
    const plan = adopt(db, target, live);
    expect(plan.skipped.filter((s) => !s.entityType.endsWith('_quality_definitions') && s.entityType !== 'quality_profile')).toEqual([]);
    // Lidarr's ALAC 24bit has no PCD quality: its default profiles list it (skipped), and so does the
    // synced profile, among the disallowed ones, where a sync would move it (skipped too).
    expect(names(plan.skipped, 'quality_profile')).toEqual(app === 'lidarr' ? ['Any', 'Lossless', 'Music Lossless', 'Standard'] : []);
    expect(plan.creates.length).toBeGreaterThan(5);
    expect(resync(db, plan, live)).toEqual([]);
  });

  it('adopted into the sample PCD it came from: its formats and profile are unchanged (no override)', () => {
    const db = sampleDatabase();
    const plan = adopt(db, target, live, 'Standard');
    const selection = sampleSelection(target.arrType);
    const source = readSyncSource(db, target.arrType, selection);
    for (const f of source.customFormats) expect(plan.unchanged).toContainEqual({ entityType: 'custom_format', name: f.name });
    for (const p of selection.qualityProfiles) expect(plan.unchanged).toContainEqual({ entityType: 'quality_profile', name: p });
    expect(plan.overrides.filter((o) => o.entityType === 'custom_format' || o.entityType === 'quality_profile')).toEqual([]);
    expect(resync(db, plan, live)).toEqual([]);
  });
});

describe.each(APPS)('$app settings tuned by hand', ({ app }) => {
  let target: AppUnderTest;
  let live: LiveState;
  beforeAll(async () => {
    target = await startApp(app);
    live = await fetchLive(target.client);
  });
  afterAll(() => target.emulator.close());

  const NAMING: Record<string, Record<string, unknown>> = {
    radarr: { renameMovies: true, standardMovieFormat: '{Movie Title} ({Release Year}) {Quality Full}', colonReplacementFormat: 'smart' },
    sonarr: { renameEpisodes: true, seasonFolderFormat: 'S{season:00}', colonReplacementFormat: 5, customColonReplacementFormat: ' -', multiEpisodeStyle: 3 },
    lidarr: { renameTracks: true, standardTrackFormat: '{Album Title}/{track:00} {Track Title}', colonReplacementFormat: 4 },
  };

  it.each([
    ['only usenet, bypass above a score', { enableUsenet: true, enableTorrent: false, preferredProtocol: 'usenet' as const, usenetDelay: 120, torrentDelay: 0, bypassIfAboveCustomFormatScore: true, minimumCustomFormatScore: 250 }, 'only_usenet'],
    ['only torrent', { enableUsenet: false, enableTorrent: true, preferredProtocol: 'torrent' as const, usenetDelay: 0, torrentDelay: 45, bypassIfHighestQuality: true }, 'only_torrent'],
    ['both, usenet preferred', { enableUsenet: true, enableTorrent: true, preferredProtocol: 'usenet' as const, usenetDelay: 10, torrentDelay: 20 }, 'prefer_usenet'],
  ])('delay profile %s, naming, media settings and definitions sync back with no change', (_label, delay, protocol) => {
    const tuned: LiveState = {
      ...live,
      delayProfiles: live.delayProfiles!.map((d) => (d.id === 1 ? { ...d, ...delay } : d)),
      naming: { ...live.naming!, ...NAMING[app] },
      mediaManagement: { ...live.mediaManagement!, downloadPropersAndRepacks: 'doNotUpgrade', enableMediaInfo: false },
      qualityDefinitions: live.qualityDefinitions!.map((d, i) => (i === 3 ? { ...d, minSize: 2, maxSize: 50, preferredSize: 30 } : d)),
    };
    const db = emptyDatabase();
    const plan = adopt(db, target, tuned);
    const after = applied(db, plan);
    expect(readEntity(after, 'delay_profile', 'Adopted')!.data).toMatchObject({ preferredProtocol: protocol });
    expect(readEntity(after, `${target.arrType}_media_settings`, 'Adopted')!.data).toEqual({ name: 'Adopted', propersRepacks: 'doNotUpgradeAutomatically', enableMediaInfo: false });
    expect(resync(db, plan, tuned)).toEqual([]);
  });

  if (app === 'lidarr') {
    it('metadata profiles: every one but None, in the app order, syncs back with no change', () => {
      const profiles = live.metadataProfiles!;
      const tuned: LiveState = {
        ...live,
        metadataProfiles: profiles.map((p) => (p.name === 'None' ? p : { ...p, primaryAlbumTypes: p.primaryAlbumTypes.map((t) => ({ ...t, allowed: t.albumType.name !== 'Album' })) })),
      };
      const plan = adopt(emptyDatabase(), target, tuned);
      expect(names(plan.creates, 'music_app_metadata_profile')).toEqual(profiles.filter((p) => p.name !== 'None').map((p) => p.name).sort());
      expect(plan.selection.metadataProfile).toBe(profiles.find((p) => p.name !== 'None')!.name);
      expect(resync(emptyDatabase(), plan, tuned)).toEqual([]);
    });
  }
});

describeWithShared(TRASH_PCD_PARTS, 'adopting into trash-pcd', () => {
  let target: AppUnderTest;
  let live: LiveState;
  beforeAll(async () => ({ target, live } = await handTunedRadarr()));
  afterAll(() => target.emulator.close());

  it('reuses trash-pcd regexes with identical patterns and syncs back with no change', () => {
    const db = trashDatabase();
    const trashRegex = db.prepare('SELECT name, pattern FROM regular_expressions ORDER BY name LIMIT 1').get() as { name: string; pattern: string };
    const withShared: LiveState = {
      ...live,
      customFormats: [
        ...live.customFormats!,
        { id: 950, name: 'Uses a TRaSH pattern', includeCustomFormatWhenRenaming: false, specifications: [{ ...live.customFormats![0].specifications[0], name: 'Shared', fields: [{ ...live.customFormats![0].specifications[0].fields[0], value: trashRegex.pattern }] }] },
      ],
    };
    const plan = adopt(db, target, withShared);
    const after = applied(db, plan);
    expect((readEntity(after, 'custom_format', 'Uses a TRaSH pattern')!.data as CustomFormatData).conditions[0]).toMatchObject({ regularExpression: trashRegex.name });
    expect(names(plan.creates, 'custom_format')).toEqual([...HAND_MADE_FORMATS.map((f) => f.name), 'Uses a TRaSH pattern'].sort());
    expect(resync(db, plan, withShared)).toEqual([]);
  });
});

describe('scopedScores', () => {
  it('gives the app exactly its scores and keeps what every other family had', () => {
    const out = scopedScores(
      { all: [{ name: 'A', score: 1 }, { name: 'B', score: 2 }], movie_app: [{ name: 'C', score: 3 }], series_app: [{ name: 'B', score: 20 }], music_app: [] },
      'movie_app',
      [{ name: 'D', score: 4 }],
    );
    expect(out).toEqual({
      all: [],
      movie_app: [{ name: 'D', score: 4 }],
      series_app: [{ name: 'A', score: 1 }, { name: 'B', score: 20 }],
      music_app: [{ name: 'A', score: 1 }, { name: 'B', score: 2 }],
    });
  });
});
