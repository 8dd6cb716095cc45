/**
 * Goal previews: read-only over the in-memory PCD cache of the API process (like the resolved
 * reads). Everything derived from one cache state (the formats, patterns, quality names, profile
 * compatibility, the categorizations, each profile as resolved, the sandbox copy of the resolved
 * database) is computed once per state through the cache's memo.
 */
import type { ArrType } from '../../domain/arr-types';
import type { FieldChange } from '../../domain/diff/diff';
import {
  compileGoal,
  categorize,
  GoalSandbox,
  presetById,
  PRESET_IDS,
  type Categorization,
  type CompiledGoal,
  type GoalPlan,
  type GoalWeights,
  type GuideCategoryHints,
  readProfile,
  type ProfileState,
  type ScoreChange,
  type SiblingInstance,
} from '../../domain/goals';
import { entityNames, profileCompatibility, readEntity, type CustomFormatData, type PlannedUserOp } from '../../domain/pcd';
import { qualityNamesOf } from '../../domain/sync/source';
import { notFound, validationError } from '../../errors';
import type { PcdCache } from '../pcd/cache-manager';

export interface GoalRequest {
  databaseId: number;
  arrType: ArrType;
  profileName: string;
  preset: string;
  weights: GoalWeights;
}

export interface ConfigDiffEntry {
  entityType: 'quality_profile';
  name: string;
  arrType: ArrType;
  changes: FieldChange[];
}

export interface GoalPreview {
  plan: GoalPlan;
  configDiff: ConfigDiffEntry[];
  appliedChanges: ScoreChange[];
  skippedChanges: { change: ScoreChange; reason: string }[];
  /** The database state the preview was computed on (`<contentVersion>.<userVersion>`); apply checks it. */
  databaseVersion: string;
}

/**
 * Hints from the custom-format groups of the reference guides linked to a database for an app,
 * with a key naming their content (e.g. source ids and commits), so categorizations are computed
 * once per cache state and guide content.
 */
export interface KeyedGuideHints {
  key: string;
  hints: GuideCategoryHints;
}

/**
 * Where reference-guide custom-format groups come from (null: no guide is linked for the app, and
 * the categorizer works from conditions and names alone).
 */
export type GuideHintsProvider = (databaseId: number, arrType: ArrType) => Promise<KeyedGuideHints | null>;

/** What a preview reads beside the cache: reference-guide hints and the instances syncing the profile. */
export interface GoalContext {
  guide: KeyedGuideHints | null;
  /** Instances of other app families whose sync configuration selects the profile. */
  siblingInstances: readonly SiblingInstance[];
}

export const NO_CONTEXT: GoalContext = { guide: null, siblingInstances: [] };

export function databaseVersionOf(cache: PcdCache): string {
  return `${cache.contentVersion}.${cache.userVersion}`;
}

function formatsOf(cache: PcdCache): CustomFormatData[] {
  return cache.memo('goals:formats', () => entityNames(cache.resolved, 'custom_format').map((n) => readEntity(cache.resolved, 'custom_format', n)!.data as CustomFormatData));
}

function patternsOf(cache: PcdCache): Record<string, string> {
  return cache.memo('goals:patterns', () => {
    const rows = cache.resolved.prepare('SELECT name, pattern FROM regular_expressions').all() as { name: string; pattern: string }[];
    return Object.fromEntries(rows.map((r) => [r.name, r.pattern]));
  });
}

/** The sandbox of this cache state (a private copy of its resolved database; see GoalSandbox). */
export function sandboxOf(cache: PcdCache): GoalSandbox {
  return cache.memo('goals:sandbox', () => GoalSandbox.open(cache.resolved.serialize()));
}

/**
 * A quality profile as the cache state resolves it (read once per state and profile; shared by
 * every preview, never modified); null when the state has no profile by that name.
 */
function resolvedProfileOf(cache: PcdCache, name: string): ProfileState | null {
  const names = cache.memo('goals:profile-names', () => new Set(entityNames(cache.resolved, 'quality_profile')));
  if (!names.has(name)) return null;
  return cache.memo(`goals:profile:${name}`, () => readProfile(cache.resolved, name));
}

/** Categorizations depend only on the cache state and the guide's content: computed once per pair. */
function categorizedOf(cache: PcdCache, guide: KeyedGuideHints | null): ReadonlyMap<string, Categorization> {
  return cache.memo(`goals:categorized:${guide?.key ?? 'no-guide'}`, () =>
    new Map(formatsOf(cache).map((f) => [f.name, categorize(f, { patterns: patternsOf(cache), guide: guide?.hints ?? null })])),
  );
}

/** Validates the request against the cache state and compiles the goal (no sandbox yet). */
export function compileRequest(cache: PcdCache, request: GoalRequest, context: GoalContext = NO_CONTEXT): { compiled: CompiledGoal; resolvedProfile: ProfileState } {
  const preset = presetById(request.preset);
  if (!preset) throw validationError(`Invalid request: body.preset "${request.preset}" is not a preset; use one of ${PRESET_IDS.join(', ')}`);
  const current = resolvedProfileOf(cache, request.profileName);
  if (!current) {
    const hint = request.profileName.startsWith('pcd:') ? ' (send the raw PCD name, without the pcd: prefix)' : '';
    throw notFound(`Quality profile "${request.profileName}" not found in database ${cache.databaseId}${hint}`);
  }
  const profile = current.data;
  const compatibility = cache.memo('profile-compatibility', () => profileCompatibility(cache.resolved));
  const compatible = compatibility.find((p) => p.name === request.profileName)?.compatibleArrTypes ?? [];
  if (!compatible.includes(request.arrType)) {
    throw validationError(
      `Invalid request: body.profileName quality profile "${request.profileName}" is not compatible with ${request.arrType}` +
        (compatible.length > 0 ? ` (its enabled qualities fit ${compatible.join(', ')})` : ' (it has no enabled quality every app maps)'),
    );
  }
  const compiled = compileGoal({
    arrType: request.arrType,
    profile,
    formats: formatsOf(cache),
    patterns: patternsOf(cache),
    qualityNames: cache.memo(`goals:quality-names:${request.arrType}`, () => qualityNamesOf(cache.resolved, request.arrType)),
    preset,
    weights: request.weights,
    siblingArrTypes: compatible.filter((a) => a !== request.arrType),
    profileConflict: cache.conflicts.some((c) => c.portableType === 'quality_profile' && c.name === request.profileName),
    siblingInstances: context.siblingInstances,
    guide: context.guide?.hints ?? null,
    categorized: categorizedOf(cache, context.guide),
  });
  return { compiled, resolvedProfile: current };
}

/** The plan with the sandbox diff, and the user op that would adopt it (null when nothing changes). */
export function previewGoal(cache: PcdCache, request: GoalRequest, context: GoalContext = NO_CONTEXT): { preview: GoalPreview; op: PlannedUserOp | null } {
  const { compiled, resolvedProfile } = compileRequest(cache, request, context);
  const sandbox = sandboxOf(cache).compile(resolvedProfile, compiled.desiredProfile);
  return {
    op: sandbox.op,
    preview: {
      plan: compiled.plan,
      configDiff: sandbox.changes.length > 0 ? [{ entityType: 'quality_profile', name: request.profileName, arrType: request.arrType, changes: sandbox.changes }] : [],
      appliedChanges: compiled.appliedChanges,
      skippedChanges: compiled.skippedChanges,
      databaseVersion: databaseVersionOf(cache),
    },
  };
}
