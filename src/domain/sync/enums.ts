/**
 * App facts the transform needs: which custom format condition types each app implements, the
 * specification implementation and field names, the apps' enum values behind PCD's text values
 * (sources, resolutions, quality modifiers, release types, indexer flags), Lidarr's metadata types
 * and the quality-definition size limits. Radarr and Sonarr number the same concepts differently.
 *
 * PCD text values are matched leniently: case and separators are ignored (`web_dl`, `WEB-DL` and
 * `webdl` are the same value).
 */
import type { ArrType } from '../arr-types';

/** PCD condition type -> the app's specification implementation. */
export const IMPLEMENTATIONS = {
  release_title: 'ReleaseTitleSpecification',
  release_group: 'ReleaseGroupSpecification',
  edition: 'EditionSpecification',
  language: 'LanguageSpecification',
  indexer_flag: 'IndexerFlagSpecification',
  source: 'SourceSpecification',
  resolution: 'ResolutionSpecification',
  quality_modifier: 'QualityModifierSpecification',
  size: 'SizeSpecification',
  release_type: 'ReleaseTypeSpecification',
  year: 'YearSpecification',
} as const;
export type ConditionType = keyof typeof IMPLEMENTATIONS;

/**
 * Condition types each app implements (Radarr 6.1, Sonarr 4.0.19, Lidarr 2.14.5). Lidarr has the
 * indexer flag specification too (its own flag values), unlike what PCD's condition table says.
 */
export const APP_CONDITION_TYPES: Record<ArrType, ReadonlySet<ConditionType>> = {
  movie_app: new Set(['release_title', 'release_group', 'edition', 'language', 'indexer_flag', 'source', 'resolution', 'quality_modifier', 'size', 'year']),
  series_app: new Set(['release_title', 'release_group', 'language', 'indexer_flag', 'source', 'resolution', 'size', 'release_type']),
  music_app: new Set(['release_title', 'release_group', 'indexer_flag', 'size']),
};

/** Lenient key of a PCD text value. */
export function enumKey(value: string): string {
  return value.toLowerCase().replace(/[^a-z0-9]/g, '');
}

type EnumTable = Readonly<Record<string, number>>;

/** QualitySource: Radarr UNKNOWN..BLURAY (remux is a modifier there), Sonarr Unknown..BlurayRaw. */
const SOURCES: Partial<Record<ArrType, EnumTable>> = {
  movie_app: { unknown: 0, cam: 1, telesync: 2, telecine: 3, workprint: 4, dvd: 5, tv: 6, television: 6, webdl: 7, web: 7, webrip: 8, bluray: 9 },
  series_app: {
    unknown: 0,
    tv: 1,
    television: 1,
    tvraw: 2,
    televisionraw: 2,
    webdl: 3,
    web: 3,
    webrip: 4,
    dvd: 5,
    bluray: 6,
    blurayraw: 7,
    remux: 7,
  },
};

/** Resolution: the same numbers in Radarr and Sonarr. */
const RESOLUTIONS: EnumTable = { unknown: 0, '360p': 360, '480p': 480, '540p': 540, '576p': 576, '720p': 720, '1080p': 1080, '2160p': 2160, '4k': 2160, uhd: 2160 };

/** Radarr's Modifier. */
const MODIFIERS: EnumTable = { none: 0, regional: 1, screener: 2, rawhd: 3, brdisk: 4, remux: 5 };

/** Sonarr's ReleaseType. */
const RELEASE_TYPES: EnumTable = { unknown: 0, singleepisode: 1, episode: 1, multiepisode: 2, seasonpack: 3, season: 3 };

/** IndexerFlags (bit values). Radarr's carry G_/PTP_/AHD_ prefixes; Sonarr and Lidarr number theirs differently. */
const INDEXER_FLAGS: Record<ArrType, EnumTable> = {
  movie_app: {
    freeleech: 1,
    gfreeleech: 1,
    halfleech: 2,
    ghalfleech: 2,
    doubleupload: 4,
    gdoubleupload: 4,
    golden: 8,
    ptpgolden: 8,
    approved: 16,
    ptpapproved: 16,
    internal: 32,
    ginternal: 32,
    ahdinternal: 64,
    scene: 128,
    gscene: 128,
    freeleech75: 256,
    gfreeleech75: 256,
    freeleech25: 512,
    gfreeleech25: 512,
    userrelease: 1024,
    ahduserrelease: 1024,
    nuked: 2048,
  },
  series_app: { freeleech: 1, halfleech: 2, doubleupload: 4, internal: 8, scene: 16, freeleech75: 32, freeleech25: 64, nuked: 128 },
  music_app: { freeleech: 1, halfleech: 2, doubleupload: 4, internal: 8, scene: 16, freeleech75: 32, freeleech25: 64 },
};

export type EnumKind = 'source' | 'resolution' | 'quality_modifier' | 'release_type' | 'indexer_flag';

function table(kind: EnumKind, arrType: ArrType): EnumTable | undefined {
  switch (kind) {
    case 'source':
      return SOURCES[arrType];
    case 'resolution':
      return arrType === 'music_app' ? undefined : RESOLUTIONS;
    case 'quality_modifier':
      return arrType === 'movie_app' ? MODIFIERS : undefined;
    case 'release_type':
      return arrType === 'series_app' ? RELEASE_TYPES : undefined;
    case 'indexer_flag':
      return INDEXER_FLAGS[arrType];
  }
}

/** The app's number for a PCD enum text value, or null when the app has no such value. */
export function enumValue(kind: EnumKind, arrType: ArrType, value: string): number | null {
  const values = table(kind, arrType);
  if (!values) return null;
  const key = enumKey(value);
  if (Object.prototype.hasOwnProperty.call(values, key)) return values[key];
  if (kind === 'resolution') {
    // "1080" or "r1080p" spell the same resolution.
    const match = /^r?(\d+)p?$/.exec(key);
    const n = match ? Number(match[1]) : NaN;
    if (Object.values(values).includes(n)) return n;
  }
  return null;
}

/**
 * PCD's canonical text of an app enum value (the spelling PCD repositories use, e.g. web_dl,
 * bluray_raw, season_pack), or null when the app has no such value. enumValue reads it back.
 */
export function enumText(kind: EnumKind, arrType: ArrType, value: number): string | null {
  if (kind === 'resolution') return arrType === 'music_app' ? null : value === 0 ? 'unknown' : Object.values(RESOLUTIONS).includes(value) ? `${value}p` : null;
  const texts = CANONICAL_TEXT[kind][arrType];
  return texts?.[value] ?? null;
}

const CANONICAL_TEXT: Record<Exclude<EnumKind, 'resolution'>, Partial<Record<ArrType, Readonly<Record<number, string>>>>> = {
  source: {
    movie_app: { 0: 'unknown', 1: 'cam', 2: 'telesync', 3: 'telecine', 4: 'workprint', 5: 'dvd', 6: 'television', 7: 'web_dl', 8: 'webrip', 9: 'bluray' },
    series_app: { 0: 'unknown', 1: 'television', 2: 'television_raw', 3: 'web_dl', 4: 'webrip', 5: 'dvd', 6: 'bluray', 7: 'bluray_raw' },
  },
  quality_modifier: { movie_app: { 0: 'none', 1: 'regional', 2: 'screener', 3: 'raw_hd', 4: 'brdisk', 5: 'remux' } },
  release_type: { series_app: { 0: 'unknown', 1: 'single_episode', 2: 'multi_episode', 3: 'season_pack' } },
  indexer_flag: {
    movie_app: {
      1: 'freeleech',
      2: 'halfleech',
      4: 'double_upload',
      8: 'golden',
      16: 'approved',
      32: 'internal',
      64: 'ahd_internal',
      128: 'scene',
      256: 'freeleech_75',
      512: 'freeleech_25',
      1024: 'user_release',
      2048: 'nuked',
    },
    series_app: { 1: 'freeleech', 2: 'halfleech', 4: 'double_upload', 8: 'internal', 16: 'scene', 32: 'freeleech_75', 64: 'freeleech_25', 128: 'nuked' },
    music_app: { 1: 'freeleech', 2: 'halfleech', 4: 'double_upload', 8: 'internal', 16: 'scene', 32: 'freeleech_75', 64: 'freeleech_25' },
  },
};

/** Quality-definition size limits (MB per minute) of the documented versions; Lidarr checks none. */
export const DEFAULT_SIZE_LIMITS: Record<ArrType, { min: number; max: number } | null> = {
  movie_app: { min: 0, max: 2000 },
  series_app: { min: 0, max: 1000 },
  music_app: null,
};

/** Lidarr's PrimaryAlbumType, SecondaryAlbumType and ReleaseStatus ids. */
export const LIDARR_METADATA_TYPES = {
  primaryAlbumTypes: [
    [0, 'Album'],
    [1, 'EP'],
    [2, 'Single'],
    [3, 'Broadcast'],
    [4, 'Other'],
  ],
  secondaryAlbumTypes: [
    [0, 'Studio'],
    [1, 'Compilation'],
    [2, 'Soundtrack'],
    [3, 'Spokenword'],
    [4, 'Interview'],
    [5, 'Audiobook'],
    [6, 'Live'],
    [7, 'Remix'],
    [8, 'DJ-mix'],
    [9, 'Mixtape/Street'],
    [10, 'Demo'],
    [11, 'Audio drama'],
  ],
  releaseStatuses: [
    [0, 'Official'],
    [1, 'Promotion'],
    [2, 'Bootleg'],
    [3, 'Pseudo-Release'],
  ],
} as const satisfies Record<string, readonly (readonly [number, string])[]>;

/** Lidarr's reserved metadata profile name. */
export const RESERVED_METADATA_PROFILE = 'None';

/** One gigabyte as the apps count it in size conditions (SizeExtensions.Gigabytes: 1024^3 bytes). */
export const BYTES_PER_GB = 1024 * 1024 * 1024;

/** The maximum (GB) written for a size condition without an upper bound: the apps require one above the minimum. */
export const UNBOUNDED_SIZE_GB = 1_000_000;

/** Year bounds written when a PCD year condition leaves one open (the apps require both, min > 0). */
export const YEAR_BOUNDS = { min: 1, max: 9999 };

/** PCD's canonical texts of every value an app has for an enum kind (in the app's order), [] when it has none. */
export function enumTexts(kind: EnumKind, arrType: ArrType): string[] {
  if (kind === 'resolution') return arrType === 'music_app' ? [] : ['unknown', ...[...new Set(Object.values(RESOLUTIONS))].filter((n) => n > 0).map((n) => `${n}p`)];
  return Object.values(CANONICAL_TEXT[kind][arrType] ?? {});
}
