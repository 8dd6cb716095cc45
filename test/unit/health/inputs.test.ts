/**
 * HealthInput.desired from the sync domain's own outputs: the sample PCD's selected profiles with
 * their custom formats for the app and their compatibility, then scored.
 */
import { desiredProfilesFrom, scoreInstance } from '../../../src/domain/health';
import { profileCompatibility, replayPcd } from '../../../src/domain/pcd';
import { readSyncSource, scoresFor } from '../../../src/domain/sync';
import { emptySelection } from '../../../src/domain/sync/selection';
import { sampleRepository } from '../pcd/helpers';
import { baseInput, driftEvidence } from './fixtures';

describe('desiredProfilesFrom', () => {
  const repo = sampleRepository();
  const db = replayPcd({ base: repo.base, tweaks: repo.tweaks }).resolved;
  const selection = { ...emptySelection(), qualityProfiles: ['Movies 1080p', 'No Such Profile'] };

  it('lists the selected profiles the database has, with their formats for the app and compatibility', () => {
    const source = readSyncSource(db, 'movie_app', selection);
    const profiles = desiredProfilesFrom(source, profileCompatibility(db));
    expect(profiles.map((p) => p.name)).toEqual(['Movies 1080p']);
    const expected = [...scoresFor(source.qualityProfiles[0], 'movie_app').keys()].sort();
    expect(profiles[0].customFormats).toEqual(expected);
    expect(profiles[0].customFormats.length).toBeGreaterThan(0);
    const compat = profileCompatibility(db).find((c) => c.name === 'Movies 1080p')!;
    expect(profiles[0].compatible).toBe(compat.compatibleArrTypes.includes('movie_app'));
    expect(source.missing).toContainEqual({ entityType: 'quality_profile', name: 'No Such Profile' });

    const result = scoreInstance(
      baseInput({
        selection,
        desired: { profiles, issues: [{ severity: 'error', section: 'qualityProfiles', entityType: 'qualityProfile', name: 'No Such Profile', message: 'not found in the database' }], available: true },
        drift: driftEvidence({ managedTotal: 1 + profiles[0].customFormats.length }),
      }),
    );
    expect(result.profiles.map((p) => [p.name, p.band])).toEqual([
      ['Movies 1080p', 'healthy'],
      ['No Such Profile', 'needs-review'],
    ]);
  });
});
