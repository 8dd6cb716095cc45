/**
 * Cross-instance compare of one named entity (pure): which entity types can be compared, whether an
 * app supports an entity, the sync selection that makes the sync transform produce exactly that
 * entity, the transformed payload and its diff view, the matching live entity, and the diffs of
 * every instance against the baseline (the first compatible instance) with the sync diff engine.
 */
import type Database from 'better-sqlite3';
import type { ArrType } from '../arr-types';
import { diff, type DiffOptions } from '../diff';
import { entityExists, profileCompatibility, readEntity, type CustomFormatData, type PortableType, type QualityProfileData } from '../pcd';
import {
  CUSTOM_FORMAT_DIFF,
  GLOBAL_DELAY_PROFILE_ID,
  QUALITY_PROFILE_DIFF,
  SETTINGS_DIFF,
  displayName,
  customFormatView,
  emptySelection,
  liveNeeds,
  metadataProfileView,
  patternsOf,
  qualityDefinitionView,
  qualityProfileView,
  readSyncSource,
  scoresFor,
  type DesiredState,
  type SyncSource,
  type FieldChange,
  type LiveState,
  type SyncEntityType,
  type SyncSection,
  type SyncSelection,
} from '../sync';

/** Entity types compare answers for (a regular expression reaches an app only inside a custom format). */
export const COMPARABLE_ENTITY_TYPES = ['qualityProfile', 'customFormat', 'delayProfile', 'naming', 'mediaSettings', 'qualityDefinitions', 'musicAppMetadataProfile'] as const;
export type ComparableEntityType = (typeof COMPARABLE_ENTITY_TYPES)[number];

export const isComparable = (entityType: string): entityType is ComparableEntityType => (COMPARABLE_ENTITY_TYPES as readonly string[]).includes(entityType);

const PER_APP_TABLE: Partial<Record<ComparableEntityType, string>> = { naming: 'naming', mediaSettings: 'media_settings', qualityDefinitions: 'quality_definitions' };

/** The PCD type holding the entity for an app family. */
export function portableTypeOn(entityType: ComparableEntityType, arrType: ArrType): PortableType {
  if (entityType === 'qualityProfile') return 'quality_profile';
  if (entityType === 'customFormat') return 'custom_format';
  if (entityType === 'delayProfile') return 'delay_profile';
  if (entityType === 'musicAppMetadataProfile') return 'music_app_metadata_profile';
  return `${arrType}_${PER_APP_TABLE[entityType]}` as PortableType;
}

/** Whether the database has the entity for at least one app family (else the entity is not found). */
export function entityFound(db: Database.Database, entityType: ComparableEntityType, name: string): boolean {
  const apps: ArrType[] = ['movie_app', 'series_app', 'music_app'];
  return apps.some((arrType) => entityExists(db, portableTypeOn(entityType, arrType), name));
}

/**
 * Whether an app family can hold the entity: a quality profile when every enabled quality maps to
 * the app (the graph's compatibility), per-app types when the app's table has it, metadata profiles
 * on the music app only; delay profiles everywhere.
 */
export function supportedOn(db: Database.Database, entityType: ComparableEntityType, name: string, arrType: ArrType): boolean {
  if (entityType === 'qualityProfile') return profileCompatibility(db).find((p) => p.name === name)?.compatibleArrTypes.includes(arrType) ?? false;
  if (entityType === 'musicAppMetadataProfile' && arrType !== 'music_app') return false;
  return entityExists(db, portableTypeOn(entityType, arrType), name);
}

const SECTION: Record<ComparableEntityType, SyncSection> = {
  qualityProfile: 'qualityProfiles',
  customFormat: 'qualityProfiles',
  delayProfile: 'delayProfiles',
  naming: 'mediaManagement',
  mediaSettings: 'mediaManagement',
  qualityDefinitions: 'mediaManagement',
  musicAppMetadataProfile: 'metadataProfiles',
};

/**
 * What the sync transform needs to build only this entity for an app: the source (as the sync
 * reads it, with the instance's namespace in the selection), the section, and the app reads.
 */
export function transformInputs(
  db: Database.Database,
  entityType: ComparableEntityType,
  name: string,
  arrType: ArrType,
  namespace: string | null,
): { source: SyncSource; selection: SyncSelection; section: SyncSection; liveParts: (keyof LiveState)[] } {
  const { selection, section } = selectionFor(entityType, name, namespace);
  const source = readSyncSource(db, arrType, selection);
  if (entityType !== 'customFormat') return { source, selection, section, liveParts: liveNeeds(arrType, selection, [section]) };
  // A custom format alone: the same reads as the profiles section, without a profile.
  const format = readEntity(db, 'custom_format', name);
  source.customFormats = format ? [format.data as unknown as CustomFormatData] : [];
  source.regularExpressions = patternsOf(db, source.customFormats, source.missing);
  const liveParts: (keyof LiveState)[] = ['customFormats', 'qualityDefinitions', ...(arrType === 'music_app' ? [] : (['languages'] as const))];
  return { source, selection, section, liveParts };
}

function selectionFor(entityType: ComparableEntityType, name: string, namespace: string | null): { selection: SyncSelection; section: SyncSection } {
  const selection: SyncSelection = { ...emptySelection(), namespace };
  if (entityType === 'customFormat') return { selection, section: SECTION[entityType] };
  if (entityType === 'qualityProfile') selection.qualityProfiles = [name];
  else if (entityType === 'delayProfile') selection.delayProfile = name;
  else if (entityType === 'musicAppMetadataProfile') selection.metadataProfile = name;
  else selection[entityType] = name;
  return { selection, section: SECTION[entityType] };
}

/** Whether the instance's own sync selection includes the entity (it is in the instance's desired payload). */
export function selectedBy(db: Database.Database, arrType: ArrType, selection: SyncSelection, entityType: ComparableEntityType, name: string): boolean {
  if (entityType === 'qualityProfile') return selection.qualityProfiles.includes(name);
  if (entityType === 'customFormat') {
    return selection.qualityProfiles.some((profileName) => {
      const profile = readEntity(db, 'quality_profile', profileName);
      return profile !== null && scoresFor(profile.data as unknown as QualityProfileData, arrType).has(name);
    });
  }
  if (entityType === 'delayProfile') return selection.delayProfile === name;
  if (entityType === 'musicAppMetadataProfile') return selection.metadataProfile === name;
  return selection[entityType] === name;
}

export interface DesiredEntity {
  /** Name on the app (namespaced where the app names it). */
  name: string;
  payload: Record<string, unknown>;
  /** What the diff compares (the sync's view of the entity). */
  view: unknown;
}

/** The transformed entity of a transform run with `selectionFor` (null when the transform left it out); the view keys names without the namespace. */
export function desiredEntity(entityType: ComparableEntityType, desired: DesiredState, arrType: ArrType, namespace: string | null): DesiredEntity | null {
  switch (entityType) {
    case 'qualityProfile': {
      const p = desired.qualityProfiles[0];
      if (!p) return null;
      // Scores are compared by PCD name: a namespace is not a difference in behaviour.
      const scores = Object.fromEntries(Object.entries(p.formatScores).map(([name, score]) => [displayName(name, namespace), score]));
      const view = qualityProfileView(p.body, scores, { minUpgrade: arrType !== 'music_app', language: arrType === 'movie_app' });
      return { name: p.name, payload: { ...p.body, formatScores: p.formatScores }, view };
    }
    case 'customFormat': {
      const f = desired.customFormats[0];
      return f ? { name: f.name, payload: { ...f.payload }, view: customFormatView(f.payload) } : null;
    }
    case 'delayProfile':
    case 'naming':
    case 'mediaSettings': {
      const s = desired[entityType];
      return s ? { name: s.displayName, payload: { ...s.fields }, view: s.fields } : null;
    }
    case 'qualityDefinitions': {
      const d = desired.qualityDefinitions;
      if (!d) return null;
      return { name: d.displayName, payload: { entries: d.entries }, view: Object.fromEntries(d.entries.map((e) => [e.quality, qualityDefinitionView(e)])) };
    }
    case 'musicAppMetadataProfile': {
      const m = desired.metadataProfile;
      return m ? { name: m.name, payload: { ...m.payload }, view: metadataProfileView(m.payload) } : null;
    }
  }
}

/**
 * The raw app payload the desired entity would replace (undefined when the app has none): the
 * custom format or quality profile the instance's sync ledger binds (`appId`, also after a rename),
 * else the one with the desired name, as a sync finds it.
 */
export function liveEntity(entityType: ComparableEntityType, live: LiveState, desiredName: string, appId: number | null = null): unknown {
  const bound = <T extends { id: number; name: string }>(list: readonly T[] | undefined) => (appId === null ? undefined : list?.find((e) => e.id === appId)) ?? list?.find((e) => e.name === desiredName);
  switch (entityType) {
    case 'qualityProfile':
      return bound(live.qualityProfiles);
    case 'customFormat':
      return bound(live.customFormats);
    case 'delayProfile':
      return live.delayProfiles?.find((p) => p.id === GLOBAL_DELAY_PROFILE_ID);
    case 'naming':
      return live.naming ?? undefined;
    case 'mediaSettings':
      return live.mediaManagement ?? undefined;
    case 'qualityDefinitions':
      return live.qualityDefinitions ?? undefined;
    case 'musicAppMetadataProfile':
      return live.metadataProfiles?.find((p) => p.name === desiredName);
  }
}

const DIFF_OPTIONS: Record<ComparableEntityType, DiffOptions> = {
  qualityProfile: QUALITY_PROFILE_DIFF,
  customFormat: CUSTOM_FORMAT_DIFF,
  delayProfile: SETTINGS_DIFF,
  naming: SETTINGS_DIFF,
  mediaSettings: SETTINGS_DIFF,
  qualityDefinitions: SETTINGS_DIFF,
  musicAppMetadataProfile: SETTINGS_DIFF,
};

const CHANGE_ENTITY_TYPE: Record<ComparableEntityType, SyncEntityType> = {
  qualityProfile: 'qualityProfile',
  customFormat: 'customFormat',
  delayProfile: 'delayProfile',
  naming: 'naming',
  mediaSettings: 'mediaSettings',
  qualityDefinitions: 'qualityDefinition',
  musicAppMetadataProfile: 'metadataProfile',
};

/** A SyncChange without section and category. */
export interface CompareChange {
  entityType: SyncEntityType;
  name: string;
  action: 'update' | 'unchanged';
  remoteId: null;
  fields: FieldChange[];
}

export interface CompareDiff {
  instanceId: number;
  changes: CompareChange[];
}

/**
 * Diffs of every instance with a desired entity against the baseline: the first instance (in
 * request order) that supports the entity and has a desired entity. The baseline gets no diff.
 */
export function compareDiffs(entityType: ComparableEntityType, instances: { instanceId: number; desired: DesiredEntity | null }[]): { baselineInstanceId: number | null; diffs: CompareDiff[] } {
  const withDesired = instances.filter((i): i is { instanceId: number; desired: DesiredEntity } => i.desired !== null);
  const [baseline, ...others] = withDesired;
  if (!baseline) return { baselineInstanceId: null, diffs: [] };
  const diffs = others.map((other) => {
    const fields = diff(baseline.desired.view, other.desired.view, DIFF_OPTIONS[entityType]);
    const change: CompareChange = { entityType: CHANGE_ENTITY_TYPE[entityType], name: other.desired.name, action: fields.length ? 'update' : 'unchanged', remoteId: null, fields };
    return { instanceId: other.instanceId, changes: [change] };
  });
  return { baselineInstanceId: baseline.instanceId, diffs };
}

/** The input of one instance's read in compareEntityWorkflow (its activity). */
export interface CompareInstanceInput {
  databaseId: number;
  entityType: ComparableEntityType;
  name: string;
  instanceId: number;
  includeLive: boolean;
}

/** One instance's side of a compare; failures are a sanitized reason, never raw detail. */
export interface CompareInstanceRead {
  instanceId: number;
  instanceName: string;
  arrType: ArrType | null;
  supported: boolean;
  present: boolean;
  desired: DesiredEntity | null;
  live?: unknown;
  error?: string;
}
