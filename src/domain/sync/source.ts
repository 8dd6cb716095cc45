/**
 * The desired configuration of one instance, read from a replayed PCD database: the selected
 * entities in portable shape, the custom formats the selected profiles score for the app, the
 * patterns of the regular expressions their conditions use, and the app's quality names
 * (quality_api_mappings). A SyncSource is plain data (JSON-serializable), so it can be computed
 * once per database state and reused for many instances of the same family.
 */
import type Database from 'better-sqlite3';
import { toPcdArrType, type ArrType } from '../arr-types';
import {
  QUALITY_SEEDS,
  readEntity,
  renamedEntities,
  type CustomFormatData,
  type DelayProfileData,
  type MediaSettingsData,
  type MetadataProfileData,
  type MovieNamingData,
  type MusicNamingData,
  type PortableType,
  type QualityDefinitionsData,
  type QualityProfileData,
  type SeriesNamingData,
} from '../pcd';
import type { SyncSelection } from './selection';

export type NamingData = MovieNamingData | SeriesNamingData | MusicNamingData;

export interface SyncSource {
  arrType: ArrType;
  /** Selected profiles, in selection order (missing ones are listed in `missing`). */
  qualityProfiles: QualityProfileData[];
  /** Every custom format a selected profile scores for this app (an `all` or an app score), sorted by name. */
  customFormats: CustomFormatData[];
  /** Regular expression name -> pattern, for the patterns the custom formats use. */
  regularExpressions: Record<string, string>;
  delayProfile: DelayProfileData | null;
  naming: NamingData | null;
  mediaSettings: MediaSettingsData | null;
  qualityDefinitions: QualityDefinitionsData | null;
  metadataProfile: MetadataProfileData | null;
  /** PCD canonical quality name -> the app's API name. */
  qualityNames: Record<string, string>;
  /** Selected or referenced entities the database does not have (merged sources name the database). */
  missing: { entityType: PortableType; name: string; databaseName?: string }[];
  /**
   * Stable identity of each custom format and quality profile above, by PCD name: the name it had
   * before its first rename (docs/sync.md, "Identity and the ledger"). Raw as read; the sync scopes
   * them to the database (scopeIdentities) before matching them with the ledger. Absent (a source
   * built by hand): every entity is its own name.
   */
  identities?: EntityIdentities;
}

export interface EntityIdentities {
  customFormat: Record<string, string>;
  qualityProfile: Record<string, string>;
}

/** The identities scoped to the database they come from (`<databaseId>:<identity>`), as the ledger stores them. */
export function scopeIdentities(source: SyncSource, databaseId: number): SyncSource {
  const scope = (names: string[], map: Record<string, string> = {}) => Object.fromEntries(names.map((name) => [name, `${databaseId}:${map[name] ?? name}`]));
  return {
    ...source,
    identities: {
      customFormat: scope(source.customFormats.map((f) => f.name), source.identities?.customFormat),
      qualityProfile: scope(source.qualityProfiles.map((p) => p.name), source.identities?.qualityProfile),
    },
  };
}

/** The database a scoped identity comes from (null: not scoped). */
export function identityDatabase(identity: string): number | null {
  const match = /^(\d+):/.exec(identity);
  return match ? Number(match[1]) : null;
}

function identitiesOf(db: Database.Database, customFormats: readonly CustomFormatData[], qualityProfiles: readonly QualityProfileData[]): EntityIdentities {
  const of = (type: 'custom_format' | 'quality_profile', names: string[]) => {
    const renamed = renamedEntities(db, type);
    return Object.fromEntries(names.map((name) => [name, renamed.get(name) ?? name]));
  };
  return {
    customFormat: of('custom_format', customFormats.map((f) => f.name)),
    qualityProfile: of('quality_profile', qualityProfiles.map((p) => p.name)),
  };
}

/** The profile's score for a custom format on an app: the app's own score overrides an `all` score. */
export function scoresFor(profile: QualityProfileData, arrType: ArrType): Map<string, number> {
  const scores = new Map<string, number>();
  for (const s of profile.customFormats.all) scores.set(s.name, s.score);
  for (const s of profile.customFormats[arrType]) scores.set(s.name, s.score);
  return scores;
}

/** quality_api_mappings of the app, read from the database (the seeds when the table is empty). */
export function qualityNamesOf(db: Database.Database, arrType: ArrType): Record<string, string> {
  const app = toPcdArrType(arrType);
  const rows = db.prepare('SELECT quality_name AS q, api_name AS a FROM quality_api_mappings WHERE arr_type = ?').all(app) as { q: string; a: string }[];
  if (rows.length > 0) return Object.fromEntries(rows.map((r) => [r.q, r.a]));
  const out: Record<string, string> = {};
  for (const seed of QUALITY_SEEDS) {
    const name = seed.api[app];
    if (name) out[seed.name] = name;
  }
  return out;
}

function read<T>(db: Database.Database, type: PortableType, name: string, missing: SyncSource['missing']): T | null {
  const entity = readEntity(db, type, name);
  if (!entity) {
    missing.push({ entityType: type, name });
    return null;
  }
  return entity.data as unknown as T;
}

/** Regular expression name -> pattern for the conditions of `customFormats` (absent ones are added to `missing`). */
export function patternsOf(db: Database.Database, customFormats: CustomFormatData[], missing: SyncSource['missing']): Record<string, string> {
  const regularExpressions: Record<string, string> = {};
  for (const format of customFormats) {
    for (const condition of format.conditions) {
      if (!('regularExpression' in condition) || condition.regularExpression in regularExpressions) continue;
      const regex = readEntity(db, 'regular_expression', condition.regularExpression);
      if (regex) regularExpressions[condition.regularExpression] = String(regex.data.pattern);
      else if (!missing.some((m) => m.entityType === 'regular_expression' && m.name === condition.regularExpression)) {
        missing.push({ entityType: 'regular_expression', name: condition.regularExpression });
      }
    }
  }
  return regularExpressions;
}

/** Reads what `selection` syncs to an app of `arrType` from a replayed (resolved) database. */
export function readSyncSource(db: Database.Database, arrType: ArrType, selection: SyncSelection): SyncSource {
  const missing: SyncSource['missing'] = [];
  const qualityProfiles: QualityProfileData[] = [];
  // A selected profile renamed since it was selected (by a pull, a tweak or an edit) is still the
  // one selected: the selection follows its identity, so a scheduled sync does not lose it.
  let renamedFrom: Map<string, string> | null = null;
  for (const name of selection.qualityProfiles) {
    let profile = readEntity(db, 'quality_profile', name)?.data as unknown as QualityProfileData | undefined;
    if (!profile) {
      renamedFrom ??= new Map([...renamedEntities(db, 'quality_profile')].map(([current, origin]) => [origin, current]));
      const current = renamedFrom.get(name);
      profile = current === undefined || selection.qualityProfiles.includes(current) ? undefined : (readEntity(db, 'quality_profile', current)?.data as unknown as QualityProfileData | undefined);
    }
    if (profile) qualityProfiles.push(profile);
    else missing.push({ entityType: 'quality_profile', name });
  }

  const formatNames = new Set<string>();
  for (const profile of qualityProfiles) for (const name of scoresFor(profile, arrType).keys()) formatNames.add(name);
  const customFormats: CustomFormatData[] = [];
  for (const name of [...formatNames].sort()) {
    const format = read<CustomFormatData>(db, 'custom_format', name, missing);
    if (format) customFormats.push(format);
  }

  const regularExpressions = patternsOf(db, customFormats, missing);

  const perApp = (suffix: string) => `${arrType}_${suffix}` as PortableType;
  return {
    arrType,
    qualityProfiles,
    customFormats,
    regularExpressions,
    delayProfile: selection.delayProfile === null ? null : read<DelayProfileData>(db, 'delay_profile', selection.delayProfile, missing),
    naming: selection.naming === null ? null : read<NamingData>(db, perApp('naming'), selection.naming, missing),
    mediaSettings: selection.mediaSettings === null ? null : read<MediaSettingsData>(db, perApp('media_settings'), selection.mediaSettings, missing),
    qualityDefinitions:
      selection.qualityDefinitions === null ? null : read<QualityDefinitionsData>(db, perApp('quality_definitions'), selection.qualityDefinitions, missing),
    metadataProfile:
      arrType !== 'music_app' || selection.metadataProfile === null
        ? null
        : read<MetadataProfileData>(db, 'music_app_metadata_profile', selection.metadataProfile, missing),
    qualityNames: qualityNamesOf(db, arrType),
    missing,
    identities: identitiesOf(db, customFormats, qualityProfiles),
  };
}
