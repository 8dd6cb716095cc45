/**
 * Failure evidence for sync previews, applies and probes. Messages and recovery actions are
 * pre-authored here and nowhere else, so no exception text, app response body, host name or
 * credential can reach a client through them.
 */
import { APP_OF, describeArrType, MANAGED_APPS_TEXT, type ArrType } from './arr-types';

export const APP_FAILURE_CODES = ['unreachable', 'timeout', 'unauthorized', 'notFound', 'rejected', 'serverError', 'invalidResponse'] as const;
export type AppFailureCode = (typeof APP_FAILURE_CODES)[number];

export const FAILURE_CODES = [...APP_FAILURE_CODES, 'appMismatch', 'sectionErrors', 'executionFailed', 'stale', 'internalError', 'notApplied', 'entityMissing', 'verificationUnreadable'] as const;
export type FailureCode = (typeof FAILURE_CODES)[number];

export interface FailureEvidence {
  code: FailureCode;
  message: string;
  recoveryAction: string;
  /**
   * For the aggregate codes (executionFailed; sectionErrors: the first failed section's): the app
   * failure that caused it, when one did (null when the cause was not an app failure).
   */
  cause?: AppFailureCode | null;
  /** For appMismatch: the app family the app at the URL reports (null: an app arrgo does not manage). */
  detectedArrType?: ArrType | null;
}

/** How a call to an app went wrong (the app failure codes are also the public evidence codes). */
export type AppCallFailure = AppFailureCode;

const TEXT: Record<FailureCode, { message: string; recoveryAction: string }> = {
  unreachable: {
    message: 'The app instance could not be reached.',
    recoveryAction: 'Check that the app is running and that its base URL is correct, then retry.',
  },
  timeout: {
    message: 'The app instance did not respond in time.',
    recoveryAction: 'Check the app for load or network problems, then retry.',
  },
  unauthorized: {
    message: 'The app instance rejected the API key.',
    recoveryAction: "Update the instance's API key from the app's Settings > General page, then retry.",
  },
  notFound: {
    message: 'A required app resource was not found.',
    recoveryAction: "Check that the base URL points at the app (including any URL base) and that the app version is supported.",
  },
  rejected: {
    message: 'The app instance rejected the request.',
    recoveryAction: 'Review the desired configuration for values the app does not accept, then preview again.',
  },
  serverError: {
    message: 'The app instance failed while handling the request.',
    recoveryAction: "Check the app's own logs, then retry.",
  },
  invalidResponse: {
    message: 'The app instance returned a response that could not be read.',
    recoveryAction: 'Check that the base URL points at the app and that the app version is supported.',
  },
  appMismatch: {
    message: "The app at this instance's URL is not an app of the instance's type.",
    recoveryAction: 'Point the instance at its own app, or register it with the app type the app at that URL reports.',
  },
  sectionErrors: {
    message: 'One or more sections failed to generate.',
    recoveryAction: 'Review each section outcome, fix the cause, then generate a new preview.',
  },
  executionFailed: {
    message: 'The apply run did not complete successfully.',
    recoveryAction: 'Review the per-entity outcomes, then generate a new preview and apply again.',
  },
  stale: {
    message: 'The preview is too old to apply safely.',
    recoveryAction: 'Generate a new preview and apply that one.',
  },
  internalError: {
    message: 'An unexpected error occurred.',
    recoveryAction: 'Retry; if it persists, check the arrgo logs.',
  },
  notApplied: {
    message: 'The app accepted the write but did not store this value.',
    recoveryAction: "Check the app's own logs and whether its version stores this setting, then preview and apply again.",
  },
  entityMissing: {
    message: 'The app accepted the write but the entity is not on the app afterwards.',
    recoveryAction: 'Check whether something on the app removed or renamed it, then preview and apply again.',
  },
  verificationUnreadable: {
    message: 'The changes were written but could not be read back to verify them.',
    recoveryAction: 'Check that the app is running, then preview again: a preview with no changes confirms the apply.',
  },
};

export function failureEvidence(code: FailureCode): FailureEvidence {
  return { code, ...TEXT[code] };
}

/**
 * The app at the instance's URL reports another family (`detected`; null when it is none arrgo
 * manages) than the instance's: nothing is read for a preview or written. The text names both.
 */
export function appMismatchEvidence(expected: ArrType, detected: ArrType | null): FailureEvidence {
  const label = APP_OF[expected].label;
  const answers = detected ? `it answers as ${describeArrType(detected)}` : `it answers as an app that is not ${MANAGED_APPS_TEXT}`;
  return {
    code: 'appMismatch',
    message: `The app at this instance's URL is not a ${label} instance: ${answers}.`,
    recoveryAction: detected
      ? `Point the instance at its ${label} app, or register the app at that URL as a ${detected} instance.`
      : `Point the instance at its ${label} app.`,
    detectedArrType: detected,
  };
}

/** Evidence for a failed app call (an unreadable response is invalidResponse). */
export function evidenceForAppFailure(failure: AppCallFailure): FailureEvidence {
  return failureEvidence(failure);
}

export function isAppCallFailure(value: unknown): value is AppCallFailure {
  return typeof value === 'string' && (APP_FAILURE_CODES as readonly string[]).includes(value);
}
