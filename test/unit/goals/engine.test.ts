import fs from 'node:fs';
import path from 'node:path';
import {
  CATEGORIES,
  compileGoal,
  PRESETS,
  presetById,
  SCORE_RANGE,
  SENSITIVITIES,
  SKIP_REASONS,
  SLIDER_AXES,
  thresholdsOf,
  type Category,
  type GoalWeights,
  type Preset,
  policyTableMarkdown,
  presetTableMarkdown,
  ENGINE_VERSION,
} from '../../../src/domain/goals';
import type { CustomFormatData, QualityProfileData } from '../../../src/domain/pcd';
import { describeWithShared } from '../../helpers/shared-data';
import { TRASH_PCD_PARTS } from '../pcd/helpers';
import { formatsOf, namesFor, patternsOf, profileOf, trashReplay } from './helpers';

const NEUTRAL: GoalWeights = { qualityVsSize: 50, compatibility: 50, hdrPreference: 50, unwantedStrictness: 50, resolutionCeiling: '2160p' };

const cond = (name: string, extra: Record<string, unknown>) => ({ name, arrType: 'all', negate: false, required: true, ...extra });
const cf = (name: string, conditions: Record<string, unknown>[]): CustomFormatData =>
  ({ name, description: null, includeInRename: false, tags: [], conditions, tests: [] }) as unknown as CustomFormatData;
const title = (name: string) => cond(name, { type: 'release_title', regularExpression: name });

/** One format per category, each placed by a name or condition rule. */
const FIXTURE_FORMATS: CustomFormatData[] = [
  cf('BR-DISK', [title('BR-DISK')]),
  cf('DV', [title('DV')]),
  cf('HDR10+', [title('HDR10+')]),
  cf('HDR', [title('HDR')]),
  cf('Remux', [cond('Remux', { type: 'quality_modifier', qualityModifier: 'remux' })]),
  cf('Groups Tier 01', [cond('g', { type: 'release_group', regularExpression: 'g1' })]),
  cf('Groups Tier 02', [cond('g', { type: 'release_group', regularExpression: 'g2' })]),
  cf('Groups Tier 03', [cond('g', { type: 'release_group', regularExpression: 'g3' })]),
  cf('TrueHD', [title('TrueHD')]),
  cf('DD+', [title('DD+')]),
  cf('AAC', [title('AAC')]),
  cf('NF', [title('NF'), cond('web', { type: 'source', source: 'web_dl' })]),
  cf('IMAX', [title('IMAX')]),
  cf('Repack', [title('Repack')]),
  cf('2160p', [cond('2160p', { type: 'resolution', resolution: '2160p' })]),
  cf('720p', [cond('720p', { type: 'resolution', resolution: '720p' })]),
  cf('Season Pack', [cond('sp', { type: 'release_type', releaseType: 'season_pack', arrType: 'series_app' })]),
];

const PROFILE: QualityProfileData = {
  name: 'Goal Test',
  description: null,
  upgradesAllowed: true,
  minimumCustomFormatScore: 0,
  upgradeUntilScore: 10000,
  upgradeScoreIncrement: 1,
  tags: [],
  languages: [],
  qualities: [
    { type: 'quality', name: 'Remux-2160p', enabled: true, upgradeUntil: true },
    { type: 'group', name: 'WEB 2160p', enabled: true, upgradeUntil: false, members: ['WEBRip-2160p', 'WEBDL-2160p'] },
    { type: 'quality', name: 'Bluray-1080p', enabled: true, upgradeUntil: false },
    { type: 'quality', name: 'HDTV-480p', enabled: false, upgradeUntil: false },
    { type: 'quality', name: 'Bluray-720p', enabled: false, upgradeUntil: false },
  ],
  customFormats: { all: [{ name: 'AAC', score: 50 }], movie_app: [{ name: 'BR-DISK', score: -10000 }], series_app: [], music_app: [] },
};

const QUALITY_NAMES: Record<string, string> = { 'Remux-2160p': 'Remux-2160p', 'WEBRip-2160p': 'WEBRip-2160p', 'WEBDL-2160p': 'WEBDL-2160p', 'Bluray-1080p': 'Bluray-1080p', 'Bluray-720p': 'Bluray-720p' };

function compile(preset: Preset, weights: GoalWeights, extra: Partial<Parameters<typeof compileGoal>[0]> = {}) {
  return compileGoal({
    arrType: 'movie_app',
    profile: PROFILE,
    formats: FIXTURE_FORMATS,
    patterns: {},
    qualityNames: QUALITY_NAMES,
    preset,
    weights,
    siblingArrTypes: [],
    ...extra,
  });
}

function scoresByCategory(preset: Preset, weights: GoalWeights): Map<Category, number> {
  return new Map(compile(preset, weights).plan.decisions.map((d) => [d.category, d.score]));
}

describe('goal engine', () => {
  it('places one fixture format in every category', () => {
    const decided = new Set(compile(presetById('balanced')!, NEUTRAL).plan.decisions.map((d) => d.category));
    expect([...decided].sort()).toEqual([...CATEGORIES].sort());
  });

  describe.each(PRESETS.map((p) => [p.id, p] as const))('preset %s', (_id, preset) => {
    it.each(SLIDER_AXES.map((a) => [a]))('moving %s from 0 to 100 moves every governed category in its documented direction', (axis) => {
      const low = scoresByCategory(preset, { ...NEUTRAL, [axis]: 0 });
      const high = scoresByCategory(preset, { ...NEUTRAL, [axis]: 100 });
      let governed = 0;
      for (const category of CATEGORIES) {
        const sensitivity = SENSITIVITIES[category][axis];
        const delta = high.get(category)! - low.get(category)!;
        if (sensitivity === 0) {
          expect({ category, delta }).toEqual({ category, delta: 0 });
          continue;
        }
        governed++;
        const clampedBothEnds = [low.get(category), high.get(category)].every((s) => s === SCORE_RANGE.min || s === SCORE_RANGE.max);
        if (!clampedBothEnds) expect({ category, direction: Math.sign(delta) }).toEqual({ category, direction: Math.sign(sensitivity) });
      }
      expect(governed).toBeGreaterThan(0);
    });

    it('moving the resolution ceiling from 720p to 2160p raises the formats above 720p and keeps the rest', () => {
      const low = compile(preset, { ...NEUTRAL, resolutionCeiling: '720p' }).plan.decisions;
      const high = compile(preset, { ...NEUTRAL, resolutionCeiling: '2160p' }).plan.decisions;
      const at = (list: typeof low, name: string) => list.find((d) => d.customFormatName === name)!;
      expect(at(low, '2160p').score).toBe(SCORE_RANGE.min);
      expect(at(low, '2160p').reason.ceiling).toBe('above');
      expect(at(high, '2160p').score).toBeGreaterThan(at(low, '2160p').score);
      expect(at(high, '2160p').reason.ceiling).toBe('match');
      expect(at(low, '720p').reason.ceiling).toBe('match');
      expect(at(high, '720p').reason.ceiling).toBe('below');
      for (const d of low.filter((x) => x.reason.ceiling === null)) expect(at(high, d.customFormatName).score).toBe(d.score);
    });
  });

  it('scores every decision as base plus its contributions, clamped, with all five axes reported', () => {
    for (const preset of PRESETS) {
      for (const weights of [NEUTRAL, { ...NEUTRAL, unwantedStrictness: 100, qualityVsSize: 0 }, { ...NEUTRAL, resolutionCeiling: '720p' as const }]) {
        for (const d of compile(preset, weights).plan.decisions) {
          const raw = d.reason.base + d.reason.axisContributions.reduce((s, c) => s + c.delta, 0);
          expect(d.score).toBe(Math.min(SCORE_RANGE.max, Math.max(SCORE_RANGE.min, raw)));
          expect(d.reason.axisContributions.map((c) => c.axis)).toEqual([...SLIDER_AXES, 'resolutionCeiling']);
          expect(d.reason.base).toBe(preset.base[d.category]);
        }
      }
    }
  });

  it('gives the balanced table values at neutral sliders', () => {
    const s = scoresByCategory(presetById('balanced')!, NEUTRAL);
    expect(s.get('unwanted')).toBe(-5000);
    expect(s.get('release_group_tier_1')).toBe(1700);
    const resolution = compile(presetById('balanced')!, NEUTRAL).plan.decisions.filter((d) => d.category === 'resolution');
    // '2160p' at a 2160p ceiling gets the match bonus, '720p' is below it.
    expect(resolution.map((d) => [d.customFormatName, d.score, d.reason.ceiling])).toEqual([
      ['2160p', 100, 'match'],
      ['720p', 0, 'below'],
    ]);
    const strict = scoresByCategory(presetById('balanced')!, { ...NEUTRAL, unwantedStrictness: 100, compatibility: 100 });
    expect(strict.get('unwanted')).toBe(-10000);
    expect(strict.get('hdr_dv')).toBe(300 - 800);
  });

  it('lists changes: applied, unchanged, absent for the app, and every change skipped under a profile conflict', () => {
    const compiled = compile(presetById('balanced')!, NEUTRAL);
    expect(compiled.appliedChanges.find((c) => c.customFormatName === 'DV')).toEqual({ kind: 'set_cf_score', profileName: 'Goal Test', customFormatName: 'DV', score: 300 });
    // AAC scores 50 through the `all` scope already.
    expect(compiled.skippedChanges.find((s) => s.change.customFormatName === 'AAC')).toEqual({
      change: { kind: 'set_cf_score', profileName: 'Goal Test', customFormatName: 'AAC', score: 50 },
      reason: SKIP_REASONS.unchanged,
    });
    expect(compiled.plan.uncategorized.map((u) => u.name)).toEqual(['Season Pack']);
    expect(compiled.plan.coverage).toEqual({ total: 17, scored: 16, uncategorized: 1 });
    expect(compiled.desiredProfile.customFormats.movie_app.find((s) => s.name === 'DV')).toEqual({ name: 'DV', score: 300 });
    expect(compiled.desiredProfile.customFormats.all).toEqual(PROFILE.customFormats.all);

    const series = compile(presetById('balanced')!, NEUTRAL, { arrType: 'series_app', formats: [...FIXTURE_FORMATS, cf('Radarr Only Tier 01', [{ ...title('x'), arrType: 'movie_app' }])] });
    // Quality modifiers are Radarr-only conditions; the other format has only Radarr conditions.
    expect(series.skippedChanges.filter((s) => s.reason === SKIP_REASONS.absent).map((s) => s.change.customFormatName)).toEqual(['Remux', 'Radarr Only Tier 01']);

    const conflicted = compile(presetById('balanced')!, NEUTRAL, { profileConflict: true });
    expect(conflicted.appliedChanges).toEqual([]);
    expect(conflicted.skippedChanges.every((s) => s.reason === SKIP_REASONS.conflict)).toBe(true);
    expect(conflicted.desiredProfile).toBe(PROFILE);
  });

  it('derives thresholds by the documented formulas', () => {
    const compiled = compile(presetById('balanced')!, { ...NEUTRAL, unwantedStrictness: 75, qualityVsSize: 50 });
    const byCat = new Map(compiled.plan.decisions.map((d) => [d.category, d.score]));
    const reachable =
      Math.max(byCat.get('release_group_tier_1')!, byCat.get('release_group_tier_2')!, byCat.get('release_group_tier_3')!) +
      Math.max(byCat.get('audio_lossless')!, byCat.get('audio_advanced')!, byCat.get('audio_baseline')!) +
      Math.max(byCat.get('hdr_dv')!, byCat.get('hdr_hdr10plus')!, byCat.get('hdr_baseline')!) +
      byCat.get('remux')! +
      byCat.get('streaming_service')! +
      byCat.get('movie_version')! +
      byCat.get('repack_proper')! +
      100; // the 2160p resolution format at the ceiling
    expect(compiled.plan.thresholds).toEqual({
      minimumScore: Math.round(0.5 * byCat.get('release_group_tier_3')!),
      upgradeUntilScore: Math.round((reachable * 70) / 100),
      upgradeScoreIncrement: 26,
    });
    expect(thresholdsOf([], { ...NEUTRAL, qualityVsSize: 100 })).toEqual({ minimumScore: 0, upgradeUntilScore: 1, upgradeScoreIncrement: 1 });
  });

  it('disables rows above the ceiling, moves the cutoff, leaves unmapped rows alone', () => {
    const { plan, desiredProfile } = compile(presetById('balanced')!, { ...NEUTRAL, resolutionCeiling: '1080p' });
    expect(plan.qualityLadder.cutoff).toBe('Bluray-1080p');
    expect(plan.qualityLadder.items.map((i) => [i.name, i.enabled, i.upgradeUntil, i.resolution, i.mapped])).toEqual([
      ['Remux-2160p', false, false, 2160, true],
      ['WEB 2160p', false, false, 2160, true],
      ['Bluray-1080p', true, true, 1080, true],
      ['HDTV-480p', false, false, 480, false],
      ['Bluray-720p', false, false, 720, true],
    ]);
    expect(desiredProfile.qualities.map((q) => q.enabled)).toEqual([false, false, true, false, false]);
    expect(plan.qualityLadder.reshapesSiblingArrs).toBe(false);
    expect(plan.qualityLadder.sharedLadderNote).toBeNull();

    const shared = compile(presetById('balanced')!, { ...NEUTRAL, resolutionCeiling: '1080p' }, { siblingArrTypes: ['movie_app', 'series_app'] });
    expect(shared.plan.qualityLadder.reshapesSiblingArrs).toBe(true);
    expect(shared.plan.qualityLadder.sharedLadderNote).toContain('series_app (Sonarr)');
    const named = compile(presetById('balanced')!, { ...NEUTRAL, resolutionCeiling: '1080p' }, {
      siblingArrTypes: ['series_app'],
      siblingInstances: [
        { name: 'Sonarr B', arrType: 'series_app' },
        { name: 'Lidarr', arrType: 'music_app' },
        { name: 'Sonarr A', arrType: 'series_app' },
      ],
    });
    expect(named.plan.qualityLadder.sharedLadderNote).toMatch(/Synced now by "Sonarr A" \(series_app\), "Sonarr B" \(series_app\)\.$/);
    const untouched = compile(presetById('balanced')!, NEUTRAL, { siblingArrTypes: ['series_app'] });
    expect(untouched.plan.qualityLadder.reshapesSiblingArrs).toBe(false);
    expect(untouched.plan.qualityLadder.sharedLadderNote).toContain('leaves them as they are');
  });

  it('enables the rows at the ceiling when the ceiling would leave nothing enabled', () => {
    const uhdOnly: QualityProfileData = {
      ...PROFILE,
      qualities: [
        { type: 'quality', name: 'Remux-2160p', enabled: true, upgradeUntil: true },
        { type: 'quality', name: 'Bluray-1080p', enabled: false, upgradeUntil: false },
      ],
    };
    const { plan } = compile(presetById('balanced')!, { ...NEUTRAL, resolutionCeiling: '1080p' }, { profile: uhdOnly });
    expect(plan.qualityLadder.items.map((i) => [i.name, i.enabled, i.upgradeUntil])).toEqual([
      ['Remux-2160p', false, false],
      ['Bluray-1080p', true, true],
    ]);
  });

  it('is deterministic: the same input gives byte-identical output', () => {
    const a = JSON.stringify(compile(presetById('4k-hdr')!, { ...NEUTRAL, hdrPreference: 80 }));
    const b = JSON.stringify(compile(presetById('4k-hdr')!, { ...NEUTRAL, hdrPreference: 80 }));
    expect(a).toBe(b);
  });
});

describeWithShared(TRASH_PCD_PARTS, 'goal engine on trash-pcd', () => {
  it.each(PRESETS.map((p) => [p.id]))('preset %s gives a complete, valid plan for "HD Bluray + WEB"', (id) => {
    const db = trashReplay().resolved;
    const formats = formatsOf(db);
    const { plan, appliedChanges, skippedChanges } = compileGoal({
      arrType: 'movie_app',
      profile: profileOf(db, 'HD Bluray + WEB'),
      formats,
      patterns: patternsOf(db),
      qualityNames: namesFor(db, 'movie_app'),
      preset: presetById(id)!,
      weights: presetById(id)!.suggestedWeights,
      siblingArrTypes: ['series_app'],
    });
    expect(plan.coverage.total).toBe(formats.length);
    expect(plan.coverage.scored + plan.coverage.uncategorized).toBe(plan.coverage.total);
    expect(plan.decisions).toHaveLength(plan.coverage.scored);
    expect(appliedChanges.length + skippedChanges.length).toBe(plan.decisions.length);
    for (const d of plan.decisions) {
      const raw = d.reason.base + d.reason.axisContributions.reduce((s, c) => s + c.delta, 0);
      expect(d.score).toBe(Math.min(SCORE_RANGE.max, Math.max(SCORE_RANGE.min, raw)));
      expect(d.score).toBeGreaterThanOrEqual(SCORE_RANGE.min);
      expect(d.score).toBeLessThanOrEqual(SCORE_RANGE.max);
    }
    expect(plan.thresholds.upgradeScoreIncrement).toBeGreaterThanOrEqual(1);
    expect(plan.thresholds.upgradeUntilScore).toBeGreaterThan(plan.thresholds.minimumScore);
  });

  it('a 1080p ceiling on "Remux 2160p (Combined)" disables every 2160p row and moves the cutoff', () => {
    const db = trashReplay().resolved;
    const profile = profileOf(db, 'Remux 2160p (Combined)');
    const { plan, desiredProfile } = compileGoal({
      arrType: 'movie_app',
      profile,
      formats: formatsOf(db),
      patterns: patternsOf(db),
      qualityNames: namesFor(db, 'movie_app'),
      preset: presetById('balanced')!,
      weights: { ...NEUTRAL, resolutionCeiling: '1080p' },
      siblingArrTypes: ['series_app'],
    });
    expect(profile.qualities.find((q) => q.upgradeUntil)!.name).toBe('Remux-2160p');
    expect(plan.qualityLadder.cutoff).toBe('Remux-1080p');
    const uhd = plan.qualityLadder.items.filter((i) => i.resolution === 2160);
    expect(uhd.map((i) => i.name)).toEqual(['Remux-2160p', 'Bluray-2160p', 'WEB 2160p', 'HDTV-2160p']);
    expect(uhd.every((i) => !i.enabled && !i.upgradeUntil)).toBe(true);
    expect(desiredProfile.qualities.filter((q) => q.enabled).map((q) => q.name)).toEqual(['Remux-1080p', 'Bluray-1080p', 'WEB 1080p']);
    expect(plan.qualityLadder.reshapesSiblingArrs).toBe(true);
    // UHD-only group tiers cannot match under the ceiling: neutralised.
    expect(plan.decisions.find((d) => d.customFormatName === 'UHD Bluray Tier 01')).toMatchObject({ score: 0, reason: { ceiling: 'above' } });
    expect(plan.decisions.find((d) => d.customFormatName === '2160p')).toMatchObject({ score: SCORE_RANGE.min, reason: { ceiling: 'above' } });
  });
});

describe('docs/goals.md', () => {
  it('holds the policy and preset tables exactly as the engine has them', () => {
    const doc = fs.readFileSync(path.resolve(__dirname, '../../../docs/goals.md'), 'utf8');
    expect(doc).toContain(policyTableMarkdown());
    expect(doc).toContain(presetTableMarkdown());
    expect(doc).toContain(`\`${ENGINE_VERSION}\``);
  });
});
