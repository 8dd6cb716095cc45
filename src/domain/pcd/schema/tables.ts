/**
 * arrgo's PCD schema (DDL). Table and column names follow PCD schema 1.x so that the operations of
 * real PCD repositories replay unchanged; constraints and cascades carry the same semantics
 * (renames cascade through ON UPDATE CASCADE, deletes through ON DELETE CASCADE). Additions:
 * arr_type also accepts 'lidarr', and the music_app (Lidarr) tables at the end.
 *
 * Kept as TypeScript string constants so the compiled output carries it.
 */
import { PCD_ARR_TYPES } from '../../arr-types';

/** Version of this schema layer (compatible with PCD schema 1.x). */
export const SCHEMA_VERSION = '1.1.0+arrgo.1';

const TS = `created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
  updated_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP`;

const APPS = PCD_ARR_TYPES.map((a) => `'${a}'`).join(', ');
const ARR_TYPE_OR_ALL = `CHECK (arr_type IN (${APPS}, 'all'))`;
const CASCADE = 'ON DELETE CASCADE ON UPDATE CASCADE';

/** Core tables: labels, languages, regular expressions, qualities and their per-app names, custom formats. */
const CORE = `
CREATE TABLE tags (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name VARCHAR(50) NOT NULL UNIQUE,
  created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP
);

CREATE TABLE languages (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name VARCHAR(30) NOT NULL UNIQUE,
  ${TS}
);

CREATE TABLE regular_expressions (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name VARCHAR(100) NOT NULL UNIQUE,
  pattern TEXT NOT NULL,
  regex101_id VARCHAR(50),
  description TEXT,
  ${TS}
);

CREATE TABLE qualities (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name VARCHAR(100) NOT NULL UNIQUE,
  ${TS}
);

-- One row per app that knows the canonical quality; no row = the app lacks it.
CREATE TABLE quality_api_mappings (
  quality_name VARCHAR(100) NOT NULL,
  arr_type VARCHAR(20) NOT NULL CHECK (arr_type IN (${APPS})),
  api_name VARCHAR(100) NOT NULL,
  created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
  PRIMARY KEY (quality_name, arr_type),
  FOREIGN KEY (quality_name) REFERENCES qualities(name) ${CASCADE}
);

CREATE TABLE custom_formats (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name VARCHAR(100) NOT NULL UNIQUE,
  description TEXT,
  include_in_rename INTEGER NOT NULL DEFAULT 0,
  ${TS}
);
`;

/** Quality profiles, their groups and custom format conditions. */
const PROFILES = `
CREATE TABLE quality_profiles (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name VARCHAR(100) NOT NULL UNIQUE,
  description TEXT,
  upgrades_allowed INTEGER NOT NULL DEFAULT 1,
  minimum_custom_format_score INTEGER NOT NULL DEFAULT 0,
  upgrade_until_score INTEGER NOT NULL DEFAULT 0,
  upgrade_score_increment INTEGER NOT NULL DEFAULT 1 CHECK (upgrade_score_increment > 0),
  ${TS}
);

-- Groups belong to one profile (profiles never share groups).
CREATE TABLE quality_groups (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  quality_profile_name VARCHAR(100) NOT NULL,
  name VARCHAR(100) NOT NULL,
  ${TS},
  UNIQUE (quality_profile_name, name),
  FOREIGN KEY (quality_profile_name) REFERENCES quality_profiles(name) ${CASCADE}
);

CREATE TABLE custom_format_conditions (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  custom_format_name VARCHAR(100) NOT NULL,
  name VARCHAR(100) NOT NULL,
  type VARCHAR(50) NOT NULL,
  arr_type VARCHAR(20) NOT NULL DEFAULT 'all' ${ARR_TYPE_OR_ALL},
  negate INTEGER NOT NULL DEFAULT 0,
  required INTEGER NOT NULL DEFAULT 0,
  ${TS},
  UNIQUE (custom_format_name, name),
  FOREIGN KEY (custom_format_name) REFERENCES custom_formats(name) ${CASCADE}
);
`;

/** Many-to-many links, keyed by names so references survive recompiles. */
const LINKS = `
CREATE TABLE regular_expression_tags (
  regular_expression_name VARCHAR(100) NOT NULL,
  tag_name VARCHAR(50) NOT NULL,
  PRIMARY KEY (regular_expression_name, tag_name),
  FOREIGN KEY (regular_expression_name) REFERENCES regular_expressions(name) ${CASCADE},
  FOREIGN KEY (tag_name) REFERENCES tags(name) ${CASCADE}
);

CREATE TABLE custom_format_tags (
  custom_format_name VARCHAR(100) NOT NULL,
  tag_name VARCHAR(50) NOT NULL,
  PRIMARY KEY (custom_format_name, tag_name),
  FOREIGN KEY (custom_format_name) REFERENCES custom_formats(name) ${CASCADE},
  FOREIGN KEY (tag_name) REFERENCES tags(name) ${CASCADE}
);

CREATE TABLE quality_profile_tags (
  quality_profile_name VARCHAR(100) NOT NULL,
  tag_name VARCHAR(50) NOT NULL,
  PRIMARY KEY (quality_profile_name, tag_name),
  FOREIGN KEY (quality_profile_name) REFERENCES quality_profiles(name) ${CASCADE},
  FOREIGN KEY (tag_name) REFERENCES tags(name) ${CASCADE}
);

-- type: 'must', 'only', 'not' or 'simple'.
CREATE TABLE quality_profile_languages (
  quality_profile_name VARCHAR(100) NOT NULL,
  language_name VARCHAR(30) NOT NULL,
  type VARCHAR(20) NOT NULL DEFAULT 'simple',
  PRIMARY KEY (quality_profile_name, language_name),
  FOREIGN KEY (quality_profile_name) REFERENCES quality_profiles(name) ${CASCADE},
  FOREIGN KEY (language_name) REFERENCES languages(name) ${CASCADE}
);

CREATE TABLE quality_group_members (
  quality_profile_name VARCHAR(100) NOT NULL,
  quality_group_name VARCHAR(100) NOT NULL,
  quality_name VARCHAR(100) NOT NULL,
  position INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (quality_profile_name, quality_group_name, quality_name),
  FOREIGN KEY (quality_profile_name, quality_group_name) REFERENCES quality_groups(quality_profile_name, name) ${CASCADE},
  FOREIGN KEY (quality_name) REFERENCES qualities(name) ${CASCADE}
);

-- Ordered quality list of a profile; each row is a single quality or a group of the same profile.
CREATE TABLE quality_profile_qualities (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  quality_profile_name VARCHAR(100) NOT NULL,
  quality_name VARCHAR(100),
  quality_group_name VARCHAR(100),
  position INTEGER NOT NULL,
  enabled INTEGER NOT NULL DEFAULT 1,
  upgrade_until INTEGER NOT NULL DEFAULT 0,
  CHECK ((quality_name IS NULL) <> (quality_group_name IS NULL)),
  FOREIGN KEY (quality_profile_name) REFERENCES quality_profiles(name) ${CASCADE},
  FOREIGN KEY (quality_name) REFERENCES qualities(name) ${CASCADE},
  FOREIGN KEY (quality_profile_name, quality_group_name) REFERENCES quality_groups(quality_profile_name, name) ${CASCADE}
);

-- At most one "upgrade until" item per profile.
CREATE UNIQUE INDEX idx_one_upgrade_until_per_profile
  ON quality_profile_qualities(quality_profile_name) WHERE upgrade_until = 1;

-- Scores per app family; 'all' applies to every family and is never expanded.
CREATE TABLE quality_profile_custom_formats (
  quality_profile_name VARCHAR(100) NOT NULL,
  custom_format_name VARCHAR(100) NOT NULL,
  arr_type VARCHAR(20) NOT NULL ${ARR_TYPE_OR_ALL},
  score INTEGER NOT NULL,
  PRIMARY KEY (quality_profile_name, custom_format_name, arr_type),
  FOREIGN KEY (quality_profile_name) REFERENCES quality_profiles(name) ${CASCADE},
  FOREIGN KEY (custom_format_name) REFERENCES custom_formats(name) ${CASCADE}
);
`;

function conditionTable(table: string, columns: string): string {
  return `
CREATE TABLE ${table} (
  custom_format_name VARCHAR(100) NOT NULL,
  condition_name VARCHAR(100) NOT NULL,
  ${columns},
  PRIMARY KEY (custom_format_name, condition_name),
  FOREIGN KEY (custom_format_name, condition_name) REFERENCES custom_format_conditions(custom_format_name, name) ${CASCADE}
);`;
}

/** One detail table per condition type; a condition has a row in the table matching its type. */
const CONDITIONS = [
  conditionTable(
    'condition_patterns',
    `regular_expression_name VARCHAR(100) NOT NULL,
  FOREIGN KEY (regular_expression_name) REFERENCES regular_expressions(name) ${CASCADE}`,
  ),
  conditionTable(
    'condition_languages',
    `language_name VARCHAR(30) NOT NULL,
  except_language INTEGER NOT NULL DEFAULT 0,
  FOREIGN KEY (language_name) REFERENCES languages(name) ${CASCADE}`,
  ),
  conditionTable('condition_indexer_flags', 'flag VARCHAR(100) NOT NULL'),
  conditionTable('condition_sources', 'source VARCHAR(100) NOT NULL'),
  conditionTable('condition_resolutions', 'resolution VARCHAR(100) NOT NULL'),
  conditionTable('condition_quality_modifiers', 'quality_modifier VARCHAR(100) NOT NULL'),
  conditionTable('condition_sizes', `min_bytes INTEGER,
  max_bytes INTEGER`),
  conditionTable('condition_release_types', 'release_type VARCHAR(100) NOT NULL'),
  conditionTable('condition_years', `min_year INTEGER,
  max_year INTEGER`),
].join('\n');

const TESTS = `
CREATE TABLE custom_format_tests (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  custom_format_name VARCHAR(100) NOT NULL,
  title TEXT NOT NULL,
  type VARCHAR(20) NOT NULL,
  should_match INTEGER NOT NULL,
  description TEXT,
  created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
  UNIQUE (custom_format_name, title, type),
  FOREIGN KEY (custom_format_name) REFERENCES custom_formats(name) ${CASCADE}
);

CREATE TABLE test_entities (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  type TEXT NOT NULL CHECK (type IN ('movie', 'series', 'album')),
  tmdb_id INTEGER NOT NULL,
  title TEXT NOT NULL,
  year INTEGER,
  poster_path TEXT,
  ${TS},
  UNIQUE (type, tmdb_id)
);

CREATE TABLE test_releases (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  entity_type TEXT NOT NULL CHECK (entity_type IN ('movie', 'series', 'album')),
  entity_tmdb_id INTEGER NOT NULL,
  title TEXT NOT NULL,
  size_bytes INTEGER,
  languages TEXT NOT NULL DEFAULT '[]',
  indexers TEXT NOT NULL DEFAULT '[]',
  flags TEXT NOT NULL DEFAULT '[]',
  ${TS},
  FOREIGN KEY (entity_type, entity_tmdb_id) REFERENCES test_entities(type, tmdb_id) ON DELETE CASCADE
);
CREATE INDEX idx_test_releases_entity ON test_releases(entity_type, entity_tmdb_id);
`;

function qualityDefinitions(app: string): string {
  return `
CREATE TABLE ${app}_quality_definitions (
  name VARCHAR(100) NOT NULL,
  quality_name VARCHAR(100) NOT NULL,
  min_size INTEGER NOT NULL DEFAULT 0,
  max_size INTEGER NOT NULL,
  preferred_size INTEGER NOT NULL,
  ${TS},
  PRIMARY KEY (name, quality_name),
  FOREIGN KEY (quality_name) REFERENCES qualities(name) ${CASCADE}
);`;
}

function mediaSettings(app: string): string {
  return `
CREATE TABLE ${app}_media_settings (
  name VARCHAR(100) NOT NULL PRIMARY KEY,
  propers_repacks VARCHAR(50) NOT NULL DEFAULT 'doNotPrefer'
    CHECK (propers_repacks IN ('doNotPrefer', 'preferAndUpgrade', 'doNotUpgradeAutomatically')),
  enable_media_info INTEGER NOT NULL DEFAULT 1,
  ${TS}
);`;
}

/** Per-app media management: quality sizes, naming and media settings. */
const MEDIA = `
${qualityDefinitions('radarr')}
${qualityDefinitions('sonarr')}

CREATE TABLE radarr_naming (
  name VARCHAR(100) NOT NULL PRIMARY KEY,
  rename INTEGER NOT NULL DEFAULT 1,
  movie_format TEXT NOT NULL,
  movie_folder_format TEXT NOT NULL,
  replace_illegal_characters INTEGER NOT NULL DEFAULT 0,
  colon_replacement_format VARCHAR(20) NOT NULL DEFAULT 'smart'
    CHECK (colon_replacement_format IN ('delete', 'dash', 'spaceDash', 'spaceDashSpace', 'smart')),
  ${TS}
);

CREATE TABLE sonarr_naming (
  name VARCHAR(100) NOT NULL PRIMARY KEY,
  rename INTEGER NOT NULL DEFAULT 1,
  standard_episode_format TEXT NOT NULL,
  daily_episode_format TEXT NOT NULL,
  anime_episode_format TEXT NOT NULL,
  series_folder_format TEXT NOT NULL,
  season_folder_format TEXT NOT NULL,
  replace_illegal_characters INTEGER NOT NULL DEFAULT 0,
  colon_replacement_format INTEGER NOT NULL DEFAULT 4,
  custom_colon_replacement_format TEXT,
  multi_episode_style INTEGER NOT NULL DEFAULT 5,
  ${TS}
);
${mediaSettings('radarr')}
${mediaSettings('sonarr')}

-- Only one delay profile is synced per instance (the global one), hence no tags.
CREATE TABLE delay_profiles (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name VARCHAR(100) NOT NULL UNIQUE,
  preferred_protocol VARCHAR(20) NOT NULL
    CHECK (preferred_protocol IN ('prefer_usenet', 'prefer_torrent', 'only_usenet', 'only_torrent')),
  usenet_delay INTEGER,
  torrent_delay INTEGER,
  bypass_if_highest_quality INTEGER NOT NULL DEFAULT 0,
  bypass_if_above_custom_format_score INTEGER NOT NULL DEFAULT 0,
  minimum_custom_format_score INTEGER,
  ${TS},
  CHECK ((preferred_protocol = 'only_torrent') = (usenet_delay IS NULL)),
  CHECK ((preferred_protocol = 'only_usenet') = (torrent_delay IS NULL)),
  CHECK ((bypass_if_above_custom_format_score = 1) = (minimum_custom_format_score IS NOT NULL)),
  CHECK (bypass_if_above_custom_format_score IN (0, 1))
);
`;

/** Lidarr album type and release status names, as the app spells them. */
export const LIDARR_PRIMARY_ALBUM_TYPES = ['Album', 'EP', 'Single', 'Broadcast', 'Other'] as const;
export const LIDARR_SECONDARY_ALBUM_TYPES = [
  'Studio',
  'Compilation',
  'Soundtrack',
  'Spokenword',
  'Interview',
  'Audiobook',
  'Live',
  'Remix',
  'DJ-mix',
  'Mixtape/Street',
  'Demo',
  'Audio drama',
] as const;
export const LIDARR_RELEASE_STATUSES = ['Official', 'Promotion', 'Bootleg', 'Pseudo-Release'] as const;

const inList = (values: readonly string[]) => values.map((v) => `'${v.replace(/'/g, "''")}'`).join(', ');

function metadataChild(table: string, column: string, allowed: readonly string[]): string {
  return `
CREATE TABLE ${table} (
  metadata_profile_name VARCHAR(100) NOT NULL,
  ${column} VARCHAR(50) NOT NULL CHECK (${column} IN (${inList(allowed)})),
  allowed INTEGER NOT NULL DEFAULT 0 CHECK (allowed IN (0, 1)),
  position INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (metadata_profile_name, ${column}),
  FOREIGN KEY (metadata_profile_name) REFERENCES lidarr_metadata_profiles(name) ${CASCADE}
);`;
}

/** music_app (Lidarr, arr_type 'lidarr') tables. */
const MUSIC = `
${qualityDefinitions('lidarr')}

-- Lidarr naming; colon_replacement_format is Lidarr's enum: 0 delete, 1 dash, 2 space dash, 3 space dash space, 4 smart.
CREATE TABLE lidarr_naming (
  name VARCHAR(100) NOT NULL PRIMARY KEY,
  rename INTEGER NOT NULL DEFAULT 1,
  standard_track_format TEXT NOT NULL,
  multi_disc_track_format TEXT NOT NULL,
  artist_folder_format TEXT NOT NULL,
  replace_illegal_characters INTEGER NOT NULL DEFAULT 0,
  colon_replacement_format INTEGER NOT NULL DEFAULT 4 CHECK (colon_replacement_format BETWEEN 0 AND 4),
  ${TS}
);
${mediaSettings('lidarr')}

-- "None" is reserved by Lidarr for its built-in profile.
CREATE TABLE lidarr_metadata_profiles (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name VARCHAR(100) NOT NULL UNIQUE CHECK (name <> 'None'),
  description TEXT,
  ${TS}
);
${metadataChild('lidarr_metadata_profile_primary_types', 'type_name', LIDARR_PRIMARY_ALBUM_TYPES)}
${metadataChild('lidarr_metadata_profile_secondary_types', 'type_name', LIDARR_SECONDARY_ALBUM_TYPES)}
${metadataChild('lidarr_metadata_profile_release_statuses', 'status_name', LIDARR_RELEASE_STATUSES)}
`;

/** The complete DDL of the schema layer, executed before any operation. */
export const SCHEMA_DDL = [CORE, PROFILES, LINKS, CONDITIONS, TESTS, MEDIA, MUSIC].join('\n');
