import { defineWorkflow } from './define';

// The workflows that only schedules start (see src/services/schedules.ts).

export interface BackupResult {
  file: string;
  bytes: number;
  pruned: number;
}
export const backupWorkflow = defineWorkflow<() => Promise<BackupResult>>('backupWorkflow');

export interface HealthSnapshotRunResult {
  snapshots: number;
  pruned: number;
}
export const healthSnapshotWorkflow = defineWorkflow<() => Promise<HealthSnapshotRunResult>>('healthSnapshotWorkflow');

export interface HistoryRetentionResult {
  byAge: number;
  byCount: number;
}
export const syncHistoryRetentionWorkflow = defineWorkflow<() => Promise<HistoryRetentionResult>>('syncHistoryRetentionWorkflow');
