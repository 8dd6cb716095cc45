/**
 * Several databases per instance (pure): the per-database SyncSources of one instance merged into
 * one, in the configuration's order, with where each entity came from and what collided.
 *
 * - An entity supplied by two databases (same type and name) comes from the earlier one; the later
 *   ones are listed as losers of a `collision`.
 * - A quality profile's custom formats come from the profile's own database unless an earlier
 *   database supplies a format of the same name: that one is used (`formatOverride`, naming a
 *   profile of the overridden database that scores it).
 * - Single-entity settings (delay profile, naming, media settings, quality definitions, metadata
 *   profile) come from the first database that selects one; later selections are collisions.
 * - Regular expressions are looked up by name: when two databases give one name different
 *   patterns, the later database's formats refer to theirs under a name scoped to that database,
 *   so every format keeps its own patterns.
 * - The namespace and deleteUnmanaged of the first database's selection apply to the instance.
 */
import type { CustomFormatData } from '../pcd';
import type { SyncSelection } from './selection';
import { scoresFor, type EntityIdentities, type SyncSource } from './source';
import type { SyncChange, SyncEntityType, SyncPreviewGroups } from './types';
import { previewChanges } from './preview';

/** At most this many databases feed one instance. */
export const MAX_SYNC_DATABASES = 8;

/** One database of an instance's sync configuration, with what its selection reads. */
export interface DatabaseSource {
  databaseId: number;
  databaseName: string;
  selection: SyncSelection;
  source: SyncSource;
}

export interface DatabaseRef {
  databaseId: number;
  databaseName: string;
}

export const SOURCE_COLLISION_KINDS = ['collision', 'formatOverride'] as const;
export type SourceCollisionKind = (typeof SOURCE_COLLISION_KINDS)[number];

/** Two or more databases supplying an entity of one type and name: the earliest wins. */
export interface SourceCollision {
  entityType: SyncEntityType;
  /** The winner's name (single-entity settings: a loser's own name is on the loser). */
  name: string;
  winner: DatabaseRef;
  losers: (DatabaseRef & { name?: string })[];
  kind: SourceCollisionKind;
  /** formatOverride: a quality profile of the (first) overridden database that scores the format. */
  profile?: string;
}

/** Which database each synced entity came from. */
export interface EntityOrigins {
  customFormat: Record<string, number>;
  qualityProfile: Record<string, number>;
  delayProfile: number | null;
  naming: number | null;
  mediaSettings: number | null;
  qualityDefinition: number | null;
  metadataProfile: number | null;
}

export interface MergedSource {
  source: SyncSource;
  /** The instance's effective selection (see effectiveSelection). */
  selection: SyncSelection;
  origins: EntityOrigins;
  collisions: SourceCollision[];
  databases: { databaseId: number; name: string }[];
}

type SettingKey = 'delayProfile' | 'naming' | 'mediaSettings' | 'qualityDefinitions' | 'metadataProfile';
const SETTINGS: { key: SettingKey; entityType: SyncEntityType; origin: keyof EntityOrigins }[] = [
  { key: 'delayProfile', entityType: 'delayProfile', origin: 'delayProfile' },
  { key: 'naming', entityType: 'naming', origin: 'naming' },
  { key: 'mediaSettings', entityType: 'mediaSettings', origin: 'mediaSettings' },
  { key: 'qualityDefinitions', entityType: 'qualityDefinition', origin: 'qualityDefinition' },
  { key: 'metadataProfile', entityType: 'metadataProfile', origin: 'metadataProfile' },
];

/**
 * What the instance syncs as a whole: every selected profile (first occurrence, in order), the
 * first selection of each single-entity setting, and the first database's namespace and
 * deleteUnmanaged. Needs no database: the live reads and sections of a preview follow from it.
 */
export function effectiveSelection(selections: readonly SyncSelection[]): SyncSelection {
  if (selections.length === 0) throw new Error('effectiveSelection: no database');
  if (selections.length === 1) return selections[0];
  const [first] = selections;
  const out: SyncSelection = { ...first, qualityProfiles: [...new Set(selections.flatMap((s) => s.qualityProfiles))] };
  for (const { key } of SETTINGS) out[key] = selections.find((s) => s[key] !== null)?.[key] ?? null;
  return out;
}

/** The sources' scoped identities (copied for the winners). */
type IdentityMap = EntityIdentities;
const identitiesOf = (source: SyncSource): IdentityMap | undefined => source.identities;

/** Merges the sources of an instance's databases, first one first (see the module comment). */
export function mergeSyncSources(entries: readonly DatabaseSource[]): MergedSource {
  if (entries.length === 0) throw new Error('mergeSyncSources: no database');
  const databases = entries.map((e) => ({ databaseId: e.databaseId, name: e.databaseName }));
  if (entries.length === 1) {
    const [only] = entries;
    return { source: only.source, selection: only.selection, origins: singleOrigins(only), collisions: [], databases };
  }
  const arrType = entries[0].source.arrType;
  const ref = (e: DatabaseSource): DatabaseRef => ({ databaseId: e.databaseId, databaseName: e.databaseName });
  const collisions = new Map<string, SourceCollision>();
  const lose = (entityType: SyncEntityType, name: string, winner: DatabaseSource, loser: DatabaseSource, kind: SourceCollisionKind, extra: { loserName?: string; profile?: string } = {}) => {
    const key = `${entityType}\u0000${name}`;
    let entry = collisions.get(key);
    if (!entry) {
      entry = { entityType, name, winner: ref(winner), losers: [], kind };
      if (extra.profile !== undefined) entry.profile = extra.profile;
      collisions.set(key, entry);
    }
    entry.losers.push(extra.loserName !== undefined && extra.loserName !== name ? { ...ref(loser), name: extra.loserName } : ref(loser));
  };

  const origins: EntityOrigins = { customFormat: {}, qualityProfile: {}, delayProfile: null, naming: null, mediaSettings: null, qualityDefinition: null, metadataProfile: null };
  const identities: IdentityMap | undefined = entries.some((e) => identitiesOf(e.source)) ? { customFormat: {}, qualityProfile: {} } : undefined;
  const byId = new Map(entries.map((e) => [e.databaseId, e]));

  // ---- quality profiles: the first database that supplies a name wins
  const qualityProfiles: SyncSource['qualityProfiles'] = [];
  const winningProfiles = new Map<number, SyncSource['qualityProfiles']>();
  for (const entry of entries) {
    const kept: SyncSource['qualityProfiles'] = [];
    for (const profile of entry.source.qualityProfiles) {
      const winner = origins.qualityProfile[profile.name];
      if (winner !== undefined) {
        lose('qualityProfile', profile.name, byId.get(winner)!, entry, 'collision');
        continue;
      }
      origins.qualityProfile[profile.name] = entry.databaseId;
      const identity = identitiesOf(entry.source)?.qualityProfile[profile.name];
      if (identities && identity !== undefined) identities.qualityProfile[profile.name] = identity;
      kept.push(profile);
    }
    winningProfiles.set(entry.databaseId, kept);
    qualityProfiles.push(...kept);
  }

  // ---- custom formats: those the database's winning profiles score, overridden by an earlier database's format of that name
  const formats = new Map<string, { format: CustomFormatData; entry: DatabaseSource }>();
  const regularExpressions: Record<string, string> = {};
  const missing: SyncSource['missing'] = [];
  for (const entry of entries) {
    const scoredBy = new Map<string, string>();
    for (const profile of winningProfiles.get(entry.databaseId)!) {
      for (const name of scoresFor(profile, arrType).keys()) if (!scoredBy.has(name)) scoredBy.set(name, profile.name);
    }
    for (const format of entry.source.customFormats) {
      if (!scoredBy.has(format.name)) continue;
      const earlier = formats.get(format.name);
      if (earlier) {
        lose('customFormat', format.name, earlier.entry, entry, 'formatOverride', { profile: scoredBy.get(format.name) });
        continue;
      }
      formats.set(format.name, { format: withOwnPatterns(format, entry, regularExpressions), entry });
      origins.customFormat[format.name] = entry.databaseId;
      const identity = identitiesOf(entry.source)?.customFormat[format.name];
      if (identities && identity !== undefined) identities.customFormat[format.name] = identity;
    }
    for (const m of entry.source.missing) {
      // A profile or format another database supplies is not missing.
      if (m.entityType === 'custom_format' && formats.has(m.name)) continue;
      if (m.entityType === 'quality_profile' && origins.qualityProfile[m.name] !== undefined) continue;
      missing.push({ ...m, databaseName: entry.databaseName });
    }
  }

  // ---- single-entity settings: the first database that selects one
  const settings: Pick<SyncSource, SettingKey> = { delayProfile: null, naming: null, mediaSettings: null, qualityDefinitions: null, metadataProfile: null };
  for (const { key, entityType, origin } of SETTINGS) {
    let winner: DatabaseSource | null = null;
    for (const entry of entries) {
      const name = entry.selection[key];
      if (name === null || (key === 'metadataProfile' && arrType !== 'music_app')) continue;
      if (!winner) {
        winner = entry;
        (settings as Record<SettingKey, unknown>)[key] = entry.source[key];
        (origins as unknown as Record<string, number | null>)[origin] = entry.databaseId;
      } else {
        lose(entityType, winner.selection[key]!, winner, entry, 'collision', { loserName: name });
      }
    }
  }

  const qualityNames: Record<string, string> = {};
  for (const entry of [...entries].reverse()) Object.assign(qualityNames, entry.source.qualityNames);
  const source: SyncSource = {
    arrType,
    qualityProfiles,
    customFormats: [...formats.values()].map((f) => f.format).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    regularExpressions,
    ...settings,
    qualityNames,
    missing,
  };
  if (identities) source.identities = identities;
  return { source, selection: effectiveSelection(entries.map((e) => e.selection)), origins, collisions: [...collisions.values()], databases };
}

/**
 * The format with the patterns of its own database: a regular expression name another database
 * already gave a different pattern (or that its own database lacks while another has it) is
 * referred to under a name scoped to this database.
 */
function withOwnPatterns(format: CustomFormatData, entry: DatabaseSource, merged: Record<string, string>): CustomFormatData {
  let renamed = false;
  const conditions = format.conditions.map((condition) => {
    if (!('regularExpression' in condition)) return condition;
    const name = condition.regularExpression;
    const own = entry.source.regularExpressions[name];
    if (merged[name] === undefined && own !== undefined) {
      merged[name] = own;
      return condition;
    }
    if (merged[name] === own) return condition;
    const scoped = `${name} (${entry.databaseName})`;
    if (own !== undefined) merged[scoped] = own;
    renamed = true;
    return { ...condition, regularExpression: scoped };
  });
  return renamed ? { ...format, conditions } : format;
}

function singleOrigins(entry: DatabaseSource): EntityOrigins {
  const id = entry.databaseId;
  const { source } = entry;
  return {
    customFormat: Object.fromEntries(source.customFormats.map((f) => [f.name, id])),
    qualityProfile: Object.fromEntries(source.qualityProfiles.map((p) => [p.name, id])),
    delayProfile: source.delayProfile ? id : null,
    naming: source.naming ? id : null,
    mediaSettings: source.mediaSettings ? id : null,
    qualityDefinition: source.qualityDefinitions ? id : null,
    metadataProfile: source.metadataProfile ? id : null,
  };
}

/** Sets `databaseId` on every change of a synced entity (unmanaged entries came from no database). */
export function annotateOrigins(preview: SyncPreviewGroups, origins: EntityOrigins): void {
  for (const { change } of previewChanges(preview)) {
    if (change.category === 'unmanaged') continue;
    const id = originOf(change, origins);
    if (id !== null && id !== undefined) change.databaseId = id;
  }
}

function originOf(change: SyncChange, origins: EntityOrigins): number | null | undefined {
  switch (change.entityType) {
    case 'customFormat':
      return origins.customFormat[change.name];
    case 'qualityProfile':
      return origins.qualityProfile[change.name];
    default:
      return origins[change.entityType];
  }
}
