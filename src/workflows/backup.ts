import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { BackupResult } from './contracts';

const { backupDatabase } = proxyActivities<Activities>({
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: undefined,
  retry: { maximumAttempts: 3, initialInterval: '30 seconds' },
});

/** Run by the arrgo-backup schedule: one backup of the application database, then pruning. */
export async function backupWorkflow(): Promise<BackupResult> {
  return backupDatabase();
}
