/**
 * Comparable views: the fields arrgo manages, projected the same way from a desired payload and
 * from the live resource, so the generic diff engine (src/domain/diff) reports only what a sync
 * would change. App-assigned ids are replaced by names (a profile's cutoff names its item, format
 * items are keyed by the custom format's name), ordering the app ignores is normalized
 * (specifications, group members, metadata types), and values the app reads back differently
 * (null and absent, empty strings) are normalized.
 *
 * Field paths of a SyncChange are paths into these views:
 * - custom format: `includeCustomFormatWhenRenaming`, `specifications.<condition>.negate|required|implementation`,
 *   `specifications.<condition>.fields.<field>` (e.g. `fields.value`, `fields.min`)
 * - quality profile: `upgradeAllowed`, `cutoff` (item name), `minFormatScore`, `cutoffFormatScore`,
 *   `minUpgradeFormatScore`, `language` (name), `items` (order, as name lists), `items.<item>.allowed`,
 *   `items.<group>.qualities`, `formatItems.<custom format>` (non-zero scores; `removed` = back to 0)
 * - delay profile, naming, media settings: the app's property names
 * - quality definition: `minSize`, `maxSize`, `preferredSize` (null = no limit)
 * - metadata profile: `primaryAlbumTypes.<type>`, `secondaryAlbumTypes.<type>`, `releaseStatuses.<status>` (allowed flags)
 */
import { diff, type DiffOptions } from '../diff';
import type { MetadataProfileResource, QualityProfileQualityItemPayload } from '../../clients/types';
import type { AppQuality, NamedId } from './types';

// ---------------------------------------------------------------- custom formats

export interface CustomFormatView {
  includeCustomFormatWhenRenaming: boolean;
  specifications: { name: string; implementation: string; negate: boolean; required: boolean; fields: Record<string, unknown> }[];
}

interface CustomFormatLike {
  includeCustomFormatWhenRenaming?: boolean | null;
  specifications: { name?: string | null; implementation: string; negate?: boolean; required?: boolean; fields: { name: string; value?: unknown }[] }[];
}

export function customFormatView(format: CustomFormatLike): CustomFormatView {
  return {
    includeCustomFormatWhenRenaming: format.includeCustomFormatWhenRenaming === true,
    specifications: format.specifications.map((s) => ({
      name: s.name ?? '',
      implementation: s.implementation,
      negate: s.negate === true,
      required: s.required === true,
      fields: Object.fromEntries(s.fields.map((f) => [f.name, f.value ?? null])),
    })),
  };
}

/** Only the specification fields the desired side sets are compared (the app may add others). */
export function restrictCustomFormatView(live: CustomFormatView, desired: CustomFormatView): CustomFormatView {
  const wanted = new Map(desired.specifications.map((s) => [s.name, Object.keys(s.fields)]));
  return {
    ...live,
    specifications: live.specifications.map((s) => {
      const keys = wanted.get(s.name);
      if (!keys) return s;
      return { ...s, fields: Object.fromEntries(keys.filter((k) => k in s.fields).map((k) => [k, s.fields[k]])) };
    }),
  };
}

export const CUSTOM_FORMAT_DIFF: DiffOptions = { arrays: { specifications: { key: 'name' } }, defaultKey: null };

// ---------------------------------------------------------------- quality profiles

export interface QualityProfileView {
  upgradeAllowed: boolean;
  cutoff: string | null;
  minFormatScore: number;
  cutoffFormatScore: number;
  minUpgradeFormatScore?: number;
  language?: string | null;
  items: { name: string; allowed: boolean; qualities?: string[] }[];
  formatItems: Record<string, number>;
}

interface ProfileLike {
  upgradeAllowed: boolean;
  cutoff: number;
  items: QualityProfileQualityItemPayload<AppQuality>[];
  minFormatScore: number;
  cutoffFormatScore: number;
  minUpgradeFormatScore?: number;
  language?: NamedId | null;
}

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function itemName(item: QualityProfileQualityItemPayload<AppQuality>): string {
  return item.quality ? item.quality.name : (item.name ?? '');
}

/**
 * @param scores non-zero scores by custom format name (see formatScoresOf)
 * @param options.minUpgrade whether the app has minUpgradeFormatScore; options.language whether profiles carry a language
 */
export function qualityProfileView(profile: ProfileLike, scores: Record<string, number>, options: { minUpgrade: boolean; language: boolean }): QualityProfileView {
  const cutoffItem = profile.items.find((item) => (item.quality ? item.quality.id === profile.cutoff : item.id === profile.cutoff));
  const view: QualityProfileView = {
    upgradeAllowed: profile.upgradeAllowed,
    cutoff: cutoffItem ? itemName(cutoffItem) : null,
    minFormatScore: profile.minFormatScore,
    cutoffFormatScore: profile.cutoffFormatScore,
    items: profile.items.map((item) =>
      item.quality
        ? { name: item.quality.name, allowed: item.allowed }
        : { name: item.name ?? '', allowed: item.allowed, qualities: (item.items ?? []).map(itemName).sort(byName) },
    ),
    formatItems: Object.fromEntries(Object.entries(scores).filter(([, s]) => s !== 0).sort(([a], [b]) => byName(a, b))),
  };
  if (options.minUpgrade) view.minUpgradeFormatScore = profile.minUpgradeFormatScore ?? 0;
  if (options.language) view.language = profile.language?.name ?? null;
  return view;
}

/** Non-zero scores of a live profile by custom format name (ids resolved through the live formats). */
export function formatScoresOf(formatItems: { format: number; name?: string | null; score: number }[], formats: NamedId[]): Record<string, number> {
  const names = new Map(formats.map((f) => [f.id, f.name]));
  const out: Record<string, number> = {};
  for (const item of formatItems) {
    const name = names.get(item.format) ?? item.name ?? undefined;
    if (name === undefined || item.score === 0) continue;
    out[name] = item.score;
  }
  return out;
}

export const QUALITY_PROFILE_DIFF: DiffOptions = {
  arrays: { items: { key: 'name', ordered: true }, 'items.*.qualities': { key: null } },
  defaultKey: null,
};

// ---------------------------------------------------------------- config-like resources

/**
 * The managed fields of a config resource (naming, media management, delay profile): the keys of
 * `desired`, read from `live`; an absent or null live string reads as '' (the apps omit nulls and
 * store empty strings), any other absent value as null.
 */
export function settingsView(live: Record<string, unknown>, desired: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, want] of Object.entries(desired)) {
    const value = live[key];
    out[key] = value === undefined || value === null ? (typeof want === 'string' ? '' : null) : value;
  }
  return out;
}

export const SETTINGS_DIFF: DiffOptions = { defaultKey: null };

// ---------------------------------------------------------------- quality definitions

export interface QualityDefinitionView {
  minSize: number | null;
  maxSize: number | null;
  preferredSize: number | null;
}

export function qualityDefinitionView(d: { minSize?: number | null; maxSize?: number | null; preferredSize?: number | null }): QualityDefinitionView {
  return { minSize: d.minSize ?? null, maxSize: d.maxSize ?? null, preferredSize: d.preferredSize ?? null };
}

// ---------------------------------------------------------------- metadata profiles

export interface MetadataProfileView {
  primaryAlbumTypes: Record<string, boolean>;
  secondaryAlbumTypes: Record<string, boolean>;
  releaseStatuses: Record<string, boolean>;
}

type MetadataLike = Pick<MetadataProfileResource, 'primaryAlbumTypes' | 'secondaryAlbumTypes' | 'releaseStatuses'>;

export function metadataProfileView(profile: MetadataLike): MetadataProfileView {
  const map = (items: { name: string; allowed: boolean }[]) =>
    Object.fromEntries([...items].sort((a, b) => byName(a.name, b.name)).map((i) => [i.name, i.allowed]));
  return {
    primaryAlbumTypes: map(profile.primaryAlbumTypes.map((i) => ({ name: i.albumType.name, allowed: i.allowed }))),
    secondaryAlbumTypes: map(profile.secondaryAlbumTypes.map((i) => ({ name: i.albumType.name, allowed: i.allowed }))),
    releaseStatuses: map(profile.releaseStatuses.map((i) => ({ name: i.releaseStatus.name, allowed: i.allowed }))),
  };
}

/** True when a custom format on the app already holds everything the payload would write. */
export function customFormatHolds(live: CustomFormatLike, payload: CustomFormatLike): boolean {
  const want = customFormatView(payload);
  return diff(restrictCustomFormatView(customFormatView(live), want), want, CUSTOM_FORMAT_DIFF).length === 0;
}
