/**
 * The transform: per-app enums, namespaces, the quality profile rules (mapping, groups, cutoff,
 * scores), settings, and property-style checks that no payload it produces is one the apps refuse
 * (sample PCD, every trash-pcd profile, and seeded random PCD content, the latter also sent to the
 * emulators).
 */
import type { ArrType } from '../../../src/domain/arr-types';
import { entityNames, type CustomFormatData, type QualityProfileData } from '../../../src/domain/pcd';
import {
  appName,
  applyPlan,
  catalogFromLive,
  displayName,
  emptySelection,
  enumValue,
  hasNamespace,
  planSync,
  readSyncSource,
  syncSelectionSchema,
  transformSource,
  type AppCatalog,
  type LiveState,
  type SyncSection,
  type SyncSource,
} from '../../../src/domain/sync';
import { describeWithShared } from '../../helpers/shared-data';
import { TRASH_PCD_PARTS } from '../pcd/helpers';
import { randomSource } from './fuzz';
import { APPS, fetchLive, pending, sampleDatabase, sampleSelection, startApp, trashDatabase } from './helpers';
import { violations } from './invariants';

const ALL_SECTIONS: SyncSection[] = ['qualityProfiles', 'delayProfiles', 'mediaManagement', 'metadataProfiles'];

const lives = new Map<ArrType, LiveState>();
beforeAll(async () => {
  for (const { app, arrType } of APPS) {
    const target = await startApp(app);
    lives.set(arrType, await fetchLive(target.client));
    await target.emulator.close();
  }
});
const catalogOf = (arrType: ArrType): AppCatalog => catalogFromLive(arrType, lives.get(arrType)!);

function source(arrType: ArrType, parts: Partial<SyncSource>): SyncSource {
  return {
    arrType,
    qualityProfiles: [],
    customFormats: [],
    regularExpressions: {},
    delayProfile: null,
    naming: null,
    mediaSettings: null,
    qualityDefinitions: null,
    metadataProfile: null,
    qualityNames: Object.fromEntries(catalogOf(arrType).qualities.map((q) => [q.name === 'Bluray-1080p Remux' ? 'Remux-1080p' : q.name, q.name])),
    missing: [],
    ...parts,
  };
}

function profile(parts: Partial<QualityProfileData>): QualityProfileData {
  return {
    name: 'P',
    description: null,
    upgradesAllowed: true,
    minimumCustomFormatScore: 0,
    upgradeUntilScore: 0,
    upgradeScoreIncrement: 1,
    tags: [],
    languages: [],
    qualities: [],
    customFormats: { all: [], movie_app: [], series_app: [], music_app: [] },
    ...parts,
  };
}

function format(name: string, conditions: CustomFormatData['conditions']): CustomFormatData {
  return { name, description: null, includeInRename: false, tags: [], conditions, tests: [] };
}

describe('per-app enums', () => {
  it('maps PCD sources to Radarr and Sonarr numbers, which differ', () => {
    const pairs = ['cam', 'dvd', 'television', 'web_dl', 'webrip', 'bluray', 'bluray_raw', 'television_raw'].map((s) => [
      s,
      enumValue('source', 'movie_app', s),
      enumValue('source', 'series_app', s),
    ]);
    expect(pairs).toEqual([
      ['cam', 1, null],
      ['dvd', 5, 5],
      ['television', 6, 1],
      ['web_dl', 7, 3],
      ['webrip', 8, 4],
      ['bluray', 9, 6],
      ['bluray_raw', null, 7],
      ['television_raw', null, 2],
    ]);
    expect(enumValue('source', 'music_app', 'bluray')).toBeNull();
  });

  it('maps resolutions, modifiers, release types and indexer flags', () => {
    expect(['720p', '1080p', '2160p', 'R480p', '999p'].map((r) => enumValue('resolution', 'series_app', r))).toEqual([720, 1080, 2160, 480, null]);
    expect(['remux', 'brdisk', 'raw-hd', 'regional', 'screener'].map((m) => enumValue('quality_modifier', 'movie_app', m))).toEqual([5, 4, 3, 1, 2]);
    expect(enumValue('quality_modifier', 'series_app', 'remux')).toBeNull();
    expect(['single_episode', 'multi_episode', 'season_pack'].map((t) => enumValue('release_type', 'series_app', t))).toEqual([1, 2, 3]);
    expect(enumValue('release_type', 'movie_app', 'season_pack')).toBeNull();
    const flags = ['freeleech', 'internal', 'scene', 'nuked', 'ptp_golden', 'freeleech25'];
    expect(flags.map((f) => enumValue('indexer_flag', 'movie_app', f))).toEqual([1, 32, 128, 2048, 8, 512]);
    expect(flags.map((f) => enumValue('indexer_flag', 'series_app', f))).toEqual([1, 8, 16, 128, null, 64]);
    expect(flags.map((f) => enumValue('indexer_flag', 'music_app', f))).toEqual([1, 8, 16, null, null, 64]);
  });
});

describe('namespace', () => {
  it('adds a suffix, recognises it and strips it for display', () => {
    expect(appName('HDR', 'arrgo')).toBe('HDR [arrgo]');
    expect(appName('HDR', null)).toBe('HDR');
    expect(hasNamespace('HDR [arrgo]', 'arrgo')).toBe(true);
    expect(hasNamespace('HDR', 'arrgo')).toBe(false);
    expect(hasNamespace(' [arrgo]', 'arrgo')).toBe(false);
    expect(displayName('HDR [arrgo]', 'arrgo')).toBe('HDR');
    expect(displayName('HDR [other]', 'arrgo')).toBe('HDR [other]');
    expect(displayName('HDR [arrgo]', null)).toBe('HDR [arrgo]');
  });

  it('validates selections', () => {
    expect(syncSelectionSchema.safeParse({ ...emptySelection(), namespace: 'arrgo' }).success).toBe(true);
    expect(syncSelectionSchema.safeParse({ ...emptySelection(), namespace: 'a]b' }).success).toBe(false);
    expect(syncSelectionSchema.safeParse({ ...emptySelection(), qualityProfiles: ['A', 'A'] }).success).toBe(false);
    expect(syncSelectionSchema.safeParse({ ...emptySelection(), extra: 1 }).success).toBe(false);
  });
});

describe('custom formats', () => {
  it('leaves out conditions of other apps silently, and reports what the app cannot express', () => {
    const cf = format('F', [
      { name: 'title', type: 'release_title', arrType: 'all', negate: false, required: true, regularExpression: 'r' },
      { name: 'radarr only', type: 'quality_modifier', arrType: 'movie_app', negate: false, required: true, qualityModifier: 'remux' },
      { name: 'edition', type: 'edition', arrType: 'all', negate: false, required: false, regularExpression: 'r' },
      { name: 'raw', type: 'source', arrType: 'all', negate: false, required: false, source: 'bluray_raw' },
      { name: 'unknown res', type: 'resolution', arrType: 'all', negate: false, required: false, resolution: 'unknown' },
      { name: 'size', type: 'size', arrType: 'all', negate: false, required: false, minBytes: 2 * 1024 ** 3, maxBytes: null },
    ]);
    const out = transformSource(source('series_app', { customFormats: [cf], regularExpressions: { r: 'x' }, qualityProfiles: [profile({ customFormats: { all: [{ name: 'F', score: 5 }], movie_app: [], series_app: [], music_app: [] } })] }), catalogOf('series_app'), {
      namespace: null,
      sections: ['qualityProfiles'],
    });
    expect(out.customFormats[0].payload.specifications.map((s) => [s.name, s.implementation, s.fields])).toEqual([
      ['title', 'ReleaseTitleSpecification', [{ name: 'value', value: 'x' }]],
      ['raw', 'SourceSpecification', [{ name: 'value', value: 7 }]],
      [
        'size',
        'SizeSpecification',
        [
          { name: 'min', value: 2 },
          { name: 'max', value: 1_000_000 },
        ],
      ],
    ]);
    expect(out.issues.filter((i) => i.entityType === 'customFormat').map((i) => [i.severity, i.name, i.message])).toEqual([
      ['warning', 'F', 'condition "edition" left out: Sonarr has no edition conditions'],
      ['warning', 'F', 'condition "unknown res" left out: Sonarr does not accept the resolution "unknown" in a condition'],
    ]);
  });

  it('sends a condition scoped to the app and named "<name> (<App>)" under its plain name, unless a condition the app receives has that name', () => {
    const cf = format('Extras', [
      { name: 'Extras', type: 'release_title', arrType: 'movie_app', negate: false, required: true, regularExpression: 'movie' },
      { name: 'Extras (Sonarr)', type: 'release_title', arrType: 'series_app', negate: false, required: true, regularExpression: 'series' },
      { name: 'Shared', type: 'release_title', arrType: 'all', negate: false, required: false, regularExpression: 'movie' },
      { name: 'Shared (Sonarr)', type: 'release_title', arrType: 'series_app', negate: false, required: false, regularExpression: 'series' },
      { name: 'Other (Radarr)', type: 'release_title', arrType: 'series_app', negate: false, required: false, regularExpression: 'series' },
    ]);
    const specs = (arrType: ArrType) =>
      transformSource(source(arrType, { customFormats: [cf], regularExpressions: { movie: 'm', series: 's' } }), catalogOf(arrType), { namespace: null, sections: ['qualityProfiles'] }).customFormats[0].payload.specifications.map((s) => [
        s.name,
        s.fields[0].value,
      ]);
    expect(specs('series_app')).toEqual([
      ['Extras', 's'],
      ['Shared', 'm'],
      ['Shared (Sonarr)', 's'], // "Shared" applies to every app: the plain name is taken
      ['Other (Radarr)', 's'], // the suffix names another app
    ]);
    expect(specs('movie_app')).toEqual([
      ['Extras', 'm'],
      ['Shared', 'm'],
    ]);
  });

  it('drops a format with no condition for the app (an error), and its scores', () => {
    const cf = format('Radarr Only', [{ name: 'year', type: 'year', arrType: 'movie_app', negate: false, required: true, minYear: null, maxYear: 1970 }]);
    const p = profile({ qualities: [{ type: 'quality', name: 'FLAC', enabled: true, upgradeUntil: true }], customFormats: { all: [{ name: 'Radarr Only', score: 10 }], movie_app: [], series_app: [], music_app: [] } });
    const out = transformSource(source('music_app', { customFormats: [cf], qualityProfiles: [p] }), catalogOf('music_app'), { namespace: null, sections: ['qualityProfiles'] });
    expect(out.customFormats).toEqual([]);
    expect(out.qualityProfiles[0].formatScores).toEqual({});
    expect(out.issues.map((i) => [i.severity, i.entityType, i.message])).toEqual([
      ['error', 'customFormat', 'left out: no condition applies to Lidarr'],
      ['warning', 'qualityProfile', 'score of custom format "Radarr Only" left out: the format is not synced to Lidarr'],
    ]);
    // On Radarr the year condition gets a lower bound (the app needs min > 0).
    const radarr = transformSource(source('movie_app', { customFormats: [cf], qualityProfiles: [p] }), catalogOf('movie_app'), { namespace: null, sections: ['qualityProfiles'] });
    expect(radarr.customFormats[0].payload.specifications[0].fields).toEqual([
      { name: 'min', value: 1 },
      { name: 'max', value: 1970 },
    ]);
  });
});

describe('quality profiles', () => {
  const web = { type: 'group' as const, name: 'WEB', enabled: true, upgradeUntil: false, members: ['WEBDL-1080p', 'WEBRip-1080p'] };

  it('lists every app quality once, lowest first, with groups from 1000 and one-member groups flattened', () => {
    const p = profile({
      qualities: [
        { type: 'quality', name: 'Remux-1080p', enabled: true, upgradeUntil: false },
        web,
        { type: 'group', name: 'Solo', enabled: true, upgradeUntil: true, members: ['Bluray-720p', 'CAM'] },
        { type: 'group', name: 'Gone', enabled: true, upgradeUntil: false, members: ['BR-DISK'] },
        { type: 'group', name: 'HD', enabled: false, upgradeUntil: false, members: ['HDTV-720p', 'HDTV-1080p'] },
      ],
    });
    const out = transformSource(source('series_app', { qualityProfiles: [p] }), catalogOf('series_app'), { namespace: null, sections: ['qualityProfiles'] });
    const body = out.qualityProfiles[0].body;
    const top = body.items.slice(-4).map((i) => (i.quality ? [i.quality.name, i.allowed] : [i.id, i.name, i.items!.map((m) => m.quality!.name), i.allowed]));
    expect(top).toEqual([
      [1000, 'HD', ['HDTV-1080p', 'HDTV-720p'], false],
      ['Bluray-720p', true],
      [1001, 'WEB', ['WEBRip-1080p', 'WEBDL-1080p'], true],
      ['Bluray-1080p Remux', true],
    ]);
    expect(body.items.slice(0, -4).every((i) => i.quality && !i.allowed)).toBe(true);
    // Six PCD qualities are placed (CAM and BR-DISK have no Sonarr quality), as four items.
    expect(body.items).toHaveLength(catalogOf('series_app').qualities.length - 6 + 4);
    // The upgrade-until group became the quality Bluray-720p.
    expect(body.cutoff).toBe(6);
    expect(out.issues.map((i) => i.message)).toEqual([
      'quality "CAM" left out: Sonarr has no such quality',
      'group "Solo" has one quality on Sonarr; it is synced as the quality "Bluray-720p"',
      'quality "BR-DISK" left out: Sonarr has no such quality',
    ]);
  });

  it('takes the app score over an "all" score, lowers an unreachable minimum, and keeps the increment >= 1', () => {
    const formats = ['A', 'B', 'C'].map((n) => format(n, [{ name: 't', type: 'release_title', arrType: 'all', negate: false, required: true, regularExpression: 'r' }]));
    const p = profile({
      qualities: [web],
      minimumCustomFormatScore: 500,
      upgradeScoreIncrement: 1,
      customFormats: { all: [{ name: 'A', score: 100 }, { name: 'B', score: 50 }], movie_app: [{ name: 'A', score: 300 }], series_app: [{ name: 'C', score: 7 }], music_app: [] },
    });
    const out = transformSource(source('movie_app', { customFormats: formats, qualityProfiles: [p], regularExpressions: { r: 'x' } }), catalogOf('movie_app'), {
      namespace: 'ns',
      sections: ['qualityProfiles'],
    });
    const q = out.qualityProfiles[0];
    expect(q.name).toBe('P [ns]');
    expect(q.formatScores).toEqual({ 'A [ns]': 300, 'B [ns]': 50 });
    expect(q.body.minFormatScore).toBe(350);
    expect(q.body.minUpgradeFormatScore).toBe(1);
    expect(q.body.language).toEqual({ id: -1, name: 'Any' });
    // No upgrade-until item: the most preferred allowed item.
    expect(q.body.cutoff).toBe(1000);
    expect(out.issues.map((i) => i.message)).toEqual(['minimum custom format score 500 cannot be reached on Radarr; 350 is used']);
  });

  it('refuses a profile none of whose enabled qualities the app has', () => {
    const p = profile({ qualities: [{ type: 'quality', name: 'FLAC', enabled: true, upgradeUntil: true }, { type: 'quality', name: 'Bluray-1080p', enabled: false, upgradeUntil: false }] });
    const out = transformSource(source('movie_app', { qualityProfiles: [p] }), catalogOf('movie_app'), { namespace: null, sections: ['qualityProfiles'] });
    expect(out.qualityProfiles).toEqual([]);
    expect(out.issues.map((i) => [i.severity, i.message])).toEqual([
      ['warning', 'quality "FLAC" left out: Radarr has no such quality'],
      ['error', 'left out: none of its enabled qualities exists on Radarr'],
    ]);
  });
});

describe('settings', () => {
  it('maps each preferred protocol onto enableUsenet/enableTorrent/preferredProtocol', () => {
    const fields = (['prefer_usenet', 'prefer_torrent', 'only_usenet', 'only_torrent'] as const).map((preferredProtocol) => {
      const out = transformSource(
        source('movie_app', {
          delayProfile: {
            name: 'D',
            preferredProtocol,
            usenetDelay: preferredProtocol === 'only_torrent' ? null : 5,
            torrentDelay: preferredProtocol === 'only_usenet' ? null : 30,
            bypassIfHighestQuality: true,
            bypassIfAboveCustomFormatScore: true,
            minimumCustomFormatScore: 250,
          },
        }),
        catalogOf('movie_app'),
        { namespace: null, sections: ['delayProfiles'] },
      );
      const f = out.delayProfile!.fields;
      return [f.enableUsenet, f.enableTorrent, f.preferredProtocol, f.usenetDelay, f.torrentDelay, f.minimumCustomFormatScore];
    });
    expect(fields).toEqual([
      [true, true, 'usenet', 5, 30, 250],
      [true, true, 'torrent', 5, 30, 250],
      [true, false, 'usenet', 5, 0, 250],
      [false, true, 'torrent', 0, 30, 250],
    ]);
  });

  it('keeps quality definitions within the app limits and in order; 0 max is no limit', () => {
    const out = transformSource(
      source('series_app', {
        qualityDefinitions: {
          name: 'S',
          entries: [
            { quality: 'Remux-1080p', minSize: 69.1, maxSize: 0, preferredSize: 995 },
            { quality: 'WEBDL-1080p', minSize: 10, maxSize: 5000, preferredSize: 2000 },
            { quality: 'HDTV-720p', minSize: 50, maxSize: 40, preferredSize: 45 },
            { quality: 'CAM', minSize: 1, maxSize: 2, preferredSize: 1 },
          ],
        },
      }),
      catalogOf('series_app'),
      { namespace: null, sections: ['mediaManagement'] },
    );
    expect(out.qualityDefinitions!.entries).toEqual([
      { quality: 'Bluray-1080p Remux', minSize: 69.1, maxSize: null, preferredSize: 995 },
      { quality: 'WEBDL-1080p', minSize: 10, maxSize: 1000, preferredSize: 1000 },
      { quality: 'HDTV-720p', minSize: 40, maxSize: 40, preferredSize: 40 },
    ]);
  });

  it('refuses Lidarr\'s reserved metadata profile name and profiles with nothing allowed', () => {
    const meta = (name: string, allowed: boolean) => ({
      name,
      description: null,
      primaryAlbumTypes: [{ name: 'Album' as const, allowed: true }],
      secondaryAlbumTypes: [{ name: 'Studio' as const, allowed }],
      releaseStatuses: [{ name: 'Official' as const, allowed: true }],
    });
    const run = (name: string, allowed: boolean, namespace: string | null = null) =>
      transformSource(source('music_app', { metadataProfile: meta(name, allowed) }), catalogOf('music_app'), { namespace, sections: ['metadataProfiles'] });
    expect(run('None', true).metadataProfile).toBeNull();
    expect(run('None', true).issues[0].message).toBe('left out: the name "None" is reserved by Lidarr');
    // Namespaced, "None" is a different name.
    expect(run('None', true, 'x').metadataProfile!.name).toBe('None [x]');
    expect(run('M', false).issues[0].message).toBe('left out: Lidarr needs at least one allowed secondary album type');
    // Types the PCD profile does not list are added, disallowed.
    expect(run('M', true).metadataProfile!.payload.secondaryAlbumTypes).toHaveLength(12);
  });
});

describe('no payload the apps refuse', () => {
  it('sample PCD, every app', () => {
    for (const { arrType } of APPS) {
      const selection = sampleSelection(arrType);
      const out = transformSource(readSyncSource(sampleDatabase(), arrType, selection), catalogOf(arrType), { namespace: null, sections: ALL_SECTIONS });
      expect([arrType, violations(out, catalogOf(arrType), arrType)]).toEqual([arrType, []]);
    }
  });

  it('random PCD content (seeded), every app', () => {
    let profiles = 0;
    let formats = 0;
    for (let seed = 1; seed <= 300; seed++) {
      for (const { arrType } of APPS) {
        const src = randomSource(seed, arrType);
        for (const namespace of [null, 'ns']) {
          const out = transformSource(src, catalogOf(arrType), { namespace, sections: ALL_SECTIONS });
          const live = lives.get(arrType)!.customFormats!.map((f) => ({ id: f.id, name: f.name }));
          expect([seed, arrType, violations(out, catalogOf(arrType), arrType, [...live, { id: 999, name: 'User Format' }])]).toEqual([seed, arrType, []]);
          profiles += out.qualityProfiles.length;
          formats += out.customFormats.length;
        }
      }
    }
    // The generator must exercise the transform, not just produce errors.
    expect(profiles).toBeGreaterThan(1000);
    expect(formats).toBeGreaterThan(1500);
  });

  it('random PCD content is accepted by the emulators, and a second plan is all unchanged', async () => {
    for (const { app, arrType } of APPS) {
      const target = await startApp(app);
      try {
        for (let seed = 1000; seed < 1025; seed++) {
          target.emulator.reset();
          const src = randomSource(seed, arrType);
          const selection = {
            ...emptySelection(),
            qualityProfiles: src.qualityProfiles.map((p) => p.name),
            delayProfile: 'Delay',
            qualityDefinitions: 'Sizes',
            metadataProfile: arrType === 'music_app' ? 'Meta' : null,
            deleteUnmanaged: seed % 2 === 0,
            namespace: seed % 3 === 0 ? 'fz' : null,
          };
          const first = planSync({ arrType, selection, source: src, live: await fetchLive(target.client) });
          await applyPlan(first.plan, target.client);
          expect([seed, target.emulator.writes.log.filter((w) => !w.applied).map((w) => `${w.method} ${w.path} ${w.status}`)]).toEqual([seed, []]);
          const second = planSync({ arrType, selection, source: src, live: await fetchLive(target.client) });
          expect([seed, pending(second)]).toEqual([seed, []]);
        }
      } finally {
        await target.emulator.close();
      }
    }
  });
});

describeWithShared(TRASH_PCD_PARTS, 'no payload the apps refuse: every trash-pcd profile', () => {
  it.each(['movie_app', 'series_app'] as const)('%s', (arrType) => {
    const db = trashDatabase();
    const names = entityNames(db, 'quality_profile');
    expect(names.length).toBe(22);
    for (const name of names) {
      const selection = { ...emptySelection(), qualityProfiles: [name], delayProfile: 'Default', qualityDefinitions: arrType === 'movie_app' ? 'Movie' : 'Series' };
      const out = transformSource(readSyncSource(db, arrType, selection), catalogOf(arrType), { namespace: null, sections: ALL_SECTIONS });
      expect([name, violations(out, catalogOf(arrType), arrType)]).toEqual([name, []]);
      expect([name, out.issues.filter((i) => i.severity === 'error')]).toEqual([name, []]);
    }
  });
});
