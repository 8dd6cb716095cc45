import type { AppFacts, EmulatorApp } from './facts';
import { LIDARR } from './lidarr';
import { RADARR } from './radarr';
import { SONARR } from './sonarr';

export const APP_FACTS: Record<EmulatorApp, AppFacts> = { radarr: RADARR, sonarr: SONARR, lidarr: LIDARR };

export const EMULATOR_APPS: readonly EmulatorApp[] = ['radarr', 'sonarr', 'lidarr'];

export function isEmulatorApp(value: unknown): value is EmulatorApp {
  return typeof value === 'string' && (EMULATOR_APPS as readonly string[]).includes(value);
}

export type { AppFacts, EmulatorApp } from './facts';
