/**
 * The typed clients against the emulators: every request they send and every response they return
 * validates against the app's OpenAPI document.
 */
import {
  ArrClient,
  LidarrClient,
  RadarrClient,
  SonarrClient,
  createArrClient,
  type CustomFormatPayload,
  type RadarrQualityProfileResource,
} from '../../../src/clients';
import { startEmulator, type Emulator, type EmulatorApp } from '../../../src/emulators';
import { describeWithShared } from '../../helpers/shared-data';
import { loadOpenApi, OPENAPI_PARTS, type OpenApi } from '../emulators/openapi';

const API_KEY = 'client-key-5d1e8b2a9c7f';
const TIMEOUT = 2000;

/** '/api/v3/customformat/5' -> '/customformat/{id}' */
function template(api: OpenApi, path: string): string {
  return path.slice(api.apiBase.length).replace(/\/\d+$/, '/{id}');
}

/** Checks a client result against the documented 200 response of the endpoint. */
async function checked<T>(api: OpenApi, method: string, path: string, result: Promise<T>): Promise<T> {
  const value = await result;
  expect([method, path, api.checkResponse(method, path, value)]).toEqual([method, path, []]);
  return value;
}

/** Every request body the emulator received validates against the documented request body. */
function expectRequestsValid(api: OpenApi, emulator: Emulator): void {
  const withBodies = emulator.writes.log.filter((entry) => entry.body !== undefined);
  expect(withBodies.length).toBeGreaterThan(0);
  for (const entry of withBodies) {
    const path = template(api, entry.path);
    expect([entry.method, path, api.checkRequest(entry.method, path, entry.body)]).toEqual([entry.method, path, []]);
  }
}

function titleFormat(name: string): CustomFormatPayload {
  return {
    name,
    includeCustomFormatWhenRenaming: false,
    specifications: [{ name: 'Title', implementation: 'ReleaseTitleSpecification', negate: false, required: true, fields: [{ name: 'value', value: '\\bHDR\\b' }] }],
  };
}

describeWithShared(OPENAPI_PARTS, 'typed clients against the emulators', () => {
  const cases: [EmulatorApp, 'movie_app' | 'series_app' | 'music_app'][] = [
    ['radarr', 'movie_app'],
    ['sonarr', 'series_app'],
    ['lidarr', 'music_app'],
  ];

  test.each(cases)('%s: a full configuration round trip', async (app, arrType) => {
    const api = loadOpenApi(app);
    const emulator = await startEmulator({ app, apiKey: API_KEY });
    try {
      const client = new ArrClient(arrType, { arrType, baseUrl: emulator.baseUrl, apiKey: API_KEY }, TIMEOUT);
      const status = await checked(api, 'GET', '/system/status', client.systemResource());
      expect(status.appName).toBe(emulator.appName);
      expect(await client.systemStatus()).toEqual({ appName: emulator.appName, version: emulator.version });
      await checked(api, 'GET', '/language', client.listLanguages());

      // Tags
      const tag = await checked(api, 'POST', '/tag', client.createTag('Arrgo'));
      expect(tag.label).toBe('arrgo');
      await checked(api, 'GET', '/tag', client.listTags());
      await checked(api, 'GET', '/tag/{id}', client.getTag(tag.id));
      await checked(api, 'PUT', '/tag/{id}', client.updateTag({ ...tag, label: 'arrgo-2' }));

      // Custom formats; extra properties given by the caller are not sent.
      const withExtras = { ...titleFormat('HDR'), internalNote: 'not for the app' } as CustomFormatPayload;
      const format = await checked(api, 'POST', '/customformat', client.createCustomFormat(withExtras));
      expect(emulator.writes.log.at(-1)!.body).not.toHaveProperty('internalNote');
      await checked(api, 'GET', '/customformat', client.listCustomFormats());
      const read = await checked(api, 'GET', '/customformat/{id}', client.getCustomFormat(format.id));
      await checked(api, 'PUT', '/customformat/{id}', client.updateCustomFormat({ ...read, name: 'HDR10' }));
      const second = await client.createCustomFormat(titleFormat('Remove me'));
      await client.deleteCustomFormat(second.id);
      expect(await client.customFormatSchema()).not.toHaveLength(0);

      // Quality profiles: start from the schema, score the format, create; then update.
      const schema = await checked(api, 'GET', '/qualityprofile/schema', client.qualityProfileSchema());
      const firstQuality = schema.items.find((item) => item.quality)!;
      const payload = {
        ...schema,
        name: 'Arrgo',
        cutoff: firstQuality.quality!.id,
        items: schema.items.map((item) => (item === firstQuality ? { ...item, allowed: true } : item)),
        formatItems: schema.formatItems.map((item) => ({ ...item, score: 100 })),
      };
      const profile = await checked(api, 'POST', '/qualityprofile', client.createQualityProfile(payload));
      expect(profile.formatItems).toEqual([{ format: format.id, name: 'HDR10', score: 100 }]);
      await checked(api, 'GET', '/qualityprofile', client.listQualityProfiles());
      await checked(api, 'GET', '/qualityprofile/{id}', client.getQualityProfile(profile.id));
      await checked(api, 'PUT', '/qualityprofile/{id}', client.updateQualityProfile({ ...profile, upgradeAllowed: true }));

      // Quality definitions: one, then bulk.
      const definitions = await checked(api, 'GET', '/qualitydefinition', client.listQualityDefinitions());
      await checked(api, 'GET', '/qualitydefinition/{id}', client.getQualityDefinition(definitions[1].id));
      await checked(api, 'PUT', '/qualitydefinition/{id}', client.updateQualityDefinition({ ...definitions[1], minSize: 1, preferredSize: 5, maxSize: 10 }));
      const all = await client.updateQualityDefinitions([
        { ...definitions[2], minSize: 1, preferredSize: 6, maxSize: 11 },
        { ...definitions[3], minSize: 1, preferredSize: 7, maxSize: 12 },
      ]);
      expect(api.check('QualityDefinitionResource', all[2])).toEqual([]);
      expect(all.find((definition) => definition.id === definitions[3].id)).toMatchObject({ preferredSize: 7 });

      // Delay profiles.
      const [global] = await checked(api, 'GET', '/delayprofile', client.listDelayProfiles());
      await checked(api, 'PUT', '/delayprofile/{id}', client.updateDelayProfile({ ...global, usenetDelay: 30 }));
      const delay = await checked(
        api,
        'POST',
        '/delayprofile',
        client.createDelayProfile({
          enableUsenet: false,
          enableTorrent: true,
          preferredProtocol: 'torrent',
          usenetDelay: 0,
          torrentDelay: 60,
          bypassIfHighestQuality: true,
          bypassIfAboveCustomFormatScore: false,
          minimumCustomFormatScore: 0,
          tags: [tag.id],
        }),
      );
      await checked(api, 'GET', '/delayprofile/{id}', client.getDelayProfile(delay.id));
      await client.deleteDelayProfile(delay.id);

      // Naming and media management.
      const naming = await checked(api, 'GET', '/config/naming', client.getNamingConfig());
      await checked(api, 'PUT', '/config/naming/{id}', client.updateNamingConfig({ ...naming, replaceIllegalCharacters: false }));
      const media = await checked(api, 'GET', '/config/mediamanagement', client.getMediaManagementConfig());
      const savedMedia = await checked(api, 'PUT', '/config/mediamanagement/{id}', client.updateMediaManagementConfig({ ...media, recycleBinCleanupDays: 14 }));
      expect(savedMedia).toMatchObject({ recycleBinCleanupDays: 14 });

      // Clean-up deletes.
      await client.deleteQualityProfile(profile.id);
      await client.deleteTag(tag.id);

      expectRequestsValid(api, emulator);
      expect(emulator.writes.counts()).toEqual({
        tag: { POST: 1, PUT: 1, DELETE: 1 },
        customformat: { POST: 2, PUT: 1, DELETE: 1 },
        qualityprofile: { POST: 1, PUT: 1, DELETE: 1 },
        qualitydefinition: { PUT: 2 },
        delayprofile: { PUT: 1, POST: 1, DELETE: 1 },
        naming: { PUT: 1 },
        mediamanagement: { PUT: 1 },
      });
    } finally {
      await emulator.close();
    }
  });

  test('Radarr: typed profile language and quality definition limits', async () => {
    const api = loadOpenApi('radarr');
    const emulator = await startEmulator({ app: 'radarr', apiKey: API_KEY });
    try {
      const client = new RadarrClient({ baseUrl: emulator.baseUrl, apiKey: API_KEY }, TIMEOUT);
      const profiles: RadarrQualityProfileResource[] = await client.listQualityProfiles();
      expect(profiles[0].language).toEqual({ id: -2, name: 'Original' });
      expect(await checked(api, 'GET', '/qualitydefinition/limits', client.qualityDefinitionLimits())).toEqual({ min: 0, max: 2000 });
    } finally {
      await emulator.close();
    }
  });

  test('Sonarr: quality definition limits', async () => {
    const emulator = await startEmulator({ app: 'sonarr', apiKey: API_KEY });
    try {
      const client = new SonarrClient({ baseUrl: emulator.baseUrl, apiKey: API_KEY }, TIMEOUT);
      expect(await client.qualityDefinitionLimits()).toEqual({ min: 0, max: 1000 });
    } finally {
      await emulator.close();
    }
  });

  test('Lidarr: metadata profiles', async () => {
    const api = loadOpenApi('lidarr');
    const emulator = await startEmulator({ app: 'lidarr', apiKey: API_KEY });
    try {
      const client = new LidarrClient({ baseUrl: emulator.baseUrl, apiKey: API_KEY }, TIMEOUT);
      const existing = await checked(api, 'GET', '/metadataprofile', client.listMetadataProfiles());
      expect(existing.map((profile) => profile.name)).toEqual(['Standard', 'None']);
      const schema = await checked(api, 'GET', '/metadataprofile/schema', client.metadataProfileSchema());
      const allowAll = <T extends { allowed: boolean }>(items: T[]) => items.map((item) => ({ ...item, allowed: true }));
      const created = await checked(
        api,
        'POST',
        '/metadataprofile',
        client.createMetadataProfile({
          name: 'Everything',
          primaryAlbumTypes: allowAll(schema.primaryAlbumTypes),
          secondaryAlbumTypes: allowAll(schema.secondaryAlbumTypes),
          releaseStatuses: allowAll(schema.releaseStatuses),
        }),
      );
      await checked(api, 'GET', '/metadataprofile/{id}', client.getMetadataProfile(created.id));
      await checked(api, 'PUT', '/metadataprofile/{id}', client.updateMetadataProfile({ ...created, name: 'Everything else' }));
      await client.deleteMetadataProfile(created.id);
      expectRequestsValid(api, emulator);
      expect(emulator.writes.counts()).toEqual({ metadataprofile: { POST: 1, PUT: 1, DELETE: 1 } });
    } finally {
      await emulator.close();
    }
  });
});

describe('the generic ArrClient', () => {
  test.each([
    ['radarr', 'movie_app'],
    ['sonarr', 'series_app'],
    ['lidarr', 'music_app'],
  ] as const)('new ArrClient(arrType, connection, timeout).systemStatus() against %s', async (app, arrType) => {
    const emulator = await startEmulator({ app, apiKey: API_KEY });
    try {
      const client = new ArrClient(arrType, { arrType, baseUrl: emulator.baseUrl, apiKey: API_KEY }, TIMEOUT);
      expect(await client.systemStatus()).toEqual({ appName: emulator.appName, version: emulator.version });
      expect((await client.listQualityProfiles()).length).toBeGreaterThan(0);
    } finally {
      await emulator.close();
    }
  });

  test('createArrClient picks the client of the app', () => {
    const connection = { baseUrl: 'http://127.0.0.1:1', apiKey: API_KEY };
    expect(createArrClient({ ...connection, arrType: 'movie_app' }, TIMEOUT)).toBeInstanceOf(RadarrClient);
    expect(createArrClient({ ...connection, arrType: 'series_app' }, TIMEOUT)).toBeInstanceOf(SonarrClient);
    expect(createArrClient({ ...connection, arrType: 'music_app' }, TIMEOUT)).toBeInstanceOf(LidarrClient);
  });

  test('a base URL with a trailing slash works', async () => {
    const emulator = await startEmulator({ app: 'radarr', apiKey: API_KEY });
    try {
      const client = new RadarrClient({ baseUrl: `${emulator.baseUrl}/`, apiKey: API_KEY }, TIMEOUT);
      expect((await client.systemStatus()).appName).toBe('Radarr');
    } finally {
      await emulator.close();
    }
  });
});
