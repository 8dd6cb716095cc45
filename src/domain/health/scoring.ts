/**
 * Config-health scoring (pure, deterministic): scoreInstance turns plain inputs (the instance, its
 * sync selection, what the resolved PCD gives for it, its last stored drift check and optional
 * reference-guide counts) into the spec's HealthResult, with an overall ScoredUnit and one per
 * selected quality profile. No live app I/O: everything comes from stored evidence.
 *
 * Overall score = the weighted mean of the enabled (weight > 0), non-skipped criteria, rounded
 * (halves up); each criterion's contribution is its share of that mean, apportioned by largest
 * remainder so the contributions add up to the score exactly. Bands: healthy >= 80, attention
 * >= 50, needs-review below, unknown when every enabled criterion was skipped. A degraded instance
 * (never checked; last drift check unreachable, unauthorized or error; no selection; disabled)
 * skips every criterion, so its band is unknown, with detail lines saying why.
 */
import { AppError, validationError } from '../../errors';
import { APP_OF } from '../arr-types';
import { appSections, selectedSections } from '../sync/selection';
import type { SyncChange, SyncIssue } from '../sync/types';
import { CRITERIA, checkAppVersion, type CriterionOutcome, type Scope } from './criteria';
import { plural, suggestion } from './text';
import {
  BAND_THRESHOLDS,
  CRITERION_IDS,
  CRITERION_LABELS,
  DEFAULT_WEIGHTS,
  ENGINE_VERSION,
  MAX_WEIGHT,
  type CriterionId,
  type CriterionResult,
  type HealthBand,
  type HealthInput,
  type HealthResult,
  type HealthTone,
  type ScoredUnit,
  type Suggestion,
} from './types';

/** A unit lists its most pressing suggestions (warning, then info, then neutral; unit-level ones first), at most this many. */
export const MAX_UNIT_SUGGESTIONS = 5;

/** Drift evidence older than this gets an info suggestion to re-check (it is still scored). */
export const STALE_EVIDENCE_DAYS = 7;
const DAY_MS = 86_400_000;

// ---------------------------------------------------------------- weights and bands

/**
 * The effective weights: DEFAULT_WEIGHTS overridden by `weights`. Each must be an integer from 0 to
 * 100 (0 disables the criterion); unknown keys are refused. Throws AppError('validation').
 */
export function resolveWeights(weights?: Partial<Record<CriterionId, number>> | null): Record<CriterionId, number> {
  const out = { ...DEFAULT_WEIGHTS };
  if (weights === undefined || weights === null) return out;
  if (typeof weights !== 'object' || Array.isArray(weights)) throw validationError('weights must be an object of criterion weights');
  for (const [key, value] of Object.entries(weights)) {
    if (!(CRITERION_IDS as readonly string[]).includes(key)) throw validationError(`weights.${key} is not a health criterion (${CRITERION_IDS.join(', ')})`);
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_WEIGHT) {
      throw validationError(`weights.${key} must be an integer from 0 to ${MAX_WEIGHT}`);
    }
    out[key as CriterionId] = value;
  }
  return out;
}

/** healthy >= 80, attention >= 50, needs-review below (unknown is decided by the caller: nothing scored). */
export function bandOf(score: number): Exclude<HealthBand, 'unknown'> {
  if (score >= BAND_THRESHOLDS.healthy) return 'healthy';
  if (score >= BAND_THRESHOLDS.attention) return 'attention';
  return 'needs-review';
}

const TONE_RANK: Record<HealthTone, number> = { warning: 0, info: 1, neutral: 2 };

/**
 * Combines criterion outcomes into a ScoredUnit. `outcomes[id]` null means disabled (weight 0).
 * score = round(sum(score_i * w_i) / sum(w_i)) over scored criteria; contribution_i = floor(score_i
 * * w_i / W) plus one for the largest remainders (ties: criterion order) until they sum to score.
 */
export function combine(outcomes: Record<CriterionId, CriterionOutcome | null>, weights: Record<CriterionId, number>, unitSuggestions: Suggestion[] = []): ScoredUnit {
  const criteria: CriterionResult[] = CRITERION_IDS.map((id) => {
    const outcome = outcomes[id];
    const weight = weights[id];
    if (weight === 0 || outcome === null) {
      return { id, label: CRITERION_LABELS[id], score: null, weight: 0, contribution: 0, detail: ['Disabled (weight 0).'], suggestions: [] };
    }
    const score = outcome.score === null ? null : Math.min(100, Math.max(0, Math.round(outcome.score)));
    return { id, label: CRITERION_LABELS[id], score, weight, contribution: 0, detail: outcome.detail, suggestions: outcome.suggestions };
  });
  const scored = criteria.filter((c) => c.weight > 0 && c.score !== null);
  const totalWeight = scored.reduce((sum, c) => sum + c.weight, 0);
  let score = 0;
  let band: HealthBand = 'unknown';
  if (totalWeight > 0) {
    const numerators = scored.map((c) => (c.score as number) * c.weight);
    const total = numerators.reduce((a, b) => a + b, 0);
    score = Math.floor((2 * total + totalWeight) / (2 * totalWeight));
    band = bandOf(score);
    const floors = numerators.map((n) => Math.floor(n / totalWeight));
    let leftover = score - floors.reduce((a, b) => a + b, 0);
    const order = numerators.map((n, i) => ({ i, rem: n % totalWeight })).sort((a, b) => b.rem - a.rem || a.i - b.i);
    for (const { i } of order) {
      if (leftover <= 0) break;
      floors[i]++;
      leftover--;
    }
    scored.forEach((c, i) => (c.contribution = floors[i]));
  }
  const fromCriteria = criteria.flatMap((c) => c.suggestions);
  const suggestions = [...unitSuggestions, ...fromCriteria]
    .map((s, i) => ({ s, i }))
    .sort((a, b) => TONE_RANK[a.s.tone] - TONE_RANK[b.s.tone] || a.i - b.i)
    .slice(0, MAX_UNIT_SUGGESTIONS)
    .map(({ s }) => s);
  return { score, band, criteria, suggestions };
}

// ---------------------------------------------------------------- degraded instances

const RECOVERY: Record<string, string> = {
  unreachable: 'Check that the instance is running and reachable from arrgo, then run a drift check.',
  timeout: 'Check that the instance is running and answering in time, then run a drift check.',
  unauthorized: "Update the instance's API key, then run a drift check.",
  invalid_response: 'Check that the address points to the app itself, then run a drift check.',
  app_mismatch: 'Point the instance at its own app (or register that app with its own app type), then run a drift check.',
  not_configured: 'Configure what the instance syncs, then run a drift check.',
  cache_not_ready: 'Wait for the database cache to be ready, then run a drift check.',
  rate_limited: 'Wait a moment, then run a drift check.',
  error: "Run a drift check; if it keeps failing, check the instance's logs.",
};

const REASON_TEXT: Record<string, string> = {
  unreachable: 'the instance could not be reached',
  timeout: 'the instance did not respond in time',
  unauthorized: 'the instance rejected its API key',
  invalid_response: 'the instance returned a response arrgo could not read',
  app_mismatch: "the app at the instance's URL is not of the instance's app type",
  not_configured: 'no sync selection was configured',
  cache_not_ready: 'the database cache was not ready',
  rate_limited: 'the instance rate-limited the check',
  error: 'the check failed',
};

/** Why the instance cannot be scored, or null when it can: [reason line, recovery line]. */
export function degradation(input: Pick<HealthInput, 'instance' | 'selection' | 'drift'>): { reason: string; recovery: string } | null {
  if (!input.instance.enabled) return { reason: 'The instance is disabled.', recovery: 'Enable the instance to score its health.' };
  if (input.selection === null) return { reason: 'No sync selection is configured for the instance.', recovery: RECOVERY.not_configured };
  const drift = input.drift;
  if (drift === null) return { reason: 'The instance has never been checked for drift.', recovery: 'Run a drift check for the instance.' };
  if (drift.status === 'in-sync' || drift.status === 'drifted') return null;
  const reasonKey = drift.reason !== null && REASON_TEXT[drift.reason] ? drift.reason : drift.status === 'unreachable' ? 'unreachable' : drift.status === 'unauthorized' ? 'unauthorized' : 'error';
  return { reason: `The last drift check ended ${drift.status}: ${REASON_TEXT[reasonKey]}.`, recovery: RECOVERY[reasonKey] };
}

// ---------------------------------------------------------------- scoring

function isoOf(value: string, what: string): string {
  const ms = typeof value === 'string' ? Date.parse(value) : NaN;
  if (!Number.isFinite(ms)) throw new AppError('internal', `invalid ${what} for the health computation`);
  return new Date(ms).toISOString();
}

function unique(names: string[]): string[] {
  return [...new Set(names)];
}

function scoreScope(scope: Scope | null, weights: Record<CriterionId, number>, degraded: { reason: string; recovery: string } | null, unitSuggestions: Suggestion[]): ScoredUnit {
  const outcomes = {} as Record<CriterionId, CriterionOutcome | null>;
  for (const id of CRITERION_IDS) {
    if (weights[id] === 0) outcomes[id] = null;
    else if (degraded || !scope) outcomes[id] = { score: null, detail: [`Not scored: ${degraded ? degraded.reason : 'no evidence.'}`], suggestions: [] };
    else outcomes[id] = CRITERIA[id](scope);
  }
  return combine(outcomes, weights, unitSuggestions);
}

/** Scores one instance. Deterministic: the same input gives the same output. */
export function scoreInstance(input: HealthInput): HealthResult {
  const { instance } = input;
  const generatedAt = isoOf(input.now, 'time');
  const weights = resolveWeights(input.weights);
  const degraded = degradation(input);
  const label = APP_OF[instance.arrType].label;
  const head = { instanceId: instance.instanceId, instanceName: instance.instanceName, arrType: instance.arrType, engineVersion: ENGINE_VERSION, generatedAt };
  const selection = input.selection;
  const profileNames = selection ? unique(selection.qualityProfiles) : [];

  if (degraded || !selection || !input.drift) {
    const why = degraded ?? { reason: 'No evidence.', recovery: 'Run a drift check for the instance.' };
    const unitSuggestion = suggestion('Health cannot be scored right now', [why.reason, why.recovery], 'warning');
    return {
      ...head,
      overall: scoreScope(null, weights, why, [unitSuggestion]),
      profiles: profileNames.map((name) => ({ name, ...scoreScope(null, weights, why, [unitSuggestion]) })),
    };
  }

  const drift = input.drift;
  const desired = input.desired;
  const version = checkAppVersion(instance.arrType, drift.detectedVersion);
  const desiredByName = new Map(desired.available ? desired.profiles.map((p) => [p.name, p] as const) : []);
  const notFound = desired.available ? profileNames.filter((n) => !desiredByName.has(n)) : [];
  const deleteUnmanaged = selection.deleteUnmanaged;

  const overallScope: Scope = {
    kind: 'instance',
    arrType: instance.arrType,
    profileName: null,
    changes: {
      managedTotal: Math.max(0, Math.floor(drift.managedTotal)),
      drift: drift.drift,
      missing: drift.missing,
      unmanaged: drift.unmanaged,
      contentCheckedAt: drift.contentCheckedAt,
    },
    sections: { all: appSections(instance.arrType), configured: selectedSections(instance.arrType, selection) },
    issues: desired.available ? desired.issues : null,
    profileFound: null,
    profileLeftOut: false,
    customFormatsKnown: desired.available,
    profiles: desired.available ? profileNames.filter((n) => desiredByName.has(n)).map((n) => ({ name: n, compatible: desiredByName.get(n)!.compatible })) : null,
    profilesNotFound: notFound,
    version,
    reference: input.reference ? { matched: input.reference.matched, total: input.reference.total, source: input.reference.source, differences: input.reference.differences } : null,
    referenceMissing: 'No reference guide source is available for this instance.',
    deleteUnmanaged,
  };

  const unitSuggestions: Suggestion[] = [];
  if (drift.contentCheckedAt) {
    const age = Date.parse(generatedAt) - Date.parse(drift.contentCheckedAt);
    if (Number.isFinite(age) && age > STALE_EVIDENCE_DAYS * DAY_MS) {
      unitSuggestions.push(
        suggestion(`The drift evidence is ${plural(Math.floor(age / DAY_MS), 'day')} old`, [`${label} was last compared at ${drift.contentCheckedAt}.`, 'Run a drift check to refresh the score.'], 'info'),
      );
    }
  }

  const profiles = profileNames.map((name) => {
    const found = desiredByName.get(name);
    const formats = new Set(found ? found.customFormats : []);
    const inScope = (entityType: string, entityName: string, section: string | undefined) =>
      (section === undefined || section === 'qualityProfiles') &&
      ((entityType === 'qualityProfile' && entityName === name) || (entityType === 'customFormat' && formats.has(entityName)));
    const changeInScope = (c: SyncChange) => inScope(c.entityType, c.name, c.section);
    const issues: SyncIssue[] | null = desired.available ? desired.issues.filter((i) => inScope(i.entityType, i.name, i.section)) : null;
    const leftOut = (issues ?? []).some((i) => i.severity === 'error' && i.entityType === 'qualityProfile' && i.name === name);
    const perProfile = input.reference?.perProfile;
    const ref = perProfile && Object.prototype.hasOwnProperty.call(perProfile, name) ? perProfile[name] : null;
    const scope: Scope = {
      kind: 'profile',
      arrType: instance.arrType,
      profileName: name,
      changes: {
        managedTotal: 1 + formats.size,
        drift: drift.drift.filter(changeInScope),
        missing: drift.missing.filter(changeInScope),
        unmanaged: [],
        contentCheckedAt: drift.contentCheckedAt,
      },
      sections: null,
      issues,
      profileFound: desired.available ? found !== undefined : null,
      profileLeftOut: leftOut,
      customFormatsKnown: found !== undefined,
      profiles: found ? [{ name, compatible: found.compatible }] : desired.available ? [] : null,
      profilesNotFound: desired.available && !found ? [name] : [],
      version,
      reference: ref ? { matched: ref.matched, total: ref.total, source: ref.source ?? input.reference?.source, differences: ref.differences } : null,
      referenceMissing: input.reference ? 'The reference guide has no counterpart for this profile.' : 'No reference guide source is available for this instance.',
      deleteUnmanaged,
    };
    return { name, ...scoreScope(scope, weights, null, []) };
  });

  return { ...head, overall: scoreScope(overallScope, weights, null, unitSuggestions), profiles };
}
