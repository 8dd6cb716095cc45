/**
 * Why a rollout ended aborted or failed, in words a person can read: pre-authored sentences built
 * from codes (the canary's status, the gate's decision, the failure evidence codes of the targets),
 * never from exception text. The rollout stores the code and the text; the API, the timeline and
 * the notifications show the text.
 */
import { FAILURE_CODES, failureEvidence, type FailureCode, type FailureEvidence } from '../failure-evidence';
import { VERIFICATION_FAILURE_CODES, type VerificationSummary } from '../sync/verify';
import type { CanaryStatus, TargetResult } from './index';

export const STATUS_REASON_CODES = ['canary_in_sync', 'canary_failed', 'canary_partial', 'canary_unverified', 'gate_declined', 'targets_failed'] as const;
export type StatusReasonCode = (typeof STATUS_REASON_CODES)[number];

export interface StatusReason {
  code: StatusReasonCode;
  text: string;
}

/** Failed targets named in a reason; the rest are counted. */
export const NAMED_FAILURES_MAX = 3;

/**
 * Why the rollout was aborted after its canary: it had nothing to change (skipped), synced only
 * partly under partialPolicy abort (unverified when every write went through but not every value
 * landed, or the app could not be read back), or failed (any other status).
 */
export function canaryAbortReason(
  canaryName: string,
  canaryStatus: CanaryStatus,
  failure: FailureEvidence | null,
  remaining: number,
  verification: VerificationSummary | null = null,
): StatusReason {
  const untouched = `${instances(remaining, 'remaining')} ${remaining === 1 ? 'was' : 'were'} left untouched`;
  if (canaryStatus === 'partial' && verification?.status === 'unverified') {
    return { code: 'canary_unverified', text: `Aborted: the canary (${canaryName}) was not verified (${unverifiedClause(verification)}) and partialPolicy is abort; ${untouched}.` };
  }
  switch (canaryStatus) {
    case 'skipped':
      return { code: 'canary_in_sync', text: `Aborted: the canary (${canaryName}) had nothing to change, so there was nothing to verify; ${untouched}. Start a rollout with a canary that has changes.` };
    case 'partial':
      return { code: 'canary_partial', text: `Aborted: the canary (${canaryName}) synced only partly (${failureClause(failure)}) and partialPolicy is abort; ${untouched}.` };
    default:
      return { code: 'canary_failed', text: `Aborted: the canary (${canaryName}) failed to sync (${failureClause(failure)}); ${untouched}.` };
  }
}

/**
 * The warning a rollout shows at the gate after a partial canary (partialPolicy gate): an
 * unverified canary names the fields that did not land.
 */
export function canaryPartialWarning(verification: VerificationSummary | null | undefined): string {
  if (verification?.status === 'unverified') {
    return `The canary's apply was not verified: ${unverifiedClause(verification)}. Review its run before proceeding.`;
  }
  return 'The canary sync was partial: some writes failed. Review its diagnostics before proceeding.';
}

/** "the app did not store 2 fields (Bluray-1080p maxSize, HDTV-720p maxSize)", or why it could not be read back. */
function unverifiedClause(verification: VerificationSummary): string {
  if (verification.unreadable) return `its changes could not be read back: ${failureClause({ code: verification.unreadable, cause: null })}`;
  const count = verification.mismatchCount === 1 ? '1 field' : `${verification.mismatchCount} fields`;
  return `the app did not store ${count} (${verification.fields})`;
}

/** The operator declined at the verification gate. */
export function gateDeclinedReason(remaining: number): StatusReason {
  return { code: 'gate_declined', text: `Aborted at the gate by the operator; ${instances(remaining, 'remaining')} ${remaining === 1 ? 'was' : 'were'} left untouched.` };
}

/** The rollout ran and some targets did not sync cleanly: how many, and the first few by name with why. */
export function targetsFailedReason(results: readonly TargetResult[]): StatusReason {
  const failed = results.filter((r) => r.status !== 'success');
  const named = failed.slice(0, NAMED_FAILURES_MAX).map((r) => `${r.instanceName}${partialNote(r)}: ${failureClause(r.diagnostics?.failure ?? null)}`);
  if (failed.length > NAMED_FAILURES_MAX) named.push(`and ${failed.length - NAMED_FAILURES_MAX} more`);
  return { code: 'targets_failed', text: `Failed: ${failed.length} of ${results.length} targets failed (${named.join('; ')}).` };
}

/** " (partly synced)", or " (not verified)" for a target whose apply completed but did not verify. */
function partialNote(result: TargetResult): string {
  if (result.status !== 'partial') return '';
  const code = result.diagnostics?.failure?.code;
  return code && VERIFICATION_FAILURE_CODES.includes(code) ? ' (not verified)' : ' (partly synced)';
}

/**
 * A failure as a clause inside a sentence, from its code's pre-authored message (the cause's, when
 * an apply failed because of an app failure): "the app instance rejected the request".
 */
export function failureClause(failure: Pick<FailureEvidence, 'code' | 'cause'> | null): string {
  const code = failure?.cause ?? failure?.code;
  if (!isFailureCode(code)) return 'the sync failed';
  const message = failureEvidence(code).message;
  return message.charAt(0).toLowerCase() + message.slice(1).replace(/\.$/, '');
}

function isFailureCode(code: unknown): code is FailureCode {
  return typeof code === 'string' && (FAILURE_CODES as readonly string[]).includes(code);
}

/** "the 3 remaining instances", "the remaining instance". */
function instances(count: number, adjective: string): string {
  return count === 1 ? `the ${adjective} instance` : `the ${count} ${adjective} instances`;
}
