/**
 * The project's own small PCD fixtures:
 * - a schema dependency with two tagged versions whose tables differ (a local git repository, so
 *   fetching it stays on this machine), and a PCD written for each version;
 * - a PCD whose files have no op markers and whose value guards partly match nothing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SCHEMA_DDL, type PcdFile } from '../../src/domain/pcd';
import { makeGitRepo, type TestGitRepo } from './git-repo';

/** The bundled DDL up to the music_app tables: a schema dependency never has them, arrgo adds them. */
const VIDEO_DDL = SCHEMA_DDL.slice(0, SCHEMA_DDL.indexOf('CREATE TABLE lidarr_'));

/**
 * Two versions of a schema dependency.
 * - 1.0.0 has a `legacy_notes` table.
 * - 1.1.0 drops `legacy_notes`, adds a `category` column to custom_formats and a `format_groups`
 *   table, and seeds two languages itself (one arrgo does not know).
 */
export const FIXTURE_SCHEMA_VERSIONS: Record<'1.0.0' | '1.1.0', Record<string, string>> = {
  '1.0.0': {
    'ops/0.schema.sql': `${VIDEO_DDL}\nCREATE TABLE legacy_notes (name VARCHAR(100) NOT NULL PRIMARY KEY, body TEXT NOT NULL);\n`,
  },
  '1.1.0': {
    'ops/0.schema.sql': `${VIDEO_DDL.replace(/CREATE TABLE custom_formats \(\n/, 'CREATE TABLE custom_formats (\n  category VARCHAR(50),\n')}\nCREATE TABLE format_groups (name VARCHAR(100) NOT NULL PRIMARY KEY);\n`,
    'ops/1.languages.sql': `INSERT INTO languages (name) VALUES ('English');\nINSERT INTO languages (name) VALUES ('Klingon');\n`,
  },
};

/** Base ops written for each fixture schema version: each fails against the other version. */
export const FIXTURE_PCD_OPS: Record<'1.0.0' | '1.1.0', Record<string, string>> = {
  '1.0.0': {
    'ops/1.initial.sql': [
      `INSERT INTO legacy_notes (name, body) VALUES ('origin', 'written for schema 1.0.0');`,
      `INSERT INTO regular_expressions (name, pattern) VALUES ('Old Regex', 'old');`,
      `INSERT INTO custom_formats (name) VALUES ('Old Format');`,
    ].join('\n'),
  },
  '1.1.0': {
    'ops/1.initial.sql': [
      `INSERT INTO format_groups (name) VALUES ('Audio');`,
      `INSERT INTO regular_expressions (name, pattern) VALUES ('New Regex', 'new');`,
      `INSERT INTO custom_formats (name, category) VALUES ('New Format', 'Audio');`,
      `INSERT INTO quality_profiles (name) VALUES ('Klingon Profile');`,
      `INSERT INTO quality_profile_languages (quality_profile_name, language_name, type) VALUES ('Klingon Profile', 'Klingon', 'must');`,
    ].join('\n'),
  },
};

export interface FixtureSchemaRepo extends TestGitRepo {
  /** The dependency URL (file://), named like a community fork (`…/praxrr-schema`). */
  url: string;
}

/** The fixture schema dependency as a local git repository with tags 1.0.0 and 1.1.0. */
export function makeFixtureSchemaRepo(): FixtureSchemaRepo {
  const seed = fs.mkdtempSync(path.join(os.tmpdir(), 'arrgo-schema-seed-'));
  fs.writeFileSync(path.join(seed, 'pcd.json'), JSON.stringify({ name: 'praxrr-schema', version: '1.0.0', arr_types: ['radarr', 'sonarr'] }));
  const repo = makeGitRepo(seed, { name: 'praxrr-schema' });
  fs.rmSync(seed, { recursive: true, force: true });
  let previous: string[] = [];
  for (const [version, files] of Object.entries(FIXTURE_SCHEMA_VERSIONS)) {
    const removed = Object.fromEntries(previous.filter((f) => !(f in files)).map((f) => [f, null]));
    repo.commit({ ...removed, ...files, 'pcd.json': JSON.stringify({ name: 'praxrr-schema', version, arr_types: ['radarr', 'sonarr'] }) }, `schema ${version}`);
    repo.tag(version);
    previous = Object.keys(files);
  }
  // A branch named by a version (as Profilarr accepts): 0.9.0 lacks a column arrgo reads.
  repo.git('checkout', '-q', '-b', '0.9.0', '1.0.0');
  repo.commit({ 'ops/0.schema.sql': FIXTURE_SCHEMA_VERSIONS['1.0.0']['ops/0.schema.sql'].replace(/\n\s*include_in_rename [^\n]*\n/, '\n') }, 'schema 0.9.0');
  repo.git('checkout', '-q', 'main');
  // The branch head moves on after the tags: a pinned database must not see this.
  repo.commit({ 'ops/0.schema.sql': 'CREATE TABLE unreleased (name TEXT);' }, 'unreleased work');
  return repo;
}

/** A local PCD directory pinned to one fixture schema version of `schemaUrl`. */
export function writeFixturePcd(version: '1.0.0' | '1.1.0', schemaUrl: string, pinned: string = version): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `arrgo-pcd-${version}-`));
  fs.writeFileSync(
    path.join(dir, 'pcd.json'),
    JSON.stringify({ name: `fixture-${version}`, version: '0.1.0', arr_types: ['radarr', 'sonarr'], dependencies: { [schemaUrl]: pinned } }),
  );
  for (const [file, text] of Object.entries(FIXTURE_PCD_OPS[version])) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

/** The fixture schema version's ops/ files, as a repository reader gives them. */
export function fixtureSchemaFiles(version: '1.0.0' | '1.1.0'): PcdFile[] {
  return Object.entries(FIXTURE_SCHEMA_VERSIONS[version]).map(([file, text]) => ({ file: file.replace(/^ops\//, ''), text }));
}

/**
 * A PCD whose files carry no op markers (each file is one op) and whose value guards partly match
 * nothing, as community databases written by hand do. Profilarr runs every statement; writes whose
 * guards match nothing change nothing and the rest of the file stays.
 */
export const UNMARKED_GUARDS_PCD: { manifest: string; ops: PcdFile[]; tweaks: PcdFile[] } = {
  manifest: JSON.stringify({ name: 'unmarked', version: '1.0.0', arr_types: ['radarr', 'sonarr'] }),
  ops: [
    {
      file: '1.initial.sql',
      text: [
        `INSERT INTO regular_expressions (name, pattern) VALUES ('x264', 'x264'), ('x265', 'x265'), ('AV1', 'av1');`,
        `INSERT INTO tags (name) VALUES ('codec');`,
        `INSERT INTO regular_expression_tags (regular_expression_name, tag_name) VALUES ('x264', 'codec');`,
        `INSERT INTO custom_formats (name, description) VALUES ('x265', 'HEVC'), ('AV1', NULL);`,
        `INSERT INTO custom_format_conditions (custom_format_name, name, type) VALUES ('x265', 'x265', 'release_title'), ('AV1', 'AV1', 'release_title');`,
        `INSERT INTO condition_patterns (custom_format_name, condition_name, regular_expression_name) VALUES ('x265', 'x265', 'x265'), ('AV1', 'AV1', 'AV1');`,
        `INSERT INTO quality_profiles (name) VALUES ('HD');`,
        `INSERT INTO quality_profile_custom_formats (quality_profile_name, custom_format_name, arr_type, score) VALUES ('HD', 'x265', 'all', -100), ('HD', 'AV1', 'all', 50);`,
      ].join('\n'),
    },
    {
      // No markers; 10 statements, 4 of whose guards match nothing (stale values, absent rows).
      file: '2.refresh-codecs.sql',
      text: [
        `-- refresh codec patterns`,
        `UPDATE regular_expressions SET pattern = '[xh]\\.?265' WHERE name = 'x265' AND pattern = 'x265';`,
        `UPDATE regular_expressions SET pattern = 'stale' WHERE name = 'x264' AND pattern = 'not-the-current-value';`,
        `INSERT INTO regular_expressions (name, pattern) VALUES ('VVC', 'vvc|h\\.?266');`,
        `UPDATE custom_formats SET description = 'H.265' WHERE name = 'x265' AND description = 'HEVC';`,
        `UPDATE custom_formats SET description = 'gone' WHERE name = 'DivX' AND description = 'old';`,
        `DELETE FROM quality_profile_custom_formats WHERE quality_profile_name = 'HD' AND custom_format_name = 'AV1' AND score = 999;`,
        `UPDATE quality_profile_custom_formats SET score = -200 WHERE quality_profile_name = 'HD' AND custom_format_name = 'x265' AND score = -100;`,
        `DELETE FROM regular_expression_tags WHERE regular_expression_name = 'x265' AND tag_name = 'codec';`,
        `INSERT INTO custom_format_conditions (custom_format_name, name, type) VALUES ('AV1', 'Not VVC', 'release_title');`,
        `INSERT INTO condition_patterns (custom_format_name, condition_name, regular_expression_name) VALUES ('AV1', 'Not VVC', 'VVC');`,
      ].join('\n'),
    },
    {
      // Hand-written files sometimes wrap themselves in a transaction.
      file: '4.wrapped.sql',
      text: `BEGIN TRANSACTION;\nINSERT INTO tags (name) VALUES ('wrapped');\nCOMMIT;`,
    },
    {
      // Every write of this file matches nothing: the op is skipped, not failed.
      file: '3.noop.sql',
      text: `UPDATE regular_expressions SET pattern = 'y' WHERE name = 'Nope';\nDELETE FROM custom_formats WHERE name = 'Nope';`,
    },
  ],
  tweaks: [
    {
      file: 'prefer-av1.sql',
      text: `UPDATE quality_profile_custom_formats SET score = 75 WHERE quality_profile_name = 'HD' AND custom_format_name = 'AV1' AND score = 50;\nUPDATE quality_profile_custom_formats SET score = 1 WHERE quality_profile_name = 'HD' AND custom_format_name = 'Ghost';`,
    },
  ],
};
