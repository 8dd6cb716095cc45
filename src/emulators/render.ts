/**
 * State -> API resources, serialized the way the apps do: camelCase, null properties omitted, ids of
 * nested RestResources omitted when 0, quality profile format items resolved against the current
 * custom formats (items of deleted formats are skipped, names are current).
 */
import type { LanguageResource } from '../domain/app-resources';
import type { AppFacts, ConfigFact } from './apps/facts';
import { sortLanguages } from './apps/specs';
import type { EmulatorState, StoredQualityProfile } from './state';

/** System.Text.Json with DefaultIgnoreCondition = WhenWritingNull, applied deeply. */
export function stripNulls<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item) => stripNulls(item)) as T;
  if (value && typeof value === 'object') {
    const result: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      if (item === null || item === undefined) continue;
      result[key] = stripNulls(item);
    }
    return result as T;
  }
  return value;
}

/** Nested RestResource ids (quality items, format items, album type items) are written only when non-zero. */
function stripZeroIds(items: unknown): unknown {
  if (!Array.isArray(items)) return items;
  return items.map((item) => {
    if (!item || typeof item !== 'object') return item;
    const copy: Record<string, unknown> = { ...(item as Record<string, unknown>) };
    if (copy.id === 0 || copy.id === undefined) delete copy.id;
    if (Array.isArray(copy.items)) copy.items = stripZeroIds(copy.items);
    return copy;
  });
}

export function renderCustomFormat(format: EmulatorState['customFormats'][number]) {
  return stripNulls(structuredClone(format));
}

export function renderCustomFormats(state: EmulatorState) {
  return state.customFormats.map(renderCustomFormat);
}

export function renderQualityProfile(facts: AppFacts, state: EmulatorState, profile: Omit<StoredQualityProfile, 'id'> & { id?: number }) {
  const formats = new Map(state.customFormats.map((format) => [format.id, format.name]));
  const resource: Record<string, unknown> = {
    id: profile.id,
    name: profile.name,
    upgradeAllowed: profile.upgradeAllowed,
    cutoff: profile.cutoff,
    items: stripZeroIds(structuredClone(profile.items)),
    minFormatScore: profile.minFormatScore,
    cutoffFormatScore: profile.cutoffFormatScore,
  };
  if (facts.hasMinUpgradeFormatScore) resource.minUpgradeFormatScore = profile.minUpgradeFormatScore ?? 0;
  resource.formatItems = profile.formatItems.filter((item) => formats.has(item.format)).map((item) => ({ format: item.format, name: formats.get(item.format), score: item.score }));
  if (facts.profileLanguage) resource.language = profile.language ? { ...profile.language } : null;
  if (!resource.id) delete resource.id;
  return stripNulls(resource);
}

export function renderQualityDefinitions(state: EmulatorState) {
  return [...state.qualityDefinitions].sort((a, b) => a.weight - b.weight).map((definition) => stripNulls(structuredClone(definition)));
}

export function renderDelayProfiles(state: EmulatorState) {
  return state.delayProfiles.map((profile) => stripNulls(structuredClone(profile)));
}

export function renderTags(state: EmulatorState) {
  return state.tags.map((tag) => stripNulls({ ...tag }));
}

export function renderMetadataProfiles(state: EmulatorState) {
  return state.metadataProfiles.map((profile) =>
    stripNulls({
      ...structuredClone(profile),
      primaryAlbumTypes: stripZeroIds(structuredClone(profile.primaryAlbumTypes)),
      secondaryAlbumTypes: stripZeroIds(structuredClone(profile.secondaryAlbumTypes)),
      releaseStatuses: stripZeroIds(structuredClone(profile.releaseStatuses)),
    }),
  );
}

/** A config resource: stored values over the defaults; unstored properties read as their default. */
export function renderConfig(fact: ConfigFact, stored: Record<string, unknown>) {
  const resource: Record<string, unknown> = { id: 1 };
  for (const key of Object.keys(fact.wire.props)) {
    if (key === 'id') continue;
    const value = stored[key];
    if (fact.unstored?.includes(key)) {
      resource[key] = fact.defaults[key];
    } else if (fact.storage === 'configService') {
      // ConfigService.GetValue: a missing or empty stored value reads back as the default.
      resource[key] = value === undefined || value === null || value === '' ? fact.defaults[key] : value;
    } else {
      resource[key] = value === undefined ? fact.defaults[key] : value;
    }
  }
  return stripNulls(resource);
}

export function renderLanguages(facts: AppFacts): LanguageResource[] {
  const languages = facts.languageOrder === 'name' ? [...facts.languages].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)) : sortLanguages(facts.languages);
  return languages.map((language) => ({ id: language.id, name: language.name, nameLower: language.name.toLowerCase() }));
}
