import type { EntityManager } from '@mikro-orm/core';
import { z } from 'zod';
import { applyRefGuideSchedule, refGuideScheduleId } from '../../platform/schedules';
import type { TemporalGateway } from '../../platform/temporal-client';
import { SettingsStore } from '../settings-store';
import { translateTemporalError } from '../workflow-runner';

export const REF_GUIDE_SETTINGS_KEY = 'ref-guide';
export const REF_GUIDE_STATE_KEY = 'ref-guide-state';

/** Refresh interval bounds: at least every 5 minutes, at most weekly. */
export const REF_GUIDE_INTERVAL_BOUNDS = { min: 5, max: 10_080 } as const;

export const refGuideSettingsSchema = z.object({
  enabled: z.boolean(),
  intervalMinutes: z.number().int().min(REF_GUIDE_INTERVAL_BOUNDS.min).max(REF_GUIDE_INTERVAL_BOUNDS.max),
});
export type RefGuideSettings = z.infer<typeof refGuideSettingsSchema>;
/** The guides change a few times a day at most: daily by default. */
export const DEFAULT_REF_GUIDE_SETTINGS: RefGuideSettings = { enabled: true, intervalMinutes: 1440 };

const stateSchema = z.object({
  lastRunAt: z.string().nullable(),
  lastRunSources: z.number().int().min(0),
  lastRunFailed: z.number().int().min(0),
  lastRunJoined: z.number().int().min(0),
});
type RefGuideJobState = z.infer<typeof stateSchema>;

export function readRefGuideSettings(em: EntityManager): Promise<RefGuideSettings> {
  return new SettingsStore(em).get(REF_GUIDE_SETTINGS_KEY, refGuideSettingsSchema, DEFAULT_REF_GUIDE_SETTINGS);
}

function readState(em: EntityManager): Promise<RefGuideJobState> {
  return new SettingsStore(em).get(REF_GUIDE_STATE_KEY, stateSchema, { lastRunAt: null, lastRunSources: 0, lastRunFailed: 0, lastRunJoined: 0 });
}

export async function recordRefGuideRefresh(em: EntityManager, outcome: { sources: number; failed: number; joined: number }): Promise<void> {
  await new SettingsStore(em).put(REF_GUIDE_STATE_KEY, { lastRunAt: new Date().toISOString(), lastRunSources: outcome.sources, lastRunFailed: outcome.failed, lastRunJoined: outcome.joined });
}

/** The settings with what the schedule says (paused, next run) and the last refresh run. */
export async function refGuideSettingsView(em: EntityManager, gateway: TemporalGateway) {
  const settings = await readRefGuideSettings(em);
  const state = await readState(em);
  let paused = !settings.enabled;
  let nextRunAt: string | null = null;
  try {
    const described = await gateway.client.schedule.getHandle(refGuideScheduleId(gateway.taskQueue)).describe();
    paused = described.state.paused;
    nextRunAt = paused ? null : (described.info.nextActionTimes[0]?.toISOString() ?? null);
  } catch {
    nextRunAt = null;
  }
  return { ...settings, scheduleId: refGuideScheduleId(gateway.taskQueue), paused, nextRunAt, ...state };
}

/** Stores the settings after the schedule took them (created, re-timed, paused or resumed). */
export async function updateRefGuideSettings(em: EntityManager, gateway: TemporalGateway, settings: RefGuideSettings) {
  try {
    await applyRefGuideSchedule(gateway, settings);
  } catch (error) {
    throw translateTemporalError(error);
  }
  await new SettingsStore(em).put(REF_GUIDE_SETTINGS_KEY, settings);
  return refGuideSettingsView(em, gateway);
}
