/**
 * Health scoring: every band, the criterion formulas, skipped and disabled criteria, weights,
 * contributions adding up to the score, tones, degraded instances and per-profile units.
 */
import { AppError } from '../../../src/errors';
import {
  BAND_THRESHOLDS,
  CRITERION_IDS,
  DEFAULT_WEIGHTS,
  ENGINE_VERSION,
  TEMPLATE_VERSION,
  bandOf,
  checkAppVersion,
  combine,
  EVIDENCE_BUDGET,
  recordEvidence,
  scoreInstance,
  type CriterionId,
  type HealthInput,
  type HealthResult,
  type ScoredUnit,
} from '../../../src/domain/health';
import { baseInput, driftEvidence, drifted, issue, missing, NOW, selection, unmanaged } from './fixtures';

const crit = (unit: ScoredUnit, id: CriterionId) => unit.criteria.find((c) => c.id === id)!;
const profile = (result: HealthResult, name: string) => result.profiles.find((p) => p.name === name)!;
const allUnits = (r: HealthResult): ScoredUnit[] => [r.overall, ...r.profiles];

/** Every invariant a result must satisfy, whatever its input. */
function expectInvariants(result: HealthResult): void {
  expect(result.engineVersion).toBe(ENGINE_VERSION);
  for (const unit of allUnits(result)) {
    expect(Number.isInteger(unit.score)).toBe(true);
    expect(unit.score).toBeGreaterThanOrEqual(0);
    expect(unit.score).toBeLessThanOrEqual(100);
    expect(unit.criteria.map((c) => c.id)).toEqual([...CRITERION_IDS]);
    expect(unit.criteria.reduce((sum, c) => sum + c.contribution, 0)).toBe(unit.score);
    for (const c of unit.criteria) {
      expect(Number.isInteger(c.weight)).toBe(true);
      expect(Number.isInteger(c.contribution)).toBe(true);
      if (c.score !== null) {
        expect(Number.isInteger(c.score)).toBe(true);
        expect(c.score).toBeGreaterThanOrEqual(0);
        expect(c.score).toBeLessThanOrEqual(100);
      } else {
        expect(c.contribution).toBe(0);
        expect(c.detail.length).toBeGreaterThan(0);
      }
    }
    const scored = unit.criteria.filter((c) => c.weight > 0 && c.score !== null);
    if (scored.length === 0) {
      expect(unit.band).toBe('unknown');
      expect(unit.score).toBe(0);
    } else {
      expect(unit.band).toBe(bandOf(unit.score));
    }
    for (const s of [...unit.suggestions, ...unit.criteria.flatMap((c) => c.suggestions)]) {
      expect(['neutral', 'info', 'warning']).toContain(s.tone);
      expect(s.templateVersion).toBe(TEMPLATE_VERSION);
      expect(typeof s.headline).toBe('string');
      expect(Array.isArray(s.detail)).toBe(true);
    }
  }
}

const score = (input: HealthInput) => {
  const result = scoreInstance(input);
  expectInvariants(result);
  return result;
};

describe('bands', () => {
  it('thresholds: healthy >= 80, attention >= 50, needs-review below', () => {
    expect(BAND_THRESHOLDS).toEqual({ healthy: 80, attention: 50 });
    expect([100, 80, 79, 50, 49, 0].map(bandOf)).toEqual(['healthy', 'healthy', 'attention', 'attention', 'needs-review', 'needs-review']);
  });

  it('healthy: everything present, in sync and coherent', () => {
    const result = score(baseInput());
    expect(result).toMatchObject({ instanceId: 12, instanceName: 'Radarr 4K', arrType: 'movie_app', generatedAt: NOW });
    expect(result.overall.band).toBe('healthy');
    // completeness 100*25 + drift 100*30 + coherence 100*20 + compatibility 100*15 + ref 90*10 = 9900 / 100
    expect(result.overall.score).toBe(99);
    expect(result.overall.criteria.map((c) => [c.id, c.score, c.weight, c.contribution])).toEqual([
      ['completeness', 100, 25, 25],
      ['drift', 100, 30, 30],
      ['coherence', 100, 20, 20],
      ['compatibility', 100, 15, 15],
      ['ref_alignment', 90, 10, 9],
    ]);
  });

  it('attention: some drift, a missing format and a warning', () => {
    const result = score(
      baseInput({
        drift: driftEvidence({ status: 'drifted', drift: [drifted('customFormat', 'A'), drifted('qualityProfile', 'HD', 3)], missing: [missing('customFormat', 'D')] }),
        desired: { ...baseInput().desired, issues: [issue('error', 'customFormat', 'C', 'no condition left'), issue('warning', 'qualityProfile', 'UHD')] },
      }),
    );
    // completeness: round(100*(0.8*9/10 + 0.2*3/3)) = 92; drift: present 9, 2 drifted -> round(700/9) = 78
    // coherence: 100 - 25 - 5 = 70; compatibility 100; ref 90
    expect(result.overall.criteria.map((c) => c.score)).toEqual([92, 78, 70, 100, 90]);
    // (92*25 + 78*30 + 70*20 + 100*15 + 90*10) / 100 = 84.4
    expect(result.overall.score).toBe(84);
    const worse = score(
      baseInput({
        drift: driftEvidence({ status: 'drifted', drift: ['A', 'B', 'C'].map((n) => drifted('customFormat', n)), missing: [missing('customFormat', 'D'), missing('delayProfile', 'Default')] }),
        desired: { ...baseInput().desired, issues: [issue('error', 'customFormat', 'C'), issue('error', 'customFormat', 'B')] },
      }),
    );
    // completeness round(100*(0.8*0.8+0.2)) = 84; drift round(100*5/8) = 63; coherence 50; compat 100; ref 90
    expect(worse.overall.criteria.map((c) => c.score)).toEqual([84, 63, 50, 100, 90]);
    // (2100 + 1890 + 1000 + 1500 + 900) / 100 = 73.9
    expect(worse.overall.score).toBe(74);
    expect(worse.overall.band).toBe('attention');
  });

  it('needs-review: most entities missing or drifted, errors, an unsupported version', () => {
    const result = score(
      baseInput({
        drift: driftEvidence({
          status: 'drifted',
          detectedVersion: '4.7.5.7809',
          missing: ['A', 'B', 'C', 'D'].map((n) => missing('customFormat', n)).concat([missing('qualityProfile', 'HD'), missing('qualityProfile', 'UHD')]),
          drift: [drifted('naming', 'Standard'), drifted('delayProfile', 'Default')],
        }),
        desired: { ...baseInput().desired, issues: ['A', 'B', 'C'].map((n) => issue('error', 'customFormat', n)) },
        reference: { matched: 2, total: 10 },
      }),
    );
    // completeness round(100*(0.8*0.4+0.2)) = 52; drift present 4, 2 drifted = 50; coherence 25;
    // compatibility round(100 * 1/2) = 50; ref 20
    expect(result.overall.criteria.map((c) => c.score)).toEqual([52, 50, 25, 50, 20]);
    // (1300 + 1500 + 500 + 750 + 200) / 100 = 42.5, halves up
    expect(result.overall.score).toBe(43);
    expect(result.overall.band).toBe('needs-review');
  });

  it('unknown: every enabled criterion skipped', () => {
    const result = score(
      baseInput({
        reference: null,
        weights: { completeness: 0, drift: 0, coherence: 0, compatibility: 0, ref_alignment: 10 },
      }),
    );
    expect(result.overall.band).toBe('unknown');
    expect(result.overall.score).toBe(0);
    expect(crit(result.overall, 'ref_alignment').detail).toEqual(['No reference guide source is available for this instance.']);
    expect(result.profiles.every((p) => p.band === 'unknown')).toBe(true);
  });

  it('an all-zero measurement is needs-review with score 0, not unknown', () => {
    const result = score(
      baseInput({
        selection: selection({ qualityProfiles: ['HD'], delayProfile: null, naming: null }),
        drift: driftEvidence({ managedTotal: 4, drift: [drifted('customFormat', 'A'), drifted('customFormat', 'B'), drifted('customFormat', 'C'), drifted('qualityProfile', 'HD')] }),
        reference: { matched: 0, total: 5 },
        weights: { completeness: 0, coherence: 0, compatibility: 0 },
      }),
    );
    expect(result.overall.score).toBe(0);
    expect(result.overall.band).toBe('needs-review');
    expect(crit(result.overall, 'drift').score).toBe(0);
  });
});

describe('criteria', () => {
  it('completeness counts present entities (80%) and configured sections (20%)', () => {
    const onlyProfiles = score(baseInput({ selection: selection({ delayProfile: null, naming: null }), drift: driftEvidence({ managedTotal: 6 }) }));
    // round(100 * (0.8 * 1 + 0.2 * 1/3)) = 87
    expect(crit(onlyProfiles.overall, 'completeness')).toMatchObject({ score: 87 });
    expect(crit(onlyProfiles.overall, 'completeness').detail[1]).toBe('1 of 3 Radarr sections configured: qualityProfiles.');
    expect(crit(onlyProfiles.overall, 'completeness').suggestions[0]).toMatchObject({ headline: '2 sections not configured', tone: 'info' });
    // Lidarr has four sections
    const lidarr = score(
      baseInput({
        instance: { instanceId: 3, instanceName: 'Lidarr', arrType: 'music_app', enabled: true },
        selection: selection({ qualityProfiles: [], delayProfile: null, naming: null, metadataProfile: 'Standard' }),
        desired: { profiles: [], issues: [], available: true },
        drift: driftEvidence({ managedTotal: 1, detectedVersion: '2.5.0' }),
      }),
    );
    expect(crit(lidarr.overall, 'completeness').score).toBe(85); // round(100 * (0.8 + 0.2/4))
  });

  it('completeness of an empty selection is 0 and coherence is skipped', () => {
    const result = score(baseInput({ selection: selection({ qualityProfiles: [], delayProfile: null, naming: null }), drift: driftEvidence({ managedTotal: 0 }), reference: null }));
    expect(crit(result.overall, 'completeness').score).toBe(0);
    expect(crit(result.overall, 'drift').score).toBeNull();
    expect(crit(result.overall, 'drift').detail[0]).toBe('No managed entity exists on the instance to compare.');
    expect(crit(result.overall, 'coherence').score).toBeNull();
    // completeness 0 (25) and compatibility 100 (15): 1500 / 40 = 37.5 -> 38
    expect(result.overall.score).toBe(38);
    expect(result.overall.band).toBe('needs-review');
    expect(result.profiles).toEqual([]);
  });

  it('drift ignores missing and unmanaged entities', () => {
    const result = score(
      baseInput({
        drift: driftEvidence({ missing: [missing('customFormat', 'D')], unmanaged: [unmanaged('customFormat', 'Mine'), unmanaged('qualityProfile', 'Any')] }),
      }),
    );
    expect(crit(result.overall, 'drift').score).toBe(100);
    expect(crit(result.overall, 'drift').detail).toContain('2 unmanaged entities on the instance (not scored).');
    expect(crit(result.overall, 'drift').suggestions).toEqual([expect.objectContaining({ tone: 'neutral', headline: '2 entities on the instance not managed by arrgo' })]);
    const deleting = score(baseInput({ selection: selection({ deleteUnmanaged: true }), drift: driftEvidence({ unmanaged: [unmanaged('customFormat', 'Mine')] }) }));
    expect(crit(deleting.overall, 'drift').suggestions[0]).toMatchObject({ tone: 'info', headline: 'The next sync deletes 1 unmanaged entity' });
  });

  it('drift suggestions list the drifted entities, bounded', () => {
    const names = Array.from({ length: 14 }, (_, i) => `F${String(i).padStart(2, '0')}`);
    const result = score(baseInput({ drift: driftEvidence({ managedTotal: 30, status: 'drifted', drift: names.map((n) => drifted('customFormat', n, 2)).reverse() }) }));
    const s = crit(result.overall, 'drift').suggestions[0];
    expect(s).toMatchObject({ headline: '14 entities were changed on the instance', tone: 'warning' });
    expect(s.detail.slice(0, 2)).toEqual(['customFormat "F00": 2 fields differ', 'customFormat "F01": 2 fields differ']);
    expect(s.detail[10]).toBe('...and 4 more');
    expect(s.detail).toHaveLength(12);
    expect(crit(result.overall, 'drift').score).toBe(53); // round(100 * 16/30)
  });

  it('coherence: errors weigh 25 per entity, warnings 5 per entity up to 50', () => {
    const withIssues = (issues: ReturnType<typeof issue>[]) => crit(score(baseInput({ desired: { ...baseInput().desired, issues } })).overall, 'coherence');
    expect(withIssues([issue('warning', 'customFormat', 'A'), issue('warning', 'customFormat', 'A')]).score).toBe(95);
    expect(withIssues([issue('error', 'customFormat', 'A'), issue('warning', 'customFormat', 'A')]).score).toBe(75);
    expect(withIssues(Array.from({ length: 20 }, (_, i) => issue('warning', 'customFormat', `W${i}`))).score).toBe(50);
    expect(withIssues(Array.from({ length: 5 }, (_, i) => issue('error', 'customFormat', `E${i}`))).score).toBe(0);
    const c = withIssues([issue('warning', 'qualityProfile', 'HD', 'minimum score lowered'), issue('error', 'customFormat', 'A', 'no condition left')]);
    expect(c.detail[0]).toBe('1 entity with errors (left out), 1 entity with warnings only (adjusted).');
    expect(c.suggestions.map((s) => [s.tone, s.headline, s.detail[0]])).toEqual([
      ['warning', '1 entity cannot be synced as written', 'customFormat "A": no condition left'],
      ['info', '1 entity was adjusted for Radarr', 'qualityProfile "HD": minimum score lowered'],
    ]);
  });

  it('compatibility: incompatible profiles and app versions', () => {
    const withProfiles = baseInput({
      desired: { ...baseInput().desired, profiles: [{ name: 'HD', compatible: true, customFormats: [] }, { name: 'UHD', compatible: false, customFormats: [] }] },
    });
    expect(crit(score(withProfiles).overall, 'compatibility').score).toBe(50);
    expect(crit(score(withProfiles).overall, 'compatibility').suggestions[0]).toMatchObject({ tone: 'warning', headline: '1 selected profile does not fit Radarr' });
    const old = score(baseInput({ drift: driftEvidence({ detectedVersion: '4.7.5.7809' }) }));
    expect(crit(old.overall, 'compatibility').score).toBe(50);
    expect(crit(old.overall, 'compatibility').suggestions[0].headline).toBe('Upgrade Radarr to version 5 or later');
    expect(crit(score({ ...withProfiles, drift: driftEvidence({ detectedVersion: '3.2.2' }) }).overall, 'compatibility').score).toBe(25);
    const unknownVersion = score(baseInput({ drift: driftEvidence({ detectedVersion: null }) }));
    expect(crit(unknownVersion.overall, 'compatibility').score).toBe(100);
    expect(crit(unknownVersion.overall, 'compatibility').detail).toContain('Radarr version unknown (Radarr 5 or later is supported).');
  });

  it('app version support: Radarr >= 5, Sonarr >= 4, Lidarr >= 2', () => {
    expect(checkAppVersion('movie_app', '5.0.0').state).toBe('supported');
    expect(checkAppVersion('movie_app', '4.7.5.7809').state).toBe('unsupported');
    expect(checkAppVersion('series_app', '4.0.14.2939').state).toBe('supported');
    expect(checkAppVersion('series_app', '3.0.10').state).toBe('unsupported');
    expect(checkAppVersion('music_app', '2.9.6.4552').state).toBe('supported');
    expect(checkAppVersion('music_app', '1.4.5').state).toBe('unsupported');
    expect(checkAppVersion('music_app', 'v10.1').major).toBe(10);
    expect(checkAppVersion('movie_app', null).state).toBe('unknown');
    expect(checkAppVersion('movie_app', 'develop').state).toBe('unknown');
  });

  it('skipped criteria say why and leave the mean', () => {
    const result = score(baseInput({ reference: null, desired: { profiles: [], issues: [], available: false }, drift: driftEvidence({ detectedVersion: null }) }));
    expect(crit(result.overall, 'ref_alignment')).toMatchObject({ score: null, contribution: 0, detail: ['No reference guide source is available for this instance.'] });
    expect(crit(result.overall, 'coherence')).toMatchObject({ score: null, detail: ['The database cache was not ready, so the desired configuration could not be checked.'] });
    expect(crit(result.overall, 'compatibility')).toMatchObject({ score: null, detail: ['The database cache was not ready and the app version is unknown.'] });
    expect(result.overall.score).toBe(100);
    expect(result.overall.band).toBe('healthy');
    const emptyReference = score(baseInput({ reference: { matched: 0, total: 0 } }));
    expect(crit(emptyReference.overall, 'ref_alignment')).toMatchObject({ score: null, detail: ['The reference guide has nothing to compare here.'] });
  });

  it('ref_alignment names the reference source and the differing entries', () => {
    const differences = ['Quality profile "Movies 1080p": "x265" scores 0, the guide\'s default score set gives -10000', 'Custom format "Atmos": conditions differ from the guide\'s'];
    const result = score(baseInput({ reference: { matched: 3, total: 5, source: 'TRaSH Radarr', differences } }));
    const ref = crit(result.overall, 'ref_alignment');
    expect(ref.score).toBe(60);
    expect(ref.detail).toEqual(['3 of 5 reference entries match the reference guide "TRaSH Radarr".']);
    expect(ref.suggestions).toEqual([
      expect.objectContaining({ headline: '2 entries differ from the reference guide', detail: [...differences].sort(), tone: 'info' }),
    ]);
  });
});

describe('weights and contributions', () => {
  it('defaults sum to 100', () => {
    expect(Object.values(DEFAULT_WEIGHTS).reduce((a, b) => a + b, 0)).toBe(100);
  });

  it('custom weights change the mean; weight 0 disables a criterion', () => {
    const input = baseInput({ drift: driftEvidence({ status: 'drifted', drift: [drifted('customFormat', 'A'), drifted('customFormat', 'B')] }) });
    expect(crit(score(input).overall, 'drift').score).toBe(80);
    const heavy = score({ ...input, weights: { drift: 100 } });
    expect(crit(heavy.overall, 'drift')).toMatchObject({ weight: 100 });
    // (100*25 + 80*100 + 100*20 + 100*15 + 90*10) / 170 = 87.65
    expect(heavy.overall.score).toBe(88);
    const disabled = score({ ...input, weights: { drift: 0 } });
    expect(crit(disabled.overall, 'drift')).toEqual({
      id: 'drift',
      label: 'Drift',
      score: null,
      weight: 0,
      contribution: 0,
      detail: ['Disabled (weight 0).'],
      suggestions: [],
    });
    // (2500 + 2000 + 1500 + 900) / 70 = 98.57
    expect(disabled.overall.score).toBe(99);
    expect(disabled.overall.suggestions.some((s) => s.headline.includes('changed on the instance'))).toBe(false);
    expect(disabled.profiles.every((p) => crit(p, 'drift').weight === 0)).toBe(true);
  });

  it('refuses invalid weights', () => {
    for (const weights of [{ drift: -1 }, { drift: 101 }, { drift: 2.5 }, { nope: 3 }, { drift: '5' }] as unknown as HealthInput['weights'][]) {
      let caught: unknown;
      try {
        scoreInstance(baseInput({ weights }));
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(AppError);
      expect((caught as AppError).kind).toBe('validation');
      expect((caught as AppError).publicMessage).toMatch(/^weights\./);
    }
  });

  it('contributions are largest-remainder shares that add up to the score', () => {
    const unit = combine(
      {
        completeness: { score: 33, detail: [], suggestions: [] },
        drift: { score: 67, detail: [], suggestions: [] },
        coherence: { score: 50, detail: [], suggestions: [] },
        compatibility: { score: null, detail: ['x'], suggestions: [] },
        ref_alignment: null,
      },
      { completeness: 1, drift: 1, coherence: 1, compatibility: 5, ref_alignment: 0 },
    );
    // 150 / 3 = 50; shares 11, 22.33, 16.67 -> floors 11, 22, 16 (49), +1 to coherence (largest remainder)
    expect(unit.score).toBe(50);
    expect(unit.criteria.map((c) => c.contribution)).toEqual([11, 22, 17, 0, 0]);
  });

  it('contributions add up for many generated inputs (seeded)', () => {
    let seed = 42;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let round = 0; round < 200; round++) {
      const formats = ['A', 'B', 'C', 'D'];
      const input = baseInput({
        drift: driftEvidence({
          managedTotal: 4 + rand(40),
          drift: formats.filter(() => rand(2) === 0).map((n) => drifted('customFormat', n)),
          missing: rand(3) === 0 ? [missing('qualityProfile', 'UHD')] : [],
          detectedVersion: ['5.1', '4.0', null][rand(3)],
        }),
        desired: { ...baseInput().desired, issues: formats.filter(() => rand(3) === 0).map((n) => issue(rand(2) ? 'error' : 'warning', 'customFormat', n)) },
        reference: rand(2) ? { matched: rand(11), total: 10, perProfile: { UHD: { matched: rand(4), total: 3 } } } : null,
        weights: Object.fromEntries(CRITERION_IDS.map((id) => [id, rand(4) === 0 ? 0 : rand(101)])),
      });
      score(input);
    }
  });
});

describe('degraded instances', () => {
  const cases: [string, Partial<HealthInput>, string][] = [
    ['never checked', { drift: null }, 'The instance has never been checked for drift.'],
    ['unreachable', { drift: driftEvidence({ status: 'unreachable', reason: 'timeout' }) }, 'The last drift check ended unreachable: the instance did not respond in time.'],
    ['unauthorized', { drift: driftEvidence({ status: 'unauthorized', reason: 'unauthorized' }) }, 'The last drift check ended unauthorized: the instance rejected its API key.'],
    ['error', { drift: driftEvidence({ status: 'error', reason: 'cache_not_ready' }) }, 'The last drift check ended error: the database cache was not ready.'],
    ['error without reason', { drift: driftEvidence({ status: 'error', reason: null }) }, 'The last drift check ended error: the check failed.'],
    ['not configured', { selection: null }, 'No sync selection is configured for the instance.'],
    ['disabled', { instance: { instanceId: 12, instanceName: 'Radarr 4K', arrType: 'movie_app', enabled: false } }, 'The instance is disabled.'],
  ];
  it.each(cases)('%s: band unknown, every criterion skipped with the reason', (_name, over, reason) => {
    const result = score(baseInput(over));
    expect(result.overall.band).toBe('unknown');
    expect(result.overall.score).toBe(0);
    for (const c of result.overall.criteria) {
      expect(c.score).toBeNull();
      expect(c.detail).toEqual([`Not scored: ${reason}`]);
    }
    expect(result.overall.suggestions[0]).toMatchObject({ headline: 'Health cannot be scored right now', tone: 'warning' });
    expect(result.overall.suggestions[0].detail[0]).toBe(reason);
    const profiles = over.selection === null ? [] : ['HD', 'UHD'];
    expect(result.profiles.map((p) => [p.name, p.band])).toEqual(profiles.map((n) => [n, 'unknown']));
  });

  it('a disabled criterion stays disabled when degraded', () => {
    const result = score(baseInput({ drift: null, weights: { coherence: 0 } }));
    expect(crit(result.overall, 'coherence').detail).toEqual(['Disabled (weight 0).']);
  });

  it('old drift evidence is scored, with a suggestion to re-check', () => {
    const result = score(baseInput({ drift: driftEvidence({ contentCheckedAt: '2026-11-01T10:00:00.000Z' }) }));
    expect(result.overall.band).toBe('healthy');
    expect(result.overall.suggestions[0]).toMatchObject({ tone: 'info', headline: 'The drift evidence is 20 days old' });
    expect(score(baseInput()).overall.suggestions.some((s) => s.headline.includes('days old'))).toBe(false);
  });
});

describe('per-profile units', () => {
  it('take their own entities, issues, compatibility and reference', () => {
    const result = score(
      baseInput({
        drift: driftEvidence({
          status: 'drifted',
          drift: [drifted('customFormat', 'A'), drifted('naming', 'Standard')],
          missing: [missing('customFormat', 'D')],
          unmanaged: [unmanaged('qualityProfile', 'Any')],
        }),
        desired: {
          profiles: [
            { name: 'HD', compatible: true, customFormats: ['A', 'B', 'C'] },
            { name: 'UHD', compatible: false, customFormats: ['B', 'D'] },
          ],
          issues: [issue('warning', 'customFormat', 'D'), issue('error', 'delayProfile', 'Default')],
          available: true,
        },
      }),
    );
    const hd = profile(result, 'HD');
    const uhd = profile(result, 'UHD');
    // HD: 4 entities (HD, A, B, C), all present, A drifted
    expect(hd.criteria.map((c) => c.score)).toEqual([100, 75, 100, 100, 100]);
    expect(crit(hd, 'drift').suggestions[0].detail[0]).toBe('customFormat "A": 1 field differs');
    // UHD: 3 entities (UHD, B, D), D missing, nothing drifted, D has a warning, incompatible, no reference
    expect(uhd.criteria.map((c) => c.score)).toEqual([67, 100, 95, 0, null]);
    expect(crit(uhd, 'ref_alignment').detail).toEqual(['The reference guide has no counterpart for this profile.']);
    // (67*25 + 100*30 + 95*20 + 0*15) / 90 = 73.06
    expect(uhd.score).toBe(73);
    expect(uhd.band).toBe('attention');
    // the naming drift and the delay profile error belong to the instance only
    expect(crit(result.overall, 'drift').score).toBe(78); // present 9, 2 drifted
    expect(crit(result.overall, 'coherence').score).toBe(70);
    // no unmanaged notes on profiles
    expect(uhd.suggestions.some((s) => s.headline.includes('not managed'))).toBe(false);
  });

  it('a selected profile missing from the database scores 0 on coherence, the rest skipped', () => {
    const result = score(
      baseInput({
        desired: { ...baseInput().desired, profiles: [{ name: 'HD', compatible: true, customFormats: ['A'] }], issues: [issue('error', 'qualityProfile', 'UHD', 'not found in the database')] },
      }),
    );
    const uhd = profile(result, 'UHD');
    expect(uhd.criteria.map((c) => c.score)).toEqual([null, null, 0, null, null]);
    expect(uhd.band).toBe('needs-review');
    expect(crit(uhd, 'completeness').detail).toEqual(['The profile is not in the database, so nothing of it can exist on the instance.']);
    expect(crit(result.overall, 'compatibility').detail).toContain('Not in the database (not counted): UHD.');
  });

  it('a profile with an error of its own is left out: coherence 0, completeness and drift skipped', () => {
    const result = score(baseInput({ desired: { ...baseInput().desired, issues: [issue('error', 'qualityProfile', 'HD', 'no enabled quality on the app')] } }));
    const hd = profile(result, 'HD');
    expect(hd.criteria.map((c) => c.score)).toEqual([null, null, 0, 100, 100]);
    expect(crit(hd, 'coherence').suggestions[0].detail[0]).toBe('qualityProfile "HD": no enabled quality on the app');
  });

  it('profiles follow the selection order, with exact names', () => {
    const result = score(baseInput({ selection: selection({ qualityProfiles: ['UHD', 'HD'] }) }));
    expect(result.profiles.map((p) => p.name)).toEqual(['UHD', 'HD']);
  });

  it('without the database cache, a profile is scored on its own entity', () => {
    const result = score(baseInput({ desired: { profiles: [], issues: [], available: false }, drift: driftEvidence({ drift: [drifted('qualityProfile', 'HD')] }) }));
    const hd = profile(result, 'HD');
    expect(crit(hd, 'completeness').detail).toContain('Custom formats not counted: the database cache was not ready.');
    expect(crit(hd, 'drift').score).toBe(0);
    expect(crit(hd, 'coherence').score).toBeNull();
    expect(crit(hd, 'compatibility').score).toBe(100); // version only
  });
});

describe('determinism and evidence size', () => {
  it('the same input gives the same output; input order does not matter', () => {
    const a = baseInput({
      drift: driftEvidence({ drift: [drifted('customFormat', 'A'), drifted('customFormat', 'B')], missing: [missing('customFormat', 'D'), missing('naming', 'Standard')] }),
      desired: { ...baseInput().desired, issues: [issue('warning', 'customFormat', 'B', 'x'), issue('error', 'customFormat', 'A', 'y')] },
    });
    const b: HealthInput = {
      ...a,
      drift: { ...a.drift!, drift: [...a.drift!.drift].reverse(), missing: [...a.drift!.missing].reverse() },
      desired: { ...a.desired, issues: [...a.desired.issues].reverse() },
    };
    expect(JSON.stringify(scoreInstance(a))).toBe(JSON.stringify(scoreInstance(a)));
    expect(JSON.stringify(scoreInstance(b))).toBe(JSON.stringify(scoreInstance(a)));
  });

  const large = (profiles: number, formats: number, broken: number) => {
    const names = Array.from({ length: profiles }, (_, i) => `Profile ${i} with a fairly long descriptive name`);
    const cfs = Array.from({ length: formats }, (_, i) => `Custom format number ${i} with a long name`);
    const message = 'a long message explaining what was left out and why it could not be expressed';
    return score(
      baseInput({
        selection: selection({ qualityProfiles: names }),
        desired: {
          profiles: names.map((name, i) => ({ name, compatible: i % 2 === 0, customFormats: cfs })),
          issues: cfs.slice(0, broken).flatMap((f) => [issue('error', 'customFormat', f, message), issue('warning', 'customFormat', f, message)]),
          available: true,
        },
        drift: driftEvidence({
          managedTotal: profiles + formats + 2,
          drift: cfs.slice(0, broken).map((f) => drifted('customFormat', f, 4)),
          missing: names.slice(0, broken).map((n) => missing('qualityProfile', n)),
          unmanaged: cfs.map((f) => unmanaged('customFormat', `${f} (old)`)),
        }),
      }),
    );
  };

  it('a large instance (25 profiles x 60 formats, 15 broken) fits the per-row evidence budget', () => {
    const result = large(25, 60, 15);
    const recorded = recordEvidence(result);
    expect(recorded.bytes).toBeLessThan(EVIDENCE_BUDGET.maxBytes);
    expect(recorded.items).toBeLessThan(EVIDENCE_BUDGET.maxItems);
    expect(recorded).toMatchObject({ evidenceRecorded: true, result });
  });

  it('a pathological one (100 profiles, everything broken) is not recorded', () => {
    const recorded = recordEvidence(large(100, 60, 60));
    expect(recorded.bytes).toBeGreaterThan(EVIDENCE_BUDGET.maxBytes);
    expect(recorded).toMatchObject({ evidenceRecorded: false, result: null });
  });
});
