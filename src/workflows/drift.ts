import { proxyActivities, proxyLocalActivities, setCurrentDetails } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { DriftOutcome, DriftPollResult } from './contracts';

const check = proxyActivities<Activities>({
  startToCloseTimeout: '5 minutes',
  retry: { maximumAttempts: 2, initialInterval: '5 seconds', nonRetryableErrorTypes: ['AppError'] },
});
const bookkeeping = proxyLocalActivities<Activities>({ startToCloseTimeout: '1 minute', retry: { maximumAttempts: 5 } });

/** Checks that run at once during a poll; a slow instance holds one slot, never the others. */
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
 * DRIFT_POLL_CONCURRENCY at a time (a pool: each finished check frees a slot), by one activity
 * that heartbeats its progress and resumes where it stopped when retried.
 */
export async function driftPollWorkflow(): Promise<DriftPollResult> {
  const { due, backingOff, heartbeatTimeoutMs } = await bookkeeping.listDriftTargets();
  // Long (a fleet, slow apps), so a lost worker is noticed by the missing heartbeat
  // (SYNC_HEARTBEAT_TIMEOUT_SECONDS) and another one resumes after the checks stored.
  const pollChecks = proxyActivities<Activities>({
    startToCloseTimeout: '2 hours',
    heartbeatTimeout: heartbeatTimeoutMs,
    retry: { maximumAttempts: 3, initialInterval: '1 second', nonRetryableErrorTypes: ['AppError'] },
  });
  let failed = 0;
  if (due.length) {
    setCurrentDetails(`Drift polling: checking ${due.length} instances, ${DRIFT_POLL_CONCURRENCY} at a time; ${backingOff.length} backing off`);
    try {
      ({ failed } = await pollChecks.checkInstancesDrift({ instanceIds: due, concurrency: DRIFT_POLL_CONCURRENCY }));
    } catch {
      failed = due.length;
    }
  }
  setCurrentDetails(`Drift polling: ${due.length} checked, ${failed} failed, ${backingOff.length} backing off`);
  const { errorCount } = await bookkeeping.recordDriftRun();
  return { checked: due.length, failed, backingOff: backingOff.length, errorCount };
}
