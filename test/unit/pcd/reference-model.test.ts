/**
 * Reference model: arrgo's resolved state must equal a plain execution of the same files on the
 * same schema, each file run whole as Profilarr's compiler runs it (foreign keys on, no savepoints,
 * no lineage). Only arrgo's bookkeeping differs: the _pcd_* lineage tables, and the created_at /
 * updated_at timestamps (wall-clock values) are left out of the comparison.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { assessReplay, loadPcdRepository, replayPcd, resolveEntity, schemaSeedOps, SCHEMA_DDL, sortOpFiles, type PcdFile, type ReplayedPcd } from '../../../src/domain/pcd';
import { UNMARKED_GUARDS_PCD } from '../../helpers/pcd-fixtures';
import { describeWithShared, sharedPath } from '../../helpers/shared-data';
import { TRASH_PCD_PARTS } from './helpers';

const TIMESTAMPS = new Set(['created_at', 'updated_at']);

function plainWholeFileReplay(ops: PcdFile[], tweaks: PcdFile[]): Database.Database {
  const db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
  db.exec(SCHEMA_DDL);
  for (const seed of schemaSeedOps()) db.exec(seed.sql);
  for (const file of [...sortOpFiles(ops), ...sortOpFiles(tweaks)]) db.exec(file.text);
  return db;
}

function dataTables(db: Database.Database): string[] {
  return db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%' AND substr(name, 1, 5) <> '_pcd_' ORDER BY name").pluck().all() as string[];
}

function rows(db: Database.Database, table: string): unknown[][] {
  const cols = (db.prepare(`PRAGMA table_info("${table}")`).all() as { name: string }[]).map((c) => c.name).filter((c) => !TIMESTAMPS.has(c));
  const list = cols.map((c) => `"${c}"`).join(', ');
  return db.prepare(`SELECT ${list} FROM "${table}" ORDER BY ${list}`).raw().all() as unknown[][];
}

function expectIdentical(arrgo: Database.Database, plain: Database.Database): void {
  expect(dataTables(arrgo)).toEqual(dataTables(plain));
  for (const table of dataTables(plain)) {
    const ours = rows(arrgo, table);
    const theirs = rows(plain, table);
    expect({ table, count: ours.length }).toEqual({ table, count: theirs.length });
    expect({ table, rows: ours }).toEqual({ table, rows: theirs });
  }
}

describe('reference model: unmarked files with zero-row guards', () => {
  const repo = loadPcdRepository(UNMARKED_GUARDS_PCD);
  let replay: ReplayedPcd;
  beforeAll(() => {
    replay = replayPcd({ base: repo.base, tweaks: repo.tweaks });
  });

  it('is identical, table by table, to plain whole-file execution', () => {
    const plain = plainWholeFileReplay(UNMARKED_GUARDS_PCD.ops, UNMARKED_GUARDS_PCD.tweaks);
    expectIdentical(replay.resolved, plain);
    plain.close();
  });

  it('keeps every other statement of a file whose guards partly match nothing', () => {
    const db = replay.resolved;
    expect(db.prepare("SELECT pattern FROM regular_expressions WHERE name = 'x265'").pluck().get()).toBe('[xh]\\.?265');
    expect(db.prepare("SELECT pattern FROM regular_expressions WHERE name = 'x264'").pluck().get()).toBe('x264');
    expect(db.prepare("SELECT pattern FROM regular_expressions WHERE name = 'VVC'").pluck().get()).toBe('vvc|h\\.?266');
    expect(db.prepare("SELECT description FROM custom_formats WHERE name = 'x265'").pluck().get()).toBe('H.265');
    expect(db.prepare("SELECT regular_expression_name FROM condition_patterns WHERE custom_format_name = 'AV1' AND condition_name = 'Not VVC'").pluck().get()).toBe('VVC');
    expect(db.prepare("SELECT COUNT(*) FROM tags WHERE name = 'wrapped'").pluck().get()).toBe(1);
    expect(db.prepare("SELECT custom_format_name, score FROM quality_profile_custom_formats ORDER BY custom_format_name").raw().all()).toEqual([
      ['AV1', 75],
      ['x265', -200],
    ]);
  });

  it('records the skipped writes with their op and statement, and fails nothing', () => {
    expect(replay.failures).toEqual([]);
    const byFile = (file: string) => replay.outcomes.find((o) => o.file === file)!;
    expect(byFile('ops/2.refresh-codecs.sql')).toMatchObject({
      status: 'applied',
      skippedWrites: [
        { statement: 2, kind: 'update', table: 'regular_expressions' },
        { statement: 5, kind: 'update', table: 'custom_formats' },
        { statement: 6, kind: 'delete', table: 'quality_profile_custom_formats' },
        { statement: 8, kind: 'delete', table: 'regular_expression_tags' },
      ],
    });
    expect(byFile('ops/3.noop.sql')).toMatchObject({ status: 'skipped', reason: null, skippedWrites: [{ statement: 1 }, { statement: 2 }] });
    expect(byFile('tweaks/prefer-av1.sql')).toMatchObject({ status: 'applied', skippedWrites: [{ statement: 2, kind: 'update' }] });
    expect(replay.stats).toMatchObject({ failed: 0, skipped: 1, skippedWrites: 7 });
    const health = assessReplay({ outcomes: replay.outcomes, base: replay.base, repositoryOps: repo.base.length + repo.tweaks.length });
    expect(health).toMatchObject({ status: 'ready', failedOps: 0 });
    expect(health.firstSkippedWrites).toHaveLength(5);
    expect(health.firstSkippedWrites[0]).toEqual({
      layer: 'base',
      opId: repo.base[1].id,
      file: 'ops/2.refresh-codecs.sql',
      position: 1,
      markerId: null,
      target: null,
      statement: 2,
      kind: 'update',
      table: 'regular_expressions',
    });
  });

  it('keeps lineage exact: writes that changed nothing establish nothing', () => {
    const op = (file: string) => repo.base.find((o) => o.file === file)!.id;
    const lineage = (type: 'regular_expression' | 'custom_format' | 'quality_profile', name: string) => resolveEntity(replay, type, name, { includeLineage: true }).lineage!;
    expect(lineage('regular_expression', 'x264').find((l) => l.path === 'pattern')).toMatchObject({ sourceLayer: 'base', opId: op('ops/1.initial.sql') });
    expect(lineage('regular_expression', 'x265').find((l) => l.path === 'pattern')).toMatchObject({ sourceLayer: 'base', opId: op('ops/2.refresh-codecs.sql'), explicit: true });
    const scores = lineage('quality_profile', 'HD');
    expect(scores.find((l) => l.path === 'customFormats.all.AV1.score')).toMatchObject({ sourceLayer: 'tweaks', fileOp: { file: 'tweaks/prefer-av1.sql', position: 1 } });
    const noop = op('ops/3.noop.sql');
    for (const name of ['x264', 'x265', 'AV1', 'VVC']) expect(lineage('regular_expression', name).some((l) => l.opId === noop)).toBe(false);
  });
});

describeWithShared(TRASH_PCD_PARTS, 'reference model: trash-pcd', () => {
  const dir = sharedPath(...TRASH_PCD_PARTS);
  const ops = () => fs.readdirSync(path.join(dir, 'ops')).map((file) => ({ file, text: fs.readFileSync(path.join(dir, 'ops', file), 'utf8') }));

  it('is identical, table by table, to plain whole-file execution', () => {
    const files = ops();
    const repo = loadPcdRepository({ ops: files });
    const replay = replayPcd({ base: repo.base });
    expect(replay.stats.failed).toBe(0);
    const plain = plainWholeFileReplay(files, []);
    expectIdentical(replay.resolved, plain);
    plain.close();
  });

  it('gives the same state when a schema dependency defines the PCD tables itself (arrgo adds only music_app tables and seeds)', () => {
    const repo = loadPcdRepository({ ops: ops() });
    const videoDdl = SCHEMA_DDL.slice(0, SCHEMA_DDL.indexOf('CREATE TABLE lidarr_'));
    const schema = [{ layer: 'schema' as const, id: null, file: 'deps/schema/ops/0.schema.sql', position: 1, sql: videoDdl }];
    const onDependency = replayPcd({ schema, base: repo.base });
    expect(onDependency.schema).toMatchObject({ source: 'dependency', gaps: [] });
    expect(onDependency.stats.failed).toBe(0);
    const counts = (t: string) => onDependency.resolved.prepare(`SELECT COUNT(*) FROM ${t}`).pluck().get();
    expect([counts('custom_formats'), counts('regular_expressions'), counts('quality_profiles')]).toEqual([200, 979, 22]);
    const bundled = replayPcd({ base: repo.base });
    expectIdentical(onDependency.resolved, bundled.resolved);
  });
});
