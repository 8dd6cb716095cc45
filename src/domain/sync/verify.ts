/**
 * Verified apply (pure): after a plan was applied, the entities it wrote are compared with what
 * each step meant to write, through the same views and diff the preview uses (views.ts), so
 * "verified" means exactly "a new preview would show no change for what was written".
 *
 * Each written entity is found by the app id its step outcome recorded (the executor's answer from
 * the app), then by name; a delete is verified when the entity is gone. A field the app accepted
 * but did not store is a `notApplied` mismatch; an upserted entity that is not there is
 * `entityMissing`. Skipped steps (nothing written) are not checked.
 */
import { diff, type DiffOptions } from '../diff';
import { failureEvidence, isAppCallFailure, type FailureCode, type FailureEvidence } from '../failure-evidence';
import type { PlanStep, StepOutcome, WritePlan } from './plan';
import type { LiveState, NamedId, SyncEntityType } from './types';
import {
  CUSTOM_FORMAT_DIFF,
  customFormatView,
  formatScoresOf,
  metadataProfileView,
  QUALITY_PROFILE_DIFF,
  qualityDefinitionView,
  qualityProfileView,
  restrictCustomFormatView,
  SETTINGS_DIFF,
  settingsView,
} from './views';

export const VERIFICATION_STATUSES = ['verified', 'unverified', 'skipped'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];
export const MISMATCH_CODES = ['notApplied', 'entityMissing'] as const;
export type MismatchCode = (typeof MISMATCH_CODES)[number];

/** One field (or entity, path '') that did not land as the step meant to write it. */
export interface VerificationMismatch {
  stepId: string;
  entityType: SyncEntityType;
  /** Display name (a quality definition: the quality's name). */
  name: string;
  /** Path in the preview's views (docs/sync.md "Field paths"); '' for the entity itself. */
  path: string;
  expected: unknown;
  actual: unknown;
  code: MismatchCode;
}

/** What reading the written entities back found; stored on the run (`sync_runs.verification`). */
export interface ApplyVerification {
  status: VerificationStatus;
  /** Entities compared (a quality definition counts once per quality). */
  checked: number;
  mismatches: VerificationMismatch[];
  /**
   * Set when the app could not be read back: how the read failed (an app failure code, appMismatch,
   * or internalError when the verification itself failed); the run is then unverified.
   */
  unreadable?: FailureCode;
  verifiedAt: string;
}

/** Mismatches named in a run's failure evidence and a rollout's reason; the rest are counted. */
export const NAMED_MISMATCHES_MAX = 5;

/** The live parts a written step is read back from (a profile's scores are keyed by format name: the formats resolve its format ids). */
const PARTS_OF_STEP: Record<PlanStep['kind'], (keyof LiveState)[]> = {
  customFormat: ['customFormats'],
  qualityProfile: ['qualityProfiles', 'customFormats'],
  metadataProfile: ['metadataProfiles'],
  delayProfile: ['delayProfiles'],
  naming: ['naming'],
  mediaManagement: ['mediaManagement'],
  qualityDefinitions: ['qualityDefinitions'],
};

/** The live parts a verification of these steps reads: one list per resource, never per entity. */
export function verificationNeeds(steps: readonly PlanStep[]): (keyof LiveState)[] {
  return [...new Set(steps.flatMap((step) => PARTS_OF_STEP[step.kind]))];
}

/** The steps a verification reads back: those whose outcome says something was written. */
export function writtenSteps(plan: WritePlan, outcomes: readonly StepOutcome[]): { step: PlanStep; outcome: StepOutcome }[] {
  const byIndex = new Map(outcomes.map((o) => [o.index, o]));
  return plan.steps.flatMap((step, index) => {
    const outcome = byIndex.get(index);
    return outcome && outcome.outcome !== 'skipped' ? [{ step, outcome }] : [];
  });
}

/**
 * Compares what the written steps meant to write with the live state read after the apply.
 * `live` must hold verificationNeeds(written steps).
 */
export function verifyPlan(plan: WritePlan, outcomes: readonly StepOutcome[], live: LiveState, now: Date): ApplyVerification {
  const written = writtenSteps(plan, outcomes);
  const verifiedAt = now.toISOString();
  if (written.length === 0) return { status: 'skipped', checked: 0, mismatches: [], verifiedAt };
  const viewOptions = { minUpgrade: plan.arrType !== 'music_app', language: plan.arrType === 'movie_app' };
  const mismatches: VerificationMismatch[] = [];
  let checked = 0;

  for (const { step, outcome } of written) {
    const base = { stepId: step.id, entityType: step.entityType, name: step.displayName };
    const missing = () => mismatches.push({ ...base, path: '', expected: step.name, actual: null, code: 'entityMissing' });
    const compare = (current: unknown, desired: unknown, options: DiffOptions, name = step.displayName) => {
      for (const change of diff(current, desired, options)) {
        mismatches.push({ ...base, name, path: change.field, expected: change.desired, actual: change.current, code: 'notApplied' });
      }
    };
    checked++;
    if (step.op === 'delete') {
      const list: NamedId[] = (step.kind === 'customFormat' ? live.customFormats : live.qualityProfiles) ?? [];
      const still = list.find((e) => e.id === (outcome.remoteId ?? step.remoteId) && e.name === step.name);
      if (still) mismatches.push({ ...base, path: '', expected: null, actual: step.name, code: 'notApplied' });
      continue;
    }
    // Upserted entities keep the name the step wrote (a rename on the app is a mismatch on `name`).
    const named = <T extends NamedId>(found: T | undefined, then: (found: T) => void) => {
      if (found && found.name !== step.name) compare({ name: found.name }, { name: step.name }, SETTINGS_DIFF);
      present(found, then);
    };
    const present = <T>(found: T | undefined, then: (found: T) => void) => (found ? then(found) : missing());
    switch (step.kind) {
      case 'customFormat':
        named(writtenEntity(live.customFormats, outcome, step.name), (found) => {
          const want = customFormatView(step.payload);
          compare(restrictCustomFormatView(customFormatView(found), want), want, CUSTOM_FORMAT_DIFF);
        });
        break;
      case 'qualityProfile':
        named(writtenEntity(live.qualityProfiles, outcome, step.name), (found) =>
          compare(
            qualityProfileView(found, formatScoresOf(found.formatItems, live.customFormats ?? []), viewOptions),
            qualityProfileView(step.body, step.formatScores, viewOptions),
            QUALITY_PROFILE_DIFF,
          ),
        );
        break;
      case 'metadataProfile':
        named(writtenEntity(live.metadataProfiles, outcome, step.name), (found) => compare(metadataProfileView(found), metadataProfileView(step.payload), SETTINGS_DIFF));
        break;
      case 'delayProfile':
        present(live.delayProfiles?.find((p) => p.id === step.remoteId), (found) =>
          compare(settingsView(found as unknown as Record<string, unknown>, step.fields), step.fields, SETTINGS_DIFF),
        );
        break;
      case 'naming':
      case 'mediaManagement':
        present(step.kind === 'naming' ? live.naming : live.mediaManagement, (found) => compare(settingsView(found, step.fields), step.fields, SETTINGS_DIFF));
        break;
      case 'qualityDefinitions':
        checked += step.entries.length - 1;
        for (const entry of step.entries) {
          const found = live.qualityDefinitions?.find((d) => d.quality.name === entry.quality);
          if (found) compare(qualityDefinitionView(found), qualityDefinitionView(entry), SETTINGS_DIFF, entry.quality);
          else mismatches.push({ ...base, name: entry.quality, path: '', expected: entry.quality, actual: null, code: 'entityMissing' });
        }
        break;
    }
  }
  return { status: mismatches.length ? 'unverified' : 'verified', checked, mismatches, verifiedAt };
}

/** The app could not be read back: nothing can be claimed about what landed. */
export function unreadableVerification(failure: FailureCode, now: Date): ApplyVerification {
  return { status: 'unverified', checked: 0, mismatches: [], unreadable: failure, verifiedAt: now.toISOString() };
}

/** The entity a step wrote: by the app id its outcome recorded, then by its name on the app. */
function writtenEntity<T extends NamedId>(list: readonly T[] | undefined, outcome: StepOutcome, name: string): T | undefined {
  if (!list) return undefined;
  return (outcome.remoteId !== null ? list.find((e) => e.id === outcome.remoteId) : undefined) ?? list.find((e) => e.name === name);
}

/** "Quality definitions: Bluray-1080p maxSize", "custom format x264" (the entity itself). */
export function mismatchLabel(m: Pick<VerificationMismatch, 'name' | 'path'>): string {
  return m.path ? `${m.name} ${m.path}` : m.name;
}

/** The fields named (first NAMED_MISMATCHES_MAX, then a count): "Bluray-1080p maxSize, HDTV-720p maxSize and 3 more". */
export function mismatchList(mismatches: readonly VerificationMismatch[]): string {
  const named = mismatches.slice(0, NAMED_MISMATCHES_MAX).map(mismatchLabel);
  const rest = mismatches.length - named.length;
  return rest > 0 ? `${named.join(', ')} and ${rest} more` : named.join(', ');
}

/**
 * The run's failure evidence for a verification that does not confirm the apply (null when it
 * does): the pre-authored text of notApplied (or entityMissing when only entities are missing, or
 * verificationUnreadable) with the fields that did not land.
 */
export function verificationFailure(verification: ApplyVerification | null): FailureEvidence | null {
  if (!verification || verification.status !== 'unverified') return null;
  if (verification.unreadable) return { ...failureEvidence('verificationUnreadable'), cause: isAppCallFailure(verification.unreadable) ? verification.unreadable : null };
  const { mismatches } = verification;
  const code = mismatches.every((m) => m.code === 'entityMissing') ? 'entityMissing' : 'notApplied';
  const evidence = failureEvidence(code);
  const count = mismatches.length === 1 ? '1 field did not land' : `${mismatches.length} fields did not land`;
  return { ...evidence, message: `${evidence.message} Verification after the apply: ${count} (${mismatchList(mismatches)}).` };
}

/** Failure codes that say an apply completed but did not verify (the run is partial). */
export const VERIFICATION_FAILURE_CODES: readonly FailureCode[] = ['notApplied', 'entityMissing', 'verificationUnreadable'];

/** What a workflow learns of a verification (kept small: it travels through the workflow history). */
export interface VerificationSummary {
  status: VerificationStatus;
  checked: number;
  mismatchCount: number;
  /** The fields that did not land, as mismatchList words ('' when none). */
  fields: string;
  unreadable: FailureCode | null;
}

export function summarizeVerification(verification: ApplyVerification): VerificationSummary {
  return {
    status: verification.status,
    checked: verification.checked,
    mismatchCount: verification.mismatches.length,
    fields: mismatchList(verification.mismatches),
    unreadable: verification.unreadable ?? null,
  };
}
