import { ScheduleAlreadyRunning, ScheduleNotFoundError, ScheduleOverlapPolicy, type ScheduleOptions } from '@temporalio/client';
import { TypedSearchAttributes } from '@temporalio/common';
import type { Config } from '../config';
import { SA } from '../workflows/search-attributes';
import type { TemporalGateway } from './temporal-client';

/**
 * Schedule and singleton-workflow ids start with the task queue name, so that several arrgo
 * deployments (or test harnesses) can share one Temporal namespace. The default task queue
 * "arrgo" gives arrgo-backup, arrgo-drift-poll, ...
 */
export function deploymentScopedId(taskQueue: string, name: string): string {
  return `${taskQueue}-${name}`;
}

/**
 * Creates the schedule, or brings an existing one in line with the given options (spec, action,
 * paused state). Idempotent: every start of a worker calls it.
 */
export async function upsertSchedule(gateway: TemporalGateway, options: ScheduleOptions & { state?: { paused?: boolean; note?: string } }): Promise<void> {
  try {
    await gateway.client.schedule.create(options);
  } catch (error) {
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
    const handle = gateway.client.schedule.getHandle(options.scheduleId);
    await handle.update((previous) => ({
      ...previous,
      spec: options.spec,
      action: options.action as typeof previous.action,
      policies: { ...previous.policies, ...(options.policies ?? {}) },
      state: { ...previous.state, paused: options.state?.paused ?? false, note: options.state?.note },
    }));
  }
}

export async function ensureBackupSchedule(gateway: TemporalGateway, backup: Config['backup']): Promise<void> {
  await upsertSchedule(gateway, {
    scheduleId: deploymentScopedId(gateway.taskQueue, 'backup'),
    spec: { intervals: [{ every: `${backup.intervalHours} hours` }] },
    action: {
      type: 'startWorkflow',
      workflowType: 'backupWorkflow',
      workflowId: deploymentScopedId(gateway.taskQueue, 'backup'),
      taskQueue: gateway.taskQueue,
      args: [],
      typedSearchAttributes: new TypedSearchAttributes([{ key: SA.kind, value: 'backup' }]),
      staticSummary: 'Scheduled backup of the arrgo application database',
    },
    policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 hour' },
    state: { paused: !backup.enabled, note: backup.enabled ? undefined : 'BACKUP_ENABLED=false' },
  });
}

export function historyRetentionScheduleId(taskQueue: string): string {
  return deploymentScopedId(taskQueue, 'sync-history-retention');
}

/** Creates or updates the daily sync-history retention schedule, or deletes it when disabled. */
export async function applyHistoryRetentionSchedule(gateway: TemporalGateway, enabled: boolean): Promise<void> {
  const scheduleId = historyRetentionScheduleId(gateway.taskQueue);
  if (!enabled) {
    try {
      await gateway.client.schedule.getHandle(scheduleId).delete();
    } catch (error) {
      if (!(error instanceof ScheduleNotFoundError)) throw error;
    }
    return;
  }
  await upsertSchedule(gateway, {
    scheduleId,
    spec: { intervals: [{ every: '1 day' }] },
    action: {
      type: 'startWorkflow',
      workflowType: 'syncHistoryRetentionWorkflow',
      workflowId: scheduleId,
      taskQueue: gateway.taskQueue,
      args: [],
      typedSearchAttributes: new TypedSearchAttributes([{ key: SA.kind, value: 'sync-history-retention' }]),
      staticSummary: 'Sync history retention (age and entry cap)',
    },
    policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 hour' },
  });
}

export function driftScheduleId(taskQueue: string): string {
  return deploymentScopedId(taskQueue, 'drift-poll');
}

/** Creates or updates the drift polling schedule; paused (not deleted) when polling is disabled. */
export async function applyDriftSchedule(gateway: TemporalGateway, settings: { enabled: boolean; intervalMinutes: number }): Promise<void> {
  const scheduleId = driftScheduleId(gateway.taskQueue);
  await upsertSchedule(gateway, {
    scheduleId,
    spec: { intervals: [{ every: `${settings.intervalMinutes} minutes` }] },
    action: {
      type: 'startWorkflow',
      workflowType: 'driftPollWorkflow',
      workflowId: scheduleId,
      taskQueue: gateway.taskQueue,
      args: [],
      typedSearchAttributes: new TypedSearchAttributes([{ key: SA.kind, value: 'drift-poll' }]),
      staticSummary: `Drift polling of every enabled instance, every ${settings.intervalMinutes} minutes`,
    },
    policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '10 minutes' },
    state: { paused: !settings.enabled, note: settings.enabled ? undefined : 'drift polling disabled' },
  });
}

export function healthScheduleId(taskQueue: string): string {
  return deploymentScopedId(taskQueue, 'health-snapshots');
}

/** The scheduled health run: a snapshot of every enabled instance every `intervalMinutes`. */
export async function ensureHealthSchedule(gateway: TemporalGateway, intervalMinutes: number): Promise<void> {
  const scheduleId = healthScheduleId(gateway.taskQueue);
  await upsertSchedule(gateway, {
    scheduleId,
    spec: { intervals: [{ every: `${intervalMinutes} minutes` }] },
    action: {
      type: 'startWorkflow',
      workflowType: 'healthSnapshotWorkflow',
      workflowId: scheduleId,
      taskQueue: gateway.taskQueue,
      args: [],
      typedSearchAttributes: new TypedSearchAttributes([{ key: SA.kind, value: 'health-snapshots' }]),
      staticSummary: `Config health snapshots of every enabled instance, every ${intervalMinutes} minutes`,
    },
    policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 hour' },
  });
}

export function refGuideScheduleId(taskQueue: string): string {
  return deploymentScopedId(taskQueue, 'ref-guide-refresh');
}

/** Creates or updates the reference-guide refresh schedule; paused (not deleted) when refreshing is disabled. */
export async function applyRefGuideSchedule(gateway: TemporalGateway, settings: { enabled: boolean; intervalMinutes: number }): Promise<void> {
  const scheduleId = refGuideScheduleId(gateway.taskQueue);
  await upsertSchedule(gateway, {
    scheduleId,
    spec: { intervals: [{ every: `${settings.intervalMinutes} minutes` }] },
    action: {
      type: 'startWorkflow',
      workflowType: 'refGuideRefreshWorkflow',
      workflowId: scheduleId,
      taskQueue: gateway.taskQueue,
      args: [],
      typedSearchAttributes: new TypedSearchAttributes([
        { key: SA.kind, value: 'ref-guide-refresh' },
        { key: SA.trigger, value: 'schedule' },
      ]),
      staticSummary: `Reference-guide refresh of every enabled source, every ${settings.intervalMinutes} minutes`,
      staticDetails: 'Starts one refGuideSyncWorkflow per enabled source (joining a sync already running); a failed sync keeps the last good cache.',
    },
    policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 hour' },
    state: { paused: !settings.enabled, note: settings.enabled ? undefined : 'reference-guide refresh disabled' },
  });
}
