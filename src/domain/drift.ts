/**
 * Drift statuses and reasons (spec: computed values), and the polling backoff rule. Pure.
 */
import type { AppCallFailure } from './failure-evidence';

export const DRIFT_STATUSES = ['in-sync', 'drifted', 'unreachable', 'unauthorized', 'error', 'never-checked'] as const;
export type DriftStatusValue = (typeof DRIFT_STATUSES)[number];
export type StoredDriftStatus = Exclude<DriftStatusValue, 'never-checked'>;

/** app_mismatch: the app at the instance's URL reports another app family (status error; nothing is compared). */
export const DRIFT_REASONS = ['unreachable', 'timeout', 'unauthorized', 'invalid_response', 'app_mismatch', 'not_configured', 'cache_not_ready', 'rate_limited', 'error'] as const;
export type DriftReason = (typeof DRIFT_REASONS)[number];

/** How a failed call to the app shows in drift: status and sanitized reason. */
export function driftFailure(failure: AppCallFailure, httpStatus?: number): { status: StoredDriftStatus; reason: DriftReason } {
  if (httpStatus === 429) return { status: 'error', reason: 'rate_limited' };
  switch (failure) {
    case 'unreachable':
      return { status: 'unreachable', reason: 'unreachable' };
    case 'timeout':
      return { status: 'unreachable', reason: 'timeout' };
    case 'unauthorized':
      return { status: 'unauthorized', reason: 'unauthorized' };
    case 'invalidResponse':
      return { status: 'error', reason: 'invalid_response' };
    default:
      return { status: 'error', reason: 'error' };
  }
}

export function isFailedDrift(status: StoredDriftStatus): boolean {
  return status !== 'in-sync' && status !== 'drifted';
}

const MAX_BACKOFF_MS = 24 * 3_600_000;

/**
 * After `streak` consecutive failed checks, polling leaves the instance alone until
 * checkedAt + interval * 2^(streak - 1) (at most a day): a dead instance is not hammered, and a
 * manual check always runs. Null when the last check succeeded.
 */
export function backoffUntil(streak: number, intervalMs: number, checkedAt: Date): Date | null {
  if (streak <= 0) return null;
  return new Date(checkedAt.getTime() + Math.min(intervalMs * 2 ** (streak - 1), MAX_BACKOFF_MS));
}
