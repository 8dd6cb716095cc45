/**
 * Manual edits made in the app (directly in the emulator's state, or through its API) show up as
 * drift (update, with dot-notated field paths), missing (create) and unmanaged entries; a sync puts
 * everything back; deleteUnmanaged decides whether unmanaged entities go; namespaced names are
 * stripped in SyncChange.name.
 */
import { applyPlan, classifyDrift, type SyncChange } from '../../../src/domain/sync';
import { pending, planFor, sampleDatabase, sampleSelection, startApp, syncRound, type AppUnderTest } from './helpers';

const fieldsOf = (change: SyncChange | undefined) => change?.fields.map((f) => [f.field, f.type, f.current, f.desired]);

describe('drift on Radarr after a sync of the sample PCD', () => {
  let target: AppUnderTest;
  beforeEach(async () => {
    target = await startApp('radarr');
    await syncRound(sampleDatabase(), target, sampleSelection('movie_app'));
  });
  afterEach(() => target.emulator.close());

  it('in sync right after the sync', async () => {
    const drift = classifyDrift((await planFor(sampleDatabase(), target, sampleSelection('movie_app'))).preview);
    expect(drift.inSync).toBe(true);
    expect(drift.counts).toEqual({ drifted: 0, missing: 0, unmanaged: 6 });
    expect(drift.unmanaged.map((c) => [c.section, c.entityType, c.name, c.action, c.category])).toContainEqual([
      'qualityProfiles',
      'qualityProfile',
      'Any',
      'delete',
      'unmanaged',
    ]);
  });

  it('reports edits as drift with field paths, deleted entities as missing, and new ones as unmanaged', async () => {
    const { state } = target.emulator;
    // Custom format: a condition flipped and a pattern edited.
    const cam = state.customFormats.find((f) => f.name === 'Cam')!;
    cam.specifications.find((s) => s.name === 'Not Bluray')!.negate = false;
    cam.specifications.find((s) => s.name === 'Cam Rip')!.fields[0].value = '\\bCAM\\b';
    // Quality profile: a score, the minimum, the cutoff, an allowed flag and the order of two items.
    const profile = state.qualityProfiles.find((p) => p.name === 'Movies 1080p')!;
    const atmosId = state.customFormats.find((f) => f.name === 'Atmos')!.id;
    profile.formatItems.find((f) => f.format === atmosId)!.score = 5;
    profile.minFormatScore = -50;
    profile.cutoff = 6; // Bluray-720p
    const cam720 = profile.items.find((i) => i.quality?.name === 'CAM')!;
    cam720.allowed = true;
    const n = profile.items.length;
    [profile.items[n - 1], profile.items[n - 2]] = [profile.items[n - 2], profile.items[n - 1]];
    // Naming, media management, a quality definition and the delay profile.
    state.naming.standardMovieFormat = '{Movie Title} ({Release Year})';
    state.mediaManagement.enableMediaInfo = false;
    state.qualityDefinitions.find((d) => d.quality.name === 'WEBDL-1080p')!.maxSize = 380;
    state.delayProfiles[0].torrentDelay = 0;
    // A format deleted in the app (the app also drops it from every profile) and one the user added.
    await target.client.deleteCustomFormat(state.customFormats.find((f) => f.name === "Director's Cut")!.id);
    await target.client.createCustomFormat({
      name: 'My Own',
      includeCustomFormatWhenRenaming: false,
      specifications: [{ name: 'x', implementation: 'ReleaseTitleSpecification', negate: false, required: false, fields: [{ name: 'value', value: 'x' }] }],
    });

    const { preview } = await planFor(sampleDatabase(), target, sampleSelection('movie_app'));
    const drift = classifyDrift(preview);
    const byName = (list: SyncChange[], name: string) => list.find((c) => c.name === name);

    expect(drift.inSync).toBe(false);
    expect(drift.counts).toEqual({ drifted: 6, missing: 1, unmanaged: 7 });
    expect(drift.drift.map((c) => [c.section, c.entityType, c.name, c.action, c.category])).toEqual([
      ['qualityProfiles', 'customFormat', 'Cam', 'update', 'drift'],
      ['qualityProfiles', 'qualityProfile', 'Movies 1080p', 'update', 'drift'],
      ['delayProfiles', 'delayProfile', 'Standard', 'update', 'drift'],
      ['mediaManagement', 'naming', 'Standard', 'update', 'drift'],
      ['mediaManagement', 'qualityDefinition', 'WEBDL-1080p', 'update', 'drift'],
      ['mediaManagement', 'mediaSettings', 'Standard', 'update', 'drift'],
    ]);
    expect(fieldsOf(byName(drift.drift, 'Cam'))).toEqual([
      ['specifications.Cam Rip.fields.value', 'changed', '\\bCAM\\b', '\\b(CAM|HDCAM|TS|TELESYNC)\\b'],
      ['specifications.Not Bluray.negate', 'changed', false, true],
    ]);
    const items = profile.items.slice(-2).map((i) => i.quality!.name);
    expect(fieldsOf(byName(drift.drift, 'Movies 1080p'))).toEqual([
      ['cutoff', 'changed', 'Bluray-720p', 'Bluray-1080p'],
      ['minFormatScore', 'changed', -50, 0],
      ['items', 'changed', expect.arrayContaining(items), expect.arrayContaining(items)],
      ['items.CAM.allowed', 'changed', true, false],
      ['formatItems.Atmos', 'changed', 5, 100],
      ["formatItems.Director's Cut", 'added', null, 25],
    ]);
    expect(fieldsOf(byName(drift.drift, 'Standard'))).toEqual([['torrentDelay', 'changed', 0, 120]]);
    expect(fieldsOf(drift.drift.find((c) => c.entityType === 'naming'))).toEqual([
      ['standardMovieFormat', 'changed', '{Movie Title} ({Release Year})', '{Movie CleanTitle} ({Release Year}) {edition-{Edition Tags}} [{Quality Full}]{-Release Group}'],
    ]);
    expect(fieldsOf(byName(drift.drift, 'WEBDL-1080p'))).toEqual([['maxSize', 'changed', 380, 400]]);
    expect(fieldsOf(drift.drift.find((c) => c.entityType === 'mediaSettings'))).toEqual([['enableMediaInfo', 'changed', false, true]]);

    expect(drift.missing).toEqual([
      { section: 'qualityProfiles', entityType: 'customFormat', name: "Director's Cut", action: 'create', category: 'missing', remoteId: null, fields: [] },
    ]);
    expect(byName(drift.unmanaged, 'My Own')).toMatchObject({ section: 'qualityProfiles', entityType: 'customFormat', action: 'delete', category: 'unmanaged', fields: [] });

    // Without deleteUnmanaged the sync restores everything and keeps the user's format.
    const plan = await planFor(sampleDatabase(), target, sampleSelection('movie_app'));
    expect(plan.plan.steps.some((s) => s.op === 'delete')).toBe(false);
    expect(byName(plan.preview.qualityProfiles!.customFormats, 'My Own')).toMatchObject({ action: 'unchanged', category: 'unmanaged' });
    await applyPlan(plan.plan, target.client);
    const after = await planFor(sampleDatabase(), target, sampleSelection('movie_app'));
    expect(pending(after)).toEqual([]);
    expect(classifyDrift(after.preview)).toMatchObject({ inSync: true, counts: { drifted: 0, missing: 0, unmanaged: 7 } });
    expect(state.customFormats.map((f) => f.name)).toContain('My Own');
    // The restored profile scores the user's format 0, as the app requires every format listed.
    const restored = target.emulator.state.qualityProfiles.find((p) => p.name === 'Movies 1080p')!;
    expect(restored.formatItems).toHaveLength(target.emulator.state.customFormats.length);

    // With deleteUnmanaged the user's format and the default profiles are deleted, last.
    const deleting = await planFor(sampleDatabase(), target, sampleSelection('movie_app', { deleteUnmanaged: true }));
    expect(deleting.plan.steps.map((s) => [s.kind, s.op, s.name])).toEqual([
      ...['Any', 'SD', 'HD-720p', 'HD-1080p', 'Ultra-HD', 'HD - 720p/1080p'].map((n) => ['qualityProfile', 'delete', n]),
      ['customFormat', 'delete', 'My Own'],
    ]);
    expect(deleting.preview.counts).toMatchObject({ create: 0, update: 0, delete: 7 });
    await applyPlan(deleting.plan, target.client);
    expect(target.emulator.state.customFormats.map((f) => f.name)).not.toContain('My Own');
    const clean = await planFor(sampleDatabase(), target, sampleSelection('movie_app', { deleteUnmanaged: true }));
    expect(clean.plan.steps).toEqual([]);
    expect(classifyDrift(clean.preview).counts).toEqual({ drifted: 0, missing: 0, unmanaged: 0 });
  });
});

describe('drift with a namespace', () => {
  it('strips the namespace in names and finds arrgo\'s entities by their suffixed names', async () => {
    const target = await startApp('lidarr');
    try {
      const selection = sampleSelection('music_app', { namespace: 'arrgo' });
      await syncRound(sampleDatabase(), target, selection);
      const { state } = target.emulator;
      expect(state.customFormats.map((f) => f.name).sort()).toEqual(['FLAC 24bit [arrgo]', 'Music Groups [arrgo]', 'Vinyl [arrgo]']);
      expect(state.metadataProfiles.map((p) => p.name)).toEqual(['Standard', 'None', 'Studio Albums [arrgo]']);

      state.metadataProfiles[2].primaryAlbumTypes.find((t) => t.albumType.name === 'Single')!.allowed = true;
      state.customFormats.find((f) => f.name === 'Vinyl [arrgo]')!.includeCustomFormatWhenRenaming = true;
      const profile = state.qualityProfiles.find((p) => p.name === 'Music Lossless [arrgo]')!;
      // FLAC taken out of the Lossless group, as a quality of its own at the top.
      const flac = profile.items.find((i) => i.name === 'Lossless')!.items.pop()!;
      expect(flac.quality!.name).toBe('FLAC');
      profile.items.push({ quality: flac.quality, items: [], allowed: false });

      const drift = classifyDrift((await planFor(sampleDatabase(), target, selection)).preview);
      expect(drift.drift.map((c) => [c.entityType, c.name, fieldsOf(c)])).toEqual([
        ['customFormat', 'Vinyl', [['includeCustomFormatWhenRenaming', 'changed', true, false]]],
        [
          'qualityProfile',
          'Music Lossless',
          [
            ['items.FLAC', 'removed', { name: 'FLAC', allowed: false }, null],
            ['items.Lossless.qualities', 'changed', ['ALAC'], ['ALAC', 'FLAC']],
          ],
        ],
        ['metadataProfile', 'Studio Albums', [['primaryAlbumTypes.Single', 'changed', true, false]]],
      ]);
      expect(drift.unmanaged.map((c) => c.name)).toEqual(['Any', 'Lossless', 'Standard']);
    } finally {
      await target.emulator.close();
    }
  });
});
