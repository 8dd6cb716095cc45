import type { Activities } from '../activities';
import type { VerificationSummary } from '../domain/sync';

type Verifier = Pick<Activities, 'verifySyncRun'>;
type Recorder = Pick<Activities, 'recordVerificationFailed'>;

/**
 * Verified apply, shared by the sync workflow and a rollout's targets: reads back what an applied
 * run wrote (a regular, heartbeating activity) and stores the verification on the run, so that
 * completing the run finds it. When the verification itself fails, the run is recorded as
 * unverified (internalError): a run is never completed as a success without it.
 */
export async function verifyAppliedRun(activities: Verifier, quick: Recorder, previewId: number, runId: number): Promise<VerificationSummary> {
  try {
    return await activities.verifySyncRun(previewId, runId);
  } catch {
    await quick.recordVerificationFailed(runId);
    return { status: 'unverified', checked: 0, mismatchCount: 0, fields: '', unreadable: 'internalError' };
  }
}
