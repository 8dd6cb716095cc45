/**
 * The five health criteria. Each one is computed for a scope: the whole instance, or one selected
 * quality profile (its own entity plus the custom formats it scores; the other sections do not
 * apply). A criterion gives a score from 0 to 100, or null when it has no evidence (skipped), with
 * detail lines and suggestions. Formulas are written next to each function and in docs/health.md;
 * every score is rounded once, halves up, in integer arithmetic.
 */
import { APP_OF, type ArrType } from '../arr-types';
import type { SyncChange, SyncIssue, SyncSection } from '../sync/types';
import {
  bounded,
  changeLine,
  compareChanges,
  compareIssues,
  compareText,
  entityKey,
  partOf,
  plural,
  roundRatio,
  suggestion,
} from './text';
import type { CriterionId, ReferenceCounts, Suggestion } from './types';

export interface CriterionOutcome {
  score: number | null;
  detail: string[];
  suggestions: Suggestion[];
}

const skipped = (...detail: string[]): CriterionOutcome => ({ score: null, detail, suggestions: [] });

// ---------------------------------------------------------------- app version

/** Lowest supported major version per family: Radarr 5, Sonarr 4, Lidarr 2. */
export const MIN_APP_MAJOR: Readonly<Record<ArrType, number>> = Object.freeze({ movie_app: 5, series_app: 4, music_app: 2 });

export interface VersionCheck {
  state: 'supported' | 'unsupported' | 'unknown';
  version: string | null;
  major: number | null;
}

/** Reads the major version of an app version string ("5.14.0.9383", "v4.0.1"). */
export function checkAppVersion(arrType: ArrType, detected: string | null): VersionCheck {
  const match = detected === null ? null : /^v?(\d{1,6})(?:[.\-+]|$)/.exec(detected.trim());
  if (!match) return { state: 'unknown', version: detected, major: null };
  const major = Number(match[1]);
  return { state: major >= MIN_APP_MAJOR[arrType] ? 'supported' : 'unsupported', version: detected, major };
}

// ---------------------------------------------------------------- scope

/** What a criterion sees of its scope; built by scoring.ts from the HealthInput. */
export interface Scope {
  kind: 'instance' | 'profile';
  arrType: ArrType;
  /** Profile scope: the profile's name. */
  profileName: string | null;
  /** Null when the drift evidence is unusable (the unit is degraded; criteria are not called then). */
  changes: {
    /** Managed (desired) entities in scope, present or missing. */
    managedTotal: number;
    drift: SyncChange[];
    missing: SyncChange[];
    /** Instance scope only (profiles have no unmanaged entities). */
    unmanaged: SyncChange[];
    contentCheckedAt: string | null;
  };
  /** Instance scope: the app's sections and the ones the selection configures. */
  sections: { all: SyncSection[]; configured: SyncSection[] } | null;
  /** Transform issues in scope; null when the database cache was not ready. */
  issues: SyncIssue[] | null;
  /** Profile scope: whether the profile is in the database (null when the cache was not ready). */
  profileFound: boolean | null;
  /** Profile scope: the profile itself has an error issue, so the sync leaves it out. */
  profileLeftOut: boolean;
  /** Profile scope: its custom formats are known (the cache was ready and the profile found). */
  customFormatsKnown: boolean;
  /** The selected profiles in scope with their compatibility; null when the cache was not ready. */
  profiles: { name: string; compatible: boolean }[] | null;
  /** Selected profile names the database lacks (instance scope). */
  profilesNotFound: string[];
  version: VersionCheck;
  reference: ReferenceCounts | null;
  /** Why reference is null (detail line of the skipped criterion). */
  referenceMissing: string;
  deleteUnmanaged: boolean;
}

const appLabel = (arrType: ArrType) => APP_OF[arrType].label;

/** T: the managed entities in scope, never fewer than the drifted and missing ones listed. */
function managedTotalOf(changes: Scope['changes']): number {
  return Math.max(changes.managedTotal, changes.missing.length + changes.drift.length);
}

// ---------------------------------------------------------------- completeness

/**
 * completeness: how much of what the selection asks for exists on the instance.
 *
 * T = managed entities in scope (present or missing), M = missing ones, presence = (T - M) / T
 * (0 when T = 0: the selection asks for nothing that could exist).
 * Instance scope: coverage = configured sections / the app's sections (Radarr and Sonarr have 3,
 * Lidarr 4), score = round(100 * (0.8 * presence + 0.2 * coverage)).
 * Profile scope: score = round(100 * presence) over the profile and its custom formats; skipped when
 * the profile is not in the database or is left out of the sync by an error of its own.
 */
export function completeness(scope: Scope): CriterionOutcome {
  const { changes } = scope;
  if (scope.kind === 'profile' && scope.profileFound === false) return skipped('The profile is not in the database, so nothing of it can exist on the instance.');
  if (scope.kind === 'profile' && scope.profileLeftOut) return skipped('The profile has an error and is left out of the sync (see coherence).');
  const missing = [...changes.missing].sort(compareChanges);
  const total = managedTotalOf(changes);
  const present = total - missing.length;
  const detail: string[] = [];
  const suggestions: Suggestion[] = [];
  detail.push(
    total === 0
      ? 'The selection manages no entity yet.'
      : `${partOf(present, total, 'managed entity', 'managed entities', 'exists', 'exist')} on the instance; ${missing.length} missing.`,
  );
  if (scope.kind === 'profile' && !scope.customFormatsKnown) detail.push('Custom formats not counted: the database cache was not ready.');
  let score: number;
  if (scope.kind === 'instance' && scope.sections) {
    const { all, configured } = scope.sections;
    const unconfigured = all.filter((s) => !configured.includes(s));
    detail.push(`${configured.length} of ${all.length} ${appLabel(scope.arrType)} sections configured${configured.length ? `: ${configured.join(', ')}` : ''}.`);
    // round(100 * (0.8 * present/total + 0.2 * configured/all)) = round((80*present*all + 20*configured*total) / (total*all))
    const t = Math.max(total, 1);
    score = roundRatio(80 * present * all.length + 20 * configured.length * t, t * all.length);
    if (unconfigured.length) {
      suggestions.push(
        suggestion(
          `${plural(unconfigured.length, 'section')} not configured`,
          [`Not configured: ${unconfigured.join(', ')}.`, 'Select them in the sync configuration if arrgo should manage them.'],
          'info',
        ),
      );
    }
  } else {
    score = total === 0 ? 0 : roundRatio(100 * present, total);
  }
  if (missing.length) {
    suggestions.unshift(
      suggestion(
        `Sync to create ${plural(missing.length, 'missing entity', 'missing entities')}`,
        [...bounded(missing.map(changeLine)), 'They are in the desired state but not on the instance.'],
        'warning',
      ),
    );
  }
  return { score, detail, suggestions };
}

// ---------------------------------------------------------------- drift

/**
 * drift: the share of managed entities on the instance that match the desired state.
 *
 * P = present managed entities in scope (T - M), D = drifted ones (updates); score =
 * round(100 * (P - D) / P); skipped when P = 0 (and, for a profile, as completeness is). Missing
 * entities are completeness' concern and unmanaged entities do not count.
 */
export function drift(scope: Scope): CriterionOutcome {
  const { changes } = scope;
  if (scope.kind === 'profile' && scope.profileFound === false) return skipped('The profile is not in the database.');
  if (scope.kind === 'profile' && scope.profileLeftOut) return skipped('The profile has an error and is left out of the sync (see coherence).');
  const total = managedTotalOf(changes);
  const present = total - changes.missing.length;
  const drifted = [...changes.drift].sort(compareChanges);
  const detail: string[] = [];
  if (changes.contentCheckedAt) detail.push(`Compared with the instance at ${changes.contentCheckedAt}.`);
  const suggestions: Suggestion[] = [];
  if (scope.kind === 'instance' && changes.unmanaged.length) {
    detail.push(`${plural(changes.unmanaged.length, 'unmanaged entity', 'unmanaged entities')} on the instance (not scored).`);
    suggestions.push(
      scope.deleteUnmanaged
        ? suggestion(
            `The next sync deletes ${plural(changes.unmanaged.length, 'unmanaged entity', 'unmanaged entities')}`,
            [...bounded([...changes.unmanaged].sort(compareChanges).map(changeLine)), 'deleteUnmanaged is on in the sync configuration.'],
            'info',
          )
        : suggestion(
            `${plural(changes.unmanaged.length, 'entity', 'entities')} on the instance not managed by arrgo`,
            [...bounded([...changes.unmanaged].sort(compareChanges).map(changeLine)), 'They are left alone (deleteUnmanaged is off).'],
            'neutral',
          ),
    );
  }
  if (present === 0) return { score: null, detail: ['No managed entity exists on the instance to compare.', ...detail], suggestions };
  detail.unshift(`${partOf(present - drifted.length, present, 'managed entity', 'managed entities', 'matches', 'match')} the desired state; ${drifted.length} drifted.`);
  if (drifted.length) {
    suggestions.unshift(
      suggestion(
        `${plural(drifted.length, 'entity was', 'entities were')} changed on the instance`,
        [
          ...bounded(drifted.map((c) => `${changeLine(c)}: ${plural(c.fields.length, 'field differs', 'fields differ')}`)),
          'Sync to restore the desired values, or make the change in the database.',
        ],
        'warning',
      ),
    );
  }
  return { score: roundRatio(100 * (present - drifted.length), present), detail, suggestions };
}

// ---------------------------------------------------------------- coherence

/** Points an entity with at least one error costs. */
export const ERROR_PENALTY = 25;
/** Points an entity with warnings only costs, and the most warnings can cost in total. */
export const WARNING_PENALTY = 5;
export const WARNING_PENALTY_CAP = 50;

/**
 * coherence: internal consistency of the desired configuration for this app, from the transform
 * issues. Issues are grouped by entity (entityType + name): E entities with an error (left out of
 * the sync), W entities with warnings only (adjusted); score = max(0, 100 - 25 * E - min(50, 5 * W)).
 * Profile scope: the profile's own issues and its custom formats'; an error on the profile itself
 * (or the profile missing from the database) scores 0, since nothing of it is synced.
 * Skipped when the database cache was not ready, and at instance scope when nothing is selected.
 */
export function coherence(scope: Scope): CriterionOutcome {
  if (scope.issues === null) return skipped('The database cache was not ready, so the desired configuration could not be checked.');
  if (scope.kind === 'instance' && scope.sections && scope.sections.configured.length === 0) return skipped('Nothing is selected, so there is no desired configuration to check.');
  const issues = [...scope.issues].sort(compareIssues);
  const errors = new Set<string>();
  const warnings = new Set<string>();
  for (const i of issues) (i.severity === 'error' ? errors : warnings).add(entityKey(i.entityType, i.name));
  for (const key of errors) warnings.delete(key);
  const label = appLabel(scope.arrType);
  const detail = [
    issues.length === 0
      ? `The desired configuration converts to ${label} without issues.`
      : `${plural(errors.size, 'entity', 'entities')} with errors (left out), ${plural(warnings.size, 'entity', 'entities')} with warnings only (adjusted).`,
  ];
  let score = Math.max(0, 100 - ERROR_PENALTY * errors.size - Math.min(WARNING_PENALTY_CAP, WARNING_PENALTY * warnings.size));
  if (scope.kind === 'profile') {
    if (scope.profileFound === false || scope.profileLeftOut) {
      score = 0;
      detail.push(scope.profileFound === false ? 'The profile is not in the database: it is not synced.' : 'The profile itself has an error: it is left out of the sync.');
    }
  }
  const suggestions: Suggestion[] = [];
  const lines = (severity: SyncIssue['severity']) => issues.filter((i) => i.severity === severity).map((i) => `${i.entityType} "${i.name}": ${i.message}`);
  if (errors.size) {
    suggestions.push(suggestion(`${plural(errors.size, 'entity', 'entities')} cannot be synced as written`, [...bounded(lines('error')), `Fix them in the database; they are left out of every sync to ${label}.`], 'warning'));
  } else if (scope.kind === 'profile' && scope.profileFound === false) {
    suggestions.push(suggestion('The selected profile is not in the database', [`"${scope.profileName}" is selected but the database has no such profile.`, 'Select an existing profile or add it to the database.'], 'warning'));
  }
  if (warnings.size) {
    suggestions.push(suggestion(`${plural(warnings.size, 'entity was', 'entities were')} adjusted for ${label}`, [...bounded(lines('warning')), 'The sync writes the adjusted values.'], 'info'));
  }
  return { score, detail, suggestions };
}

// ---------------------------------------------------------------- compatibility

/**
 * compatibility: the selected profiles fit the app family and the app version is supported
 * (Radarr >= 5, Sonarr >= 4, Lidarr >= 2).
 *
 * K = selected profiles found in the database, C = the compatible ones; profilePart = 100 * C / K
 * (100 when K = 0). versionFactor = 1 when supported or unknown, 1/2 when unsupported.
 * score = round(profilePart * versionFactor). Skipped when there is neither profile evidence (no
 * profile found, or the cache was not ready) nor a readable app version. Profile scope: K = 1
 * (0 when the cache was not ready); skipped when the profile is not in the database.
 */
export function compatibility(scope: Scope): CriterionOutcome {
  const profiles = scope.profiles ?? [];
  const { version } = scope;
  const label = appLabel(scope.arrType);
  if (scope.kind === 'profile' && scope.profileFound === false) return skipped('The profile is not in the database.');
  if (profiles.length === 0 && version.state === 'unknown') {
    return skipped(
      scope.profiles === null ? 'The database cache was not ready and the app version is unknown.' : 'No selected profile to check and the app version is unknown.',
    );
  }
  const detail: string[] = [];
  const suggestions: Suggestion[] = [];
  const incompatible = profiles.filter((p) => !p.compatible).map((p) => p.name).sort(compareText);
  const compatible = profiles.length - incompatible.length;
  if (profiles.length) detail.push(`${partOf(compatible, profiles.length, 'selected profile', 'selected profiles', 'fits', 'fit')} ${label}.`);
  else if (scope.profiles === null) detail.push('Profile compatibility not checked: the database cache was not ready.');
  if (scope.profilesNotFound.length) detail.push(`Not in the database (not counted): ${bounded([...scope.profilesNotFound].sort(compareText)).join(', ')}.`);
  const min = MIN_APP_MAJOR[scope.arrType];
  if (version.state === 'unknown') detail.push(`${label} version unknown (${label} ${min} or later is supported).`);
  else detail.push(`${label} ${version.version}: ${version.state === 'supported' ? 'supported' : `older than ${label} ${min}, not supported`}.`);
  if (incompatible.length) {
    suggestions.push(
      suggestion(
        `${plural(incompatible.length, 'selected profile does', 'selected profiles do')} not fit ${label}`,
        [...bounded(incompatible), `Their enabled qualities have no ${label} equivalent; select profiles made for ${label}.`],
        'warning',
      ),
    );
  }
  if (version.state === 'unsupported') {
    suggestions.push(suggestion(`Upgrade ${label} to version ${min} or later`, [`The instance reports ${label} ${version.version}.`, 'Older versions may refuse or misread what arrgo writes.'], 'warning'));
  } else if (version.state === 'unknown' && version.version !== null) {
    suggestions.push(suggestion(`The ${label} version could not be read`, [`The instance reports "${version.version}".`], 'info'));
  }
  const [factorNum, factorDen] = version.state === 'unsupported' ? [1, 2] : [1, 1];
  // round(100 * C/K * factor); K = 0 counts as profilePart 100
  const score = profiles.length === 0 ? roundRatio(100 * factorNum, factorDen) : roundRatio(100 * compatible * factorNum, profiles.length * factorDen);
  return { score, detail, suggestions };
}

// ---------------------------------------------------------------- reference alignment

/**
 * ref_alignment: alignment with a reference guide. score = round(100 * matched / total) (matched
 * clamped to 0..total); skipped when no reference is available or total = 0.
 */
export function refAlignment(scope: Scope): CriterionOutcome {
  const ref = scope.reference;
  if (ref === null) return skipped(scope.referenceMissing);
  const total = Math.max(0, Math.floor(ref.total));
  if (total === 0) return skipped('The reference guide has nothing to compare here.');
  const matched = Math.min(total, Math.max(0, Math.floor(ref.matched)));
  const guide = ref.source ? `the reference guide "${ref.source}"` : 'the reference guide';
  const detail = [`${partOf(matched, total, 'reference entry', 'reference entries', 'matches', 'match')} ${guide}.`];
  const differences = [...(ref.differences ?? [])].sort(compareText);
  const suggestions =
    matched < total
      ? [
          suggestion(
            `${plural(total - matched, 'entry differs', 'entries differ')} from the reference guide`,
            differences.length ? bounded(differences) : ['Review the differences against the reference guide source.'],
            'info',
          ),
        ]
      : [];
  return { score: roundRatio(100 * matched, total), detail, suggestions };
}

export const CRITERIA: Readonly<Record<CriterionId, (scope: Scope) => CriterionOutcome>> = Object.freeze({
  completeness,
  drift,
  coherence,
  compatibility,
  ref_alignment: refAlignment,
});
