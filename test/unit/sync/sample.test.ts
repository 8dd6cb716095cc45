/**
 * The sample PCD synced to emulated Radarr, Sonarr and Lidarr: every payload is accepted, the app
 * ends up holding exactly what the PCD says, and a second preview shows every entity unchanged.
 */
import type { LidarrClient, RadarrQualityProfileResource, SonarrClient } from '../../../src/clients';
import { previewChanges, type SyncPlan } from '../../../src/domain/sync';
import { APPS, pending, sampleDatabase, sampleSelection, startApp, summary, syncRound, type AppUnderTest } from './helpers';

const UNMANAGED_RADARR_SONARR = ['Any', 'SD', 'HD-720p', 'HD-1080p', 'Ultra-HD', 'HD - 720p/1080p'].map(
  (name) => `qualityProfiles/qualityProfile/${name} unchanged (unmanaged)`,
);

const EXPECTED_FIRST: Record<string, string[]> = {
  radarr: [
    'qualityProfiles/customFormat/Atmos create',
    'qualityProfiles/customFormat/Cam create',
    "qualityProfiles/customFormat/Director's Cut create",
    'qualityProfiles/customFormat/Preferred Groups create',
    'qualityProfiles/customFormat/x265 (HD) create',
    'qualityProfiles/qualityProfile/Movies 1080p create',
    ...UNMANAGED_RADARR_SONARR,
    'delayProfiles/delayProfile/Standard update',
    'mediaManagement/naming/Standard update',
    'mediaManagement/qualityDefinition/WEBDL-1080p update',
    'mediaManagement/qualityDefinition/Bluray-1080p update',
    'mediaManagement/qualityDefinition/Remux-1080p update',
    'mediaManagement/mediaSettings/Standard update',
  ],
  sonarr: [
    'qualityProfiles/customFormat/HDR create',
    'qualityProfiles/customFormat/Not English create',
    'qualityProfiles/customFormat/Preferred Groups create',
    'qualityProfiles/customFormat/Season Pack create',
    'qualityProfiles/customFormat/x265 (HD) create',
    'qualityProfiles/qualityProfile/Series 1080p create',
    ...UNMANAGED_RADARR_SONARR,
    'delayProfiles/delayProfile/Standard update',
    'mediaManagement/naming/Standard update',
    'mediaManagement/qualityDefinition/WEBDL-1080p update',
    'mediaManagement/qualityDefinition/Bluray-1080p update',
    'mediaManagement/qualityDefinition/Bluray-1080p Remux update',
    // The tweak sets preferAndUpgrade, Sonarr's default; enableMediaInfo is on by default.
    'mediaManagement/mediaSettings/Standard unchanged',
  ],
  lidarr: [
    'qualityProfiles/customFormat/FLAC 24bit create',
    'qualityProfiles/customFormat/Music Groups create',
    'qualityProfiles/customFormat/Vinyl create',
    'qualityProfiles/qualityProfile/Music Lossless create',
    'qualityProfiles/qualityProfile/Any unchanged (unmanaged)',
    'qualityProfiles/qualityProfile/Lossless unchanged (unmanaged)',
    'qualityProfiles/qualityProfile/Standard unchanged (unmanaged)',
    'delayProfiles/delayProfile/Standard update',
    'mediaManagement/naming/Standard update',
    'mediaManagement/qualityDefinition/MP3-320 update',
    'mediaManagement/qualityDefinition/ALAC update',
    'mediaManagement/qualityDefinition/FLAC update',
    'mediaManagement/qualityDefinition/FLAC 24bit update',
    'mediaManagement/mediaSettings/Standard unchanged',
    'metadataProfiles/metadataProfile/Studio Albums create',
  ],
};

describe.each(APPS)('sample PCD -> $app', ({ app, arrType }) => {
  let target: AppUnderTest;
  let first: SyncPlan;
  let second: SyncPlan;

  beforeAll(async () => {
    target = await startApp(app);
    ({ first, second } = await syncRound(sampleDatabase(), target, sampleSelection(arrType)));
  });
  afterAll(() => target.emulator.close());

  it('previews the expected changes, with no issue', () => {
    expect(summary(first)).toEqual(EXPECTED_FIRST[app]);
    expect(first.preview.issues).toEqual([]);
    expect(first.preview.sectionOutcomes.every((o) => !o.skipped)).toBe(true);
    const counts = { create: 0, update: 0, delete: 0, unchanged: 0 };
    for (const line of EXPECTED_FIRST[app]) counts[line.split(' ').filter((w) => ['create', 'update', 'delete', 'unchanged'].includes(w))[0] as keyof typeof counts]++;
    expect(first.preview.counts).toEqual(counts);
  });

  it('shapes every SyncChange as the spec does (no section on preview entries, remoteId null only for creates)', () => {
    for (const { change } of previewChanges(first.preview)) {
      expect(change.section).toBeUndefined();
      expect(change.remoteId === null).toBe(change.action === 'create');
      if (change.action !== 'update') expect(change.fields).toEqual([]);
      else expect(change.fields.length).toBeGreaterThan(0);
    }
  });

  it('plans writes in dependency order: custom formats before profiles, settings after, nothing deleted', () => {
    const kinds = first.plan.steps.map((s) => s.kind);
    const lastFormat = kinds.lastIndexOf('customFormat');
    expect(lastFormat).toBeLessThan(kinds.indexOf('qualityProfile'));
    expect(first.plan.steps.some((s) => s.op === 'delete')).toBe(false);
    expect(new Set(first.plan.steps.map((s) => s.id)).size).toBe(first.plan.steps.length);
  });

  it('every write was accepted by the app', () => {
    expect(target.emulator.writes.log.length).toBe(first.plan.steps.length);
    expect(target.emulator.writes.log.filter((w) => !w.applied)).toEqual([]);
  });

  it('a second preview shows every entity unchanged and plans nothing', () => {
    expect(pending(second)).toEqual([]);
    expect(second.plan.steps).toEqual([]);
    expect(second.preview.counts.create + second.preview.counts.update + second.preview.counts.delete).toBe(0);
    expect(second.preview.counts.unchanged).toBe(first.preview.counts.create + first.preview.counts.update + first.preview.counts.unchanged);
  });

  it('sets the delay profile, keeping id 1 global (no tags, order kept)', () => {
    const profile = target.emulator.state.delayProfiles.find((p) => p.id === 1)!;
    expect(profile).toEqual({
      id: 1,
      enableUsenet: true,
      enableTorrent: true,
      preferredProtocol: 'usenet',
      usenetDelay: 0,
      torrentDelay: 120,
      bypassIfHighestQuality: true,
      bypassIfAboveCustomFormatScore: false,
      minimumCustomFormatScore: 0,
      order: 2147483647,
      tags: [],
    });
  });
});

describe('sample PCD payload details', () => {
  it('Radarr: conditions, enums, groups, cutoff, language, scores and settings', async () => {
    const target = await startApp('radarr');
    try {
      await syncRound(sampleDatabase(), target, sampleSelection('movie_app'));
      const { state } = target.emulator;
      const format = (name: string) => state.customFormats.find((f) => f.name === name)!;
      const specs = (name: string) =>
        format(name).specifications.map((s) => [s.name, s.implementation, s.negate, s.required, Object.fromEntries(s.fields.map((f) => [f.name, f.value]))]);
      expect(specs('Cam')).toEqual([
        ['Cam Rip', 'ReleaseTitleSpecification', false, false, { value: '\\b(CAM|HDCAM|TS|TELESYNC)\\b' }],
        ['Not Bluray', 'SourceSpecification', true, true, { value: 9 }],
      ]);
      expect(specs('x265 (HD)')).toEqual([
        ['x265', 'ReleaseTitleSpecification', false, true, { value: '[xh][ ._-]?265|\\bHEVC\\b|\\bH\\.?265\\b' }],
        ['Not 2160p', 'ResolutionSpecification', true, true, { value: 2160 }],
      ]);
      expect(specs("Director's Cut")).toEqual([['Edition', 'EditionSpecification', false, true, { value: "\\bDirector'?s[ ._-]Cut\\b" }]]);
      // Sample Group B is a Sonarr condition: left out silently.
      expect(specs('Preferred Groups')).toEqual([['Sample Group A', 'ReleaseGroupSpecification', false, false, { value: '^(SampleA)$' }]]);
      expect(format('Atmos').includeCustomFormatWhenRenaming).toBe(true);

      const profile = (await target.client.listQualityProfiles()).find((p) => p.name === 'Movies 1080p') as RadarrQualityProfileResource;
      const top = profile.items.slice(-6).map((i) => (i.quality ? [i.quality.name, i.allowed] : [i.id, i.name, i.items.map((m) => m.quality!.name), i.allowed]));
      expect(top).toEqual([
        ['CAM', false],
        ['DVD-R', true],
        ['Bluray-720p', true],
        [1000, 'WEB 1080p', ['WEBRip-1080p', 'WEBDL-1080p'], true],
        ['Bluray-1080p', true],
        ['Remux-1080p', false],
      ]);
      expect(profile.items.slice(0, -6).every((i) => i.quality && !i.allowed)).toBe(true);
      expect(profile.cutoff).toBe(7);
      expect(profile.language).toEqual({ id: -2, name: 'Original' });
      expect([profile.upgradeAllowed, profile.minFormatScore, profile.cutoffFormatScore, profile.minUpgradeFormatScore]).toEqual([true, 0, 1000, 1]);
      const scores = Object.fromEntries(profile.formatItems.map((f) => [f.name, f.score]));
      expect(scores).toEqual({ Atmos: 100, Cam: -10000, "Director's Cut": 25, 'Preferred Groups': 400, 'x265 (HD)': -500 });
      // Unscored profiles list every format with 0.
      expect((await target.client.listQualityProfiles()).find((p) => p.name === 'Any')!.formatItems.map((f) => f.score)).toEqual([0, 0, 0, 0, 0]);

      const naming = await target.client.getNamingConfig();
      expect(naming).toMatchObject({
        renameMovies: true,
        standardMovieFormat: '{Movie CleanTitle} ({Release Year}) {edition-{Edition Tags}} [{Quality Full}]{-Release Group}',
        movieFolderFormat: '{Movie CleanTitle} ({Release Year})',
        replaceIllegalCharacters: true,
        colonReplacementFormat: 'spaceDash',
      });
      const media = await target.client.getMediaManagementConfig();
      expect([media.downloadPropersAndRepacks, media.enableMediaInfo, media.recycleBinCleanupDays]).toEqual(['doNotPrefer', true, 7]);
      const sizes = Object.fromEntries(
        (await target.client.listQualityDefinitions()).filter((d) => ['Bluray-1080p', 'WEBDL-1080p', 'Remux-1080p'].includes(d.quality.name)).map((d) => [d.quality.name, [d.minSize, d.maxSize ?? null, d.preferredSize]]),
      );
      // A PCD maximum of 0 is "no limit".
      expect(sizes).toEqual({ 'WEBDL-1080p': [15, 400, 250], 'Bluray-1080p': [50, 450, 350], 'Remux-1080p': [100, null, 390] });
    } finally {
      await target.emulator.close();
    }
  });

  it('Sonarr: language, release type, remux names and the custom colon replacement', async () => {
    const target = await startApp('sonarr');
    try {
      await syncRound(sampleDatabase(), target, sampleSelection('series_app'));
      const client = target.client as SonarrClient;
      const { state } = target.emulator;
      const spec = (format: string) => state.customFormats.find((f) => f.name === format)!.specifications.map((s) => [s.implementation, s.negate, s.fields.map((f) => f.value)]);
      expect(spec('Not English')).toEqual([['LanguageSpecification', false, [1, true]]]);
      expect(spec('Season Pack')).toEqual([['ReleaseTypeSpecification', false, [3]]]);
      // Both release groups apply to Sonarr (one "all", one "sonarr").
      expect(spec('Preferred Groups')).toEqual([
        ['ReleaseGroupSpecification', false, ['^(SampleA)$']],
        ['ReleaseGroupSpecification', false, ['^(SampleB)$']],
      ]);
      const profile = (await client.listQualityProfiles()).find((p) => p.name === 'Series 1080p')!;
      expect('language' in profile).toBe(false);
      const group = profile.items.find((i) => i.id === 1000)!;
      expect(profile.cutoff).toBe(1000);
      expect(group.name).toBe('WEB 1080p');
      expect(Object.fromEntries(profile.formatItems.map((f) => [f.name, f.score]))).toEqual({
        HDR: 50,
        'Not English': -1000,
        'Preferred Groups': 250,
        'Season Pack': 15,
        'x265 (HD)': -500,
      });
      expect(profile.minUpgradeFormatScore).toBe(10);
      const remux = (await client.listQualityDefinitions()).find((d) => d.quality.name === 'Bluray-1080p Remux')!;
      expect([remux.minSize, remux.maxSize ?? null, remux.preferredSize]).toEqual([80, null, 290]);
      const naming = await client.getNamingConfig();
      expect([naming.renameEpisodes, naming.colonReplacementFormat, naming.multiEpisodeStyle, naming.seasonFolderFormat, naming.specialsFolderFormat]).toEqual([
        true,
        4,
        5,
        'Season {season:00}',
        'Specials',
      ]);
    } finally {
      await target.emulator.close();
    }
  });

  it('Lidarr: groups of audio qualities, no upgrade increment, metadata profile by type ids', async () => {
    const target = await startApp('lidarr');
    try {
      await syncRound(sampleDatabase(), target, sampleSelection('music_app'));
      const client = target.client as LidarrClient;
      const profile = (await client.listQualityProfiles()).find((p) => p.name === 'Music Lossless')!;
      expect('minUpgradeFormatScore' in profile).toBe(false);
      expect(profile.items.slice(-3).map((i) => (i.quality ? [i.quality.name, i.allowed] : [i.id, i.name, i.items.map((m) => m.quality!.name), i.allowed]))).toEqual([
        ['MP3-320', false],
        [1000, 'Lossless', ['ALAC', 'FLAC'], true],
        ['FLAC 24bit', true],
      ]);
      expect(profile.cutoff).toBe(1000);
      expect(profile.cutoffFormatScore).toBe(300);
      // Lidarr's ALAC 24bit is not a PCD quality: present, disallowed.
      expect(profile.items.find((i) => i.quality?.name === 'ALAC 24bit')).toMatchObject({ allowed: false });
      const metadata = target.emulator.state.metadataProfiles.find((p) => p.name === 'Studio Albums')!;
      expect(metadata.primaryAlbumTypes.filter((t) => t.allowed).map((t) => [t.albumType.id, t.albumType.name])).toEqual([
        [0, 'Album'],
        [1, 'EP'],
      ]);
      expect(metadata.secondaryAlbumTypes.filter((t) => t.allowed).map((t) => t.albumType.name)).toEqual(['Studio']);
      expect(metadata.releaseStatuses.filter((t) => t.allowed).map((t) => t.releaseStatus.name)).toEqual(['Official']);
      expect(metadata.primaryAlbumTypes).toHaveLength(5);
      expect(metadata.secondaryAlbumTypes).toHaveLength(12);
      const naming = await client.getNamingConfig();
      expect([naming.renameTracks, naming.colonReplacementFormat]).toEqual([true, 1]);
      expect(target.emulator.state.metadataProfiles.map((p) => p.name)).toEqual(['Standard', 'None', 'Studio Albums']);
    } finally {
      await target.emulator.close();
    }
  });
});
