/**
 * Instance verification: what the last connection test (the app's system/status) found about the
 * app at an instance's URL, and how a registration that points at the wrong app is refused. Pure.
 */
import { APP_OF, describeArrType, MANAGED_APPS_TEXT, type ArrType } from './arr-types';
import { APP_FAILURE_CODES, type AppFailureCode } from './failure-evidence';

/**
 * verified: the last test reached the app and it is of the instance's family; unverified: it could
 * not be reached, rejected the key, or is another app (the reason says which); never-verified: the
 * instance was registered before arrgo tested connections at registration, and has not been tested.
 */
export const VERIFICATION_STATUSES = ['verified', 'unverified', 'never-verified'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

export const VERIFICATION_REASONS = [...APP_FAILURE_CODES, 'appMismatch'] as const;
export type VerificationReason = (typeof VERIFICATION_REASONS)[number];

/** A connection test's outcome, as the instance test workflow reports it. */
export type ConnectionTestResult =
  | { reachable: true; appName: string; version: string; matchesArrType: boolean; detectedArrType: ArrType | null }
  | { reachable: false; reason: AppFailureCode };

export interface Verification {
  status: VerificationStatus;
  checkedAt: Date | null;
  /** What the app reported when the last test reached it (null when it did not). */
  appName: string | null;
  version: string | null;
  reason: VerificationReason | null;
}

export const NEVER_VERIFIED: Verification = { status: 'never-verified', checkedAt: null, appName: null, version: null, reason: null };

/** What a connection test at `at` says about the instance. */
export function verificationOf(result: ConnectionTestResult, at: Date): Verification {
  if (!result.reachable) return { status: 'unverified', checkedAt: at, appName: null, version: null, reason: result.reason };
  return {
    status: result.matchesArrType ? 'verified' : 'unverified',
    checkedAt: at,
    appName: result.appName,
    version: result.version,
    reason: result.matchesArrType ? null : 'appMismatch',
  };
}

/**
 * The refusal of a registration or change whose app reports another family: names the field,
 * both app families, and what to do. `change`: "stored" for a registration, "changed" for an update.
 */
export function appMismatchRefusal(field: 'arrType' | 'baseUrl' | 'apiKey', expected: ArrType, detected: ArrType | null, change: 'stored' | 'changed'): string {
  const label = APP_OF[expected].label;
  const answers = detected ? `answers as ${describeArrType(detected)}` : `answers as an app that is not ${MANAGED_APPS_TEXT}`;
  const fix = detected ? `Give the address of a ${label} app, or use arrType ${detected} for this one` : `Give the address of a ${label} app`;
  return `Invalid request: body.${field}: the app at baseUrl ${answers}, but arrType is ${expected} (${label}). ${fix}; nothing was ${change}.`;
}

/** A base URL that ends in the app's API path (/api/v3, /api/v1/): the suffix, or null. */
export function apiPathSuffix(baseUrl: string): string | null {
  let pathname: string;
  try {
    pathname = new URL(baseUrl).pathname;
  } catch {
    return null;
  }
  const match = /\/api\/v\d+\/*$/i.exec(pathname);
  return match ? match[0].replace(/\/+$/, '') : null;
}
