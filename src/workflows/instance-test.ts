import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { CandidateConnection, InstanceTestResult } from './contracts';

const { probeInstance } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  // A probe reports failures as a reason; only a crashed worker retries it.
  retry: { maximumAttempts: 2, nonRetryableErrorTypes: ['AppError'] },
});

/** Tests the connection to one instance (or a candidate connection): GET system/status with its API key. */
export async function instanceTestWorkflow(target: number | CandidateConnection): Promise<InstanceTestResult> {
  return probeInstance(target);
}
