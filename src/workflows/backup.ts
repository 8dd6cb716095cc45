import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';

const { backupDatabase } = proxyActivities<Activities>({
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: undefined,
  retry: { maximumAttempts: 3, initialInterval: '30 seconds' },
});

/** Run by the arrgo-backup schedule: one backup of the application database, then pruning. */
export async function backupWorkflow(): Promise<{ file: string; bytes: number; pruned: number }> {
  return backupDatabase();
}
