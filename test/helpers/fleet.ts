import path from 'node:path';
import type { ArrType } from '../../src/domain/arr-types';
import { startEmulator, type Emulator, type EmulatorApp } from '../../src/emulators';
import { eventually, type Harness } from './harness';

export const SAMPLE_PCD = path.resolve(__dirname, '..', '..', 'examples', 'sample-pcd');

export const APP_OF_ARR: Record<ArrType, EmulatorApp> = { movie_app: 'radarr', series_app: 'sonarr', music_app: 'lidarr' };

/** What each app family syncs from examples/sample-pcd. */
export function sampleSyncConfig(arrType: ArrType, databaseId: number): Record<string, unknown> {
  const common = { databaseId, delayProfile: 'Standard', naming: 'Standard', mediaSettings: 'Standard' };
  switch (arrType) {
    case 'movie_app':
      return { ...common, qualityProfiles: ['Movies 1080p'], qualityDefinitions: 'Movie Sizes' };
    case 'series_app':
      return { ...common, qualityProfiles: ['Series 1080p'], qualityDefinitions: 'Series Sizes' };
    case 'music_app':
      return { ...common, qualityProfiles: ['Music Lossless'], qualityDefinitions: 'Music Sizes', metadataProfile: 'Studio Albums' };
  }
}

/** Links a local PCD directory and waits until its cache is ready; returns the database id. */
export async function linkDatabase(h: Harness, name: string, dir: string): Promise<number> {
  const linked = await h.post('/databases', { name, source: { kind: 'local', path: dir } });
  if (linked.status !== 201) throw new Error(`link failed: ${linked.status} ${linked.text}`);
  await eventually(() => h.get(`/databases/${linked.body.id}`), (r) => r.body.cache.status === 'ready', 60_000);
  return linked.body.id;
}

export interface FleetInstance {
  id: number;
  name: string;
  arrType: ArrType;
  emulator: Emulator;
  apiKey: string;
}

/** An emulated app registered as an instance, with a sync configuration. */
export async function addInstance(
  h: Harness,
  arrType: ArrType,
  options: { name: string; databaseId: number; config?: Record<string, unknown>; apiKey?: string; version?: string },
): Promise<FleetInstance> {
  const apiKey = options.apiKey ?? `key-${options.name.replace(/\W/g, '')}-0123456789`;
  const emulator = await startEmulator({ app: APP_OF_ARR[arrType], apiKey, version: options.version });
  const created = await h.post('/instances', { name: options.name, arrType, baseUrl: emulator.baseUrl, apiKey });
  if (created.status !== 201) throw new Error(`instance failed: ${created.status} ${created.text}`);
  // A process that did not run the pull may still be building its cache (503): try again.
  const config = await eventually(
    () => h.put(`/instances/${created.body.id}/sync-config`, options.config ?? sampleSyncConfig(arrType, options.databaseId)),
    (r) => r.status !== 503,
    60_000,
  );
  if (config.status !== 200) throw new Error(`sync-config failed: ${config.status} ${config.text}`);
  return { id: created.body.id, name: options.name, arrType, emulator, apiKey };
}

/**
 * Replaces the app behind an instance's URL, as a user who repoints a port would: its emulator
 * stops and an emulator of `app` (same key, fresh state) starts on the same port. The instance's
 * `emulator` is the new one from then on.
 */
export async function replaceApp(instance: FleetInstance, app: EmulatorApp): Promise<Emulator> {
  const port = instance.emulator.port;
  await instance.emulator.close();
  instance.emulator = await startEmulator({ app, apiKey: instance.apiKey, port });
  return instance.emulator;
}

/** Starts a canary rollout of movie_app instances through the API; `fields`: the request's other fields. */
export function startMovieRollout(h: Harness, canary: FleetInstance, targets: FleetInstance[], fields: Record<string, unknown>) {
  return h.post('/canary/rollouts', { arrType: 'movie_app', canaryInstanceId: canary.id, targetInstanceIds: targets.map((t) => t.id), ...fields });
}

/** Polls a preview until it reaches one of the statuses. */
export function previewUntil(h: Harness, previewId: number, statuses: string[], timeoutMs = 60_000) {
  return eventually(() => h.get(`/sync/previews/${previewId}`), (r) => statuses.includes(r.body?.status), timeoutMs);
}

/** Every string that must never appear in an API response about this instance. */
export function leakMarkers(instance: FleetInstance): string[] {
  return [instance.apiKey, ...instance.emulator.leakMarkers];
}
