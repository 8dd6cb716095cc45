import { executeChild, patched, proxyActivities, proxyLocalActivities, setCurrentDetails, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { driftCheckWorkflow as driftCheck, SA, type DriftOutcome, type DriftPollResult } from './contracts';

// The check heartbeats while it waits on the app, so a check whose worker died is retried within
// the heartbeat timeout (POST /drift/{id}/check waits for it), not after the 5-minute bound. An app
// that fails is a stored status, not an error: what is retried is the application database or the
// worker failing, over about a minute, since a database restart takes longer than one retry (the
// chaos soak lost checks to a 5-second PostgreSQL restart with two attempts).
const check = proxyActivities<Activities>({
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: '30 seconds',
  retry: { maximumAttempts: 6, initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '20 seconds', nonRetryableErrorTypes: ['AppError'] },
});
const bookkeeping = proxyLocalActivities<Activities>({ startToCloseTimeout: '1 minute', retry: { maximumAttempts: 5 } });

/** Instances with an app call in flight at once during a poll; a slow instance holds one slot, never the others. */
export const DRIFT_POLL_CONCURRENCY = 16;

/** One drift check of one instance; the result is stored by the activity. */
export async function driftCheckWorkflow(instanceId: number): Promise<DriftOutcome> {
  setCurrentDetails(`Checking instance ${instanceId} for drift`);
  const outcome = await check.checkInstanceDrift(instanceId);
  setCurrentDetails(`Instance ${instanceId}: ${outcome.status}${outcome.reason ? ` (${outcome.reason})` : ''}`);
  return outcome;
}

/**
 * Run by the drift polling schedule: every enabled instance not backing off is checked, at most
 * DRIFT_POLL_CONCURRENCY apps at a time (a pool: each finished app round trip frees a slot), by
 * one activity that heartbeats its progress, resumes where it stopped when retried, and records
 * the run.
 */
export async function driftPollWorkflow(): Promise<DriftPollResult> {
  const { due, backingOff, heartbeatTimeoutMs } = await bookkeeping.listDriftTargets();
  // Runs started before the checks moved into one activity replay their child workflows.
  if (!patched('drift-poll-checks-in-one-activity')) return pollWithChildren(due, backingOff);
  // Long (a fleet, slow apps), so a lost worker is noticed by the missing heartbeat
  // (SYNC_HEARTBEAT_TIMEOUT_SECONDS) and another one resumes after the checks stored.
  const pollChecks = proxyActivities<Activities>({
    startToCloseTimeout: '2 hours',
    heartbeatTimeout: heartbeatTimeoutMs,
    retry: { maximumAttempts: 3, initialInterval: '1 second', nonRetryableErrorTypes: ['AppError'] },
  });
  let failed = 0;
  let errorCount: number | undefined;
  if (due.length) {
    setCurrentDetails(`Drift polling: checking ${due.length} instances, ${DRIFT_POLL_CONCURRENCY} at a time; ${backingOff.length} backing off`);
    // The checks' activity records the run when it completes. No patch is needed: an activity
    // scheduled by an earlier release (without recordRun) returns no errorCount, and the local
    // activity below records the run as it did (test/integration/drift-poll-replay.test.ts).
    try {
      ({ failed, errorCount } = await pollChecks.checkInstancesDrift({ instanceIds: due, concurrency: DRIFT_POLL_CONCURRENCY, recordRun: true }));
    } catch {
      failed = due.length;
    }
  }
  setCurrentDetails(`Drift polling: ${due.length} checked, ${failed} failed, ${backingOff.length} backing off`);
  // Nothing due, the checks failed for good, or a run started before: a local activity records it.
  errorCount ??= (await bookkeeping.recordDriftRun()).errorCount;
  return { checked: due.length, failed, backingOff: backingOff.length, errorCount };
}

/** The earlier poll: one child drift check per instance. Kept only for runs started before. */
async function pollWithChildren(due: number[], backingOff: number[]): Promise<DriftPollResult> {
  const parent = workflowInfo().workflowId;
  let next = 0;
  let failed = 0;
  const worker = async () => {
    while (next < due.length) {
      const instanceId = due[next++];
      try {
        const outcome = await executeChild(driftCheck, {
          workflowId: `${parent}-i${instanceId}`,
          args: [instanceId],
          workflowExecutionTimeout: '10 minutes',
          typedSearchAttributes: [
            { key: SA.kind, value: 'drift-check' },
            { key: SA.instanceIds, value: [String(instanceId)] },
          ],
        });
        if (!['in-sync', 'drifted'].includes(outcome.status)) failed++;
      } catch {
        failed++;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(DRIFT_POLL_CONCURRENCY, due.length) }, worker));
  const { errorCount } = await bookkeeping.recordDriftRun();
  return { checked: due.length, failed, backingOff: backingOff.length, errorCount };
}
