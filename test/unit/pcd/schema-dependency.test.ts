import { assessReplay, listResolved, loadPcdRepository, replayPcd, type PcdOp } from '../../../src/domain/pcd';
import { FIXTURE_PCD_OPS, fixtureSchemaFiles } from '../../helpers/pcd-fixtures';

const schemaOps = (version: '1.0.0' | '1.1.0'): PcdOp[] =>
  loadPcdRepository({ ops: fixtureSchemaFiles(version) }).base.map((op) => ({ ...op, layer: 'schema' as const, id: null, file: `deps/praxrr-schema/${op.file}` }));

const baseOps = (version: '1.0.0' | '1.1.0'): PcdOp[] =>
  loadPcdRepository({ ops: Object.entries(FIXTURE_PCD_OPS[version]).map(([file, text]) => ({ file: file.replace(/^ops\//, ''), text })) }).base;

const replayOn = (schema: '1.0.0' | '1.1.0', pcd: '1.0.0' | '1.1.0') => replayPcd({ schema: schemaOps(schema), base: baseOps(pcd) });

describe('schema layer from a schema dependency', () => {
  it('replays a database written for 1.0.0 against 1.0.0, with arrgo adding only the tables it lacks', () => {
    const replay = replayOn('1.0.0', '1.0.0');
    expect(replay.failures).toEqual([]);
    expect(replay.schema.source).toBe('dependency');
    expect(replay.schema.gaps).toEqual([]);
    expect(replay.schema.addedTables).toEqual(expect.arrayContaining(['lidarr_naming', 'lidarr_metadata_profiles', 'lidarr_quality_definitions']));
    expect(replay.schema.addedTables).not.toContain('custom_formats');
    expect(replay.resolved.prepare("SELECT body FROM legacy_notes WHERE name = 'origin'").pluck().get()).toBe('written for schema 1.0.0');
    expect(listResolved(replay, 'customFormat').entities.map((e) => e.name)).toEqual(['Old Format']);
    // arrgo's seed rows fill the dependency's empty tables.
    expect(replay.resolved.prepare("SELECT api_name FROM quality_api_mappings WHERE quality_name = 'Remux-1080p' AND arr_type = 'sonarr'").pluck().get()).toBe('Bluray-1080p Remux');
    expect(replay.outcomes.filter((o) => o.layer === 'schema').map((o) => o.file)).toEqual([
      'deps/praxrr-schema/ops/0.schema.sql',
      'schema/seeds/qualities.sql',
      'schema/seeds/quality_api_mappings.sql',
      'schema/seeds/languages.sql',
    ]);
  });

  it('replays a database written for 1.1.0 against 1.1.0: its columns, its tables and its own seed rows', () => {
    const replay = replayOn('1.1.0', '1.1.0');
    expect(replay.failures).toEqual([]);
    expect(replay.resolved.prepare("SELECT category FROM custom_formats WHERE name = 'New Format'").pluck().get()).toBe('Audio');
    expect(replay.resolved.prepare('SELECT COUNT(*) FROM format_groups').pluck().get()).toBe(1);
    expect(replay.resolved.prepare("SELECT COUNT(*) FROM sqlite_master WHERE name = 'legacy_notes'").pluck().get()).toBe(0);
    // The dependency's seed (Klingon) and arrgo's (French) both hold; English once.
    const languages = replay.resolved.prepare("SELECT name FROM languages WHERE name IN ('English', 'Klingon', 'French') ORDER BY name").pluck().all();
    expect(languages).toEqual(['English', 'French', 'Klingon']);
    expect(replay.resolved.prepare("SELECT language_name FROM quality_profile_languages WHERE quality_profile_name = 'Klingon Profile'").pluck().get()).toBe('Klingon');
  });

  it('each version fails the database written for the other one (the versions really differ)', () => {
    for (const [schema, pcd] of [
      ['1.1.0', '1.0.0'],
      ['1.0.0', '1.1.0'],
    ] as const) {
      const replay = replayOn(schema, pcd);
      expect(replay.failures.map((f) => ({ layer: f.layer, reason: f.reason }))).toEqual([{ layer: 'base', reason: 'invalid' }]);
      expect(assessReplay({ outcomes: replay.outcomes, base: replay.base, repositoryOps: 1, schema: replay.schema })).toMatchObject({
        status: 'failed',
        reason: 'replay_empty',
        entities: 0,
        failedOps: 1,
        failedByReason: { invalid: 1 },
        firstFailed: [{ layer: 'base', opId: 1, file: 'ops/1.initial.sql', position: 1, markerId: null, target: null, reason: 'invalid' }],
      });
    }
  });

  it('records lineage of the dependency schema layer and of base ops on its tables', () => {
    const replay = replayOn('1.1.0', '1.1.0');
    const lineage = listResolved(replay, 'customFormat', { includeLineage: true }).entities[0].lineage!;
    expect(lineage.find((l) => l.path === 'name')).toMatchObject({ status: 'resolved', sourceLayer: 'base', opId: 1 });
  });

  it('names the columns arrgo reads that a dependency lacks', () => {
    const stripped = schemaOps('1.0.0').map((op) => ({ ...op, sql: op.sql.replace('  include_in_rename INTEGER NOT NULL DEFAULT 0,\n', '') }));
    expect(stripped[0].sql).not.toContain('include_in_rename');
    const replay = replayPcd({ schema: stripped, base: baseOps('1.0.0') });
    expect(replay.schema.gaps).toEqual(['custom_formats.include_in_rename']);
    expect(assessReplay({ outcomes: replay.outcomes, base: replay.base, repositoryOps: 1, schema: replay.schema })).toMatchObject({ status: 'failed', reason: 'schema_gaps' });
  });
});

describe('triggers of a schema dependency', () => {
  // Profilarr's schema removes a condition whose pattern row is deleted. SQLite fires delete
  // triggers for REPLACE only with recursive triggers on; Profilarr leaves them off, so must arrgo.
  const withCleanup = schemaOps('1.0.0').map((op) => ({
    ...op,
    sql: `${op.sql}\nCREATE TRIGGER trg_condition_patterns_cleanup AFTER DELETE ON condition_patterns BEGIN DELETE FROM custom_format_conditions WHERE custom_format_name = OLD.custom_format_name AND name = OLD.condition_name; END;`,
  }));
  const ops = loadPcdRepository({
    ops: [
      {
        file: '1.initial.sql',
        text: [
          "INSERT INTO regular_expressions (name, pattern) VALUES ('A', 'a'), ('B', 'b');",
          "INSERT INTO custom_formats (name) VALUES ('CF');",
          "INSERT INTO custom_format_conditions (custom_format_name, name, type) VALUES ('CF', 'c', 'release_title');",
          "INSERT INTO condition_patterns (custom_format_name, condition_name, regular_expression_name) VALUES ('CF', 'c', 'A');",
        ].join('\n'),
      },
      { file: '2.repoint.sql', text: "INSERT OR REPLACE INTO condition_patterns (custom_format_name, condition_name, regular_expression_name) VALUES ('CF', 'c', 'B');" },
      { file: '3.drop-regex.sql', text: "DELETE FROM regular_expressions WHERE name = 'B';" },
    ],
  }).base;

  it('run as in Profilarr: a REPLACE does not fire them, a cascaded delete does', () => {
    const replay = replayPcd({ schema: withCleanup, base: ops.slice(0, 2) });
    expect(replay.failures).toEqual([]);
    expect(replay.resolved.prepare("SELECT regular_expression_name FROM condition_patterns WHERE condition_name = 'c'").pluck().get()).toBe('B');
    expect(replay.resolved.prepare('SELECT COUNT(*) FROM custom_format_conditions').pluck().get()).toBe(1);
    const dropped = replayPcd({ schema: withCleanup, base: ops });
    expect(dropped.resolved.prepare('SELECT COUNT(*) FROM custom_format_conditions').pluck().get()).toBe(0);
  });
});

describe('replay health', () => {
  it('is ready for a complete replay and degraded when some ops failed, naming the first ones', () => {
    const ok = replayPcd({ base: baseOps('1.0.0').map((o) => ({ ...o, sql: o.sql.replace(/^INSERT INTO legacy_notes.*$/m, '') })) });
    expect(assessReplay({ outcomes: ok.outcomes, base: ok.base, repositoryOps: 1 })).toMatchObject({ status: 'ready', reason: null, failedOps: 0, entities: 2 });
    const repo = loadPcdRepository({
      ops: [
        { file: '1.initial.sql', text: "INSERT INTO custom_formats (name) VALUES ('Kept');" },
        { file: '2.orphan-conditions.sql', text: "INSERT INTO custom_format_conditions (custom_format_name, name, type) VALUES ('Never Created', 'c', 'release_title');" },
      ],
    });
    const degraded = replayPcd({ base: repo.base });
    expect(assessReplay({ outcomes: degraded.outcomes, base: degraded.base, repositoryOps: 2 })).toMatchObject({
      status: 'degraded',
      reason: 'ops_failed',
      failedOps: 1,
      failedByReason: { missing_target: 1 },
      firstFailed: [{ file: 'ops/2.orphan-conditions.sql', reason: 'missing_target' }],
      entities: 1,
    });
  });

  it('is failed when a non-empty repository yields no entity, and ready for an empty one', () => {
    const repo = loadPcdRepository({ ops: [{ file: '1.conditions.sql', text: "INSERT INTO custom_format_conditions (custom_format_name, name, type) VALUES ('Ghost', 'c', 'release_title');" }] });
    const failed = replayPcd({ base: repo.base });
    expect(assessReplay({ outcomes: failed.outcomes, base: failed.base, repositoryOps: 1 })).toMatchObject({ status: 'failed', reason: 'replay_empty' });
    const empty = replayPcd({ base: [] });
    expect(assessReplay({ outcomes: empty.outcomes, base: empty.base, repositoryOps: 0 })).toMatchObject({ status: 'ready', entities: 0 });
  });
});
