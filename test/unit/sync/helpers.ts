/**
 * Sync test helpers: replayed PCDs, emulators with typed clients, live-state reads, and a sync loop
 * (plan -> apply -> plan).
 */
import type Database from 'better-sqlite3';
import { createArrClient, LidarrClient, type AnyArrClient } from '../../../src/clients';
import type { ArrType } from '../../../src/domain/arr-types';
import { replayPcd } from '../../../src/domain/pcd';
import {
  applyPlan,
  emptySelection,
  planSync,
  previewChanges,
  readSyncSource,
  type LiveState,
  type StepOutcome,
  type SyncPlan,
  type SyncSection,
  type SyncSelection,
} from '../../../src/domain/sync';
import { startEmulator, type Emulator, type EmulatorApp } from '../../../src/emulators';
import { sampleRepository, trashRepository } from '../pcd/helpers';

export const API_KEY = 'sync-test-key-3b9d1f';
export const TIMEOUT = 5000;

export const APPS: { app: EmulatorApp; arrType: ArrType }[] = [
  { app: 'radarr', arrType: 'movie_app' },
  { app: 'sonarr', arrType: 'series_app' },
  { app: 'lidarr', arrType: 'music_app' },
];

export const ARR_TYPE_OF: Record<EmulatorApp, ArrType> = { radarr: 'movie_app', sonarr: 'series_app', lidarr: 'music_app' };

let sampleDb: Database.Database | null = null;
let trashDb: Database.Database | null = null;

/** The resolved database of examples/sample-pcd (replayed once per test file). */
export function sampleDatabase(): Database.Database {
  if (!sampleDb) {
    const repo = sampleRepository();
    sampleDb = replayPcd({ base: repo.base, tweaks: repo.tweaks }).resolved;
  }
  return sampleDb;
}

/** The resolved database of ../shared/data/pcd/trash-pcd (replayed once per test file). */
export function trashDatabase(): Database.Database {
  if (!trashDb) {
    const repo = trashRepository();
    trashDb = replayPcd({ base: repo.base, tweaks: repo.tweaks }).resolved;
  }
  return trashDb;
}

/** What each app syncs from the sample PCD. */
export function sampleSelection(arrType: ArrType, overrides: Partial<SyncSelection> = {}): SyncSelection {
  const base: Record<ArrType, SyncSelection> = {
    movie_app: {
      ...emptySelection(),
      qualityProfiles: ['Movies 1080p'],
      delayProfile: 'Standard',
      naming: 'Standard',
      mediaSettings: 'Standard',
      qualityDefinitions: 'Movie Sizes',
    },
    series_app: {
      ...emptySelection(),
      qualityProfiles: ['Series 1080p'],
      delayProfile: 'Standard',
      naming: 'Standard',
      mediaSettings: 'Standard',
      qualityDefinitions: 'Series Sizes',
    },
    music_app: {
      ...emptySelection(),
      qualityProfiles: ['Music Lossless'],
      delayProfile: 'Standard',
      naming: 'Standard',
      mediaSettings: 'Standard',
      qualityDefinitions: 'Music Sizes',
      metadataProfile: 'Studio Albums',
    },
  };
  return { ...base[arrType], ...overrides };
}

export interface AppUnderTest {
  emulator: Emulator;
  client: AnyArrClient;
  arrType: ArrType;
}

export async function startApp(app: EmulatorApp): Promise<AppUnderTest> {
  const emulator = await startEmulator({ app, apiKey: API_KEY });
  const arrType = ARR_TYPE_OF[app];
  const client = createArrClient({ arrType, baseUrl: emulator.baseUrl, apiKey: API_KEY }, TIMEOUT);
  return { emulator, client, arrType };
}

/** Everything a preview of every section reads from the app. */
export async function fetchLive(client: AnyArrClient): Promise<LiveState> {
  const [customFormats, qualityProfiles, qualityDefinitions, languages, delayProfiles, naming, mediaManagement] = await Promise.all([
    client.listCustomFormats(),
    client.listQualityProfiles(),
    client.listQualityDefinitions(),
    client.listLanguages(),
    client.listDelayProfiles(),
    client.getNamingConfig(),
    client.getMediaManagementConfig(),
  ]);
  const live: LiveState = {
    customFormats,
    qualityProfiles,
    qualityDefinitions,
    languages,
    delayProfiles,
    naming: naming as unknown as LiveState['naming'],
    mediaManagement: mediaManagement as unknown as LiveState['mediaManagement'],
  };
  if (client instanceof LidarrClient) live.metadataProfiles = await client.listMetadataProfiles();
  else live.qualityDefinitionLimits = await client.qualityDefinitionLimits();
  return live;
}

export async function planFor(db: Database.Database, target: AppUnderTest, selection: SyncSelection, sections?: SyncSection[]): Promise<SyncPlan> {
  const source = readSyncSource(db, target.arrType, selection);
  return planSync({ arrType: target.arrType, selection, source, live: await fetchLive(target.client), sections });
}

/** Plans, applies, and plans again. */
export async function syncRound(
  db: Database.Database,
  target: AppUnderTest,
  selection: SyncSelection,
): Promise<{ first: SyncPlan; outcomes: StepOutcome[]; second: SyncPlan }> {
  const first = await planFor(db, target, selection);
  const outcomes = await applyPlan(first.plan, target.client);
  const second = await planFor(db, target, selection);
  return { first, outcomes, second };
}

/** `section/entityType/name action` lines of a preview, for readable assertions. */
export function summary(plan: SyncPlan): string[] {
  return previewChanges(plan.preview).map(({ section, change }) => `${section}/${change.entityType}/${change.name} ${change.action}${change.category ? ` (${change.category})` : ''}`);
}

/** Entries of a preview that are not unchanged. */
export function pending(plan: SyncPlan): string[] {
  return previewChanges(plan.preview)
    .filter(({ change }) => change.action !== 'unchanged')
    .map(({ change }) => `${change.entityType}/${change.name} ${change.action} ${JSON.stringify(change.fields)}`);
}
