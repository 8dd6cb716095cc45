import type { EntityManager } from '@mikro-orm/core';
import { z } from 'zod';
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
