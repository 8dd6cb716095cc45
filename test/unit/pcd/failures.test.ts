import { replayPcd, replayUserLayer, type PcdOp, type UserOp } from '../../../src/domain/pcd';
import { count } from './helpers';

let nextId = 1;
const op = (sql: string, target?: PcdOp['target']): PcdOp => ({ layer: 'base', id: nextId++, file: 'ops/1.fixture.sql', position: nextId, sql, target });

const setup = op(`
  INSERT INTO regular_expressions (name, pattern) VALUES ('A', 'a');
  INSERT INTO regular_expressions (name, pattern) VALUES ('B', 'b');
  INSERT INTO custom_formats (name) VALUES ('CF1');
  INSERT INTO custom_format_conditions (custom_format_name, name, type) VALUES ('CF1', 'c1', 'release_title');
  INSERT INTO condition_patterns (custom_format_name, condition_name, regular_expression_name) VALUES ('CF1', 'c1', 'A');
  INSERT INTO quality_profiles (name) VALUES ('P');
  INSERT INTO quality_profile_custom_formats (quality_profile_name, custom_format_name, arr_type, score) VALUES ('P', 'CF1', 'radarr', 10);
`);

const cases: { name: string; op: PcdOp; status: 'applied' | 'skipped' | 'failed'; reason: string | null }[] = [
  { name: 'duplicate regex name', op: op(`INSERT INTO regular_expressions (name, pattern) VALUES ('A', 'again')`), status: 'failed', reason: 'duplicate_key' },
  {
    name: 'duplicate composite primary key',
    op: op(`INSERT INTO quality_profile_custom_formats (quality_profile_name, custom_format_name, arr_type, score) VALUES ('P', 'CF1', 'radarr', 99)`),
    status: 'failed',
    reason: 'duplicate_key',
  },
  {
    name: 'foreign key to a missing regex',
    op: op(`INSERT INTO condition_patterns (custom_format_name, condition_name, regular_expression_name) VALUES ('CF1', 'c1x', 'Nope')`),
    status: 'failed',
    reason: 'missing_target',
  },
  {
    name: 'update of a missing entity',
    op: op(`update "regular_expressions" set "pattern" = 'x' where "name" = 'Ghost' and "pattern" = 'y'`, { entityType: 'regular_expression', name: 'Ghost' }),
    status: 'skipped',
    reason: null,
  },
  {
    name: 'delete of a missing entity',
    op: op(`delete from "custom_formats" where "name" = 'Ghost'`),
    status: 'skipped',
    reason: null,
  },
  {
    name: 'update whose value guard no longer matches',
    op: op(`update "regular_expressions" set "pattern" = 'z' where "name" = 'A' and "pattern" = 'not-a'`),
    status: 'skipped',
    reason: null,
  },
  {
    name: 'delete whose value guard no longer matches',
    op: op(`delete from "quality_profile_custom_formats" where "quality_profile_name" = 'P' and "custom_format_name" = 'CF1' and "arr_type" = 'radarr' and "score" = 55`),
    status: 'skipped',
    reason: null,
  },
  { name: 'syntax error', op: op(`UPDAT regular_expressions SET pattern = 'x'`), status: 'failed', reason: 'invalid' },
  {
    name: 'CHECK constraint',
    op: op(`INSERT INTO delay_profiles (name, preferred_protocol, usenet_delay, torrent_delay) VALUES ('D', 'carrier_pigeon', 0, 0)`),
    status: 'failed',
    reason: 'invalid',
  },
  {
    name: 'NOT NULL constraint',
    op: op(`INSERT INTO regular_expressions (name) VALUES ('NoPattern')`),
    status: 'failed',
    reason: 'invalid',
  },
  {
    name: 'CHECK constraint of a music_app table (unknown Lidarr album type)',
    op: op(`INSERT INTO lidarr_metadata_profiles (name) VALUES ('M'); INSERT INTO lidarr_metadata_profile_primary_types (metadata_profile_name, type_name, allowed, position) VALUES ('M', 'Mixtape', 1, 0)`),
    status: 'failed',
    reason: 'invalid',
  },
  {
    name: 'the reserved Lidarr metadata profile name',
    op: op(`INSERT INTO lidarr_metadata_profiles (name) VALUES ('None')`),
    status: 'failed',
    reason: 'invalid',
  },
  {
    name: "arr_type 'lidarr' on a custom format condition",
    op: op(`INSERT INTO custom_format_conditions (custom_format_name, name, type, arr_type) VALUES ('CF1', 'music', 'release_title', 'lidarr')`),
    status: 'applied',
    reason: null,
  },
  { name: 'rename cascading into references', op: op(`update "regular_expressions" set "name" = 'A2' where "name" = 'A'`), status: 'applied', reason: null },
  {
    name: 're-pointing a reference the rename already cascaded',
    op: op(`update "condition_patterns" set "regular_expression_name" = 'A2' where "custom_format_name" = 'CF1' and "condition_name" = 'c1' and "regular_expression_name" = 'A'`),
    status: 'skipped',
    reason: null,
  },
  { name: 'deleting rows that are already gone', op: op(`delete from "quality_profile_languages" where "quality_profile_name" = 'P'`), status: 'skipped', reason: null },
  {
    name: 'a multi-statement op whose guards match nothing but whose other writes apply',
    op: op(`update "regular_expressions" set "pattern" = 'z' where "name" = 'B' and "pattern" = 'stale'; INSERT INTO tags (name) VALUES ('kept'); delete from "custom_formats" where "name" = 'Ghost'`),
    status: 'applied',
    reason: null,
  },
  {
    name: 'a multi-statement op whose last statement fails',
    op: op(`INSERT INTO tags (name) VALUES ('rolled-back'); INSERT INTO regular_expressions (name, pattern) VALUES ('B', 'dup')`),
    status: 'failed',
    reason: 'duplicate_key',
  },
];

describe('base op outcomes (Profilarr semantics: 0-row writes are skipped, errors fail the op)', () => {
  const replay = replayPcd({ base: [setup, ...cases.map((c) => c.op)] });
  const outcome = (o: PcdOp) => replay.outcomes.find((x) => x.layer === 'base' && x.id === o.id)!;

  it('applies the setup op', () => {
    expect(outcome(setup).status).toBe('applied');
  });

  it.each(cases.map((c) => [c.name, c]))('%s', (_name, c) => {
    const o = outcome(c.op);
    expect({ status: o.status, reason: o.reason }).toEqual({ status: c.status, reason: c.reason });
    if (c.status === 'failed') expect(o.message).toEqual(expect.any(String));
  });

  it('never stops the replay and rolls failed ops back completely', () => {
    expect(replay.stats.ops).toBe(replay.outcomes.length);
    expect(replay.resolved.prepare("SELECT COUNT(*) FROM tags WHERE name = 'rolled-back'").pluck().get()).toBe(0);
    expect(count(replay.resolved, 'regular_expressions')).toBe(2);
    expect(replay.resolved.prepare("SELECT COUNT(*) FROM tags WHERE name = 'kept'").pluck().get()).toBe(1);
    expect(replay.resolved.prepare("SELECT regular_expression_name FROM condition_patterns WHERE condition_name = 'c1'").pluck().get()).toBe('A2');
  });

  it('records failures with their op identity', () => {
    const failed = replay.failures.map((f) => f.id);
    expect(failed).toEqual(cases.filter((c) => c.status === 'failed').map((c) => c.op.id));
    expect(replay.failures[0]).toMatchObject({ layer: 'base', file: 'ops/1.fixture.sql', status: 'failed' });
  });
});

describe('skipped writes of base ops', () => {
  it('records each write that changed no row with its statement ordinal, and counts them', () => {
    const replay = replayPcd({ base: [setup, ...cases.map((c) => c.op)] });
    const mixed = cases.find((c) => c.name.startsWith('a multi-statement op whose guards'))!.op;
    const o = replay.outcomes.find((x) => x.id === mixed.id)!;
    expect(o.skippedWrites).toEqual([
      { statement: 1, kind: 'update', table: 'regular_expressions' },
      { statement: 3, kind: 'delete', table: 'custom_formats' },
    ]);
    expect(replay.stats.skipped).toBe(cases.filter((c) => c.status === 'skipped').length);
    expect(replay.stats.skippedWrites).toBe(cases.filter((c) => c.status === 'skipped').length + 2);
  });
});

describe('user op value guards (unchanged: a write that changes nothing is a conflict unless its state already holds)', () => {
  const base = replayPcd({ base: [setup] });
  let nextUser = 1000;
  const user = (sql: string, portableType: UserOp['target']['portableType'], name: string): UserOp => ({ id: nextUser++, sql, target: { portableType, name } });
  const userCases: { name: string; op: UserOp; status: 'applied' | 'failed'; reason: string | null }[] = [
    { name: 'update of a missing entity', op: user(`update "regular_expressions" set "pattern" = 'x' where "name" = 'Ghost' and "pattern" = 'y'`, 'regular_expression', 'Ghost'), status: 'failed', reason: 'missing_target' },
    { name: 'update whose value guard no longer matches', op: user(`update "regular_expressions" set "pattern" = 'z' where "name" = 'A' and "pattern" = 'not-a'`, 'regular_expression', 'A'), status: 'failed', reason: 'guard_mismatch' },
    {
      name: 'delete whose value guard no longer matches',
      op: user(`delete from "quality_profile_custom_formats" where "quality_profile_name" = 'P' and "custom_format_name" = 'CF1' and "arr_type" = 'radarr' and "score" = 55`, 'quality_profile', 'P'),
      status: 'failed',
      reason: 'guard_mismatch',
    },
    { name: 'update whose state already holds', op: user(`update "regular_expressions" set "pattern" = 'a' where "name" = 'A' and "pattern" = 'old'`, 'regular_expression', 'A'), status: 'applied', reason: null },
  ];
  const replayed = replayUserLayer(base.base, userCases.map((c) => c.op));

  it.each(userCases.map((c) => [c.name, c]))('%s', (_name, c) => {
    const o = replayed.outcomes.find((x) => x.id === c.op.id)!;
    expect({ status: o.status, reason: o.reason }).toEqual({ status: c.status, reason: c.reason });
  });

  it('makes the failed guards pending conflicts', () => {
    expect(replayed.conflicts.map((c) => c.opId)).toEqual(userCases.filter((c) => c.status === 'failed').map((c) => c.op.id));
  });
});
