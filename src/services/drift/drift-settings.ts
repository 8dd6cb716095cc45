import type { EntityManager } from '@mikro-orm/core';
import { z } from 'zod';
import { DriftResult } from '../../persistence/entities';
import { driftScheduleId } from '../schedules';
import type { TemporalGateway } from '../../platform/temporal-client';
import { SettingsStore } from '../settings-store';

export const DRIFT_SETTINGS_KEY = 'drift';
export const DRIFT_STATE_KEY = 'drift-state';

export const driftSettingsSchema = z.object({ enabled: z.boolean(), intervalMinutes: z.number().int().min(1).max(10_080) });
export type DriftSettings = z.infer<typeof driftSettingsSchema>;
export const DEFAULT_DRIFT_SETTINGS: DriftSettings = { enabled: true, intervalMinutes: 60 };

/** What the polling job recorded of its runs. */
export const driftJobStateSchema = z.object({ lastRunAt: z.string().nullable(), errorCount: z.number().int().min(0) });
export type DriftJobState = z.infer<typeof driftJobStateSchema>;

export function readDriftSettings(em: EntityManager): Promise<DriftSettings> {
  return new SettingsStore(em).get(DRIFT_SETTINGS_KEY, driftSettingsSchema, DEFAULT_DRIFT_SETTINGS);
}

export function readDriftJobState(em: EntityManager): Promise<DriftJobState> {
  return new SettingsStore(em).get(DRIFT_STATE_KEY, driftJobStateSchema, { lastRunAt: null, errorCount: 0 });
}

/** The settings and what the polling job and its schedule say: last and next run, backoff, errors. */
export async function driftSettingsView(em: EntityManager, gateway: TemporalGateway) {
  const settings = await readDriftSettings(em);
  const state = await readDriftJobState(em);
  let nextRunAt: string | null = null;
  try {
    const described = await gateway.client.schedule.getHandle(driftScheduleId(gateway.taskQueue)).describe();
    nextRunAt = described.state.paused ? null : (described.info.nextActionTimes[0]?.toISOString() ?? null);
  } catch {
    nextRunAt = null;
  }
  const backing = await em.find(DriftResult, { backoffUntil: { $gt: new Date() } }, { orderBy: { backoffUntil: 'asc' }, limit: 1, fields: ['backoffUntil'] });
  return { ...settings, lastRunAt: state.lastRunAt, nextRunAt, backoffUntil: backing[0]?.backoffUntil?.toISOString() ?? null, errorCount: state.errorCount };
}
