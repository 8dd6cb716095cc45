import { EntitySchema } from '@mikro-orm/core';

export type DriftStatus = 'in-sync' | 'drifted' | 'unreachable' | 'unauthorized' | 'error';

/** The latest drift check of one instance (one row per instance). */
export class DriftResult {
  instanceId!: number;
  status!: DriftStatus;
  reason: string | null = null;
  detectedVersion: string | null = null;
  checkedAt!: Date;
  /** When the content was last compared (kept when a later check cannot reach the app). */
  contentCheckedAt: Date | null = null;
  counts: { drifted: number; missing: number; unmanaged: number } = { drifted: 0, missing: 0, unmanaged: 0 };
  drift: Record<string, unknown>[] = [];
  missing: Record<string, unknown>[] = [];
  unmanaged: Record<string, unknown>[] = [];
  /** Managed entities compared in the last content check (for health scoring). */
  managedTotal: number = 0;
  /** What the transform left out or adjusted for this app in the last content check (SyncIssue[]). */
  issues: Record<string, unknown>[] = [];
  /** Consecutive failed checks; polling backs off while it is above zero. */
  failureStreak: number = 0;
  backoffUntil: Date | null = null;
}

export const DriftResultSchema = new EntitySchema<DriftResult>({
  class: DriftResult,
  tableName: 'drift_results',
  properties: {
    instanceId: { type: 'integer', primary: true, autoincrement: false, fieldName: 'instance_id' },
    status: { type: 'string', length: 20 },
    reason: { type: 'string', length: 40, nullable: true },
    detectedVersion: { type: 'string', length: 50, nullable: true, fieldName: 'detected_version' },
    checkedAt: { type: 'Date', fieldName: 'checked_at' },
    contentCheckedAt: { type: 'Date', nullable: true, fieldName: 'content_checked_at' },
    counts: { type: 'json' },
    drift: { type: 'json' },
    missing: { type: 'json' },
    unmanaged: { type: 'json' },
    managedTotal: { type: 'integer', fieldName: 'managed_total', default: 0 },
    issues: { type: 'json' },
    failureStreak: { type: 'integer', fieldName: 'failure_streak', default: 0 },
    backoffUntil: { type: 'Date', nullable: true, fieldName: 'backoff_until' },
  },
});
