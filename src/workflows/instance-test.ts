import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { InstanceTestResult } from './contracts';

const { probeInstance } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  // A probe reports failures as a reason; only a crashed worker retries it.
  retry: { maximumAttempts: 2, nonRetryableErrorTypes: ['AppError'] },
});

/** Tests the connection to one instance: GET system/status with the stored API key. */
export async function instanceTestWorkflow(instanceId: number): Promise<InstanceTestResult> {
  return probeInstance(instanceId);
}
