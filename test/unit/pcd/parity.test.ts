import { ARR_TYPES } from '../../../src/domain/arr-types';
import { listMusicAppMetadataProfiles, parityMap, PARITY_ENTITIES, PARITY_SCOPES, replayPcd } from '../../../src/domain/pcd';
import { sampleRepository } from './helpers';

describe('parity map', () => {
  it('has a matrix row per entity and a support value per app', () => {
    const map = parityMap();
    expect(map.entities).toEqual([...PARITY_ENTITIES]);
    expect(map.apps).toEqual([...ARR_TYPES]);
    expect(map.matrix.map((r) => r.entity)).toEqual([...PARITY_ENTITIES]);
    for (const row of map.matrix) for (const app of ARR_TYPES) expect(['native', 'shared', 'unsupported']).toContain(row[app]);
    expect(map.matrix.find((r) => r.entity === 'metadata_profiles')).toMatchObject({ movie_app: 'unsupported', series_app: 'unsupported', music_app: 'native' });
    expect(map.profiles).toBeUndefined();
  });

  it('documents semantic differences in every scope with app API references', () => {
    const { semanticDifferences } = parityMap();
    expect(new Set(semanticDifferences.map((d) => d.scope))).toEqual(new Set(PARITY_SCOPES));
    for (const d of semanticDifferences) {
      expect(d.apps.length).toBeGreaterThan(0);
      expect(d.summary.length).toBeGreaterThan(10);
      expect(d.detail.length).toBeGreaterThan(d.summary.length);
      expect(d.sourceRefs.length).toBeGreaterThan(0);
      for (const ref of d.sourceRefs) expect(ref).toMatch(/^(radarr:\/api\/v3|sonarr:\/api\/v3|lidarr:\/api\/v1)\/[a-z/]+$/);
    }
  });

  it('adds per-profile compatibility from a replayed database', () => {
    const db = replayPcd({ base: sampleRepository().base }).resolved;
    expect(parityMap(db).profiles).toEqual([
      { name: 'Movies 1080p', compatibleArrTypes: ['movie_app'], basis: 'enabled-qualities' },
      { name: 'Music Lossless', compatibleArrTypes: ['music_app'], basis: 'enabled-qualities' },
      { name: 'Series 1080p', compatibleArrTypes: ['movie_app', 'series_app'], basis: 'enabled-qualities' },
    ]);
  });
});

describe('music-app metadata profiles listing', () => {
  it('lists counts only', () => {
    const db = replayPcd({ base: sampleRepository().base }).resolved;
    const list = listMusicAppMetadataProfiles(db);
    expect(list.map(({ updated_at, ...rest }) => ({ ...rest, updatedAt: typeof updated_at }))).toEqual([
      {
        id: 2,
        name: 'Everything',
        description: '',
        primaryTypeCount: 5,
        secondaryTypeCount: 12,
        releaseStatusCount: 4,
        primaryAllowedCount: 5,
        secondaryAllowedCount: 12,
        releaseStatusAllowedCount: 2,
        updatedAt: 'string',
      },
      {
        id: 1,
        name: 'Studio Albums',
        description: 'Official studio albums and EPs',
        primaryTypeCount: 5,
        secondaryTypeCount: 12,
        releaseStatusCount: 4,
        primaryAllowedCount: 2,
        secondaryAllowedCount: 1,
        releaseStatusAllowedCount: 1,
        updatedAt: 'string',
      },
    ]);
  });
});
