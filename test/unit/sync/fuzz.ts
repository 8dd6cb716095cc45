/**
 * Seeded generator of valid PCD content (what a replayed database may hold) for property-style
 * transform checks: custom formats with every condition type and odd values, quality profiles
 * with random qualities and groups (one-member groups, qualities other apps have), scores in every
 * scope, delay profiles, quality definitions and metadata profiles.
 */
import { toPcdArrType, type ArrType } from '../../../src/domain/arr-types';
import {
  LANGUAGE_SEEDS,
  QUALITY_SEEDS,
  validatePortableShape,
  type CustomFormatCondition,
  type CustomFormatData,
  type DelayProfileData,
  type MetadataProfileData,
  type QualityDefinitionsData,
  type QualityProfileData,
  type QualityProfileItem,
} from '../../../src/domain/pcd';
import type { SyncSource } from '../../../src/domain/sync';
import { rng } from '../../helpers/seeded-random';

export class Gen {
  constructor(readonly next: () => number) {}
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  bool(p = 0.5): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }
  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }
  subset<T>(items: readonly T[], max = items.length): T[] {
    return this.shuffle(items).slice(0, this.int(0, Math.min(max, items.length)));
  }
}

const PATTERNS: Record<string, string> = { r0: '\\bHDR\\b', r1: '^(Group)$', r2: '\\b(Director)\\b', r3: '[xh]\\.?265', r4: 'Atmos' };
const SOURCES = ['cam', 'telesync', 'telecine', 'workprint', 'dvd', 'television', 'television_raw', 'web_dl', 'webrip', 'bluray', 'bluray_raw', 'unknown', 'bogus'];
const RESOLUTIONS = ['360p', '480p', '540p', '576p', '720p', '1080p', '2160p', 'unknown', '999p'];
const MODIFIERS = ['remux', 'regional', 'screener', 'rawhd', 'brdisk', 'none', 'bogus'];
const RELEASE_TYPES = ['single_episode', 'multi_episode', 'season_pack', 'unknown', 'bogus'];
const FLAGS = ['freeleech', 'halfleech', 'double_upload', 'internal', 'scene', 'freeleech75', 'freeleech25', 'nuked', 'ptp_golden', 'bogus'];
const LANGUAGES = [...LANGUAGE_SEEDS, 'Any', 'Original', 'Klingon'];
/** PCD condition types and the families PCD lets them be scoped to (besides "all"). */
const CONDITION_FAMILIES: Record<CustomFormatCondition['type'], ArrType[]> = {
  release_title: ['movie_app', 'series_app', 'music_app'],
  release_group: ['movie_app', 'series_app', 'music_app'],
  edition: ['movie_app'],
  language: ['movie_app', 'series_app'],
  indexer_flag: ['movie_app', 'series_app'],
  source: ['movie_app', 'series_app'],
  resolution: ['movie_app', 'series_app'],
  quality_modifier: ['movie_app'],
  size: ['movie_app', 'series_app', 'music_app'],
  release_type: ['series_app'],
  year: ['movie_app'],
};

function condition(g: Gen, name: string): CustomFormatCondition {
  const type = g.pick(Object.keys(CONDITION_FAMILIES) as CustomFormatCondition['type'][]);
  const arrType = g.bool(0.5) ? 'all' : g.pick(CONDITION_FAMILIES[type]);
  const base = { name, arrType, negate: g.bool(0.3), required: g.bool(0.5) } as const;
  switch (type) {
    case 'release_title':
    case 'release_group':
    case 'edition':
      return { ...base, type, regularExpression: g.bool(0.9) ? g.pick(Object.keys(PATTERNS)) : 'missing-regex' };
    case 'language':
      return { ...base, type, language: g.pick(LANGUAGES), exceptLanguage: g.bool() };
    case 'indexer_flag':
      return { ...base, type, flag: g.pick(FLAGS) };
    case 'source':
      return { ...base, type, source: g.pick(SOURCES) };
    case 'resolution':
      return { ...base, type, resolution: g.pick(RESOLUTIONS) };
    case 'quality_modifier':
      return { ...base, type, qualityModifier: g.pick(MODIFIERS) };
    case 'release_type':
      return { ...base, type, releaseType: g.pick(RELEASE_TYPES) };
    case 'size': {
      const min = g.bool(0.3) ? null : g.int(0, 40) * 500_000_000;
      const max = g.bool(0.3) ? null : (min ?? 0) + g.int(0, 40) * 500_000_000;
      return { ...base, type, minBytes: min, maxBytes: max };
    }
    case 'year': {
      const min = g.bool(0.3) ? null : g.int(0, 2030);
      const max = g.bool(0.3) ? null : (min ?? 0) + g.int(0, 60);
      return { ...base, type, minYear: min, maxYear: max };
    }
  }
}

function customFormat(g: Gen, name: string): CustomFormatData {
  const n = g.int(1, 4);
  const data: CustomFormatData = {
    name,
    description: null,
    includeInRename: g.bool(),
    tags: [],
    conditions: Array.from({ length: n }, (_, i) => condition(g, `c${i}${g.bool(0.2) ? '.x' : ''}`)),
    tests: [],
  };
  return validatePortableShape('custom_format', data) as unknown as CustomFormatData;
}

function qualityProfile(g: Gen, name: string, formats: string[]): QualityProfileData {
  const qualities = g.shuffle(QUALITY_SEEDS.map((q) => q.name)).slice(0, g.int(1, 25));
  const items: QualityProfileItem[] = [];
  let i = 0;
  let groups = 0;
  while (i < qualities.length) {
    const size = g.bool(0.3) ? g.int(1, 4) : 1;
    const members = qualities.slice(i, i + size);
    i += size;
    const enabled = g.bool(0.7);
    if (size > 1 || g.bool(0.1)) items.push({ type: 'group', name: `G${groups++}`, enabled, upgradeUntil: false, members });
    else items.push({ type: 'quality', name: members[0], enabled, upgradeUntil: false });
  }
  if (g.bool(0.8)) g.pick(items).upgradeUntil = true;
  const scores = () => g.subset(formats, 6).map((f) => ({ name: f, score: g.int(-20, 20) * 50 }));
  const data: QualityProfileData = {
    name,
    description: null,
    upgradesAllowed: g.bool(0.8),
    minimumCustomFormatScore: g.pick([0, 0, -100, g.int(0, 3000)]),
    upgradeUntilScore: g.int(0, 5000),
    upgradeScoreIncrement: g.int(1, 100),
    tags: [],
    languages: g.bool(0.4) ? [{ name: g.pick(LANGUAGES.slice(0, -1)), type: g.pick(['simple', 'simple', 'must', 'only', 'not'] as const) }] : [],
    qualities: items,
    customFormats: { all: scores(), movie_app: scores(), series_app: scores(), music_app: scores() },
  };
  return validatePortableShape('quality_profile', data) as unknown as QualityProfileData;
}

function delayProfile(g: Gen): DelayProfileData {
  const preferredProtocol = g.pick(['prefer_usenet', 'prefer_torrent', 'only_usenet', 'only_torrent'] as const);
  const bypass = g.bool();
  return {
    name: 'Delay',
    preferredProtocol,
    usenetDelay: preferredProtocol === 'only_torrent' ? null : g.int(0, 1440),
    torrentDelay: preferredProtocol === 'only_usenet' ? null : g.int(0, 1440),
    bypassIfHighestQuality: g.bool(),
    bypassIfAboveCustomFormatScore: bypass,
    minimumCustomFormatScore: bypass ? g.int(-500, 5000) : null,
  };
}

function qualityDefinitions(g: Gen, arrType: ArrType): QualityDefinitionsData {
  const app = toPcdArrType(arrType);
  const qualities = g.subset(QUALITY_SEEDS.filter((q) => q.api[app]).map((q) => q.name), 12);
  const size = () => g.pick([0, g.int(0, 3000), g.int(0, 400) + g.next()]);
  return { name: 'Sizes', entries: (qualities.length ? qualities : ['Unknown']).map((quality) => ({ quality, minSize: size(), maxSize: size(), preferredSize: size() })) };
}

function metadataProfile(g: Gen): MetadataProfileData {
  const list = <T extends string>(names: readonly T[]) => g.shuffle(names).map((name) => ({ name, allowed: g.bool(0.4) }));
  return {
    name: 'Meta',
    description: null,
    primaryAlbumTypes: list(['Album', 'EP', 'Single', 'Broadcast', 'Other']),
    secondaryAlbumTypes: list(['Studio', 'Compilation', 'Soundtrack', 'Spokenword', 'Interview', 'Audiobook', 'Live', 'Remix', 'DJ-mix', 'Mixtape/Street', 'Demo', 'Audio drama']),
    releaseStatuses: list(['Official', 'Promotion', 'Bootleg', 'Pseudo-Release']),
  } as MetadataProfileData;
}

/** A random source for one app family: formats, one to three profiles scoring them, and every settings entity. */
export function randomSource(seed: number, arrType: ArrType): SyncSource {
  const g = new Gen(rng(seed));
  const formatNames = Array.from({ length: g.int(1, 8) }, (_, i) => `F${i}${g.bool(0.2) ? ' 1.0' : ''}`);
  const customFormats = formatNames.map((name) => customFormat(g, name));
  const qualityProfiles = Array.from({ length: g.int(1, 3) }, (_, i) => qualityProfile(g, `P${i}`, [...formatNames, 'Not In Source']));
  const app = toPcdArrType(arrType);
  const qualityNames: Record<string, string> = {};
  for (const seed of QUALITY_SEEDS) if (seed.api[app]) qualityNames[seed.name] = seed.api[app]!;
  // The formats a source carries are the ones its profiles score for the app.
  const scored = new Set(qualityProfiles.flatMap((p) => [...p.customFormats.all, ...p.customFormats[arrType]].map((s) => s.name)));
  return {
    arrType,
    qualityProfiles,
    customFormats: customFormats.filter((f) => scored.has(f.name)),
    regularExpressions: { ...PATTERNS },
    delayProfile: delayProfile(g),
    naming: null,
    mediaSettings: null,
    qualityDefinitions: qualityDefinitions(g, arrType),
    metadataProfile: arrType === 'music_app' ? metadataProfile(g) : null,
    qualityNames,
    missing: [],
  };
}
