/**
 * Parity map between the app families (GET /compatibility/parity): pure data, plus per-profile
 * compatibility from a replayed database.
 *
 * Matrix cells: `native` = PCD keeps a separate definition per app (own tables), `shared` = one
 * app-agnostic PCD definition is synced to every app that supports the concept (per-app parts are
 * scoped by arrType), `unsupported` = the app has no such concept.
 */
import type Database from 'better-sqlite3';
import { ARR_TYPES, type ArrType } from '../arr-types';
import { profileCompatibility } from './graph';

export const PARITY_ENTITIES = ['custom_formats', 'quality_profiles', 'quality_definitions', 'delay_profiles', 'metadata_profiles'] as const;
export type ParityEntity = (typeof PARITY_ENTITIES)[number];

export const PARITY_SUPPORTS = ['native', 'shared', 'unsupported'] as const;
export type ParitySupport = (typeof PARITY_SUPPORTS)[number];

export interface ParityRow {
  entity: ParityEntity;
  label: string;
  movie_app: ParitySupport;
  series_app: ParitySupport;
  music_app: ParitySupport;
}

export const PARITY_SCOPES = [
  'custom_formats',
  'quality_profiles',
  'quality_definitions',
  'delay_profiles',
  'metadata_profiles',
  'instances',
  'library',
  'releases',
  'rename',
  'upgrades',
] as const;
export type ParityScope = (typeof PARITY_SCOPES)[number];

export interface SemanticDifference {
  scope: ParityScope;
  apps: ArrType[];
  summary: string;
  detail: string;
  suggestion?: string;
  sourceRefs: string[];
}

export interface ParityMap {
  entities: ParityEntity[];
  apps: ArrType[];
  matrix: ParityRow[];
  semanticDifferences: SemanticDifference[];
  profiles?: { name: string; compatibleArrTypes: ArrType[]; basis: 'enabled-qualities' }[];
}

const ALL: ArrType[] = [...ARR_TYPES];

const MATRIX: ParityRow[] = [
  { entity: 'custom_formats', label: 'Custom formats', movie_app: 'shared', series_app: 'shared', music_app: 'shared' },
  { entity: 'quality_profiles', label: 'Quality profiles', movie_app: 'shared', series_app: 'shared', music_app: 'shared' },
  { entity: 'quality_definitions', label: 'Quality definitions (size limits)', movie_app: 'native', series_app: 'native', music_app: 'native' },
  { entity: 'delay_profiles', label: 'Delay profiles', movie_app: 'shared', series_app: 'shared', music_app: 'shared' },
  { entity: 'metadata_profiles', label: 'Metadata profiles', movie_app: 'unsupported', series_app: 'unsupported', music_app: 'native' },
];

const DIFFERENCES: SemanticDifference[] = [
  {
    scope: 'custom_formats',
    apps: ALL,
    summary: 'Each app implements a different set of custom format condition types.',
    detail:
      'Release title, release group and size conditions exist in all three apps. Radarr alone has edition, quality modifier and year conditions; ' +
      'Sonarr alone has the release type condition (single episode, multi-episode, season pack); language, source, resolution and indexer flag ' +
      'conditions exist in Radarr and Sonarr but not in Lidarr. A condition of a type the target app lacks cannot be synced to it.',
    suggestion:
      'Scope app-specific conditions with arrType instead of "all", and check that a format keeps at least one condition for every app it is synced to.',
    sourceRefs: ['radarr:/api/v3/customformat/schema', 'sonarr:/api/v3/customformat/schema', 'lidarr:/api/v1/customformat/schema'],
  },
  {
    scope: 'custom_formats',
    apps: ALL,
    summary: 'Patterns are .NET regular expressions, matched case-insensitively, in every app.',
    detail:
      'All three apps evaluate release title, group and edition patterns with the .NET engine and ignore case. A pattern therefore behaves the same ' +
      'in each app, but not necessarily in JavaScript: an inline (?i) prefix, a "]" as the first character of a class and the Unicode-aware \\b ' +
      'differ, so local previews must use a .NET-compatible matcher.',
    sourceRefs: ['radarr:/api/v3/customformat', 'sonarr:/api/v3/customformat', 'lidarr:/api/v1/customformat'],
  },
  {
    scope: 'quality_profiles',
    apps: ALL,
    summary: 'Quality lists differ per app; a shared profile only fits apps that know all of its enabled qualities.',
    detail:
      'PCD profiles use canonical quality names mapped to each app by quality_api_mappings. Sonarr names remuxes "Bluray-1080p Remux" and ' +
      '"Bluray-2160p Remux" and has no CAM, TELESYNC, TELECINE, WORKPRINT, REGIONAL, DVDSCR, DVD-R or BR-DISK; Lidarr qualities are audio formats ' +
      '(MP3, AAC, OGG Vorbis, FLAC, ALAC, WAV...). The apps also want every one of their qualities listed in a profile, lowest first, whereas PCD ' +
      'lists the most preferred first.',
    suggestion: 'Keep separate profiles for music, and check compatibleArrTypes before assigning a profile to an instance.',
    sourceRefs: ['radarr:/api/v3/qualityprofile/schema', 'sonarr:/api/v3/qualityprofile/schema', 'lidarr:/api/v1/qualityprofile/schema'],
  },
  {
    scope: 'quality_profiles',
    apps: ['movie_app'],
    summary: 'Only Radarr quality profiles carry a language.',
    detail:
      'Radarr profiles have a single language setting; Sonarr (v4) and Lidarr profiles have none. Sonarr expresses language preferences with ' +
      'language custom format conditions instead; profile languages are therefore only synced to Radarr.',
    suggestion: 'For Sonarr, score language custom formats in the profile instead of relying on profile languages.',
    sourceRefs: ['radarr:/api/v3/qualityprofile', 'sonarr:/api/v3/qualityprofile', 'lidarr:/api/v1/qualityprofile'],
  },
  {
    scope: 'quality_definitions',
    apps: ALL,
    summary: 'Size limits are per app and per quality, and mean different things for video and audio.',
    detail:
      'Radarr and Sonarr interpret minimum, preferred and maximum sizes as megabytes per minute of runtime for their video qualities. Lidarr ' +
      'defines limits for its audio qualities and applies them to music releases, so numbers tuned for video do not carry over. Each app also ' +
      'rejects qualities it does not have, which is why PCD keeps one table per app.',
    sourceRefs: ['radarr:/api/v3/qualitydefinition', 'sonarr:/api/v3/qualitydefinition', 'lidarr:/api/v1/qualitydefinition'],
  },
  {
    scope: 'delay_profiles',
    apps: ALL,
    summary: 'Only the global delay profile is synced; protocol choice is encoded differently.',
    detail:
      'All three apps have a global delay profile (id 1) that cannot be deleted and must have no tags, which is the one PCD delay profiles map to. ' +
      'The apps store enableUsenet, enableTorrent and a preferred protocol (usenet or torrent); PCD stores one of prefer_usenet, prefer_torrent, ' +
      'only_usenet or only_torrent, where the only_* values disable the other protocol.',
    sourceRefs: ['radarr:/api/v3/delayprofile', 'sonarr:/api/v3/delayprofile', 'lidarr:/api/v1/delayprofile'],
  },
  {
    scope: 'metadata_profiles',
    apps: ['music_app'],
    summary: 'Metadata profiles exist only in Lidarr.',
    detail:
      'A Lidarr metadata profile decides which primary album types, secondary album types and release statuses are tracked for an artist. Every ' +
      'type must appear in the profile with an allowed flag, and the name "None" is reserved for the built-in profile. Radarr and Sonarr have no ' +
      'equivalent.',
    sourceRefs: ['lidarr:/api/v1/metadataprofile', 'lidarr:/api/v1/metadataprofile/schema'],
  },
  {
    scope: 'instances',
    apps: ALL,
    summary: 'Radarr and Sonarr speak API v3, Lidarr API v1.',
    detail:
      'All three authenticate with the X-Api-Key header and identify themselves through system/status, but Radarr and Sonarr serve /api/v3 while ' +
      'Lidarr serves /api/v1. Resource names are mostly parallel (customformat, qualityprofile, delayprofile, config/naming).',
    sourceRefs: ['radarr:/api/v3/system/status', 'sonarr:/api/v3/system/status', 'lidarr:/api/v1/system/status'],
  },
  {
    scope: 'library',
    apps: ALL,
    summary: 'The managed library differs: movies, series with episodes, artists with albums and tracks.',
    detail:
      'Radarr manages one file per movie. Sonarr manages series made of seasons and episodes (standard, daily and anime numbering). Lidarr manages ' +
      'artists, their albums, album releases and tracks, and uses metadata profiles to decide which albums belong to an artist at all.',
    sourceRefs: ['radarr:/api/v3/movie', 'sonarr:/api/v3/series', 'sonarr:/api/v3/episode', 'lidarr:/api/v1/artist', 'lidarr:/api/v1/album'],
  },
  {
    scope: 'releases',
    apps: ALL,
    summary: 'Release parsing extracts different facts per app.',
    detail:
      'Radarr parses title, year and edition of a movie release; Sonarr parses season and episode numbers and whether the release is a single ' +
      'episode, several episodes or a season pack; Lidarr parses artist and album and derives quality from audio codec and bitrate rather than ' +
      'source and resolution. Custom format conditions can only test what the app parses.',
    sourceRefs: ['radarr:/api/v3/parse', 'sonarr:/api/v3/parse', 'lidarr:/api/v1/parse'],
  },
  {
    scope: 'rename',
    apps: ALL,
    summary: 'Naming settings have different fields and colon replacement encodings.',
    detail:
      'Radarr has renameMovies, movie and movie folder formats, and a string colon replacement (delete, dash, spaceDash, spaceDashSpace, smart). ' +
      'Sonarr has renameEpisodes, standard/daily/anime episode formats, series and season folder formats, a multi-episode style, and an integer ' +
      'colon replacement with a custom replacement string. Lidarr has renameTracks, standard and multi-disc track formats, an artist folder format ' +
      'and an integer colon replacement. PCD "rename" maps to the app\'s rename flag.',
    sourceRefs: ['radarr:/api/v3/config/naming', 'sonarr:/api/v3/config/naming', 'lidarr:/api/v1/config/naming'],
  },
  {
    scope: 'upgrades',
    apps: ['music_app'],
    summary: 'Lidarr profiles have no minimum custom format score increment for upgrades.',
    detail:
      'Radarr and Sonarr profiles carry minUpgradeFormatScore, the least score improvement that justifies an upgrade (PCD upgradeScoreIncrement). ' +
      'Lidarr profiles only have upgradeAllowed, the cutoff quality and cutoffFormatScore, so the increment is not synced to Lidarr.',
    sourceRefs: ['radarr:/api/v3/qualityprofile', 'sonarr:/api/v3/qualityprofile', 'lidarr:/api/v1/qualityprofile'],
  },
  {
    scope: 'upgrades',
    apps: ALL,
    summary: 'Proper and repack handling is a media management setting with app values differing from PCD values.',
    detail:
      'All three apps store downloadPropersAndRepacks in their media management config with the values preferAndUpgrade, doNotUpgrade and ' +
      'doNotPrefer. PCD media settings spell the second one doNotUpgradeAutomatically.',
    sourceRefs: ['radarr:/api/v3/config/mediamanagement', 'sonarr:/api/v3/config/mediamanagement', 'lidarr:/api/v1/config/mediamanagement'],
  },
];

/** The parity map; with a replayed database, also the compatibility of each quality profile. */
export function parityMap(db?: Database.Database | null): ParityMap {
  const map: ParityMap = {
    entities: [...PARITY_ENTITIES],
    apps: [...ARR_TYPES],
    matrix: MATRIX.map((r) => ({ ...r })),
    semanticDifferences: DIFFERENCES.map((d) => ({ ...d, apps: [...d.apps], sourceRefs: [...d.sourceRefs] })),
  };
  if (db) map.profiles = profileCompatibility(db);
  return map;
}
