/**
 * Guide entities in PCD's portable shape, for importing into a user layer:
 * - a TRaSH custom format (the apps' wire shape: specifications with implementation and fields)
 *   becomes a PCD custom format whose conditions carry the source's app family, with one regular
 *   expression per title, group or edition pattern;
 * - a TRaSH quality profile becomes a PCD quality profile (items keep the guide's order, most
 *   preferred first; app quality names become PCD canonical names) scored for the source's app
 *   family from a score set;
 * - a TRaSH quality size becomes the family's PCD quality definitions.
 */
import { toPcdArrType } from '../arr-types';
import { QUALITY_SEEDS, type CustomFormatCondition, type CustomFormatData, type QualityDefinitionsData, type QualityProfileData, type QualityProfileItem } from '../pcd';
import { BYTES_PER_GB, DEFAULT_SIZE_LIMITS, enumText, IMPLEMENTATIONS, UNBOUNDED_SIZE_GB, type ConditionType, type EnumKind } from '../sync/enums';
import { languageById } from '../app-resources/languages';
import type { RefGuideArrType } from './types';

const CONDITION_OF_IMPLEMENTATION = Object.fromEntries(Object.entries(IMPLEMENTATIONS).map(([type, impl]) => [impl, type as ConditionType])) as Record<string, ConditionType>;

const ENUM_KIND: Partial<Record<ConditionType, EnumKind>> = {
  source: 'source',
  resolution: 'resolution',
  quality_modifier: 'quality_modifier',
  release_type: 'release_type',
  indexer_flag: 'indexer_flag',
};

export interface GuideSpecification {
  name: string;
  implementation: string;
  negate: boolean;
  required: boolean;
  fields: Record<string, unknown>;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The specifications of a guide custom format; fields as an object (the guide's form) or the apps' [{name, value}] form. */
export function guideSpecifications(format: Record<string, unknown>): GuideSpecification[] {
  const specs = Array.isArray(format.specifications) ? format.specifications : [];
  return specs.filter(isObject).map((s) => {
    let fields: Record<string, unknown> = {};
    if (Array.isArray(s.fields)) {
      for (const f of s.fields) if (isObject(f) && typeof f.name === 'string') fields[f.name] = f.value;
    } else if (isObject(s.fields)) fields = { ...s.fields };
    return { name: String(s.name ?? ''), implementation: String(s.implementation ?? ''), negate: s.negate === true, required: s.required === true, fields };
  });
}

export interface PatternNeed {
  /** The name the guide gives the specification (the preferred regular expression name). */
  specName: string;
  pattern: string;
}

export type FormatConversion =
  | { ok: true; format: CustomFormatData; patterns: { name: string; pattern: string }[] }
  | { ok: false; reason: string };

/**
 * A guide custom format as PCD data. `regexName` picks the regular expression name of a pattern
 * (the caller knows which names the database already has); null refuses the format.
 */
export function guideFormatToPcd(
  format: Record<string, unknown>,
  arrType: RefGuideArrType,
  regexName: (need: PatternNeed) => string | null,
): FormatConversion {
  const name = typeof format.name === 'string' ? format.name.trim() : '';
  if (!name) return { ok: false, reason: 'the guide format has no name' };
  const conditions: CustomFormatCondition[] = [];
  const patterns: { name: string; pattern: string }[] = [];
  const names = new Set<string>();
  for (const spec of guideSpecifications(format)) {
    const type = CONDITION_OF_IMPLEMENTATION[spec.implementation];
    if (!type) return { ok: false, reason: `specification "${spec.name}" has an unknown implementation` };
    let conditionName = spec.name.trim() || type;
    for (let n = 2; names.has(conditionName); n++) conditionName = `${spec.name.trim() || type} (${n})`;
    names.add(conditionName);
    const base = { name: conditionName, arrType, negate: spec.negate, required: spec.required };
    const value = spec.fields.value;
    switch (type) {
      case 'release_title':
      case 'release_group':
      case 'edition': {
        if (typeof value !== 'string' || value === '') return { ok: false, reason: `specification "${spec.name}" has no pattern` };
        const regex = regexName({ specName: spec.name.trim() || conditionName, pattern: value });
        if (regex === null) return { ok: false, reason: `regular expression "${spec.name}" exists in the database with a different pattern` };
        if (!patterns.some((p) => p.name === regex)) patterns.push({ name: regex, pattern: value });
        conditions.push({ ...base, type, regularExpression: regex });
        break;
      }
      case 'language': {
        const language = typeof value === 'number' ? languageById(arrType, value) : undefined;
        if (!language) return { ok: false, reason: `specification "${spec.name}" names a language the app does not have` };
        conditions.push({ ...base, type, language: language.name, exceptLanguage: spec.fields.exceptLanguage === true });
        break;
      }
      case 'size': {
        const min = typeof spec.fields.min === 'number' ? spec.fields.min : 0;
        const max = typeof spec.fields.max === 'number' ? spec.fields.max : null;
        conditions.push({ ...base, type, minBytes: Math.round(min * BYTES_PER_GB), maxBytes: max === null || max >= UNBOUNDED_SIZE_GB ? null : Math.round(max * BYTES_PER_GB) });
        break;
      }
      case 'year': {
        const min = typeof spec.fields.min === 'number' ? spec.fields.min : null;
        const max = typeof spec.fields.max === 'number' ? spec.fields.max : null;
        conditions.push({ ...base, type, minYear: min, maxYear: max });
        break;
      }
      default: {
        const text = typeof value === 'number' ? enumText(ENUM_KIND[type]!, arrType, value) : null;
        if (text === null) return { ok: false, reason: `specification "${spec.name}" has a value the app does not have` };
        if (type === 'source') conditions.push({ ...base, type, source: text });
        else if (type === 'resolution') conditions.push({ ...base, type, resolution: text });
        else if (type === 'quality_modifier') conditions.push({ ...base, type, qualityModifier: text });
        else if (type === 'release_type') conditions.push({ ...base, type, releaseType: text });
        else conditions.push({ ...base, type: 'indexer_flag', flag: text });
      }
    }
  }
  if (conditions.length === 0) return { ok: false, reason: 'the guide format has no specifications' };
  const description = typeof format.trash_description === 'string' ? format.trash_description : null;
  return {
    ok: true,
    format: { name, description, includeInRename: format.includeCustomFormatWhenRenaming === true, tags: [], conditions, tests: [] },
    patterns,
  };
}

/** PCD canonical quality name of an app's quality name, or null. */
export function canonicalQuality(arrType: RefGuideArrType, apiName: string): string | null {
  const app = toPcdArrType(arrType);
  return QUALITY_SEEDS.find((q) => q.api[app] === apiName)?.name ?? QUALITY_SEEDS.find((q) => q.name === apiName && q.api[app])?.name ?? null;
}

export type ProfileConversion = { ok: true; profile: QualityProfileData } | { ok: false; reason: string };

/** A guide quality profile as PCD data, scored with `scores` (custom format name -> score) for the source's family. */
export function guideProfileToPcd(profile: Record<string, unknown>, arrType: RefGuideArrType, scores: Record<string, number>): ProfileConversion {
  const name = typeof profile.name === 'string' ? profile.name.trim() : '';
  if (!name) return { ok: false, reason: 'the guide profile has no name' };
  const cutoff = typeof profile.cutoff === 'string' ? profile.cutoff : null;
  const qualities: QualityProfileItem[] = [];
  for (const item of Array.isArray(profile.items) ? profile.items.filter(isObject) : []) {
    const itemName = String(item.name ?? '');
    const enabled = item.allowed === true;
    if (Array.isArray(item.items)) {
      const members: string[] = [];
      for (const member of item.items) {
        const canonical = canonicalQuality(arrType, String(member));
        if (!canonical) return { ok: false, reason: `quality "${String(member)}" is not a quality of the app` };
        members.push(canonical);
      }
      qualities.push({ type: 'group', name: itemName, enabled, upgradeUntil: itemName === cutoff, members });
    } else {
      const canonical = canonicalQuality(arrType, itemName);
      if (!canonical) return { ok: false, reason: `quality "${itemName}" is not a quality of the app` };
      qualities.push({ type: 'quality', name: canonical, enabled, upgradeUntil: itemName === cutoff });
    }
  }
  const int = (v: unknown, fallback: number) => (typeof v === 'number' && Number.isInteger(v) ? v : fallback);
  const scored = Object.entries(scores)
    .map(([format, score]) => ({ name: format, score: Math.round(score) }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return {
    ok: true,
    profile: {
      name,
      description: typeof profile.trash_description === 'string' ? profile.trash_description : null,
      upgradesAllowed: profile.upgradeAllowed === true,
      minimumCustomFormatScore: int(profile.minFormatScore, 0),
      upgradeUntilScore: int(profile.cutoffFormatScore, 0),
      upgradeScoreIncrement: Math.max(1, int(profile.minUpgradeFormatScore, 1)),
      tags: [],
      languages: typeof profile.language === 'string' && profile.language ? [{ name: profile.language, type: 'simple' }] : [],
      qualities,
      customFormats: { all: [], movie_app: arrType === 'movie_app' ? scored : [], series_app: arrType === 'series_app' ? scored : [], music_app: [] },
    },
  };
}

export type QualitySizeConversion = { ok: true; definitions: QualityDefinitionsData } | { ok: false; reason: string };

/**
 * A guide quality size (min, preferred, max per app quality name) as the family's PCD quality
 * definitions, named `name`. A max at the app's size limit is the guide's "unlimited" (its docs
 * display the limit for it), so it becomes no limit (0), which the sync sends as null.
 * `preferredRatio` (0..1, as Recyclarr's quality_definition.preferred_ratio) puts each preferred
 * size that far between its min (0) and its max capped at the limit (1), rounded to 0.1 half to
 * even, instead of the guide's.
 */
export function guideQualitySizeToPcd(size: Record<string, unknown>, arrType: RefGuideArrType, name: string, preferredRatio?: number): QualitySizeConversion {
  const entries: QualityDefinitionsData['entries'] = [];
  const limit = DEFAULT_SIZE_LIMITS[arrType]!.max;
  for (const item of Array.isArray(size.qualities) ? size.qualities.filter(isObject) : []) {
    const quality = canonicalQuality(arrType, String(item.quality ?? ''));
    if (!quality) return { ok: false, reason: `quality "${String(item.quality)}" is not a quality of the app` };
    const [min, max, preferred] = [item.min, item.max, item.preferred].map((v) => (typeof v === 'number' && v >= 0 ? v : null));
    if (min === null || max === null || preferred === null) return { ok: false, reason: `quality "${String(item.quality)}" lacks a min, preferred or max size` };
    const ratioed = preferredRatio === undefined ? preferred : roundTenthHalfEven(min + (Math.min(max, limit) - min) * preferredRatio);
    entries.push({ quality, minSize: min, maxSize: max >= limit ? 0 : max, preferredSize: ratioed });
  }
  if (entries.length === 0) return { ok: false, reason: 'the guide quality size lists no quality' };
  return { ok: true, definitions: { name, entries } };
}

/** Rounded to one decimal, a midpoint to the even tenth (decimal arithmetic's default rounding). */
function roundTenthHalfEven(value: number): number {
  const tenths = value * 10;
  const floor = Math.floor(tenths);
  const rest = tenths - floor;
  const rounded = Math.abs(rest - 0.5) < 1e-9 ? (floor % 2 === 0 ? floor : floor + 1) : Math.round(tenths);
  return rounded / 10;
}
