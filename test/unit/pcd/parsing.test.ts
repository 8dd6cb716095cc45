import { AppError } from '../../../src/errors';
import { loadPcdRepository, parseManifest, parseOpFile, sortOpFiles, splitStatements } from '../../../src/domain/pcd';
import { describeStatement, parseWrite } from '../../../src/domain/pcd/sql/statement';

describe('op files', () => {
  it('splits marker-delimited ops, keeping file, position, marker id and target', () => {
    const text = [
      '-- @operation: export',
      '-- @entity: batch',
      '-- @name: Tune things',
      '-- @exportedAt: 2026-04-11T20:51:30.356Z',
      '-- @opIds: 7, 8',
      '',
      '-- --- BEGIN op 7 ( update custom_format "HDR10+ Boost" )',
      `update "custom_formats" set "description" = 'x' where "name" = 'HDR10+ Boost' and "description" = 'y';`,
      '-- --- END op 7',
      '',
      '-- --- BEGIN op 8 ( delete regular_expression "say ""hi""" )',
      `delete from "regular_expressions" where "name" = 'a';`,
      '-- --- END op 8',
    ].join('\n');
    const parsed = parseOpFile('ops/5.tune.sql', text);
    expect(parsed.order).toBe(5);
    expect(parsed.headers).toEqual({ operation: 'export', entity: 'batch', name: 'Tune things', exportedAt: '2026-04-11T20:51:30.356Z', opIds: ['7', '8'] });
    expect(parsed.ops).toHaveLength(2);
    expect(parsed.ops[0]).toMatchObject({ file: 'ops/5.tune.sql', position: 1, markerId: '7', target: { verb: 'update', entityType: 'custom_format', name: 'HDR10+ Boost' } });
    expect(parsed.ops[0].sql).toBe(`update "custom_formats" set "description" = 'x' where "name" = 'HDR10+ Boost' and "description" = 'y';`);
    expect(parsed.ops[1]).toMatchObject({ position: 2, markerId: '8', target: { verb: 'delete', entityType: 'regular_expression', name: 'say ""hi""' } });
  });

  it('treats a file without markers as one op', () => {
    const parsed = parseOpFile('ops/1.initial.sql', "-- header\nINSERT INTO tags (name) VALUES ('a');\nINSERT INTO tags (name) VALUES ('b');\n");
    expect(parsed.ops).toHaveLength(1);
    expect(parsed.ops[0]).toMatchObject({ position: 1, markerId: null, target: null });
    expect(splitStatements(parsed.ops[0].sql)).toHaveLength(2);
  });

  it('keeps SQL found outside markers as its own op, and runs an unterminated marker to the end', () => {
    const text = "-- --- BEGIN op 1 ( create tag \"a\" )\nINSERT INTO tags (name) VALUES ('a');\n-- --- END op 1\nINSERT INTO tags (name) VALUES ('loose');\n-- --- BEGIN op 2\nINSERT INTO tags (name) VALUES ('c');\n";
    const ops = parseOpFile('x.sql', text).ops;
    expect(ops.map((o) => [o.position, o.markerId])).toEqual([
      [1, '1'],
      [2, null],
      [3, '2'],
    ]);
    expect(ops[2].target).toBeNull();
  });

  it('sorts op files by numeric prefix', () => {
    expect(sortOpFiles(['10.b.sql', '2.a.sql', 'readme.sql', '1.initial.sql', '100.z.sql'])).toEqual(['1.initial.sql', '2.a.sql', '10.b.sql', '100.z.sql', 'readme.sql']);
    // Only "<number>." is a prefix (Profilarr's rule): "3-dash.sql" is unprefixed and runs last.
    expect(sortOpFiles(['3-dash.sql', '4.b.sql', 'allow-dv.sql'])).toEqual(['4.b.sql', '3-dash.sql', 'allow-dv.sql']);
  });

  it('loads a repository: base ops numbered in replay order, tweaks as file ops', () => {
    const repo = loadPcdRepository({
      ops: [
        { file: '2.more.sql', text: '-- --- BEGIN op 9 ( create tag "b" )\nINSERT INTO tags (name) VALUES (\'b\');\n-- --- END op 9\n' },
        { file: '1.initial.sql', text: "INSERT INTO tags (name) VALUES ('a');" },
      ],
      tweaks: [{ file: 'mine.sql', text: "INSERT INTO tags (name) VALUES ('t');" }],
    });
    expect(repo.manifest).toBeNull();
    expect(repo.base.map((o) => [o.id, o.file, o.position, o.markerId])).toEqual([
      [1, 'ops/1.initial.sql', 1, null],
      [2, 'ops/2.more.sql', 1, '9'],
    ]);
    expect(repo.tweaks).toEqual([expect.objectContaining({ layer: 'tweaks', id: null, file: 'tweaks/mine.sql', position: 1 })]);
  });
});

describe('manifest', () => {
  it('parses pcd.json', () => {
    const m = parseManifest(
      JSON.stringify({ name: 'db', version: '1.0.0', arr_types: ['radarr', 'lidarr'], dependencies: { 'https://github.com/Dictionarry-Hub/schema': '1.1.0' }, license: 'MIT' }),
    );
    expect(m).toMatchObject({ name: 'db', version: '1.0.0', arrTypes: ['movie_app', 'music_app'], pcdArrTypes: ['radarr', 'lidarr'], schemaVersion: '1.1.0' });
    expect(m.raw.license).toBe('MIT');
  });

  it('rejects invalid manifests with a message naming the field', () => {
    expect(() => parseManifest('{')).toThrow('pcd.json is not valid JSON');
    expect(() => parseManifest({ name: 'x', version: '1', arr_types: ['plex'] })).toThrow(/arr_types\.0/);
    expect(() => parseManifest({ version: '1', arr_types: ['radarr'] })).toThrow(/name: required field is missing/);
    expect(() => parseManifest({ name: 'x', version: '1', arr_types: ['radarr'], dependencies: { 'https://github.com/Dictionarry-Hub/schema': '2.0.0' } })).toThrow(
      /schema 1\.x only/,
    );
    try {
      parseManifest({});
    } catch (e) {
      expect(e).toBeInstanceOf(AppError);
      expect((e as AppError).kind).toBe('validation');
    }
  });
});

describe('SQL statements', () => {
  it('splits at top-level semicolons only', () => {
    const sql = `INSERT INTO t (a) VALUES ('x;y'); -- c;omment\n/* block ; */ UPDATE "t;" SET a = 'it''s;' WHERE b = 1;\n\n-- trailing comment`;
    expect(splitStatements(sql)).toEqual([`INSERT INTO t (a) VALUES ('x;y')`, `UPDATE "t;" SET a = 'it''s;' WHERE b = 1`]);
  });

  it('splits statements of many thousand tokens, with quotes, comments, dashes and slashes among them', () => {
    const values = Array.from({ length: 20_000 }, (_, i) => `'v;${i}' /* ; */ - ${i} / 2`).join(', ');
    const long = `INSERT INTO t (a) VALUES (${values})`;
    expect(splitStatements(`${long};\nUPDATE t SET a = 'x' -- ;\n WHERE b = 1; SELECT 'unclosed;`)).toEqual([long, `UPDATE t SET a = 'x' -- ;\n WHERE b = 1`, `SELECT 'unclosed;`]);
  });

  it('keeps a trigger body (with CASE ... END inside) as one statement', () => {
    const trigger = `CREATE TRIGGER trg AFTER DELETE ON a\nBEGIN\n  DELETE FROM b WHERE x = OLD.x;\n  UPDATE c SET y = CASE WHEN OLD.y > 0 THEN 1 ELSE 0 END WHERE z = 'end;';\nEND`;
    const sql = `CREATE TABLE a (x, y);\n${trigger};\ncreate temp trigger t2 after insert on a begin select 1; end;\nINSERT INTO a VALUES (1, 2);`;
    expect(splitStatements(sql)).toEqual(['CREATE TABLE a (x, y)', trigger, 'create temp trigger t2 after insert on a begin select 1; end', 'INSERT INTO a VALUES (1, 2)']);
  });

  it('describes statement heads', () => {
    expect(describeStatement('INSERT INTO "custom_formats" ("name", "description") VALUES (1, 2)')).toEqual({
      kind: 'insert',
      table: 'custom_formats',
      insertColumns: ['name', 'description'],
    });
    expect(describeStatement('insert or ignore into tags values (1)')).toMatchObject({ kind: 'insert', table: 'tags', insertColumns: '*' });
    expect(describeStatement('UPDATE main.tags SET name = 1')).toMatchObject({ kind: 'update', table: 'tags' });
    expect(describeStatement('delete from "tags"')).toMatchObject({ kind: 'delete', table: 'tags' });
    expect(describeStatement('SELECT 1')).toMatchObject({ kind: 'other', table: null });
  });

  it('parses guarded UPDATE and DELETE statements', () => {
    const u = parseWrite(`update "regular_expressions" set "pattern" = 'new', "updated_at" = CURRENT_TIMESTAMP where "name" = 'x' and "pattern" = 'o''ld' and regex101_id IS NULL and -3 = n`);
    expect(u?.table).toBe('regular_expressions');
    expect([...u!.set!.entries()].map(([k, v]) => [k, typeof v === 'symbol' ? 'expr' : v])).toEqual([
      ['pattern', 'new'],
      ['updated_at', 'expr'],
    ]);
    expect(u?.where).toEqual([
      { column: 'name', test: 'eq', value: 'x' },
      { column: 'pattern', test: 'eq', value: "o'ld" },
      { column: 'regex101_id', test: 'null', value: null },
      { column: 'n', test: 'eq', value: -3 },
    ]);
    expect(parseWrite(`DELETE FROM t WHERE a = 1 OR b = 2`)?.where).toBeNull();
    expect(parseWrite(`DELETE FROM t`)?.where).toEqual([]);
  });
});
