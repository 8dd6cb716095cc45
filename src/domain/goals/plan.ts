/**
 * Compiles a goal (preset + sliders) for one quality profile into a plan: a decision per
 * categorized custom format, the uncategorized ones, thresholds, coverage and the quality ladder;
 * plus the desired profile the plan compiles to and the score changes it makes or skips.
 * Pure and deterministic: the same input gives the same output, field order included.
 */
import type { ArrType } from '../arr-types';
import { CONDITION_TYPES, type CustomFormatData, type QualityProfileData } from '../pcd';
import { scoresFor } from '../sync/source';
import { SCORE_FAMILIES, type Category } from './categories';
import { categorize, type Categorization, type CategorySource, type GuideCategoryHints } from './categorize';
import { applyCeiling, ceilingPixels, qualityResolution, type QualityLadder, type SiblingInstance } from './ladder';
import { clampScore, scoreOf, SCORE_RANGE, type AxisContribution, type CeilingRelation, type GoalWeights, type Preset } from './policy';

/** Version of the categorizer rules, policy table, presets and formulas together. */
export const ENGINE_VERSION = 'goals-1.0.0';

export interface DecisionReason {
  /** How the category was found: guide_group, conditions or name. */
  code: CategorySource;
  category: Category;
  /** The categorizer rule that placed the format (docs/goals.md). */
  ruleId: string;
  base: number;
  axisContributions: AxisContribution[];
  /** Where the format's resolution sits against the ceiling; null when it names none. */
  ceiling: CeilingRelation | null;
}

export interface Decision {
  customFormatName: string;
  arrType: ArrType;
  category: Category;
  score: number;
  reason: DecisionReason;
}

export interface UncategorizedFormat {
  name: string;
  suggestedCategory: Category;
  reason: string;
}

export interface Thresholds {
  minimumScore: number;
  upgradeUntilScore: number;
  upgradeScoreIncrement: number;
}

export interface GoalPlan {
  engineVersion: string;
  arrType: ArrType;
  decisions: Decision[];
  uncategorized: UncategorizedFormat[];
  thresholds: Thresholds;
  coverage: { total: number; scored: number; uncategorized: number };
  qualityLadder: QualityLadder;
}

export interface ScoreChange {
  kind: 'set_cf_score';
  profileName: string;
  customFormatName: string;
  score: number;
}

export const SKIP_REASONS = {
  unchanged: 'unchanged: the profile already gives this score',
  absent: 'absent_for_app: the format has no condition this app supports',
  conflict: 'pending_conflict: a user edit of the profile no longer applies on top of the base; resolve or revert it first',
} as const;

export interface GoalInput {
  arrType: ArrType;
  profile: QualityProfileData;
  /** Every custom format of the database, sorted by name. */
  formats: readonly CustomFormatData[];
  /** Regular expression name -> pattern. */
  patterns: Readonly<Record<string, string>>;
  /** Canonical quality name -> the app's name. */
  qualityNames: Readonly<Record<string, string>>;
  preset: Preset;
  weights: GoalWeights;
  /** Other app families the profile is compatible with (its quality rows are shared with them). */
  siblingArrTypes: readonly ArrType[];
  /** Instances of those families that sync the profile now. */
  siblingInstances?: readonly SiblingInstance[];
  /** A user op on the profile is a pending conflict: nothing is compiled into it. */
  profileConflict?: boolean;
  guide?: GuideCategoryHints | null;
  /** Categorizations by format name computed earlier for the same formats and guide (a cache). */
  categorized?: ReadonlyMap<string, Categorization>;
}

export interface CompiledGoal {
  plan: GoalPlan;
  /** The profile as the plan compiles it (equal to the input profile when nothing applies). */
  desiredProfile: QualityProfileData;
  appliedChanges: ScoreChange[];
  skippedChanges: { change: ScoreChange; reason: string }[];
}

/** The format has at least one condition for this app that the app supports. */
export function appliesTo(format: CustomFormatData, arrType: ArrType): boolean {
  return format.conditions.some((c) => (c.arrType === 'all' || c.arrType === arrType) && CONDITION_TYPES[c.type]?.apps.includes(arrType));
}

function ceilingRelation(format: CustomFormatData, limit: number): CeilingRelation | null {
  const resolutions = format.conditions
    .filter((c) => c.type === 'resolution' && !c.negate)
    .map((c) => qualityResolution((c as { resolution: string }).resolution))
    .filter((r): r is number => r !== null);
  if (resolutions.length === 0) return null;
  const r = Math.min(...resolutions);
  return r > limit ? 'above' : r === limit ? 'match' : 'below';
}

/**
 * Thresholds (docs/goals.md):
 * - reachable = sum over score families of the family's best positive score (applicable formats);
 * - minimumScore = 0 up to strictness 50, then rising linearly to the best tier-3 group score at 100;
 * - upgradeScoreIncrement = 1 + round((100 − qualityVsSize) / 2);
 * - upgradeUntilScore = max(minimumScore + increment, round(reachable × (40 + 0.6 × qualityVsSize) / 100)).
 */
export function thresholdsOf(decisions: readonly Decision[], weights: GoalWeights): Thresholds {
  const best = (cats: readonly Category[]) => Math.max(0, ...decisions.filter((d) => cats.includes(d.category)).map((d) => d.score));
  const reachable = SCORE_FAMILIES.reduce((sum, family) => sum + best(family), 0);
  const tier3 = best(['release_group_tier_3']);
  const strict = weights.unwantedStrictness;
  const minimumScore = strict <= 50 ? 0 : Math.round(((strict - 50) / 50) * tier3);
  const upgradeScoreIncrement = 1 + Math.round((100 - weights.qualityVsSize) / 2);
  const upgradeUntilScore = Math.max(minimumScore + upgradeScoreIncrement, Math.round((reachable * (40 + 0.6 * weights.qualityVsSize)) / 100));
  return {
    minimumScore: clampScore(minimumScore),
    upgradeUntilScore: Math.min(SCORE_RANGE.max, upgradeUntilScore),
    upgradeScoreIncrement,
  };
}

function byName(a: { name: string }, b: { name: string }): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

export function compileGoal(input: GoalInput): CompiledGoal {
  const { arrType, profile, weights } = input;
  const limit = ceilingPixels(weights.resolutionCeiling);
  const decisions: Decision[] = [];
  const uncategorized: UncategorizedFormat[] = [];
  const applicable = new Set<string>();
  for (const format of input.formats) {
    const placed = input.categorized?.get(format.name) ?? categorize(format, { patterns: input.patterns, guide: input.guide });
    if (placed.status === 'uncategorized') {
      uncategorized.push({ name: format.name, suggestedCategory: placed.suggestedCategory, reason: placed.reason });
      continue;
    }
    if (appliesTo(format, arrType)) applicable.add(format.name);
    const relation = ceilingRelation(format, limit);
    const { base, axisContributions, score } = scoreOf(placed.category, input.preset.base, weights, relation);
    decisions.push({
      customFormatName: format.name,
      arrType,
      category: placed.category,
      score,
      reason: { code: placed.source, category: placed.category, ruleId: placed.ruleId, base, axisContributions, ceiling: relation },
    });
  }

  const thresholds = thresholdsOf(
    decisions.filter((d) => applicable.has(d.customFormatName)),
    weights,
  );
  const { ladder, qualities } = applyCeiling(profile.name, profile.qualities, input.qualityNames, weights.resolutionCeiling, arrType, input.siblingArrTypes, input.siblingInstances);

  const current = scoresFor(profile, arrType);
  const appliedChanges: ScoreChange[] = [];
  const skippedChanges: { change: ScoreChange; reason: string }[] = [];
  for (const d of decisions) {
    const change: ScoreChange = { kind: 'set_cf_score', profileName: profile.name, customFormatName: d.customFormatName, score: d.score };
    if (input.profileConflict) skippedChanges.push({ change, reason: SKIP_REASONS.conflict });
    else if (!applicable.has(d.customFormatName)) skippedChanges.push({ change, reason: SKIP_REASONS.absent });
    else if ((current.get(d.customFormatName) ?? 0) === d.score) skippedChanges.push({ change, reason: SKIP_REASONS.unchanged });
    else appliedChanges.push(change);
  }

  let desiredProfile = profile;
  if (!input.profileConflict) {
    const scores = new Map(profile.customFormats[arrType].map((s) => [s.name, s.score]));
    for (const c of appliedChanges) scores.set(c.customFormatName, c.score);
    desiredProfile = {
      ...profile,
      minimumCustomFormatScore: thresholds.minimumScore,
      upgradeUntilScore: thresholds.upgradeUntilScore,
      upgradeScoreIncrement: thresholds.upgradeScoreIncrement,
      qualities,
      customFormats: { ...profile.customFormats, [arrType]: [...scores].map(([name, score]) => ({ name, score })).sort(byName) },
    };
  }

  return {
    plan: {
      engineVersion: ENGINE_VERSION,
      arrType,
      decisions,
      uncategorized,
      thresholds,
      coverage: { total: input.formats.length, scored: decisions.length, uncategorized: uncategorized.length },
      qualityLadder: ladder,
    },
    desiredProfile,
    appliedChanges,
    skippedChanges,
  };
}
