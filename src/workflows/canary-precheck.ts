import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { canaryInSync } from '../domain/canary/precheck';
import type { CanaryPrecheckInput, CanaryPrecheckResult } from './contracts';

const { readPendingChanges } = proxyActivities<Activities>({
  // The start waits for this check only briefly (CANARY_PRECHECK_WAIT_MS); a read that takes longer lets the rollout start.
  startToCloseTimeout: '90 seconds',
  // A read whose worker died is retried at once, not after its whole bound.
  heartbeatTimeout: '30 seconds',
  // A read reports app failures as an unreadable instance; only a crashed worker retries it.
  retry: { maximumAttempts: 2, nonRetryableErrorTypes: ['AppError'] },
});

/**
 * Reads what a sync of the canary would change; only when it has nothing to change, the targets
 * too (which of them would make a better canary). Read-only: no preview is stored.
 */
export async function canaryPrecheckWorkflow(input: CanaryPrecheckInput): Promise<CanaryPrecheckResult> {
  const [canary] = await readPendingChanges({ instances: [input.canary], sections: input.sections, concurrency: 1 });
  if (!canaryInSync(canary)) return { canary, targets: null };
  const targets = await readPendingChanges({ instances: input.targets, sections: input.sections, concurrency: input.concurrency });
  return { canary, targets };
}
