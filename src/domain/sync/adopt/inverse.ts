/**
 * The inverse of the sync transform (pure): an app's live state -> PCD portable entities that the
 * transform turns back into exactly that state. Nothing is altered to make it fit: what PCD cannot
 * express as the app holds it (a pattern arrgo's .NET translator refuses, a condition type or value
 * PCD has no name for, a quality or language the database lacks) is skipped with its reason.
 *
 * Regular expressions are not named here: a condition carries its pattern, and the adoption plan
 * (plan.ts) reuses a database regex with the identical pattern or creates one.
 */
import type { ArrType } from '../../arr-types';
import type { CustomFormatCondition, CustomFormatData, DelayProfileData, MediaSettingsData, MetadataProfileData, QualityDefinitionsData, QualityProfileData, QualityProfileItem } from '../../pcd';
import { translateDotnetRegex } from '../../evaluation/regex/translate';
import { BYTES_PER_GB, enumText, IMPLEMENTATIONS, LIDARR_METADATA_TYPES, RESERVED_METADATA_PROFILE, UNBOUNDED_SIZE_GB, YEAR_BOUNDS, type ConditionType, type EnumKind } from '../enums';
import type { NamingData } from '../source';
import type { LiveState, SyncSection } from '../types';
import type { PortableType } from '../../pcd';

/** Something of the app that is not adopted, and why. */
export interface AdoptionSkip {
  entityType: PortableType;
  name: string;
  reason: string;
}

/** A custom format as adopted: its conditions' patterns by condition name (regex names are assigned by the plan). */
export interface AdoptedCustomFormat {
  data: CustomFormatData;
  /** Condition name -> .NET pattern, for release title, release group and edition conditions. */
  patterns: Record<string, string>;
}

export interface AdoptedState {
  arrType: ArrType;
  customFormats: AdoptedCustomFormat[];
  qualityProfiles: QualityProfileData[];
  delayProfile: DelayProfileData | null;
  naming: NamingData | null;
  mediaSettings: MediaSettingsData | null;
  qualityDefinitions: QualityDefinitionsData | null;
  metadataProfiles: MetadataProfileData[];
  skipped: AdoptionSkip[];
}

export interface InverseInput {
  arrType: ArrType;
  live: LiveState;
  /** PCD canonical quality name -> the app's API name (quality_api_mappings of the database). */
  qualityNames: Record<string, string>;
  /** Language names the database knows (its languages table). */
  languages: readonly string[];
  /** Name of the settings entities (delay profile, naming, media settings, quality definitions). */
  settingsName: string;
  sections: readonly SyncSection[];
}

const MAX_NAME = 100;
const IMPLEMENTATION_TYPES = new Map<string, ConditionType>(Object.entries(IMPLEMENTATIONS).map(([type, impl]) => [impl, type as ConditionType]));
const ENUM_KINDS: Partial<Record<ConditionType, EnumKind>> = {
  source: 'source',
  resolution: 'resolution',
  quality_modifier: 'quality_modifier',
  release_type: 'release_type',
  indexer_flag: 'indexer_flag',
};
const ENUM_FIELDS: Record<EnumKind, string> = {
  source: 'source',
  resolution: 'resolution',
  quality_modifier: 'qualityModifier',
  release_type: 'releaseType',
  indexer_flag: 'flag',
};

/** Why a name cannot be a PCD entity name (PCD trims names and holds at most 100 characters); null when it can. */
export function nameProblem(name: string): string | null {
  if (name.trim() === '') return 'the name is empty';
  if (name.trim() !== name) return 'the name starts or ends with a space, which PCD names cannot';
  if (name.length > MAX_NAME) return `the name is longer than ${MAX_NAME} characters`;
  return null;
}

function fieldValue(fields: { name: string; value?: unknown }[], name: string): unknown {
  return fields.find((f) => f.name === name)?.value;
}

const sameText = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

type ConditionResult = { condition: CustomFormatCondition; pattern?: string } | { reason: string };

function invertCondition(
  spec: { name?: string | null; implementation: string; negate?: boolean; required?: boolean; fields: { name: string; value?: unknown }[] },
  input: InverseInput,
): ConditionResult {
  const name = spec.name ?? '';
  const type = IMPLEMENTATION_TYPES.get(spec.implementation);
  if (!type) return { reason: `condition "${name}": ${spec.implementation} has no PCD condition type` };
  const base = { name, arrType: input.arrType, negate: spec.negate === true, required: spec.required === true };
  const value = fieldValue(spec.fields, 'value');
  switch (type) {
    case 'release_title':
    case 'release_group':
    case 'edition': {
      const pattern = typeof value === 'string' ? value : '';
      if (pattern.trim() === '') return { reason: `condition "${name}": the pattern is empty` };
      const translated = translateDotnetRegex(pattern);
      if (!translated.ok) return { reason: `condition "${name}": arrgo cannot evaluate the pattern (${translated.reason})` };
      return { condition: { ...base, type, regularExpression: '' } as CustomFormatCondition, pattern };
    }
    case 'language': {
      const language = input.live.languages?.find((l) => l.id === value);
      if (!language) return { reason: `condition "${name}": the app's language ${String(value)} is unknown` };
      const known = input.languages.find((l) => sameText(l, language.name));
      if (!known) return { reason: `condition "${name}": the database has no language "${language.name}"` };
      return { condition: { ...base, type, language: known, exceptLanguage: fieldValue(spec.fields, 'exceptLanguage') === true } };
    }
    case 'size': {
      const min = Number(fieldValue(spec.fields, 'min') ?? 0);
      const max = Number(fieldValue(spec.fields, 'max') ?? UNBOUNDED_SIZE_GB);
      if (!Number.isFinite(min) || !Number.isFinite(max) || min < 0) return { reason: `condition "${name}": the size bounds are not numbers` };
      return {
        condition: { ...base, type, minBytes: min === 0 ? null : Math.round(min * BYTES_PER_GB), maxBytes: max >= UNBOUNDED_SIZE_GB ? null : Math.round(max * BYTES_PER_GB) },
      };
    }
    case 'year': {
      const min = Number(fieldValue(spec.fields, 'min') ?? YEAR_BOUNDS.min);
      const max = Number(fieldValue(spec.fields, 'max') ?? YEAR_BOUNDS.max);
      if (!Number.isInteger(min) || !Number.isInteger(max) || min < 0 || max > YEAR_BOUNDS.max) return { reason: `condition "${name}": the years are outside 0..9999` };
      return { condition: { ...base, type, minYear: min <= YEAR_BOUNDS.min ? null : min, maxYear: max === YEAR_BOUNDS.max ? null : max } };
    }
    default: {
      const kind = ENUM_KINDS[type]!;
      const text = typeof value === 'number' ? enumText(kind, input.arrType, value) : null;
      if (text === null) return { reason: `condition "${name}": the value ${String(value)} has no PCD name` };
      return { condition: { ...base, type, [ENUM_FIELDS[kind]]: text } as CustomFormatCondition };
    }
  }
}

function invertCustomFormat(format: NonNullable<LiveState['customFormats']>[number], input: InverseInput): AdoptedCustomFormat | string {
  const problem = nameProblem(format.name);
  if (problem) return problem;
  const conditions: CustomFormatCondition[] = [];
  const patterns: Record<string, string> = {};
  const seen = new Set<string>();
  for (const spec of format.specifications) {
    const specName = spec.name ?? '';
    if (nameProblem(specName)) return `condition "${specName}": ${nameProblem(specName)}`;
    if (seen.has(specName)) return `two conditions are named "${specName}", which PCD cannot hold`;
    seen.add(specName);
    const result = invertCondition(spec, input);
    if ('reason' in result) return result.reason;
    conditions.push(result.condition);
    if (result.pattern !== undefined) patterns[specName] = result.pattern;
  }
  if (conditions.length === 0) return 'it has no condition';
  return {
    data: { name: format.name, description: null, includeInRename: format.includeCustomFormatWhenRenaming === true, tags: [], conditions, tests: [] },
    patterns,
  };
}

function invertQualityProfile(
  profile: NonNullable<LiveState['qualityProfiles']>[number],
  input: InverseInput,
  formatNames: ReadonlyMap<number, string>,
  skippedFormats: ReadonlySet<string>,
  skipped: AdoptionSkip[],
): QualityProfileData | string {
  const problem = nameProblem(profile.name);
  if (problem) return problem;
  const canonical = canonicalQualities(input.qualityNames);
  const qualities: QualityProfileItem[] = [];
  // The apps list items lowest first; PCD lists the most preferred first.
  for (const item of [...profile.items].reverse()) {
    if (item.quality) {
      const name = canonical.get(item.quality.name);
      if (!name) {
        if (item.allowed) return `the database maps no quality to the app's "${item.quality.name}"`;
        continue;
      }
      qualities.push({ type: 'quality', name, enabled: item.allowed, upgradeUntil: item.quality.id === profile.cutoff });
      continue;
    }
    const groupName = item.name ?? '';
    if (nameProblem(groupName)) return `group "${groupName}": ${nameProblem(groupName)}`;
    const members: string[] = [];
    for (const member of [...item.items].reverse()) {
      const name = member.quality ? canonical.get(member.quality.name) : undefined;
      if (!name) return `group "${groupName}": the database maps no quality to the app's "${member.quality?.name ?? member.name ?? ''}"`;
      members.push(name);
    }
    qualities.push({ type: 'group', name: groupName, enabled: item.allowed, upgradeUntil: item.id === profile.cutoff, members });
  }

  const languages: QualityProfileData['languages'] = [];
  if (input.arrType === 'movie_app' && profile.language && profile.language.name !== 'Any') {
    const known = input.languages.find((l) => sameText(l, profile.language!.name));
    if (!known) return `the database has no language "${profile.language.name}"`;
    languages.push({ name: known, type: 'simple' });
  }

  const scores: { name: string; score: number }[] = [];
  for (const item of profile.formatItems) {
    const format = formatNames.get(item.format) ?? item.name ?? null;
    if (format === null || item.score === 0) continue;
    if (skippedFormats.has(format)) {
      skipped.push({ entityType: 'quality_profile', name: profile.name, reason: `score ${item.score} of custom format "${format}" not adopted: the format is skipped` });
      continue;
    }
    scores.push({ name: format, score: item.score });
  }
  scores.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const customFormats: QualityProfileData['customFormats'] = { all: [], movie_app: [], series_app: [], music_app: [] };
  customFormats[input.arrType] = scores;

  return {
    name: profile.name,
    description: null,
    upgradesAllowed: profile.upgradeAllowed,
    minimumCustomFormatScore: profile.minFormatScore,
    upgradeUntilScore: profile.cutoffFormatScore,
    upgradeScoreIncrement: profile.minUpgradeFormatScore ?? 1,
    tags: [],
    languages,
    qualities,
    customFormats,
  };
}

/** The app's quality name -> the PCD canonical name (the first canonical name mapped to it, by name). */
export function canonicalQualities(qualityNames: Record<string, string>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [canonical, api] of Object.entries(qualityNames).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (!out.has(api)) out.set(api, canonical);
  }
  return out;
}

function invertDelayProfile(live: LiveState, name: string): DelayProfileData | null {
  const p = live.delayProfiles?.find((d) => d.id === 1);
  if (!p) return null;
  const protocol: DelayProfileData['preferredProtocol'] = !p.enableTorrent ? 'only_usenet' : !p.enableUsenet ? 'only_torrent' : p.preferredProtocol === 'usenet' ? 'prefer_usenet' : 'prefer_torrent';
  return {
    name,
    preferredProtocol: protocol,
    usenetDelay: protocol === 'only_torrent' ? null : p.usenetDelay,
    torrentDelay: protocol === 'only_usenet' ? null : p.torrentDelay,
    bypassIfHighestQuality: p.bypassIfHighestQuality,
    bypassIfAboveCustomFormatScore: p.bypassIfAboveCustomFormatScore,
    minimumCustomFormatScore: p.bypassIfAboveCustomFormatScore ? p.minimumCustomFormatScore : null,
  };
}

function invertNaming(arrType: ArrType, naming: Record<string, unknown>, name: string): NamingData {
  const text = (key: string) => String(naming[key] ?? '');
  const bool = (key: string) => naming[key] === true;
  const int = (key: string) => Number(naming[key] ?? 0);
  switch (arrType) {
    case 'movie_app':
      return {
        name,
        rename: bool('renameMovies'),
        movieFormat: text('standardMovieFormat'),
        movieFolderFormat: text('movieFolderFormat'),
        replaceIllegalCharacters: bool('replaceIllegalCharacters'),
        colonReplacementFormat: text('colonReplacementFormat') as 'delete',
      };
    case 'series_app':
      return {
        name,
        rename: bool('renameEpisodes'),
        standardEpisodeFormat: text('standardEpisodeFormat'),
        dailyEpisodeFormat: text('dailyEpisodeFormat'),
        animeEpisodeFormat: text('animeEpisodeFormat'),
        seriesFolderFormat: text('seriesFolderFormat'),
        seasonFolderFormat: text('seasonFolderFormat'),
        replaceIllegalCharacters: bool('replaceIllegalCharacters'),
        colonReplacementFormat: int('colonReplacementFormat'),
        customColonReplacementFormat: typeof naming.customColonReplacementFormat === 'string' && naming.customColonReplacementFormat !== '' ? naming.customColonReplacementFormat : null,
        multiEpisodeStyle: int('multiEpisodeStyle'),
      };
    case 'music_app':
      return {
        name,
        rename: bool('renameTracks'),
        standardTrackFormat: text('standardTrackFormat'),
        multiDiscTrackFormat: text('multiDiscTrackFormat'),
        artistFolderFormat: text('artistFolderFormat'),
        replaceIllegalCharacters: bool('replaceIllegalCharacters'),
        colonReplacementFormat: int('colonReplacementFormat'),
      };
  }
}

const PROPERS: Record<string, MediaSettingsData['propersRepacks']> = {
  doNotPrefer: 'doNotPrefer',
  preferAndUpgrade: 'preferAndUpgrade',
  doNotUpgrade: 'doNotUpgradeAutomatically',
};

function invertMediaSettings(media: Record<string, unknown>, name: string): MediaSettingsData | string {
  const propers = PROPERS[String(media.downloadPropersAndRepacks)];
  if (!propers) return `propers and repacks "${String(media.downloadPropersAndRepacks)}" has no PCD name`;
  return { name, propersRepacks: propers, enableMediaInfo: media.enableMediaInfo === true };
}

function invertQualityDefinitions(input: InverseInput, skipped: AdoptionSkip[]): QualityDefinitionsData | null {
  const type = `${input.arrType}_quality_definitions` as PortableType;
  const canonical = canonicalQualities(input.qualityNames);
  const entries: QualityDefinitionsData['entries'] = [];
  const unlimited: string[] = [];
  for (const d of input.live.qualityDefinitions ?? []) {
    const quality = canonical.get(d.quality.name);
    if (!quality) {
      skipped.push({ entityType: type, name: input.settingsName, reason: `quality "${d.quality.name}": the database maps no quality to it` });
      continue;
    }
    if (entries.some((e) => e.quality === quality)) continue;
    // A maximum without limit is null on the app and 0 in PCD; a preferred size without limit has no PCD value.
    if (d.preferredSize === null || d.preferredSize === undefined) {
      unlimited.push(d.quality.name);
      continue;
    }
    entries.push({ quality, minSize: d.minSize ?? 0, maxSize: d.maxSize ?? 0, preferredSize: d.preferredSize });
  }
  if (unlimited.length > 0) {
    skipped.push({ entityType: type, name: input.settingsName, reason: `left out (PCD has no "no limit" preferred size): ${unlimited.join(', ')}` });
  }
  return entries.length === 0 ? null : { name: input.settingsName, entries };
}

function invertMetadataProfile(profile: NonNullable<LiveState['metadataProfiles']>[number]): MetadataProfileData | string {
  const problem = nameProblem(profile.name);
  if (problem) return problem;
  const list = (field: keyof typeof LIDARR_METADATA_TYPES, items: { ref: { name: string }; allowed: boolean }[]) => {
    const known = new Set<string>(LIDARR_METADATA_TYPES[field].map(([, n]) => n));
    const unknown = items.find((i) => !known.has(i.ref.name));
    if (unknown) return `"${unknown.ref.name}" is not a Lidarr ${field} PCD knows`;
    return items.map((i) => ({ name: i.ref.name, allowed: i.allowed }));
  };
  const primary = list('primaryAlbumTypes', profile.primaryAlbumTypes.map((i) => ({ ref: i.albumType, allowed: i.allowed })));
  const secondary = list('secondaryAlbumTypes', profile.secondaryAlbumTypes.map((i) => ({ ref: i.albumType, allowed: i.allowed })));
  const statuses = list('releaseStatuses', profile.releaseStatuses.map((i) => ({ ref: i.releaseStatus, allowed: i.allowed })));
  for (const l of [primary, secondary, statuses]) if (typeof l === 'string') return l;
  return {
    name: profile.name,
    description: null,
    primaryAlbumTypes: primary as MetadataProfileData['primaryAlbumTypes'],
    secondaryAlbumTypes: secondary as MetadataProfileData['secondaryAlbumTypes'],
    releaseStatuses: statuses as MetadataProfileData['releaseStatuses'],
  };
}

/** The app's live state as PCD portable entities, with what cannot be adopted as it is. */
export function invertLiveState(input: InverseInput): AdoptedState {
  const { arrType, live } = input;
  const has = (s: SyncSection) => input.sections.includes(s);
  const out: AdoptedState = {
    arrType,
    customFormats: [],
    qualityProfiles: [],
    delayProfile: null,
    naming: null,
    mediaSettings: null,
    qualityDefinitions: null,
    metadataProfiles: [],
    skipped: [],
  };
  if (has('qualityProfiles')) {
    const skippedFormats = new Set<string>();
    for (const format of live.customFormats ?? []) {
      const adopted = invertCustomFormat(format, input);
      if (typeof adopted === 'string') {
        skippedFormats.add(format.name);
        out.skipped.push({ entityType: 'custom_format', name: format.name, reason: adopted });
      } else out.customFormats.push(adopted);
    }
    const formatNames = new Map((live.customFormats ?? []).map((f) => [f.id, f.name]));
    for (const profile of live.qualityProfiles ?? []) {
      const adopted = invertQualityProfile(profile, input, formatNames, skippedFormats, out.skipped);
      if (typeof adopted === 'string') out.skipped.push({ entityType: 'quality_profile', name: profile.name, reason: adopted });
      else out.qualityProfiles.push(adopted);
    }
  }
  if (has('delayProfiles')) out.delayProfile = invertDelayProfile(live, input.settingsName);
  if (has('mediaManagement')) {
    if (live.naming) out.naming = invertNaming(arrType, live.naming, input.settingsName);
    if (live.mediaManagement) {
      const media = invertMediaSettings(live.mediaManagement, input.settingsName);
      if (typeof media === 'string') out.skipped.push({ entityType: `${arrType}_media_settings` as PortableType, name: input.settingsName, reason: media });
      else out.mediaSettings = media;
    }
    out.qualityDefinitions = invertQualityDefinitions(input, out.skipped);
  }
  if (has('metadataProfiles') && arrType === 'music_app') {
    for (const profile of live.metadataProfiles ?? []) {
      if (profile.name === RESERVED_METADATA_PROFILE) continue;
      const adopted = invertMetadataProfile(profile);
      if (typeof adopted === 'string') out.skipped.push({ entityType: 'music_app_metadata_profile', name: profile.name, reason: adopted });
      else out.metadataProfiles.push(adopted);
    }
  }
  return out;
}
