import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { HealthSnapshotRunResult } from './contracts';

const { snapshotAllInstances } = proxyActivities<Activities>({ startToCloseTimeout: '30 minutes', retry: { maximumAttempts: 3 } });

/** Run by the health schedule: persists a health snapshot of every enabled instance. */
export async function healthSnapshotWorkflow(): Promise<HealthSnapshotRunResult> {
  return snapshotAllInstances();
}
