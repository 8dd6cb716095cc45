/**
 * The emulators reject what the apps reject (with the apps' status codes and error shapes), accept
 * valid payloads, and count exactly the writes they applied.
 */
import { startEmulator, type Emulator } from '../../../src/emulators';
import { API_KEY, APPS, call, newProfile, qualityIdsOf, releaseTitleFormat } from './support';

const messages = (body: any): string[] => (Array.isArray(body) ? body.map((failure: any) => failure.errorMessage) : []);

describe.each(APPS)('%s emulator validation', (app) => {
  let emulator: Emulator;
  beforeAll(async () => {
    emulator = await startEmulator({ app, apiKey: API_KEY });
  });
  afterAll(() => emulator.close());
  beforeEach(() => emulator.reset());

  describe('authentication and HTTP conventions', () => {
    test('a missing or wrong X-Api-Key is 401; the apikey query parameter and a Bearer token work', async () => {
      expect((await call(emulator, 'GET', '/system/status', undefined, { apiKey: null })).status).toBe(401);
      expect((await call(emulator, 'GET', '/system/status', undefined, { apiKey: 'wrong' })).status).toBe(401);
      expect((await call(emulator, 'GET', '/nothing-here', undefined, { apiKey: null })).status).toBe(401);
      const query = await fetch(`${emulator.baseUrl}${emulator.apiBase}/system/status?apikey=${API_KEY}`);
      expect(query.status).toBe(200);
      const bearer = await fetch(`${emulator.baseUrl}${emulator.apiBase}/system/status`, { headers: { Authorization: `Bearer ${API_KEY}` } });
      expect(bearer.status).toBe(200);
      // The query parameter wins over the header, as in the apps.
      const both = await fetch(`${emulator.baseUrl}${emulator.apiBase}/system/status?apikey=nope`, { headers: { 'X-Api-Key': API_KEY } });
      expect(both.status).toBe(401);
    });

    test('unknown paths are 404, unknown verbs 405, routes match case-insensitively', async () => {
      expect((await call(emulator, 'GET', '/nothing-here')).status).toBe(404);
      expect((await call(emulator, 'PATCH', '/tag', {})).status).toBe(405);
      expect((await call(emulator, 'GET', '/QualityProfile')).status).toBe(200);
    });

    test('bodies must be JSON of the right types', async () => {
      expect((await call(emulator, 'POST', '/tag', { label: 'x' }, { contentType: 'text/plain' })).status).toBe(415);
      const malformed = await call(emulator, 'POST', '/tag', undefined, { raw: '{"label": ' });
      expect(malformed.status).toBe(400);
      expect(malformed.body.title).toBe('One or more validation errors occurred.');
      const wrongType = await call(emulator, 'POST', '/customformat', { ...releaseTitleFormat('X'), name: 5 });
      expect(wrongType.status).toBe(400);
      expect(Object.keys(wrongType.body.errors)).toContain('$.name');
      const empty = await call(emulator, 'POST', '/tag', undefined, { raw: '' });
      expect(empty.status).toBe(400);
      expect(emulator.writes.count('tag')).toBe(0);
    });

    test('unknown ids are 404 for get, update and delete', async () => {
      for (const path of ['/customformat/999', '/qualityprofile/999', '/qualitydefinition/999', '/delayprofile/999', '/tag/999']) {
        expect([path, (await call(emulator, 'GET', path)).status]).toEqual([path, 404]);
      }
      expect((await call(emulator, 'PUT', '/customformat/999', { ...releaseTitleFormat('Nope'), id: 999 })).status).toBe(404);
      expect((await call(emulator, 'DELETE', '/customformat/999')).status).toBe(404);
      expect((await call(emulator, 'DELETE', '/qualityprofile/999')).status).toBe(404);
      expect((await call(emulator, 'DELETE', '/tag/999')).status).toBe(404);
      expect((await call(emulator, 'DELETE', '/tag/0')).status).toBe(400);
      expect(emulator.writes.total()).toBe(0);
    });
  });

  describe('custom formats', () => {
    test('create, update and delete; profiles gain and lose the format; exact write counts', async () => {
      const created = await call(emulator, 'POST', '/customformat', releaseTitleFormat('HDR'));
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ name: 'HDR', includeCustomFormatWhenRenaming: false });
      const spec = created.body.specifications[0];
      expect(spec).toMatchObject({ name: 'Title', implementation: 'ReleaseTitleSpecification', implementationName: 'Release Title', negate: false, required: false });
      expect(spec.fields[0]).toMatchObject({ order: 0, name: 'value', label: 'Regular Expression', value: '\\bHDR\\b', type: 'textbox', privacy: 'normal' });

      // Names are unique and case-sensitive.
      const lower = await call(emulator, 'POST', '/customformat', releaseTitleFormat('hdr'));
      expect(lower.status).toBe(201);
      const duplicate = await call(emulator, 'POST', '/customformat', releaseTitleFormat('HDR'));
      expect(duplicate.status).toBe(400);
      expect(duplicate.body[0]).toMatchObject({ propertyName: 'Name', errorMessage: 'Must be unique.', attemptedValue: 'HDR', severity: 'error' });

      let profiles = (await call(emulator, 'GET', '/qualityprofile')).body;
      for (const profile of profiles) {
        expect(profile.formatItems).toEqual([
          { format: lower.body.id, name: 'hdr', score: 0 },
          { format: created.body.id, name: 'HDR', score: 0 },
        ]);
      }

      const updated = await call(emulator, 'PUT', `/customformat/${created.body.id}`, { ...created.body, name: 'HDR10' });
      expect(updated.status).toBe(202);
      expect(updated.body.name).toBe('HDR10');
      profiles = (await call(emulator, 'GET', '/qualityprofile')).body;
      expect(profiles[0].formatItems[1].name).toBe('HDR10');

      expect((await call(emulator, 'DELETE', `/customformat/${lower.body.id}`)).status).toBe(200);
      profiles = (await call(emulator, 'GET', '/qualityprofile')).body;
      for (const profile of profiles) expect(profile.formatItems.map((item: any) => item.format)).toEqual([created.body.id]);

      expect(emulator.writes.count('customformat', 'POST')).toBe(2);
      expect(emulator.writes.count('customformat', 'PUT')).toBe(1);
      expect(emulator.writes.count('customformat', 'DELETE')).toBe(1);
      expect(emulator.writes.count('qualityprofile')).toBe(0);
      expect(emulator.writes.log.filter((entry) => !entry.applied)).toHaveLength(1);
    });

    test('rejects empty names, missing or unnamed conditions, invalid condition values', async () => {
      const noName = await call(emulator, 'POST', '/customformat', releaseTitleFormat(''));
      expect(noName.status).toBe(400);
      expect(messages(noName.body)).toContain("'Name' must not be empty.");

      const noSpecs = await call(emulator, 'POST', '/customformat', { name: 'Empty', specifications: [] });
      expect(noSpecs.status).toBe(400);
      expect(messages(noSpecs.body)).toContain('Must contain at least one Condition');

      const unnamed = releaseTitleFormat('Unnamed');
      unnamed.specifications[0].name = ' ';
      expect(messages((await call(emulator, 'POST', '/customformat', unnamed)).body)).toContain('Condition name(s) cannot be empty or consist of only spaces');

      const emptyRegex = await call(emulator, 'POST', '/customformat', releaseTitleFormat('Blank', ''));
      expect(emptyRegex.status).toBe(400);
      expect(emptyRegex.body[0]).toMatchObject({ propertyName: 'Value', errorMessage: 'Regex Pattern must not be empty', isWarning: false });

      const size = await call(emulator, 'POST', '/customformat', {
        name: 'Size',
        specifications: [{ name: 'Size', implementation: 'SizeSpecification', fields: [{ name: 'min', value: 10 }, { name: 'max', value: 5 }] }],
      });
      expect(size.status).toBe(400);
      expect(size.body[0].propertyName).toBe('Max');
      expect(emulator.writes.count('customformat')).toBe(0);
    });

    test('an unknown specification implementation fails like the apps do (500, ArgumentException)', async () => {
      const bogus = await call(emulator, 'POST', '/customformat', {
        name: 'Bogus',
        specifications: [{ name: 'X', implementation: 'NoSuchSpecification', fields: [{ name: 'value', value: 'x' }] }],
      });
      expect(bogus.status).toBe(500);
      expect(bogus.body.message).toBe('NoSuchSpecification is not a valid specification implementation');
      expect(emulator.writes.count('customformat')).toBe(0);
      expect((await call(emulator, 'GET', '/customformat')).body).toEqual([]);
    });

    test('a create must not carry an id', async () => {
      const withId = await call(emulator, 'POST', '/customformat', { ...releaseTitleFormat('WithId'), id: 7 });
      expect(withId.status).toBe(500);
      expect(withId.body.message).toBe("Can't insert model with existing ID 7");
    });

    test('schema lists the implementations with presets', async () => {
      await call(emulator, 'POST', '/customformat', releaseTitleFormat('Mine'));
      const { body } = await call(emulator, 'GET', '/customformat/schema');
      const title = body.find((spec: any) => spec.implementation === 'ReleaseTitleSpecification');
      expect(title.presets.map((preset: any) => preset.name)).toContain('Mine: Title');
      expect(title.presets.map((preset: any) => preset.name)).toContain('Preferred Words');
      const implementations = body.map((spec: any) => spec.implementation);
      expect(implementations).toContain('SizeSpecification');
      if (app === 'radarr') expect(implementations).toEqual(expect.arrayContaining(['EditionSpecification', 'YearSpecification', 'QualityModifierSpecification']));
      if (app === 'sonarr') expect(implementations).toContain('ReleaseTypeSpecification');
      if (app === 'lidarr') expect(implementations).not.toContain('ResolutionSpecification');
    });
  });

  describe('quality profiles', () => {
    test('a profile built from the schema is accepted; updates persist', async () => {
      const profile = await newProfile(emulator, 'Mine');
      const created = await call(emulator, 'POST', '/qualityprofile', profile);
      expect(created.status).toBe(201);
      expect(created.body.name).toBe('Mine');
      const changed = { ...created.body, upgradeAllowed: true, minFormatScore: 0 };
      const updated = await call(emulator, 'PUT', `/qualityprofile/${created.body.id}`, changed);
      expect(updated.status).toBe(202);
      expect(updated.body.upgradeAllowed).toBe(true);
      expect((await call(emulator, 'GET', `/qualityprofile/${created.body.id}`)).body.upgradeAllowed).toBe(true);
      expect(emulator.writes.count('qualityprofile', 'POST')).toBe(1);
      expect(emulator.writes.count('qualityprofile', 'PUT')).toBe(1);
    });

    test('duplicate names conflict (a unique index: 409)', async () => {
      const profile = await newProfile(emulator, 'Any');
      const duplicate = await call(emulator, 'POST', '/qualityprofile', profile);
      expect(duplicate.status).toBe(409);
      expect((await call(emulator, 'POST', '/qualityprofile', { ...profile, name: 'any' })).status).toBe(201);
    });

    test('formatItems must list every custom format', async () => {
      const format = (await call(emulator, 'POST', '/customformat', releaseTitleFormat('HDR'))).body;
      const profile = await newProfile(emulator, 'Mine');
      expect(profile.formatItems).toEqual([{ format: format.id, name: 'HDR', score: 0 }]);
      const missing = await call(emulator, 'POST', '/qualityprofile', { ...profile, formatItems: [] });
      expect(missing.status).toBe(400);
      expect(missing.body[0]).toMatchObject({
        propertyName: 'FormatItems',
        errorMessage: 'All Custom Formats and no extra ones need to be present inside your Profile! Try refreshing your browser.',
      });
      const unreachable = await call(emulator, 'POST', '/qualityprofile', { ...profile, minFormatScore: 100, formatItems: [{ format: format.id, score: 10 }] });
      expect(messages(unreachable.body)).toContain('Minimum Custom Format Score can never be satisfied');
    });

    test('items must contain every quality exactly once, groups need >= 2 qualities and ids >= 1000', async () => {
      const profile = await newProfile(emulator, 'Mine');
      const withoutLast = { ...profile, items: profile.items.slice(0, -1) };
      expect(messages((await call(emulator, 'POST', '/qualityprofile', withoutLast)).body)).toContain('Must contain all qualities');

      // (Duplicating the cutoff quality would make the apps' cutoff lookup throw: a 500.)
      const notCutoff = profile.items.find((item: any) => item.quality && item.quality.id !== profile.cutoff);
      const duplicated = { ...profile, items: [...profile.items, notCutoff] };
      expect(messages((await call(emulator, 'POST', '/qualityprofile', duplicated)).body)).toContain('Qualities can only be used once');
      expect((await call(emulator, 'POST', '/qualityprofile', { ...profile, items: [...profile.items, profile.items[0]] })).status).toBe(500);

      // Split a group into a one-quality group plus a single quality.
      const groupIndex = profile.items.findIndex((item: any) => !item.quality);
      const group = profile.items[groupIndex];
      const [kept, ...rest] = group.items;
      const tinyGroup = { ...group, items: [kept] };
      const singles = rest.map((inner: any) => ({ quality: inner.quality, items: [], allowed: false }));
      const splitItems = [...profile.items.slice(0, groupIndex), tinyGroup, ...singles, ...profile.items.slice(groupIndex + 1)];
      expect(qualityIdsOf(splitItems).sort()).toEqual(qualityIdsOf(profile.items).sort());
      expect(messages((await call(emulator, 'POST', '/qualityprofile', { ...profile, items: splitItems })).body)).toContain('Groups must contain multiple qualities');

      const lowId = { ...profile, items: profile.items.map((item: any, index: number) => (index === groupIndex ? { ...item, id: 5 } : item)) };
      expect(messages((await call(emulator, 'POST', '/qualityprofile', lowId)).body)).toContain('Group IDs must be 1000 or greater');

      const noneAllowed = { ...profile, items: profile.items.map((item: any) => ({ ...item, allowed: false })) };
      expect(messages((await call(emulator, 'POST', '/qualityprofile', noneAllowed)).body)).toContain('Must contain at least one allowed quality');
      expect(emulator.writes.count('qualityprofile')).toBe(0);
    });

    test('the cutoff must be an allowed item', async () => {
      const profile = await newProfile(emulator, 'Mine');
      const notAllowed = profile.items.find((item: any) => item.quality && !item.allowed);
      const response = await call(emulator, 'POST', '/qualityprofile', { ...profile, cutoff: notAllowed.quality.id });
      expect(response.status).toBe(400);
      expect(response.body[0]).toMatchObject({ propertyName: 'Cutoff', errorMessage: 'Cutoff must be an allowed quality or group' });
      expect((await call(emulator, 'POST', '/qualityprofile', { ...profile, cutoff: 424242 })).status).toBe(400);
    });

    test('minUpgradeFormatScore must be >= 1 where it exists', async () => {
      const profile = await newProfile(emulator, 'Mine');
      const response = await call(emulator, 'POST', '/qualityprofile', { ...profile, minUpgradeFormatScore: 0 });
      if (app === 'lidarr') {
        // Lidarr has no such property; unknown properties are ignored.
        expect(response.status).toBe(201);
      } else {
        expect(response.status).toBe(400);
        expect(response.body[0]).toMatchObject({
          propertyName: 'MinUpgradeFormatScore',
          errorMessage: "'Min Upgrade Format Score' must be greater than or equal to '1'.",
          attemptedValue: 0,
        });
      }
    });

    test('an unknown quality id in items fails like the apps (500)', async () => {
      const profile = await newProfile(emulator, 'Mine');
      const items = [...profile.items, { quality: { id: 999, name: 'Imaginary' }, items: [], allowed: false }];
      expect((await call(emulator, 'POST', '/qualityprofile', { ...profile, items })).status).toBe(500);
    });
  });

  describe('quality definitions', () => {
    test('single and bulk updates', async () => {
      const { body: definitions } = await call(emulator, 'GET', '/qualitydefinition');
      const one = { ...definitions[1], title: 'Renamed', minSize: 1, preferredSize: 20, maxSize: 50 };
      const single = await call(emulator, 'PUT', `/qualitydefinition/${one.id}`, one);
      expect(single.status).toBe(202);
      expect(single.body).toMatchObject({ title: 'Renamed', minSize: 1, preferredSize: 20, maxSize: 50 });
      const bulk = await call(emulator, 'PUT', '/qualitydefinition/update', [
        { ...definitions[2], minSize: 2, preferredSize: 3, maxSize: 4 },
        { ...definitions[3], maxSize: null, preferredSize: null },
      ]);
      expect(bulk.status).toBe(202);
      expect(bulk.body).toHaveLength(definitions.length);
      expect(bulk.body[2]).toMatchObject({ minSize: 2, preferredSize: 3, maxSize: 4 });
      expect(bulk.body[3]).not.toHaveProperty('maxSize');
      expect(emulator.writes.count('qualitydefinition', 'PUT')).toBe(2);
      expect(emulator.writes.of('qualitydefinition')[1].ids).toEqual([definitions[2].id, definitions[3].id]);
    });

    test('sizes out of order are rejected by Radarr and Sonarr only', async () => {
      const { body: definitions } = await call(emulator, 'GET', '/qualitydefinition');
      const response = await call(emulator, 'PUT', `/qualitydefinition/${definitions[1].id}`, { ...definitions[1], minSize: 50, preferredSize: 20, maxSize: 10 });
      if (app === 'lidarr') {
        expect(response.status).toBe(202);
      } else {
        expect(response.status).toBe(400);
        expect(response.body.map((failure: any) => failure.propertyName)).toEqual(expect.arrayContaining(['MinSize', 'PreferredSize', 'MaxSize']));
        expect((await call(emulator, 'PUT', `/qualitydefinition/${definitions[1].id}`, { ...definitions[1], maxSize: 5000 })).status).toBe(400);
        const limits = await call(emulator, 'GET', '/qualitydefinition/limits');
        expect(limits.body).toEqual({ min: 0, max: app === 'radarr' ? 2000 : 1000 });
      }
    });
  });

  describe('delay profiles and tags', () => {
    test('the global profile takes no tags and cannot be deleted', async () => {
      const { body: global } = await call(emulator, 'GET', '/delayprofile/1');
      const tagged = await call(emulator, 'PUT', '/delayprofile/1', { ...global, tags: [1] });
      expect(tagged.status).toBe(400);
      expect(tagged.body[0]).toMatchObject({ propertyName: 'Tags', errorMessage: 'Collection Must Be Empty' });
      const deleted = await call(emulator, 'DELETE', '/delayprofile/1');
      expect(deleted.status).toBe(405);
      expect(deleted.body.message).toBe('MethodNotAllowed: Cannot delete global delay profile');
      const updated = await call(emulator, 'PUT', '/delayprofile/1', { ...global, usenetDelay: 60 });
      expect(updated.status).toBe(202);
      expect(emulator.writes.count('delayprofile')).toBe(1);
    });

    test('other profiles need tags, unique across profiles, and one protocol enabled', async () => {
      const tag = (await call(emulator, 'POST', '/tag', { label: 'Anime' })).body;
      expect(tag.label).toBe('anime');
      expect((await call(emulator, 'POST', '/tag', { label: 'anime' })).body.id).toBe(tag.id);
      const base = { enableUsenet: true, enableTorrent: false, preferredProtocol: 'usenet', usenetDelay: 10, torrentDelay: 0, bypassIfHighestQuality: false };
      const untagged = await call(emulator, 'POST', '/delayprofile', { ...base, tags: [] });
      expect(messages(untagged.body)).toContain("'Tags' must not be empty.");
      const created = await call(emulator, 'POST', '/delayprofile', { ...base, tags: [tag.id] });
      expect(created.status).toBe(201);
      expect(created.body.order).toBe(1);
      const reused = await call(emulator, 'POST', '/delayprofile', { ...base, tags: [tag.id] });
      expect(messages(reused.body)).toContain('One or more tags is used in another profile');
      const neither = await call(emulator, 'PUT', `/delayprofile/${created.body.id}`, { ...created.body, enableUsenet: false });
      expect(messages(neither.body)).toContain('Either Usenet or Torrent should be enabled');
      expect((await call(emulator, 'DELETE', `/tag/${tag.id}`)).status).toBe(409);
      expect((await call(emulator, 'DELETE', `/delayprofile/${created.body.id}`)).status).toBe(200);
      expect((await call(emulator, 'DELETE', `/tag/${tag.id}`)).status).toBe(200);
      expect(emulator.writes.counts()).toEqual({ tag: { POST: 2, DELETE: 1 }, delayprofile: { POST: 1, DELETE: 1 } });
    });

    test('tag label rules differ per app', async () => {
      const response = await call(emulator, 'POST', '/tag', { label: 'has space' });
      if (app === 'radarr') {
        expect(response.status).toBe(400);
        expect(response.body[0].errorMessage).toBe('Allowed characters a-z, 0-9 and -');
      } else {
        expect(response.status).toBe(201);
      }
    });
  });

  describe('naming and media management', () => {
    test('a valid naming change is saved; formats without the required tokens are rejected', async () => {
      const { body: naming } = await call(emulator, 'GET', '/config/naming');
      const formatKey = { radarr: 'standardMovieFormat', sonarr: 'standardEpisodeFormat', lidarr: 'standardTrackFormat' }[app];
      const valid = { radarr: '{Movie Title} ({Release Year}) - {Edition Tags}', sonarr: '{Series Title} S{season:00}E{episode:00}', lidarr: '{Artist Name} - {track:00} - {Track Title}' }[app];
      const saved = await call(emulator, 'PUT', '/config/naming/1', { ...naming, [formatKey]: valid });
      expect(saved.status).toBe(202);
      expect(saved.body[formatKey]).toBe(valid);
      const invalid = await call(emulator, 'PUT', '/config/naming/1', { ...naming, [formatKey]: 'just text' });
      expect(invalid.status).toBe(400);
      expect((await call(emulator, 'GET', '/config/naming')).body[formatKey]).toBe(valid);
      expect(emulator.writes.count('naming', 'PUT')).toBe(1);
    });

    test('media management: limits, and empty settings read back as the default', async () => {
      const { body: media } = await call(emulator, 'GET', '/config/mediamanagement');
      const tooLittle = await call(emulator, 'PUT', '/config/mediamanagement/1', { ...media, minimumFreeSpaceWhenImporting: 50 });
      expect(tooLittle.status).toBe(400);
      expect(tooLittle.body[0].propertyName).toBe('MinimumFreeSpaceWhenImporting');
      const saved = await call(emulator, 'PUT', '/config/mediamanagement/1', { ...media, recycleBinCleanupDays: 30, chmodFolder: '', copyUsingHardlinks: false });
      expect(saved.status).toBe(202);
      expect(saved.body).toMatchObject({ recycleBinCleanupDays: 30, chmodFolder: '755', copyUsingHardlinks: false });
      expect((await call(emulator, 'PUT', '/config/mediamanagement/1', { ...media, recycleBin: 'relative/path' })).status).toBe(400);
    });
  });
});

describe('Lidarr metadata profiles', () => {
  let emulator: Emulator;
  beforeAll(async () => {
    emulator = await startEmulator({ app: 'lidarr', apiKey: API_KEY });
  });
  afterAll(() => emulator.close());

  test('"None" is reserved, lists need an allowed entry, names are unique, None cannot be deleted', async () => {
    const { body: schema } = await call(emulator, 'GET', '/metadataprofile/schema');
    const allowFirst = (list: any[]) => list.map((item, index) => ({ ...item, allowed: index === 0 }));
    const profile = {
      name: 'Albums',
      primaryAlbumTypes: allowFirst(schema.primaryAlbumTypes),
      secondaryAlbumTypes: allowFirst(schema.secondaryAlbumTypes),
      releaseStatuses: allowFirst(schema.releaseStatuses),
    };
    const reserved = await call(emulator, 'POST', '/metadataprofile', { ...profile, name: 'None' });
    expect(reserved.status).toBe(400);
    expect(reserved.body[0]).toMatchObject({ propertyName: 'Name', errorMessage: "'None' is a reserved profile name" });
    const nothingAllowed = await call(emulator, 'POST', '/metadataprofile', { ...profile, primaryAlbumTypes: schema.primaryAlbumTypes });
    expect(messages(nothingAllowed.body)).toContain('Must have at least one allowed primary type');
    const created = await call(emulator, 'POST', '/metadataprofile', profile);
    expect(created.status).toBe(201);
    expect((await call(emulator, 'POST', '/metadataprofile', profile)).status).toBe(409);
    const none = (await call(emulator, 'GET', '/metadataprofile')).body.find((candidate: any) => candidate.name === 'None');
    const deleteNone = await call(emulator, 'DELETE', `/metadataprofile/${none.id}`);
    expect(deleteNone.status).toBe(400);
    expect(deleteNone.body.message).toBe('Metadata profile [None] is in use.');
    expect((await call(emulator, 'PUT', `/metadataprofile/${created.body.id}`, { ...created.body, name: 'Albums 2' })).status).toBe(202);
    expect((await call(emulator, 'DELETE', `/metadataprofile/${created.body.id}`)).status).toBe(200);
    expect(emulator.writes.counts()).toEqual({ metadataprofile: { POST: 1, PUT: 1, DELETE: 1 } });
  });
});

describe('state edits simulate manual changes in the app', () => {
  test('a profile edited through state is what GET returns; reset restores the fresh install', async () => {
    const emulator = await startEmulator({ app: 'radarr', apiKey: API_KEY });
    try {
      emulator.state.qualityProfiles.find((profile) => profile.name === 'HD-1080p')!.upgradeAllowed = true;
      emulator.state.tags.push({ id: 40, label: 'manual' });
      const profile = (await call(emulator, 'GET', '/qualityprofile')).body.find((candidate: any) => candidate.name === 'HD-1080p');
      expect(profile.upgradeAllowed).toBe(true);
      const tag = await call(emulator, 'POST', '/tag', { label: 'next' });
      expect(tag.body.id).toBe(41);
      emulator.reset();
      expect((await call(emulator, 'GET', '/tag')).body).toEqual([]);
      expect(emulator.writes.total()).toBe(0);
    } finally {
      await emulator.close();
    }
  });

  test('strictGroupIds: false accepts low group ids, as the apps themselves do', async () => {
    const emulator = await startEmulator({ app: 'sonarr', apiKey: API_KEY, strictGroupIds: false });
    try {
      const profile = await newProfile(emulator, 'Low ids');
      const groupIndex = profile.items.findIndex((item: any) => !item.quality);
      profile.items[groupIndex] = { ...profile.items[groupIndex], id: 500 };
      expect((await call(emulator, 'POST', '/qualityprofile', profile)).status).toBe(201);
    } finally {
      await emulator.close();
    }
  });
});
