import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { HistoryRetentionResult } from './contracts';

const { pruneSyncHistory } = proxyActivities<Activities>({ startToCloseTimeout: '10 minutes', retry: { maximumAttempts: 3 } });

/** Run by the sync-history retention schedule. */
export async function syncHistoryRetentionWorkflow(): Promise<HistoryRetentionResult> {
  return pruneSyncHistory();
}
