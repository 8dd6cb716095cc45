import { AppError } from '../../../src/errors';
import {
  copyDatabase,
  exportEntity,
  listResolved,
  modelOf,
  planDelete,
  planFieldEdits,
  planImport,
  planRowStatements,
  planUpdate,
  replayPcd,
  resolveEntity,
  runPlannedStatements,
  statementText,
  type LineageEntry,
  type PcdOp,
  type PortableType,
  type UserOp,
} from '../../../src/domain/pcd';
import { readEntityRows } from '../../../src/domain/pcd/entities/common';
import { sampleRepository } from './helpers';

const repo = sampleRepository();
const baseOnly = replayPcd({ base: repo.base, tweaks: repo.tweaks });
const initialOpId = repo.base[0].id!;
const opIdOfMarker = (markerId: string) => repo.base.find((o) => o.markerId === markerId)!.id!;
const X265_PATTERN = String((exportEntity(baseOnly.resolved, 'regular_expression', 'x265').data as { pattern: string }).pattern);

function userOp(id: number, planned: { sql: string; target: UserOp['target'] } | null): UserOp {
  if (!planned) throw new Error('nothing planned');
  return { id, sql: planned.sql, target: planned.target };
}

function entry(lineage: LineageEntry[] | undefined, path: string): LineageEntry {
  const e = lineage?.find((l) => l.path === path);
  if (!e) throw new Error(`no lineage for ${path}`);
  return e;
}

describe('user overrides', () => {
  const edit = userOp(501, planFieldEdits(baseOnly.resolved, 'regular_expression', 'x265', [{ path: 'pattern', value: '\\bx265\\b' }]));
  const replay = replayPcd({ base: repo.base, tweaks: repo.tweaks, user: [edit] });

  it('plans a guarded UPDATE with the old value in the WHERE clause', () => {
    expect(edit.sql).toContain(`UPDATE "regular_expressions" SET "pattern" = '\\bx265\\b'`);
    expect(edit.sql).toContain(`WHERE "name" = 'x265' AND "pattern" = '${X265_PATTERN.replace(/'/g, "''")}'`);
    expect(edit.target).toEqual({ portableType: 'regular_expression', name: 'x265' });
  });

  it('shows the override in layer user as a field change (others: [])', () => {
    const user = listResolved(replay, 'regularExpression', { layer: 'user' });
    const x265 = user.entities.find((e) => e.name === 'x265')!;
    expect(x265).toMatchObject({ entityType: 'regularExpression', layer: 'user', exists: true, conflict: false });
    expect(x265.overrides).toEqual([{ field: 'pattern', type: 'changed', current: X265_PATTERN, desired: '\\bx265\\b' }]);
    expect(x265.lineage).toBeUndefined();
    expect(user.entities.filter((e) => e.name !== 'x265').every((e) => e.overrides?.length === 0)).toBe(true);
  });

  it('attributes the field to the user op in lineage, other fields to base', () => {
    const item = resolveEntity(replay, 'regular_expression', 'x265', { includeLineage: true });
    expect(item.lineageStatus).toBe('available');
    expect(entry(item.lineage, 'pattern')).toEqual({
      path: 'pattern',
      status: 'resolved',
      sourceLayer: 'user',
      sourceKind: 'operation',
      opId: 501,
      fileOp: null,
      explicit: true,
      isSchemaDefault: false,
    });
    expect(entry(item.lineage, 'description')).toMatchObject({ sourceLayer: 'base', opId: initialOpId, explicit: true });
    expect(entry(item.lineage, 'tags')).toMatchObject({ sourceLayer: 'base', opId: initialOpId });
  });

  it('turns into a pending conflict with ambiguous lineage when the base moves underneath', () => {
    const baseChange: PcdOp = {
      layer: 'base',
      id: 9001,
      file: 'ops/4.later.sql',
      position: 1,
      markerId: '301',
      sql: `update "regular_expressions" set "pattern" = 'x265|hevc' where "name" = 'x265' and "pattern" = '${X265_PATTERN.replace(/'/g, "''")}'`,
    };
    const moved = replayPcd({ base: [...repo.base, baseChange], tweaks: repo.tweaks, user: [edit] });
    expect(moved.conflicts).toEqual([{ opId: 501, portableType: 'regular_expression', name: 'x265', reason: 'guard_mismatch' }]);
    const resolved = listResolved(moved, 'regularExpression', { includeLineage: true }).entities.find((e) => e.name === 'x265')!;
    expect(resolved.conflict).toBe(true);
    expect(resolved.lineageStatus).toBe('ambiguous');
    expect(resolved.lineage!.length).toBeGreaterThan(0);
    for (const l of resolved.lineage!) expect(l).toMatchObject({ status: 'ambiguous', sourceLayer: null, sourceKind: null, opId: null, fileOp: null });
    expect((resolved.entity as { pattern: string }).pattern).toBe('x265|hevc');
    const user = listResolved(moved, 'regularExpression', { layer: 'user' }).entities.find((e) => e.name === 'x265')!;
    expect(user).toMatchObject({ conflict: true, overrides: [] });
    const other = listResolved(moved, 'regularExpression', { includeLineage: true }).entities.find((e) => e.name === 'Atmos')!;
    expect(other).toMatchObject({ conflict: false, lineageStatus: 'available' });
  });
});

describe('lineage sources', () => {
  const replay = baseOnly;

  it('names the tweak file op for fields a tweak established', () => {
    const item = resolveEntity(replay, 'delay_profile', 'Standard', { includeLineage: true });
    expect(entry(item.lineage, 'torrentDelay')).toEqual({
      path: 'torrentDelay',
      status: 'resolved',
      sourceLayer: 'tweaks',
      sourceKind: 'operation',
      opId: null,
      fileOp: { file: 'tweaks/1.local-preferences.sql', position: 1 },
      explicit: true,
      isSchemaDefault: false,
    });
    expect(entry(item.lineage, 'usenetDelay')).toMatchObject({ sourceLayer: 'base', opId: initialOpId, fileOp: null });
  });

  it('clears, on the next insert into a table, the lineage rows its deleted rows above the new rows left', () => {
    // The last tag is renamed (a column entry) and deleted; the next insert starts above the table's highest rowid.
    const target = { portableType: 'regular_expression' as const, name: 'x265' };
    const ops: UserOp[] = [
      { id: 701, sql: `UPDATE tags SET name = name || ' (old)' WHERE rowid = (SELECT MAX(rowid) FROM tags);`, target },
      { id: 702, sql: `DELETE FROM tags WHERE rowid = (SELECT MAX(rowid) FROM tags);`, target },
      { id: 703, sql: `INSERT INTO tags (name) VALUES ('New Tag');`, target },
    ];
    const replay = replayPcd({ base: repo.base, tweaks: repo.tweaks, user: ops });
    const lineageOf = (rid: unknown) =>
      replay.resolved
        .prepare(`SELECT l.col, o.op_id AS opId FROM _pcd_lineage l JOIN _pcd_ctx c ON c.id = l.ctx JOIN _pcd_ops o ON o.seq = c.op_seq WHERE l.tbl = 'tags' AND l.rid = ? ORDER BY l.col`)
        .all(rid);
    const deleted = baseOnly.resolved.prepare('SELECT MAX(rowid) FROM tags').pluck().get();
    const added = replay.resolved.prepare(`SELECT rowid FROM tags WHERE name = 'New Tag'`).pluck().get();
    // Without the clear, the deleted tag's insert and the rename's entry for column name (op 701) would remain.
    expect(lineageOf(deleted)).toEqual([]);
    expect(lineageOf(added)).toEqual([{ col: '*', opId: 703 }]);
  });

  it('clears the lineage an INSERT wrote for its own new rows while it ran (an upsert updating a row it had just inserted)', () => {
    const target = { portableType: 'regular_expression' as const, name: 'x265' };
    // The second tuple conflicts with the row the first one inserted: its DO UPDATE fires the lineage
    // trigger of column name on that new row during the statement.
    const ops: UserOp[] = [{ id: 711, sql: `INSERT INTO tags (name) VALUES ('Upserted'), ('Upserted') ON CONFLICT (name) DO UPDATE SET name = excluded.name;`, target }];
    const replay = replayPcd({ base: repo.base, tweaks: repo.tweaks, user: ops });
    const added = replay.resolved.prepare(`SELECT rowid FROM tags WHERE name = 'Upserted'`).pluck().get();
    const lineage = replay.resolved
      .prepare(`SELECT l.col, o.op_id AS opId FROM _pcd_lineage l JOIN _pcd_ctx c ON c.id = l.ctx JOIN _pcd_ops o ON o.seq = c.op_seq WHERE l.tbl = 'tags' AND l.rid = ? ORDER BY l.col`)
      .all(added);
    // Without the clear after the statement, the trigger's entry for column name would remain beside the insert's.
    expect(lineage).toEqual([{ col: '*', opId: 711 }]);
  });

  it('clears lineage that a trigger created by an op wrote for new rows', () => {
    const op = (id: number, sql: string): PcdOp => ({ layer: 'base', id, file: 'ops/1.triggers.sql', position: id, sql });
    const replay = replayPcd({
      base: [
        op(1, `INSERT INTO tags (name) VALUES ('First');`),
        // A trigger of the database's own (not lineage's) writes lineage rows without going through pcd_ctx().
        op(2, `CREATE TRIGGER own_tag AFTER INSERT ON tags BEGIN INSERT INTO _pcd_lineage (tbl, rid, col, ctx) VALUES ('tags', NEW.rowid, 'name', 0); END;`),
        op(3, `INSERT INTO tags (name) VALUES ('Second');`),
      ],
    });
    const added = replay.base.prepare(`SELECT rowid FROM tags WHERE name = 'Second'`).pluck().get();
    expect(replay.failures).toEqual([]);
    expect(replay.base.prepare(`SELECT col FROM _pcd_lineage WHERE tbl = 'tags' AND rid = ? ORDER BY col`).pluck().all(added)).toEqual(['*']);
  });

  it('attributes a value rewritten by ON UPDATE CASCADE to the rename, not explicitly', () => {
    const item = resolveEntity(replay, 'custom_format', 'Preferred Groups', { includeLineage: true });
    expect(entry(item.lineage, 'conditions.Sample Group A.regularExpression')).toMatchObject({
      sourceLayer: 'base',
      opId: opIdOfMarker('102'),
      explicit: false,
      sourceKind: 'operation',
    });
    expect(entry(item.lineage, 'conditions.Sample Group B.regularExpression')).toMatchObject({ opId: initialOpId, explicit: true });
  });

  it('reports schema defaults for columns no op wrote', () => {
    const bare = replayPcd({ base: [{ layer: 'base', id: 1, file: 'ops/1.x.sql', position: 1, sql: "INSERT INTO custom_formats (name) VALUES ('Bare')" }] });
    const item = resolveEntity(bare, 'custom_format', 'Bare', { includeLineage: true });
    expect(entry(item.lineage, 'includeInRename')).toEqual({
      path: 'includeInRename',
      status: 'resolved',
      sourceLayer: 'schema',
      sourceKind: 'schema-default',
      opId: null,
      fileOp: null,
      explicit: false,
      isSchemaDefault: true,
    });
    expect(entry(item.lineage, 'description')).toMatchObject({ sourceKind: 'schema-default', isSchemaDefault: true });
    expect(entry(item.lineage, 'name')).toMatchObject({ sourceKind: 'operation', opId: 1, explicit: true, isSchemaDefault: false });
    expect(entry(item.lineage, 'tags')).toMatchObject({ sourceKind: 'schema-default', sourceLayer: 'schema' });
  });

  it('flags explicit writes of the default value as display-only schema defaults', () => {
    const item = resolveEntity(replay, 'custom_format', 'Cam', { includeLineage: true });
    expect(entry(item.lineage, 'includeInRename')).toMatchObject({ sourceKind: 'operation', explicit: true, isSchemaDefault: true, opId: initialOpId });
  });

  it('gives unavailable lineage for an absent entity and none outside layer resolved', () => {
    const absent = resolveEntity(replay, 'custom_format', 'Nope', { includeLineage: true });
    expect(absent).toMatchObject({ exists: false, entity: null, lineage: [], lineageStatus: 'unavailable' });
    expect(resolveEntity(replay, 'custom_format', 'Cam', { layer: 'base', includeLineage: true }).lineage).toBeUndefined();
    expect(resolveEntity(replay, 'custom_format', 'Cam').lineage).toBeUndefined();
  });
});

describe('planners', () => {
  const db = baseOnly.resolved;

  it('returns null when nothing changes', () => {
    expect(planUpdate(db, 'custom_format', 'Atmos', exportEntity(db, 'custom_format', 'Atmos').data)).toBeNull();
  });

  it('updates nested items, reorders qualities and moves upgradeUntil in one applicable op', () => {
    const qp = exportEntity(db, 'quality_profile', 'Series 1080p').data as {
      qualities: { name: string; enabled: boolean; upgradeUntil: boolean; members?: string[] }[];
      customFormats: Record<string, { name: string; score: number }[]>;
      tags: string[];
    };
    const desired = structuredClone(qp);
    desired.qualities.reverse();
    for (const q of desired.qualities) q.upgradeUntil = q.name === 'Bluray-1080p';
    desired.qualities.find((q) => q.name === 'WEB 1080p')!.members = ['WEBRip-1080p', 'WEBDL-1080p', 'WEBDL-720p'];
    desired.customFormats.series_app = desired.customFormats.series_app.filter((c) => c.name !== 'Season Pack').map((c) => ({ ...c, score: c.score + 1 }));
    desired.tags = ['Brand New Tag'];
    const op = userOp(1, planUpdate(db, 'quality_profile', 'Series 1080p', desired));
    const replay = replayPcd({ base: repo.base, tweaks: repo.tweaks, user: [op] });
    expect(replay.failures).toEqual([]);
    expect(exportEntity(replay.resolved, 'quality_profile', 'Series 1080p').data).toEqual(desired);
    const item = listResolved(replay, 'qualityProfile', { layer: 'user' }).entities.find((e) => e.name === 'Series 1080p')!;
    expect(item.overrides!.map((c) => c.field)).toEqual(
      expect.arrayContaining(['tags', 'qualities', 'qualities.Bluray-1080p.upgradeUntil', 'qualities.WEB 1080p.members', 'customFormats.series_app.Season Pack']),
    );
    const lineage = resolveEntity(replay, 'quality_profile', 'Series 1080p', { includeLineage: true }).lineage;
    expect(entry(lineage, 'qualities')).toMatchObject({ sourceLayer: 'user', opId: 1 });
    expect(entry(lineage, 'tags')).toMatchObject({ sourceLayer: 'user', opId: 1 });
    expect(entry(lineage, 'qualities.WEB 1080p.members')).toMatchObject({ sourceLayer: 'user', opId: 1 });
    expect(entry(lineage, 'qualities.HDTV-1080p.enabled')).toMatchObject({ sourceLayer: 'base' });
  });

  it('renames through cascades and keeps references pointing at the entity', () => {
    const cf = { ...exportEntity(db, 'custom_format', 'Atmos').data, name: 'Atmos (DD+)' };
    const op = userOp(2, planUpdate(db, 'custom_format', 'Atmos', cf));
    expect(op.target).toEqual({ portableType: 'custom_format', name: 'Atmos' });
    const replay = replayPcd({ base: repo.base, tweaks: repo.tweaks, user: [op] });
    expect(replay.failures).toEqual([]);
    const qp = exportEntity(replay.resolved, 'quality_profile', 'Movies 1080p').data as { customFormats: { all: { name: string }[] } };
    expect(qp.customFormats.all.map((c) => c.name)).toContain('Atmos (DD+)');
    const user = listResolved(replay, 'customFormat', { layer: 'user' }).entities;
    expect(user.find((e) => e.name === 'Atmos')).toMatchObject({ exists: false, entity: null });
    expect(user.find((e) => e.name === 'Atmos (DD+)')!.overrides!.map((c) => c.type)).toEqual(expect.arrayContaining(['added']));
    expect(() => planUpdate(db, 'custom_format', 'Atmos', { ...cf, name: 'Cam' })).toThrow(AppError);
  });

  it('deletes with a guard, cascading into references', () => {
    const op = userOp(3, planDelete(db, 'custom_format', 'Cam'));
    expect(op.sql).toMatch(/^DELETE FROM "custom_formats" WHERE "name" = 'Cam' AND "description" = 'Cinema recordings' AND "include_in_rename" = 0;$/);
    const replay = replayPcd({ base: repo.base, tweaks: repo.tweaks, user: [op] });
    const item = listResolved(replay, 'customFormat', { layer: 'user' }).entities.find((e) => e.name === 'Cam')!;
    expect(item).toMatchObject({ exists: false, entity: null, conflict: false });
    expect(item.overrides!.every((c) => c.type === 'removed')).toBe(true);
    const qp = exportEntity(replay.resolved, 'quality_profile', 'Movies 1080p').data as { customFormats: { movie_app: { name: string }[] } };
    expect(qp.customFormats.movie_app.map((c) => c.name)).not.toContain('Cam');

    const moved = replayPcd({
      base: [...repo.base, { layer: 'base', id: 9002, file: 'ops/9.x.sql', position: 1, sql: `update "custom_formats" set "description" = 'changed' where "name" = 'Cam'` }],
      tweaks: repo.tweaks,
      user: [op],
    });
    expect(moved.conflicts).toEqual([{ opId: 3, portableType: 'custom_format', name: 'Cam', reason: 'guard_mismatch' }]);
    expect(() => planDelete(db, 'custom_format', 'Nope')).toThrow(/does not exist/);
  });

  it('reports a created entity that the base later created too as a conflict', () => {
    const regex = { name: 'Shared', pattern: 'x', regex101Id: null, description: null, tags: [] };
    const op = userOp(4, planImport(db, { entityType: 'regular_expression', data: regex }));
    const moved = replayPcd({
      base: [...repo.base, { layer: 'base', id: 9003, file: 'ops/9.x.sql', position: 1, sql: `INSERT INTO regular_expressions (name, pattern) VALUES ('Shared', 'y')` }],
      tweaks: repo.tweaks,
      user: [op],
    });
    expect(moved.conflicts).toEqual([{ opId: 4, portableType: 'regular_expression', name: 'Shared', reason: 'duplicate_key' }]);
  });

  it('applies field edits addressed by path, including keyed items', () => {
    const op = userOp(
      5,
      planFieldEdits(db, 'custom_format', 'Atmos', [
        { path: 'conditions.TrueHD.negate', value: true },
        { path: 'includeInRename', value: false },
      ]),
    );
    const replay = replayPcd({ base: repo.base, tweaks: repo.tweaks, user: [op] });
    const item = listResolved(replay, 'customFormat', { layer: 'user' }).entities.find((e) => e.name === 'Atmos')!;
    expect(item.overrides).toEqual([
      { field: 'includeInRename', type: 'changed', current: true, desired: false },
      { field: 'conditions.TrueHD.negate', type: 'changed', current: false, desired: true },
    ]);
    expect(() => planFieldEdits(db, 'custom_format', 'Atmos', [{ path: 'conditions.Nope.negate', value: true }])).toThrow(/no item "Nope"/);
  });
});

describe('listResolved parameters', () => {
  it('requires arrType for per-app types and refuses it for the others', () => {
    expect(listResolved(baseOnly, 'naming', { arrType: 'music_app' }).entities.map((e) => e.name)).toEqual(['Standard']);
    expect(() => listResolved(baseOnly, 'naming')).toThrow('arrType: required for entity type naming');
    expect(() => listResolved(baseOnly, 'customFormat', { arrType: 'movie_app' })).toThrow('arrType: not accepted for entity type customFormat');
    expect(() => listResolved(baseOnly, 'musicAppMetadataProfile', { arrType: 'music_app' })).toThrow(/not accepted/);
    expect(() => listResolved(baseOnly, 'qualityDefinitions', { arrType: 'tv_app' })).toThrow(/arrType: must be one of/);
    expect(() => listResolved(baseOnly, 'profiles')).toThrow(/unknown entity type/);
    expect(() => listResolved(baseOnly, 'customFormat', { layer: 'tweaks' })).toThrow('layer: must be one of base, user, resolved');
  });

  it('lists every entity of the layer with the spec item fields', () => {
    const list = listResolved(baseOnly, 'musicAppMetadataProfile', { includeLineage: true });
    expect(list.layer).toBe('resolved');
    expect(list.entities.map((e) => e.name)).toEqual(['Everything', 'Studio Albums']);
    expect(Object.keys(list.entities[0]).sort()).toEqual(['conflict', 'entity', 'entityType', 'exists', 'id', 'layer', 'lineage', 'lineageStatus', 'name', 'portableType']);
    const rowId = (name: string) => (baseOnly.resolved.prepare('SELECT id FROM lidarr_metadata_profiles WHERE name = ?').get(name) as { id: number }).id;
    expect(list.entities.map((e) => e.id)).toEqual(list.entities.map((e) => rowId(e.name)));
    const base = listResolved(baseOnly, 'qualityDefinitions', { arrType: 'series_app', layer: 'base' });
    expect(Object.keys(base.entities[0]).sort()).toEqual(['conflict', 'entity', 'entityType', 'exists', 'id', 'layer', 'name', 'portableType']);
    // Quality definitions have no root row: no id.
    expect(base.entities[0].id).toBeNull();
  });
});

describe('planned statements run prepared', () => {
  // Same effect as executing the op's text: fractions and huge numbers inlined, integers bound as
  // integers, NULL guards (quality rows), NULL values, quotes and numeric-looking strings.
  const tables = (db: ReturnType<typeof copyDatabase>['db'], names: string[]) =>
    names.map((t) => db.prepare(`SELECT * FROM "${t}" ORDER BY rowid`).all().map((r) => ({ ...(r as object), created_at: null, updated_at: null })));

  it.each([
    ['movie_app_quality_definitions', 'Movie Sizes', (d: any) => ({ ...d, entries: d.entries.map((e: any, i: number) => ({ ...e, minSize: i === 0 ? 12.25 : e.minSize, maxSize: i === 1 ? 0.1 + 0.2 : e.maxSize, preferredSize: i === 2 ? 1e21 : e.preferredSize })) })],
    ['regular_expression', 'x265', (d: any) => ({ ...d, pattern: "it's '42'", description: null })],
    ['quality_profile', 'Movies 1080p', (d: any) => ({ ...d, upgradeUntilScore: -7, qualities: d.qualities.map((q: any) => ({ ...q, enabled: !q.enabled })), customFormats: { ...d.customFormats, movie_app: d.customFormats.movie_app.map((s: any) => ({ ...s, score: s.score + 3 })) } })],
  ])('%s: the text and the prepared statements leave the same rows', (type, name, edit) => {
    const model = modelOf(type as PortableType);
    const current = readEntityRows(baseOnly.resolved, model, name, { rowids: false })!;
    const statements = planRowStatements(model, current, model.toRows(edit(model.fromRows(name, current).data)));
    expect(statements.length).toBeGreaterThan(0);
    const viaText = copyDatabase(baseOnly.resolved).db;
    const viaPrepared = copyDatabase(baseOnly.resolved).db;
    viaText.exec(statements.map((s) => `${statementText(s)};`).join('\n'));
    const changed = runPlannedStatements(viaPrepared, statements);
    expect(changed.every((n) => n === 1)).toBe(true);
    const touched = model.tables.map((t) => t.table);
    expect(tables(viaPrepared, touched)).toEqual(tables(viaText, touched));
    // The stored types too (JavaScript does not tell 5 from 5.0; SQLite does).
    for (const t of touched) {
      const columns = (viaText.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(t) as string[]).map((c) => `typeof("${c}")`).join(', ');
      const types = (db: typeof viaText) => db.prepare(`SELECT ${columns} FROM "${t}" ORDER BY rowid`).raw().all();
      expect(types(viaPrepared)).toEqual(types(viaText));
    }
    viaText.close();
    viaPrepared.close();
  });

  it('binds values so that they keep the type their literal has, in a column without affinity', () => {
    const db = copyDatabase(baseOnly.resolved).db;
    db.exec('CREATE TABLE untyped (v)');
    const values = [5, -7, 2 ** 53 + 2, 1e21, 0.1 + 0.2, "it's", '5', null];
    const statements = values.map((v) => ({ pieces: ['INSERT INTO untyped (v) VALUES (', ')'], values: [v] }));
    runPlannedStatements(db, statements);
    db.exec(statements.map((s) => `${statementText(s)};`).join('\n'));
    const rows = db.prepare('SELECT typeof(v) AS type, quote(v) AS text FROM untyped ORDER BY rowid').all();
    expect(rows.slice(0, values.length)).toEqual(rows.slice(values.length));
    expect(rows.slice(0, 5).map((r: any) => r.type)).toEqual(['integer', 'integer', 'integer', 'real', 'real']);
    db.close();
  });
});

