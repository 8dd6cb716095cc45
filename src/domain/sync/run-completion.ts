import type { FailureEvidence } from '../failure-evidence';
import type { StepOutcome } from './execute';
import type { SyncRunStatus } from './preview';
import { verificationFailure, type ApplyVerification } from './verify';

/** How an apply run ends, from the step outcomes it recorded. */
export interface RunCompletion {
  status: Exclude<SyncRunStatus, 'running'>;
  failure: FailureEvidence | null;
  /** Steps confirmed with a write (skipped ones excluded). */
  written: number;
  /** Sections the run wrote to: every step confirmed, or at least one write confirmed. */
  sectionsRun: number;
}

/**
 * A run that stopped after writing says so in its evidence, so the preview (failed: the apply did
 * not complete) and the run record (partial: some changes are on the app) tell one story. A run
 * whose writes did not all land (or could not be read back) is partial too, never a success: its
 * evidence names the fields (verificationFailure).
 */
export function completeRun(
  run: { steps: readonly { section: string }[]; outcomes: readonly StepOutcome[]; sectionsAttempted: readonly string[] },
  given: FailureEvidence | null,
  verification: ApplyVerification | null = null,
): RunCompletion {
  const { steps, outcomes } = run;
  const done = new Set(outcomes.map((o) => o.index));
  const written = outcomes.filter((o) => o.outcome !== 'skipped').length;
  const failure = given && written > 0 ? { ...given, message: `${given.message} ${written} of ${steps.length} changes were written before it stopped; the run is recorded as partial.` } : given;
  const sectionsRun = run.sectionsAttempted.filter((section) => {
    const indexes = steps.map((step, index) => ({ step, index })).filter(({ step }) => step.section === section);
    return indexes.every(({ index }) => done.has(index)) || indexes.some(({ index }) => outcomes.some((o) => o.index === index && o.outcome !== 'skipped'));
  }).length;
  const unverified = failure ? null : verificationFailure(verification);
  if (unverified) return { status: 'partial', failure: unverified, written, sectionsRun };
  const status = !failure ? 'success' : written > 0 ? 'partial' : 'failed';
  return { status, failure, written, sectionsRun };
}
