import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';
import { APP_FAILURE_CODES, type AppFailureCode, type FailureEvidence } from '../domain/failure-evidence';

/** How an apply that did not go through is explained: shared by the sync workflow and a rollout's targets. */
export const STALE: FailureEvidence = {
  code: 'stale',
  message: 'The preview is too old to apply safely.',
  recoveryAction: 'Generate a new preview and apply that one.',
};

export const EXECUTION_FAILED = (cause: FailureEvidence | null): FailureEvidence => ({
  code: 'executionFailed',
  message: cause ? `The apply run did not complete successfully: ${cause.message}` : 'The apply run did not complete successfully.',
  recoveryAction: cause?.recoveryAction ?? 'Review the per-entity outcomes, then generate a new preview and apply again.',
  cause: cause && isAppFailureCode(cause.code) ? cause.code : null,
});

const APP_FAILURES: readonly string[] = APP_FAILURE_CODES;
function isAppFailureCode(code: string): code is AppFailureCode {
  return APP_FAILURES.includes(code);
}

/** The pre-authored evidence an activity attached to its failure, if any. */
export function evidenceOf(error: unknown): FailureEvidence | null {
  const cause = error instanceof ActivityFailure ? error.cause : error;
  if (cause instanceof ApplicationFailure) {
    const evidence = (cause.details?.[0] as { evidence?: FailureEvidence } | undefined)?.evidence;
    if (evidence) return evidence;
  }
  return null;
}
