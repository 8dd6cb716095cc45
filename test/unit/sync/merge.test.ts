import type { CustomFormatData, QualityProfileData } from '../../../src/domain/pcd';
import {
  annotateOrigins,
  catalogFromLive,
  effectiveSelection,
  emptySelection,
  mergeSyncSources,
  readSyncSource,
  transformSource,
  type DatabaseSource,
  type SyncPreviewGroups,
  type SyncSource,
} from '../../../src/domain/sync';
import { sampleDatabase, sampleSelection } from './helpers';

const selection = sampleSelection('movie_app');
const base = (): SyncSource => structuredClone(readSyncSource(sampleDatabase(), 'movie_app', selection));

/** A second database: the sample's formats, one of them (Atmos) with other conditions, its own x265 pattern and profile. */
function otherSource(): SyncSource {
  const source = base();
  const atmos = source.customFormats.find((f) => f.name === 'Atmos')!;
  atmos.conditions = [atmos.conditions[0]].map((c) => ({ ...c, required: false }));
  source.regularExpressions.x265 = 'x\\.?265-other';
  const altOnly: CustomFormatData = { ...structuredClone(source.customFormats.find((f) => f.name === 'x265 (HD)')!), name: 'Alt Only' };
  source.customFormats.push(altOnly);
  const profile = source.qualityProfiles[0] as QualityProfileData;
  profile.name = 'Movies Alt';
  profile.customFormats.all.push({ name: 'Alt Only', score: 5 });
  return source;
}

const first = (): DatabaseSource => ({ databaseId: 1, databaseName: 'one', selection, source: base() });
const second = (): DatabaseSource => ({ databaseId: 2, databaseName: 'two', selection: { ...selection, qualityProfiles: ['Movies Alt'], delayProfile: 'Other', naming: null }, source: otherSource() });

describe('mergeSyncSources', () => {
  it('returns a single database source as it is, every entity from that database', () => {
    const only = first();
    const merged = mergeSyncSources([only]);
    expect(merged.source).toBe(only.source);
    expect(merged.selection).toBe(only.selection);
    expect(merged.collisions).toEqual([]);
    expect(merged.origins.customFormat).toEqual({ Atmos: 1, Cam: 1, "Director's Cut": 1, 'Preferred Groups': 1, 'x265 (HD)': 1 });
    expect(merged.origins.qualityProfile).toEqual({ 'Movies 1080p': 1 });
    expect(merged.origins.delayProfile).toBe(1);
    expect(merged.databases).toEqual([{ databaseId: 1, name: 'one' }]);
  });

  it('takes a colliding custom format from the earlier database and names the loser and the profile it overrides', () => {
    const merged = mergeSyncSources([first(), second()]);
    const atmos = merged.source.customFormats.find((f) => f.name === 'Atmos')!;
    expect(atmos.conditions).toHaveLength(2);
    expect(atmos.conditions[0].required).toBe(true);
    expect(merged.origins.customFormat.Atmos).toBe(1);
    expect(merged.origins.customFormat['Alt Only']).toBe(2);
    expect(merged.source.qualityProfiles.map((p) => p.name)).toEqual(['Movies 1080p', 'Movies Alt']);
    expect(merged.collisions.find((c) => c.entityType === 'customFormat' && c.name === 'Atmos')).toEqual({
      entityType: 'customFormat',
      name: 'Atmos',
      winner: { databaseId: 1, databaseName: 'one' },
      losers: [{ databaseId: 2, databaseName: 'two' }],
      kind: 'formatOverride',
      profile: 'Movies Alt',
    });
    expect(merged.source.customFormats.map((f) => f.name)).toEqual(['Alt Only', 'Atmos', 'Cam', "Director's Cut", 'Preferred Groups', 'x265 (HD)']);
  });

  it('swapping the order swaps the winner', () => {
    const merged = mergeSyncSources([second(), first()]);
    const atmos = merged.source.customFormats.find((f) => f.name === 'Atmos')!;
    expect(atmos.conditions).toHaveLength(1);
    expect(atmos.conditions[0].required).toBe(false);
    expect(merged.origins.customFormat.Atmos).toBe(2);
    const collision = merged.collisions.find((c) => c.name === 'Atmos')!;
    expect(collision.winner.databaseId).toBe(2);
    expect(collision.losers).toEqual([{ databaseId: 1, databaseName: 'one' }]);
    expect(collision.profile).toBe('Movies 1080p');
  });

  it('keeps each format\'s own pattern when two databases give a regular expression name different patterns', () => {
    const merged = mergeSyncSources([first(), second()]);
    const x265 = merged.source.customFormats.find((f) => f.name === 'x265 (HD)')!;
    const altOnly = merged.source.customFormats.find((f) => f.name === 'Alt Only')!;
    const regexOf = (f: CustomFormatData) => (f.conditions[0] as { regularExpression: string }).regularExpression;
    expect(regexOf(x265)).toBe('x265');
    expect(regexOf(altOnly)).toBe('x265 (two)');
    expect(merged.source.regularExpressions.x265).toBe(base().regularExpressions.x265);
    expect(merged.source.regularExpressions['x265 (two)']).toBe('x\\.?265-other');
    // The transform sends each format its own pattern.
    const desired = transformSource(merged.source, catalogFromLive('movie_app', { qualityDefinitions: [], languages: [] }), { namespace: null, sections: ['qualityProfiles'] });
    const valueOf = (name: string) => desired.customFormats.find((f) => f.name === name)!.payload.specifications[0].fields.find((field) => field.name === 'value')!.value;
    expect(valueOf('Alt Only')).toBe('x\\.?265-other');
    expect(valueOf('x265 (HD)')).toBe(base().regularExpressions.x265);
  });

  it('takes a colliding quality profile from the earlier database with only its formats', () => {
    const two: DatabaseSource = { databaseId: 2, databaseName: 'two', selection, source: otherSource() };
    two.source.qualityProfiles[0].name = 'Movies 1080p';
    const merged = mergeSyncSources([first(), two]);
    expect(merged.source.qualityProfiles).toHaveLength(1);
    expect(merged.origins.qualityProfile['Movies 1080p']).toBe(1);
    expect(merged.source.customFormats.map((f) => f.name)).not.toContain('Alt Only');
    expect(merged.collisions.find((c) => c.entityType === 'qualityProfile')).toEqual({
      entityType: 'qualityProfile',
      name: 'Movies 1080p',
      winner: { databaseId: 1, databaseName: 'one' },
      losers: [{ databaseId: 2, databaseName: 'two' }],
      kind: 'collision',
    });
  });

  it('takes each single-entity setting from the first database that selects one; later selections are collisions', () => {
    const one = { ...first(), selection: { ...selection, naming: null } };
    one.source.naming = null;
    const merged = mergeSyncSources([one, second()]);
    expect(merged.origins.delayProfile).toBe(1);
    expect(merged.origins.naming).toBeNull();
    expect(merged.selection.delayProfile).toBe('Standard');
    expect(merged.collisions.find((c) => c.entityType === 'delayProfile')).toEqual({
      entityType: 'delayProfile',
      name: 'Standard',
      winner: { databaseId: 1, databaseName: 'one' },
      losers: [{ databaseId: 2, databaseName: 'two', name: 'Other' }],
      kind: 'collision',
    });
    const three: DatabaseSource = { ...first(), databaseId: 3, databaseName: 'three', selection: { ...emptySelection(), naming: 'Standard' } };
    const withNaming = mergeSyncSources([one, second(), three]);
    expect(withNaming.origins.naming).toBe(3);
    expect(withNaming.source.naming).toEqual(base().naming);
  });

  it('reports missing entities per database', () => {
    const two: DatabaseSource = { databaseId: 2, databaseName: 'two', selection: { ...emptySelection(), qualityProfiles: ['Nope'] }, source: readSyncSource(sampleDatabase(), 'movie_app', { ...emptySelection(), qualityProfiles: ['Nope'] }) };
    const merged = mergeSyncSources([first(), two]);
    expect(merged.source.missing).toEqual([{ entityType: 'quality_profile', name: 'Nope', databaseName: 'two' }]);
    const desired = transformSource(merged.source, catalogFromLive('movie_app', { qualityDefinitions: [], languages: [] }), { namespace: null, sections: ['qualityProfiles'] });
    expect(desired.issues).toContainEqual(expect.objectContaining({ name: 'Nope', message: 'not found in database "two"' }));
  });

  it('carries identities of the winners when the sources have them', () => {
    const one = first();
    const two = second();
    Object.assign(one.source, { identities: { customFormat: { Atmos: '1:Atmos' }, qualityProfile: { 'Movies 1080p': '1:Movies 1080p' } } });
    Object.assign(two.source, { identities: { customFormat: { Atmos: '2:Atmos', 'Alt Only': '2:Alt Only' }, qualityProfile: { 'Movies Alt': '2:Movies Alt' } } });
    const merged = mergeSyncSources([one, two]).source as SyncSource & { identities: unknown };
    expect(merged.identities).toEqual({ customFormat: { Atmos: '1:Atmos', 'Alt Only': '2:Alt Only' }, qualityProfile: { 'Movies 1080p': '1:Movies 1080p', 'Movies Alt': '2:Movies Alt' } });
  });
});

describe('effectiveSelection', () => {
  it('unions profiles in order and takes the first of each setting, namespace and deleteUnmanaged from the first', () => {
    const a = { ...emptySelection(), qualityProfiles: ['A', 'B'], namespace: 'one', deleteUnmanaged: true };
    const b = { ...emptySelection(), qualityProfiles: ['B', 'C'], naming: 'N', namespace: 'two' };
    expect(effectiveSelection([a, b])).toEqual({ ...a, qualityProfiles: ['A', 'B', 'C'], naming: 'N' });
  });
});

describe('annotateOrigins', () => {
  it('sets the database of synced entities and leaves unmanaged ones alone', () => {
    const preview: SyncPreviewGroups = {
      qualityProfiles: {
        section: 'qualityProfiles',
        customFormats: [
          { entityType: 'customFormat', name: 'Atmos', action: 'create', remoteId: null, fields: [] },
          { entityType: 'customFormat', name: 'Hand made', action: 'unchanged', remoteId: 9, fields: [], category: 'unmanaged' },
        ],
        qualityProfiles: [{ entityType: 'qualityProfile', name: 'Movies Alt', action: 'create', remoteId: null, fields: [] }],
      },
      delayProfiles: { section: 'delayProfiles', profile: { entityType: 'delayProfile', name: 'Standard', action: 'unchanged', remoteId: 1, fields: [] } },
      mediaManagement: null,
      metadataProfiles: null,
    };
    annotateOrigins(preview, mergeSyncSources([second(), first()]).origins);
    expect(preview.qualityProfiles!.customFormats.map((c) => c.databaseId)).toEqual([2, undefined]);
    expect(preview.qualityProfiles!.qualityProfiles[0].databaseId).toBe(2);
    expect(preview.delayProfiles!.profile.databaseId).toBe(2);
  });
});
