/**
 * Planning without an app: sections (requested, skipped), the live parts a selection needs, issues
 * for entities the database lacks, and the preview's shape.
 */
import fs from 'node:fs';
import path from 'node:path';
import { appSections, emptySelection, liveNeeds, planSync, readSyncSource, selectedSections, type LiveState } from '../../../src/domain/sync';
import { fetchLive, sampleDatabase, sampleSelection, startApp } from './helpers';

let radarrLive: LiveState;
beforeAll(async () => {
  const target = await startApp('radarr');
  radarrLive = await fetchLive(target.client);
  await target.emulator.close();
});

describe('sections', () => {
  it('metadata profiles are a Lidarr section only', () => {
    expect(appSections('movie_app')).toEqual(['qualityProfiles', 'delayProfiles', 'mediaManagement']);
    expect(appSections('music_app')).toEqual(['qualityProfiles', 'delayProfiles', 'mediaManagement', 'metadataProfiles']);
    expect(selectedSections('movie_app', { ...emptySelection(), metadataProfile: 'X', naming: 'N' })).toEqual(['mediaManagement']);
  });

  it('previews only the requested sections; a requested section with nothing selected is skipped', () => {
    const selection = { ...sampleSelection('movie_app'), naming: null, mediaSettings: null, qualityDefinitions: null };
    const source = readSyncSource(sampleDatabase(), 'movie_app', selection);
    // Only the delay profile is read: nothing else of the live state is needed.
    const live: LiveState = { delayProfiles: radarrLive.delayProfiles };
    const { preview, plan } = planSync({ arrType: 'movie_app', selection, source, live, sections: ['delayProfiles', 'mediaManagement', 'metadataProfiles'] });
    expect(preview.sectionOutcomes).toEqual([
      { section: 'delayProfiles', skipped: false },
      { section: 'mediaManagement', skipped: true },
    ]);
    expect(preview.sections).toEqual(['delayProfiles']);
    expect([preview.qualityProfiles, preview.mediaManagement, preview.metadataProfiles]).toEqual([null, null, null]);
    expect(preview.delayProfiles).toEqual({
      section: 'delayProfiles',
      profile: {
        entityType: 'delayProfile',
        name: 'Standard',
        action: 'update',
        remoteId: 1,
        fields: [{ field: 'torrentDelay', type: 'changed', current: 0, desired: 120 }],
      },
    });
    expect(preview.counts).toEqual({ create: 0, update: 1, delete: 0, unchanged: 0 });
    expect(plan.steps.map((s) => [s.kind, s.op, s.name])).toEqual([['delayProfile', 'merge', 'Standard']]);
  });

  it('names the live parts a selection needs, and refuses to plan without them', () => {
    expect(liveNeeds('movie_app', sampleSelection('movie_app'))).toEqual([
      'customFormats',
      'qualityProfiles',
      'qualityDefinitions',
      'languages',
      'delayProfiles',
      'naming',
      'mediaManagement',
      'qualityDefinitionLimits',
    ]);
    expect(liveNeeds('music_app', sampleSelection('music_app'), ['metadataProfiles', 'mediaManagement'])).toEqual(['naming', 'mediaManagement', 'qualityDefinitions', 'metadataProfiles']);
    const selection = sampleSelection('movie_app');
    const source = readSyncSource(sampleDatabase(), 'movie_app', selection);
    expect(() => planSync({ arrType: 'movie_app', selection, source, live: { delayProfiles: [] } })).toThrow('live.customFormats is required');
    expect(() => planSync({ arrType: 'series_app', selection, source, live: radarrLive })).toThrow('the source was read for movie_app');
  });
});

describe('entities the database lacks', () => {
  it('are reported as errors of their section; the rest is previewed', () => {
    const selection = { ...sampleSelection('movie_app'), qualityProfiles: ['Movies 1080p', 'Nope'], naming: 'Nope' };
    const source = readSyncSource(sampleDatabase(), 'movie_app', selection);
    expect(source.missing).toEqual([
      { entityType: 'quality_profile', name: 'Nope' },
      { entityType: 'movie_app_naming', name: 'Nope' },
    ]);
    const { preview } = planSync({ arrType: 'movie_app', selection, source, live: radarrLive });
    expect(preview.issues).toEqual([
      { severity: 'error', section: 'qualityProfiles', entityType: 'qualityProfile', name: 'Nope', message: 'not found in the database' },
      { severity: 'error', section: 'mediaManagement', entityType: 'naming', name: 'Nope', message: 'not found in the database' },
    ]);
    expect(preview.qualityProfiles!.qualityProfiles.filter((c) => c.action === 'create').map((c) => c.name)).toEqual(['Movies 1080p']);
    expect(preview.mediaManagement!.naming).toBeNull();
    expect(preview.mediaManagement!.mediaSettings).not.toBeNull();
  });
});

describe('workflow safety', () => {
  it('drift classification and preview reading import nothing at runtime beyond each other', () => {
    const runtimeImports = (file: string) =>
      [...fs.readFileSync(path.resolve(__dirname, '..', '..', '..', 'src', 'domain', 'sync', file), 'utf8').matchAll(/^import (?!type )[^;]*from '([^']+)'/gm)].map((m) => m[1]);
    expect(runtimeImports('drift.ts')).toEqual(['./preview']);
    expect(runtimeImports('preview.ts')).toEqual([]);
  });
});
