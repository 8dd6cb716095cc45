/**
 * A fresh emulator answers like a fresh install of the real app, and every response validates against
 * the app's own OpenAPI document.
 */
import type { Emulator } from '../../../src/emulators';
import { describeWithShared } from '../../helpers/shared-data';
import { loadOpenApi, OPENAPI_PARTS } from './openapi';
import { API_KEY, APPS, call, qualityIdsOf } from './support';
import { startEmulator } from '../../../src/emulators';

const EXPECTED = {
  radarr: {
    appName: 'Radarr',
    version: /^6\.1\.0\.\d+$/,
    profiles: ['Any', 'SD', 'HD-720p', 'HD-1080p', 'Ultra-HD', 'HD - 720p/1080p'],
    qualities: 30,
  },
  sonarr: {
    appName: 'Sonarr',
    version: /^4\.0\.19\.\d+$/,
    profiles: ['Any', 'SD', 'HD-720p', 'HD-1080p', 'Ultra-HD', 'HD - 720p/1080p'],
    qualities: 22,
  },
  lidarr: { appName: 'Lidarr', version: /^2\.14\.5\.\d+$/, profiles: ['Any', 'Lossless', 'Standard'], qualities: 38 },
} as const;

describe.each(APPS)('%s emulator defaults', (app) => {
  let emulator: Emulator;
  beforeAll(async () => {
    emulator = await startEmulator({ app, apiKey: API_KEY });
  });
  afterAll(() => emulator.close());

  test('system/status identifies the app and the version of the OpenAPI document', async () => {
    const { status, body } = await call(emulator, 'GET', '/system/status');
    expect(status).toBe(200);
    expect(body.appName).toBe(EXPECTED[app].appName);
    expect(body.version).toMatch(EXPECTED[app].version);
  });

  test('default quality profiles: names, every quality exactly once, valid groups and cutoffs, no formats', async () => {
    const { body: profiles } = await call(emulator, 'GET', '/qualityprofile');
    expect(profiles.map((profile: any) => profile.name)).toEqual(EXPECTED[app].profiles);
    const { body: definitions } = await call(emulator, 'GET', '/qualitydefinition');
    const allQualityIds = definitions.map((definition: any) => definition.quality.id).sort((a: number, b: number) => a - b);
    expect(allQualityIds).toHaveLength(EXPECTED[app].qualities);
    for (const profile of profiles) {
      expect(profile.id).toBeGreaterThan(0);
      expect(qualityIdsOf(profile.items).sort((a, b) => a - b)).toEqual(allQualityIds);
      for (const item of profile.items) {
        if (!item.quality) {
          expect(item.id).toBeGreaterThanOrEqual(1000);
          expect(item.items.length).toBeGreaterThanOrEqual(2);
          expect(typeof item.name).toBe('string');
        } else {
          expect(item).not.toHaveProperty('id');
          expect(item).not.toHaveProperty('name');
        }
      }
      const cutoff = profile.items.find((item: any) => (item.quality ? item.quality.id : item.id) === profile.cutoff);
      expect(cutoff?.allowed).toBe(true);
      expect(profile.formatItems).toEqual([]);
      expect(profile.minFormatScore).toBe(0);
      expect(profile.cutoffFormatScore).toBe(0);
      expect(profile.upgradeAllowed).toBe(false);
      if (app === 'lidarr') expect(profile).not.toHaveProperty('minUpgradeFormatScore');
      else expect(profile.minUpgradeFormatScore).toBe(1);
      if (app === 'radarr') expect(profile.language).toEqual({ id: -2, name: 'Original' });
      else expect(profile).not.toHaveProperty('language');
    }
  });

  test('the global delay profile (id 1)', async () => {
    const { body } = await call(emulator, 'GET', '/delayprofile');
    expect(body).toEqual([
      {
        id: 1,
        enableUsenet: true,
        enableTorrent: true,
        preferredProtocol: 'usenet',
        usenetDelay: 0,
        torrentDelay: 0,
        bypassIfHighestQuality: true,
        bypassIfAboveCustomFormatScore: false,
        minimumCustomFormatScore: 0,
        order: 2147483647,
        tags: [],
      },
    ]);
  });

  test('no custom formats or tags; config resources have id 1', async () => {
    expect((await call(emulator, 'GET', '/customformat')).body).toEqual([]);
    expect((await call(emulator, 'GET', '/tag')).body).toEqual([]);
    expect((await call(emulator, 'GET', '/config/naming')).body.id).toBe(1);
    expect((await call(emulator, 'GET', '/config/mediamanagement')).body.id).toBe(1);
    expect((await call(emulator, 'GET', '/config/naming/1')).body.id).toBe(1);
  });

  test('quality definitions are ordered by weight with titles equal to quality names', async () => {
    const { body } = await call(emulator, 'GET', '/qualitydefinition');
    const weights = body.map((definition: any) => definition.weight);
    expect(weights).toEqual([...weights].sort((a: number, b: number) => a - b));
    for (const definition of body) expect(definition.title).toBe(definition.quality.name);
    const one = await call(emulator, 'GET', `/qualitydefinition/${body[3].id}`);
    expect(one.body).toEqual(body[3]);
  });
});

describe('per-app default facts', () => {
  const get = async (app: 'radarr' | 'sonarr' | 'lidarr', path: string) => {
    const emulator = await startEmulator({ app, apiKey: API_KEY });
    try {
      return (await call(emulator, 'GET', path)).body;
    } finally {
      await emulator.close();
    }
  };

  test('Radarr quality ids and names', async () => {
    const definitions = await get('radarr', '/qualitydefinition');
    const byId = Object.fromEntries(definitions.map((definition: any) => [definition.quality.id, definition.quality.name]));
    expect(byId).toMatchObject({
      0: 'Unknown',
      1: 'SDTV',
      2: 'DVD',
      3: 'WEBDL-1080p',
      4: 'HDTV-720p',
      5: 'WEBDL-720p',
      6: 'Bluray-720p',
      7: 'Bluray-1080p',
      8: 'WEBDL-480p',
      9: 'HDTV-1080p',
      10: 'Raw-HD',
      12: 'WEBRip-480p',
      14: 'WEBRip-720p',
      15: 'WEBRip-1080p',
      16: 'HDTV-2160p',
      17: 'WEBRip-2160p',
      18: 'WEBDL-2160p',
      19: 'Bluray-2160p',
      20: 'Bluray-480p',
      21: 'Bluray-576p',
      22: 'BR-DISK',
      23: 'DVD-R',
      24: 'WORKPRINT',
      25: 'CAM',
      26: 'TELESYNC',
      27: 'TELECINE',
      28: 'DVDSCR',
      29: 'REGIONAL',
      30: 'Remux-1080p',
      31: 'Remux-2160p',
    });
    const remux = definitions.find((definition: any) => definition.quality.id === 31);
    expect(remux.quality).toEqual({ id: 31, name: 'Remux-2160p', source: 'bluray', resolution: 2160, modifier: 'remux' });
    expect(remux).toMatchObject({ minSize: 0 });
    expect(remux).not.toHaveProperty('maxSize');
    const sdtv = definitions.find((definition: any) => definition.quality.id === 1);
    expect(sdtv).toMatchObject({ minSize: 0, maxSize: 100, preferredSize: 95 });
  });

  test('Radarr HD-1080p profile', async () => {
    const profiles = await get('radarr', '/qualityprofile');
    const hd = profiles.find((profile: any) => profile.name === 'HD-1080p');
    expect(hd.cutoff).toBe(7);
    const allowed = hd.items.filter((item: any) => item.allowed).map((item: any) => item.quality?.name ?? item.name);
    expect(allowed).toEqual(['HDTV-1080p', 'WEB 1080p', 'Bluray-1080p', 'Remux-1080p']);
    const web = hd.items.find((item: any) => item.name === 'WEB 1080p');
    expect(web.id).toBe(1002);
    expect(web.items.map((item: any) => item.quality.name)).toEqual(['WEBDL-1080p', 'WEBRip-1080p']);
  });

  test('Sonarr qualities, sizes and the HD-1080p profile', async () => {
    const definitions = await get('sonarr', '/qualitydefinition');
    const remux = definitions.find((definition: any) => definition.quality.id === 20);
    expect(remux.quality).toEqual({ id: 20, name: 'Bluray-1080p Remux', source: 'blurayRaw', resolution: 1080 });
    expect(remux).toMatchObject({ minSize: 35, preferredSize: 95 });
    expect(remux).not.toHaveProperty('maxSize');
    expect(definitions.find((definition: any) => definition.quality.id === 4)).toMatchObject({ minSize: 3, maxSize: 125, preferredSize: 95 });
    const profiles = await get('sonarr', '/qualityprofile');
    const hd = profiles.find((profile: any) => profile.name === 'HD-1080p');
    expect(hd.cutoff).toBe(9);
    expect(hd.items.filter((item: any) => item.allowed).map((item: any) => item.quality?.name ?? item.name)).toEqual(['HDTV-1080p', 'WEB 1080p', 'Bluray-1080p']);
    expect(hd.items.map((item: any) => item.quality?.name ?? item.name).slice(0, 4)).toEqual(['Unknown', 'SDTV', 'WEB 480p', 'DVD']);
  });

  test('Lidarr audio qualities, groups and metadata profiles', async () => {
    const profiles = await get('lidarr', '/qualityprofile');
    const lossless = profiles.find((profile: any) => profile.name === 'Lossless');
    const group = lossless.items.find((item: any) => item.name === 'Lossless');
    expect(lossless.cutoff).toBe(group.id);
    expect(group.items.map((item: any) => item.quality.name)).toEqual(['FLAC', 'ALAC', 'APE', 'WavPack', 'FLAC 24bit', 'ALAC 24bit']);
    expect(lossless.items.map((item: any) => item.quality?.name ?? item.name)).toEqual([
      'Unknown',
      'Trash Quality Lossy',
      'Poor Quality Lossy',
      'Low Quality Lossy',
      'Mid Quality Lossy',
      'High Quality Lossy',
      'Lossless',
      'WAV',
    ]);
    const definitions = await get('lidarr', '/qualitydefinition');
    expect(definitions.find((definition: any) => definition.quality.name === 'FLAC')).toMatchObject({ quality: { id: 6, name: 'FLAC' }, minSize: 0, preferredSize: 895 });
    const metadata = await get('lidarr', '/metadataprofile');
    expect(metadata.map((profile: any) => profile.name)).toEqual(['Standard', 'None']);
    const standard = metadata[0];
    expect(standard.primaryAlbumTypes.filter((item: any) => item.allowed).map((item: any) => item.albumType.name)).toEqual(['Album']);
    expect(standard.secondaryAlbumTypes.filter((item: any) => item.allowed).map((item: any) => item.albumType.name)).toEqual(['Studio']);
    expect(standard.releaseStatuses.filter((item: any) => item.allowed).map((item: any) => item.releaseStatus.name)).toEqual(['Official']);
    expect(metadata[1].primaryAlbumTypes.some((item: any) => item.allowed)).toBe(false);
  });

  test('naming and media-management defaults', async () => {
    expect(await get('radarr', '/config/naming')).toEqual({
      id: 1,
      renameMovies: false,
      replaceIllegalCharacters: true,
      colonReplacementFormat: 'smart',
      standardMovieFormat: '{Movie Title} ({Release Year}) {Quality Full}',
      movieFolderFormat: '{Movie Title} ({Release Year})',
    });
    expect(await get('sonarr', '/config/naming')).toMatchObject({
      renameEpisodes: false,
      colonReplacementFormat: 4,
      customColonReplacementFormat: '',
      multiEpisodeStyle: 5,
      standardEpisodeFormat: '{Series Title} - S{season:00}E{episode:00} - {Episode Title} {Quality Full}',
      seasonFolderFormat: 'Season {season}',
      specialsFolderFormat: 'Specials',
    });
    const lidarrNaming = await get('lidarr', '/config/naming');
    expect(lidarrNaming).toMatchObject({ renameTracks: false, colonReplacementFormat: 4, artistFolderFormat: '{Artist Name}', includeArtistName: false });
    expect(lidarrNaming).not.toHaveProperty('separator');
    expect(await get('radarr', '/config/mediamanagement')).toMatchObject({
      recycleBin: '',
      recycleBinCleanupDays: 7,
      downloadPropersAndRepacks: 'preferAndUpgrade',
      fileDate: 'none',
      rescanAfterRefresh: 'always',
      chmodFolder: '755',
      minimumFreeSpaceWhenImporting: 100,
      copyUsingHardlinks: true,
      extraFileExtensions: 'srt',
      enableMediaInfo: true,
    });
    expect(await get('sonarr', '/config/mediamanagement')).toMatchObject({ episodeTitleRequired: 'always', createEmptySeriesFolders: false });
    expect(await get('lidarr', '/config/mediamanagement')).toMatchObject({ allowFingerprinting: 'newFiles', watchLibraryForChanges: true });
  });

  test('languages', async () => {
    const radarr = await get('radarr', '/language');
    expect(radarr.slice(0, 4).map((language: any) => language.name)).toEqual(['Any', 'Original', 'Unknown', 'Afrikaans']);
    expect(radarr[0]).toEqual({ id: -1, name: 'Any', nameLower: 'any' });
    const sonarr = await get('sonarr', '/language');
    expect(sonarr.slice(0, 2).map((language: any) => language.name)).toEqual(['Original', 'Unknown']);
    const lidarr = await get('lidarr', '/language');
    expect(lidarr[0].name).toBe('Any');
  });
});

describeWithShared(OPENAPI_PARTS, 'fresh emulator responses validate against the OpenAPI documents', () => {
  test.each(APPS)('%s', async (app) => {
    const api = loadOpenApi(app);
    const emulator = await startEmulator({ app, apiKey: API_KEY });
    try {
      const paths = [
        '/system/status',
        '/customformat',
        '/qualityprofile',
        '/qualityprofile/{id}',
        '/qualityprofile/schema',
        '/qualitydefinition',
        '/qualitydefinition/{id}',
        '/delayprofile',
        '/delayprofile/{id}',
        '/config/naming',
        '/config/naming/{id}',
        '/config/mediamanagement',
        '/config/mediamanagement/{id}',
        '/tag',
        '/language',
        ...(app === 'lidarr' ? ['/metadataprofile', '/metadataprofile/{id}', '/metadataprofile/schema'] : ['/qualitydefinition/limits']),
      ];
      for (const path of paths) {
        const { status, body } = await call(emulator, 'GET', path.replace('{id}', '1'));
        expect([path, status]).toEqual([path, 200]);
        expect([path, api.checkResponse('GET', path, body)]).toEqual([path, []]);
      }
      // customformat/schema documents no body schema; it is a list of specification schemas.
      const { body: specSchema } = await call(emulator, 'GET', '/customformat/schema');
      expect(specSchema.length).toBeGreaterThan(0);
      for (const spec of specSchema) expect(api.check('CustomFormatSpecificationSchema', spec)).toEqual([]);
    } finally {
      await emulator.close();
    }
  });

  test('the checker itself rejects what the documents do not allow', () => {
    const api = loadOpenApi('radarr');
    expect(api.check('TagResource', { id: 1, label: 'x', extra: true })).not.toEqual([]);
    expect(api.check('TagResource', { id: 'one', label: 'x' })).not.toEqual([]);
    expect(api.check('TagResource', { id: 1, label: null })).toEqual([]);
    expect(api.check('Field', { name: 'value', value: null })).toEqual([]);
  });
});
