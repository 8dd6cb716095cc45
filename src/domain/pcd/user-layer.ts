/**
 * Planners turning structured edits into user-layer SQL ops.
 *
 * Every entity is a set of rows (see entities/types.ts). An edit is planned as the difference
 * between the rows the entity has now and the rows the desired data needs:
 * - rename first (UPDATE of the name; ON UPDATE CASCADE carries it into child rows and references),
 * - deletes of rows that go away, children first, guarded by every value the row had,
 * - updates of rows that stay, setting only changed columns and guarded by their old values,
 * - inserts of new rows, parents first.
 * Value guards make an op fail (guard_mismatch) instead of overwriting when the base has moved
 * underneath it; the replay then reports a pending conflict on the target entity.
 */
import type Database from 'better-sqlite3';
import { notFound, validationError } from '../../errors';
import { arrayKeyOf, deepEqual } from '../diff/diff';
import { parsePath } from '../diff/path';
import { readEntityRows } from './entities/common';
import { modelOf } from './entities/registry';
import type { EntityModel, PortableType, Row } from './entities/types';
import { schemaColumns, tableSpec, type SqlValue } from './schema/registry';
import { quoteIdent, sqlEquals, sqlLiteral } from './sql/statement';
import { validatePortableData } from './transfer-validation';

/** A user op ready to be stored by the caller (who assigns its id). */
export interface PlannedUserOp {
  sql: string;
  target: { portableType: PortableType; name: string };
  /** Short human-readable description. */
  summary: string;
}

function keyOf(table: string, values: Record<string, SqlValue>): string {
  const spec = tableSpec(table);
  if (!spec) throw new Error(`no key known for table ${table}`);
  return JSON.stringify(spec.key.map((k) => values[k] ?? null));
}

function hasUpdatedAt(table: string): boolean {
  return schemaColumns()
    .get(table)!
    .some((c) => c.name === 'updated_at');
}

function whereKey(table: string, values: Record<string, SqlValue>): string[] {
  return tableSpec(table)!.key.map((k) => sqlEquals(k, values[k] ?? null));
}

export function insertSql(row: Row): string {
  const cols = Object.keys(row.values);
  return `INSERT INTO ${quoteIdent(row.table)} (${cols.map(quoteIdent).join(', ')}) VALUES (${cols.map((c) => sqlLiteral(row.values[c])).join(', ')})`;
}

/** DELETE of one row, guarded by all its values. */
export function guardedDeleteSql(row: Row): string {
  const conds = Object.keys(row.values).map((c) => sqlEquals(c, row.values[c]));
  return `DELETE FROM ${quoteIdent(row.table)} WHERE ${conds.join(' AND ')}`;
}

/** UPDATE of the changed columns of a row, guarded by their old values. */
export function guardedUpdateSql(table: string, current: Record<string, SqlValue>, changes: Record<string, SqlValue>): string {
  const sets = Object.entries(changes).map(([c, v]) => `${quoteIdent(c)} = ${sqlLiteral(v)}`);
  if (hasUpdatedAt(table)) sets.push('"updated_at" = CURRENT_TIMESTAMP');
  const guards = Object.keys(changes).map((c) => sqlEquals(c, current[c] ?? null));
  return `UPDATE ${quoteIdent(table)} SET ${sets.join(', ')} WHERE ${[...whereKey(table, current), ...guards].join(' AND ')}`;
}

/** Statements turning `current` rows into `desired` rows (same entity name). */
export function planRowChanges(model: EntityModel, current: Row[], desired: Row[]): string[] {
  const deletes: string[] = [];
  const clearing: string[] = [];
  const updates: string[] = [];
  const inserts: string[] = [];
  for (const { table } of model.tables) {
    const cur = new Map(current.filter((r) => r.table === table).map((r) => [keyOf(table, r.values), r]));
    const des = new Map(desired.filter((r) => r.table === table).map((r) => [keyOf(table, r.values), r]));
    const tableDeletes: string[] = [];
    for (const [k, row] of cur) if (!des.has(k)) tableDeletes.push(guardedDeleteSql(row));
    deletes.unshift(...tableDeletes);
    for (const [k, row] of des) {
      const before = cur.get(k);
      if (!before) {
        inserts.push(insertSql(row));
        continue;
      }
      const changes: Record<string, SqlValue> = {};
      for (const [c, v] of Object.entries(row.values)) if (!deepEqual(before.values[c] ?? null, v)) changes[c] = v;
      if (Object.keys(changes).length === 0) continue;
      // Clearing flags first keeps "one upgrade_until per profile" satisfied between statements.
      const clears = Object.values(changes).every((v) => v === 0 || v === null);
      (clears ? clearing : updates).push(guardedUpdateSql(table, before.values, changes));
    }
  }
  return [...deletes, ...clearing, ...updates, ...inserts];
}

/** Rename statement of an entity (cascades take the new name into owned rows). */
function renameSql(model: EntityModel, from: string, to: string): string {
  const sets = [`"name" = ${sqlLiteral(to)}`];
  if (hasUpdatedAt(model.rootTable)) sets.push('"updated_at" = CURRENT_TIMESTAMP');
  return `UPDATE ${quoteIdent(model.rootTable)} SET ${sets.join(', ')} WHERE "name" = ${sqlLiteral(from)}`;
}

/** The rows of an entity as they will be after a rename cascaded through them. */
function renamedRows(model: EntityModel, rows: Row[], from: string, to: string): Row[] {
  const owners = new Map(model.tables.map((t) => [t.table, t.ownerColumn]));
  return rows.map((r) => {
    const col = owners.get(r.table)!;
    return r.values[col] === from ? { ...r, values: { ...r.values, [col]: to } } : r;
  });
}

function joinStatements(statements: string[]): string {
  return statements.map((s) => `${s};`).join('\n');
}

function currentRows(db: Database.Database, model: EntityModel, name: string): Row[] {
  const rows = readEntityRows(db, model, name);
  if (!rows) throw notFound(`${model.type} "${name}" does not exist`);
  return rows.map(({ table, values }) => ({ table, values }));
}

/**
 * Op creating an entity from validated portable data. Callers normally use planImport, which
 * validates and checks name uniqueness first.
 */
export function planCreate(type: PortableType, data: { name: string }): PlannedUserOp {
  const model = modelOf(type);
  const statements = [...(model.prerequisites?.(data) ?? []), ...model.toRows(data).map(insertSql)];
  return { sql: joinStatements(statements), target: { portableType: type, name: data.name }, summary: `create ${type} "${data.name}"` };
}

/**
 * Op turning entity `name` (as it is in `db`, normally the resolved state) into `desired`.
 * A different desired name renames it. Returns null when nothing changes. Throws
 * AppError('validation') for invalid data and AppError('not_found') when the entity is absent.
 */
export function planUpdate(db: Database.Database, type: PortableType, name: string, desired: unknown): PlannedUserOp | null {
  const model = modelOf(type);
  const data = validatePortableData(db, type, desired);
  let rows = currentRows(db, model, name);
  const statements: string[] = [];
  if (data.name !== name) {
    if (db.prepare(`SELECT 1 FROM ${quoteIdent(model.rootTable)} WHERE "name" = ?`).get(data.name)) {
      throw validationError(`name: ${type} "${data.name}" already exists`);
    }
    statements.push(renameSql(model, name, data.name));
    rows = renamedRows(model, rows, name, data.name);
  }
  statements.push(...planRowChanges(model, rows, model.toRows(data)));
  if (statements.length === 0) return null;
  const prerequisites = model.prerequisites?.(data) ?? [];
  return {
    sql: joinStatements([...prerequisites, ...statements]),
    // The op targets the entity as it is named before the op (where a failure leaves it).
    target: { portableType: type, name },
    summary: data.name !== name ? `rename ${type} "${name}" to "${data.name}" and update it` : `update ${type} "${name}"`,
  };
}

/**
 * Op deleting an entity, guarded by the values of its root row (every row for quality
 * definitions); cascades remove owned rows and references (e.g. profile scores of a custom format).
 */
export function planDelete(db: Database.Database, type: PortableType, name: string): PlannedUserOp {
  const model = modelOf(type);
  const rows = currentRows(db, model, name).filter((r) => r.table === model.rootTable);
  return { sql: joinStatements(rows.map(guardedDeleteSql)), target: { portableType: type, name }, summary: `delete ${type} "${name}"` };
}

/** One structured field edit: set the value at a field path (undefined removes the field or keyed item). */
export interface FieldEdit {
  path: string;
  value: unknown;
}

/** Applies field edits (paths in override notation) to a copy of portable data. */
export function applyFieldEdits(model: EntityModel, data: unknown, edits: readonly FieldEdit[]): Record<string, unknown> {
  const copy = structuredClone(data) as Record<string, unknown>;
  for (const edit of edits) {
    const segments = parsePath(edit.path);
    if (segments.length === 0) throw validationError('path: must not be empty');
    let node: unknown = copy;
    const shape: string[] = [];
    for (let i = 0; i < segments.length; i++) {
      const seg = segments[i];
      const last = i === segments.length - 1;
      if (Array.isArray(node)) {
        const key = arrayKeyOf(model.diffOptions, shape, node);
        const index = key ? node.findIndex((item) => key(item) === seg) : -1;
        if (last) {
          if (edit.value === undefined) {
            if (index >= 0) node.splice(index, 1);
          } else if (index >= 0) node[index] = edit.value;
          else node.push(edit.value);
          break;
        }
        if (index < 0) throw validationError(`${edit.path}: no item "${seg}"`);
        node = node[index];
        shape.push('*');
        continue;
      }
      if (typeof node !== 'object' || node === null) throw validationError(`${edit.path}: not an object at "${seg}"`);
      const obj = node as Record<string, unknown>;
      if (last) {
        if (edit.value === undefined) delete obj[seg];
        else obj[seg] = edit.value;
        break;
      }
      if (!(seg in obj)) throw validationError(`${edit.path}: unknown field "${seg}"`);
      node = obj[seg];
      shape.push(seg);
    }
  }
  return copy;
}

/** Plans field edits on entity `name` of `db` (see planUpdate); null when nothing changes. */
export function planFieldEdits(db: Database.Database, type: PortableType, name: string, edits: readonly FieldEdit[]): PlannedUserOp | null {
  const model = modelOf(type);
  const rows = readEntityRows(db, model, name);
  if (!rows) throw notFound(`${type} "${name}" does not exist`);
  const current = model.fromRows(name, rows).data;
  return planUpdate(db, type, name, applyFieldEdits(model, current, edits));
}
