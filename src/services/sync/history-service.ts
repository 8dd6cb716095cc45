import type { EntityManager, FilterQuery } from '@mikro-orm/core';
import { z } from 'zod';
import type { ArrType } from '../../domain/arr-types';
import type { ApplyVerification } from '../../domain/sync';
import { SyncRun } from '../../persistence/entities';
import { containsText } from '../../persistence/orm';
import { notFound } from '../../errors';
import type { TemporalGateway } from '../../platform/temporal-client';
import { applyHistoryRetentionSchedule } from '../schedules';
import { SettingsStore } from '../settings-store';
import { translateTemporalError } from '../workflow-runner';

export const SYNC_RUN_STATUSES = ['running', 'success', 'partial', 'failed'] as const;
export const SYNC_TRIGGERS = ['manual', 'canary', 'schedule'] as const;

export interface HistoryFilter {
  instanceId?: number;
  arrType?: ArrType;
  status?: string;
  trigger?: string;
  section?: string;
  from?: Date;
  to?: Date;
  q?: string;
  page: number;
  pageSize: number;
}

export interface HistoryItem {
  id: number;
  instanceId: number | null;
  instanceName: string;
  arrType: ArrType;
  trigger: string;
  sectionsAttempted: string[];
  status: string;
  sectionsRun: number;
  itemsSynced: number;
  failureCount: number;
  entityChangeCount: number;
  entityOutcomeCount: number;
  error: string | null;
  /** What reading the writes back found (null: running, not applied, or recorded before verification). */
  verification: ApplyVerification | null;
  previewId: number | null;
  rolloutId: number | null;
  startedAt: string;
  finishedAt: string | null;
  createdAt: string;
}

export async function listSyncRuns(em: EntityManager, filter: HistoryFilter): Promise<{ items: HistoryItem[]; total: number }> {
  const where: FilterQuery<SyncRun> = {};
  if (filter.instanceId !== undefined) where.instanceId = filter.instanceId;
  if (filter.arrType) where.arrType = filter.arrType;
  if (filter.status) where.status = filter.status as SyncRun['status'];
  if (filter.trigger) where.trigger = filter.trigger;
  if (filter.section) where.sectionsKey = { $like: `%,${filter.section},%` };
  if (filter.from || filter.to) where.startedAt = { ...(filter.from ? { $gte: filter.from } : {}), ...(filter.to ? { $lte: filter.to } : {}) };
  if (filter.q) {
    // Free text matches literally (containsText escapes % and _).
    where.$or = [containsText(em, 'instance_name', filter.q), containsText(em, 'error', filter.q)];
  }
  const [rows, total] = await em.findAndCount(SyncRun, where, {
    orderBy: { startedAt: 'desc', id: 'desc' },
    limit: filter.pageSize,
    offset: (filter.page - 1) * filter.pageSize,
  });
  return { items: rows.map(toHistoryItem), total };
}

export function toHistoryItem(run: SyncRun): HistoryItem {
  return {
    id: run.id,
    instanceId: run.instanceId,
    instanceName: run.instanceName,
    arrType: run.arrType,
    trigger: run.trigger,
    sectionsAttempted: run.sectionsAttempted,
    status: run.status,
    sectionsRun: run.sectionsRun,
    itemsSynced: run.itemsSynced,
    failureCount: run.failureCount,
    entityChangeCount: run.entityChangeCount,
    entityOutcomeCount: run.entityOutcomeCount,
    error: run.error,
    verification: (run.verification as unknown as ApplyVerification | null) ?? null,
    previewId: run.previewId,
    rolloutId: run.rolloutId,
    startedAt: run.startedAt.toISOString(),
    finishedAt: run.finishedAt?.toISOString() ?? null,
    createdAt: run.createdAt.toISOString(),
  };
}

export const HISTORY_SETTINGS_KEY = 'sync-history';

/** Ten years of history at most; an entry cap of a million runs at most. */
export const RETENTION_DAYS_MAX = 3650;
export const RETENTION_MAX_ENTRIES_MAX = 1_000_000;

export const historySettingsSchema = z.object({
  enabled: z.boolean(),
  retentionDays: z.number().int().min(1).max(RETENTION_DAYS_MAX),
  retentionMaxEntries: z.number().int().min(0).max(RETENTION_MAX_ENTRIES_MAX),
});
export type HistorySettings = z.infer<typeof historySettingsSchema>;
export const DEFAULT_HISTORY_SETTINGS: HistorySettings = { enabled: true, retentionDays: 90, retentionMaxEntries: 10_000 };

export function readHistorySettings(em: EntityManager): Promise<HistorySettings> {
  return new SettingsStore(em).get(HISTORY_SETTINGS_KEY, historySettingsSchema, DEFAULT_HISTORY_SETTINGS);
}

/**
 * Retention: finished runs older than retentionDays go; then, when retentionMaxEntries > 0, only
 * the newest retentionMaxEntries finished runs stay. Running runs are never removed.
 */
/** The use cases behind /sync-history: the runs and their retention. */
export class SyncHistoryService {
  constructor(private readonly deps: { orm: { em: EntityManager }; temporal: TemporalGateway }) {}

  list(filter: HistoryFilter): Promise<{ items: HistoryItem[]; total: number }> {
    return listSyncRuns(this.deps.orm.em, filter);
  }

  /** One run (a preview's runId, a history item's id); 404 once retention removed it. */
  async get(id: number): Promise<HistoryItem> {
    const run = await this.deps.orm.em.findOne(SyncRun, { id });
    if (!run) throw notFound(`Sync run ${id} not found`);
    return toHistoryItem(run);
  }

  settings(): Promise<HistorySettings> {
    return readHistorySettings(this.deps.orm.em);
  }

  /** Merges a change into the retention settings, brings the schedule in line, then stores them. */
  async updateSettings(patch: Partial<HistorySettings>): Promise<HistorySettings> {
    const next = historySettingsSchema.parse({ ...(await this.settings()), ...patch });
    try {
      await applyHistoryRetentionSchedule(this.deps.temporal, next.enabled);
    } catch (error) {
      throw translateTemporalError(error);
    }
    await new SettingsStore(this.deps.orm.em).put(HISTORY_SETTINGS_KEY, next);
    return next;
  }
}

export async function pruneSyncRuns(em: EntityManager, settings: HistorySettings, now = new Date()): Promise<{ byAge: number; byCount: number }> {
  const cutoff = new Date(now.getTime() - settings.retentionDays * 86_400_000);
  const byAge = await em.nativeDelete(SyncRun, { startedAt: { $lt: cutoff }, status: { $ne: 'running' } });
  let byCount = 0;
  if (settings.retentionMaxEntries > 0) {
    const overflow = await em.find(SyncRun, { status: { $ne: 'running' } }, {
      orderBy: { startedAt: 'desc', id: 'desc' },
      offset: settings.retentionMaxEntries,
      fields: ['id'],
      limit: 100_000,
    });
    if (overflow.length) byCount = await em.nativeDelete(SyncRun, { id: { $in: overflow.map((r) => r.id) } });
  }
  return { byAge, byCount };
}
