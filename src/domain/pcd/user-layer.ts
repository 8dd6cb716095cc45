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
import { quoteIdent, sqlLiteral } from './sql/statement';
import { validatePortableData } from './transfer-validation';

/** A user op ready to be stored by the caller (who assigns its id). */
export interface PlannedUserOp {
  sql: string;
  target: { portableType: PortableType; name: string };
  /** Short human-readable description. */
  summary: string;
}

/**
 * The rows of one table keyed by their natural key, in first-seen order (a later row with the
 * same key replaces the earlier one in its place). Keys are looked up through one Map per key
 * column, so values compare exactly (1 and '1' differ) without building key strings.
 */
class KeyedRows {
  private readonly index = new Map<SqlValue, unknown>();
  readonly rows: Row[] = [];

  constructor(private readonly key: readonly string[]) {}

  static of(rows: readonly Row[], table: string, key: readonly string[]): KeyedRows {
    const keyed = new KeyedRows(key);
    for (const r of rows) if (r.table === table) keyed.add(r);
    return keyed;
  }

  private leaf(values: Record<string, SqlValue>, create: boolean): Map<SqlValue, unknown> | undefined {
    let map = this.index;
    for (let i = 0; i < this.key.length - 1; i++) {
      const v = values[this.key[i]] ?? null;
      let next = map.get(v) as Map<SqlValue, unknown> | undefined;
      if (!next) {
        if (!create) return undefined;
        next = new Map();
        map.set(v, next);
      }
      map = next;
    }
    return map;
  }

  private lastValue(values: Record<string, SqlValue>): SqlValue {
    return values[this.key[this.key.length - 1]] ?? null;
  }

  add(row: Row): void {
    const leaf = this.leaf(row.values, true)!;
    const at = leaf.get(this.lastValue(row.values)) as number | undefined;
    if (at === undefined) {
      leaf.set(this.lastValue(row.values), this.rows.length);
      this.rows.push(row);
    } else this.rows[at] = row;
  }

  /** The row with the same key as `values`. */
  get(values: Record<string, SqlValue>): Row | undefined {
    const at = this.leaf(values, false)?.get(this.lastValue(values)) as number | undefined;
    return at === undefined ? undefined : this.rows[at];
  }
}

const updatedAtTables = new Map<string, boolean>();

function hasUpdatedAt(table: string): boolean {
  let has = updatedAtTables.get(table);
  if (has === undefined) {
    has = schemaColumns()
      .get(table)!
      .some((c) => c.name === 'updated_at');
    updatedAtTables.set(table, has);
  }
  return has;
}

/**
 * A planned statement as SQL pieces around its values (`pieces.length === values.length + 1`):
 * `statementText` inlines the values as literals (what a stored op holds); `runPlannedStatements`
 * runs the same statement prepared, with the values bound.
 */
export interface PlannedStatement {
  pieces: string[];
  values: SqlValue[];
}

class StatementBuilder {
  private readonly pieces: string[] = [''];
  private readonly values: SqlValue[] = [];
  sql(text: string): this {
    this.pieces[this.pieces.length - 1] += text;
    return this;
  }
  value(v: SqlValue): this {
    this.values.push(v);
    this.pieces.push('');
    return this;
  }
  /** `"col" = value`, or `"col" IS NULL` for null. */
  equals(column: string, v: SqlValue): this {
    return v === null ? this.sql(`${ident(column)} IS NULL`) : this.sql(`${ident(column)} = `).value(v);
  }
  /** Items separated by `separator`, each written by `write`. */
  list<T>(items: readonly T[], separator: string, write: (item: T) => void): this {
    items.forEach((item, i) => {
      if (i > 0) this.sql(separator);
      write(item);
    });
    return this;
  }
  build(): PlannedStatement {
    return { pieces: this.pieces, values: this.values };
  }
}

const quotedIdents = new Map<string, string>();

/** quoteIdent, remembered: planned statements name the same few tables and columns many times. */
function ident(name: string): string {
  let quoted = quotedIdents.get(name);
  if (quoted === undefined) {
    quoted = quoteIdent(name);
    if (quotedIdents.size < 4096) quotedIdents.set(name, quoted);
  }
  return quoted;
}

/** The statement's SQL text, values inlined as literals. */
export function statementText(statement: PlannedStatement): string {
  let text = statement.pieces[0];
  for (let i = 0; i < statement.values.length; i++) text += sqlLiteral(statement.values[i]) + statement.pieces[i + 1];
  return text;
}

function insertStatement(row: Row): PlannedStatement {
  const cols = Object.keys(row.values);
  const b = new StatementBuilder().sql(`INSERT INTO ${ident(row.table)} (${cols.map(ident).join(', ')}) VALUES (`);
  return b.list(cols, ', ', (c) => b.value(row.values[c])).sql(')').build();
}

/** DELETE of one row, guarded by all its values. */
function guardedDeleteStatement(row: Row): PlannedStatement {
  const b = new StatementBuilder().sql(`DELETE FROM ${ident(row.table)} WHERE `);
  return b.list(Object.keys(row.values), ' AND ', (c) => b.equals(c, row.values[c])).build();
}

/** UPDATE of the changed columns of a row, guarded by their old values. */
function guardedUpdateStatement(table: string, current: Record<string, SqlValue>, changes: Record<string, SqlValue>): PlannedStatement {
  const b = new StatementBuilder().sql(`UPDATE ${ident(table)} SET `);
  const changed = Object.keys(changes);
  b.list(changed, ', ', (c) => b.sql(`${ident(c)} = `).value(changes[c]));
  if (hasUpdatedAt(table)) b.sql(', "updated_at" = CURRENT_TIMESTAMP');
  b.sql(' WHERE ');
  const guards: [string, SqlValue][] = [...tableSpec(table)!.key.map((k): [string, SqlValue] => [k, current[k] ?? null]), ...changed.map((c): [string, SqlValue] => [c, current[c] ?? null])];
  return b.list(guards, ' AND ', ([c, v]) => b.equals(c, v)).build();
}

export function insertSql(row: Row): string {
  return statementText(insertStatement(row));
}

/** DELETE of one row, guarded by all its values. */
export function guardedDeleteSql(row: Row): string {
  return statementText(guardedDeleteStatement(row));
}

/** UPDATE of the changed columns of a row, guarded by their old values. */
export function guardedUpdateSql(table: string, current: Record<string, SqlValue>, changes: Record<string, SqlValue>): string {
  return statementText(guardedUpdateStatement(table, current, changes));
}

/** Statements turning `current` rows into `desired` rows (same entity name). */
export function planRowStatements(model: EntityModel, current: Row[], desired: Row[]): PlannedStatement[] {
  const deletes: PlannedStatement[] = [];
  const clearing: PlannedStatement[] = [];
  const updates: PlannedStatement[] = [];
  const inserts: PlannedStatement[] = [];
  for (const { table } of model.tables) {
    const spec = tableSpec(table);
    if (!spec) throw new Error(`no key known for table ${table}`);
    const cur = KeyedRows.of(current, table, spec.key);
    const des = KeyedRows.of(desired, table, spec.key);
    const tableDeletes: PlannedStatement[] = [];
    for (const row of cur.rows) if (!des.get(row.values)) tableDeletes.push(guardedDeleteStatement(row));
    deletes.unshift(...tableDeletes);
    for (const row of des.rows) {
      const before = cur.get(row.values);
      if (!before) {
        inserts.push(insertStatement(row));
        continue;
      }
      let changes: Record<string, SqlValue> | null = null;
      // Clearing flags first keeps "one upgrade_until per profile" satisfied between statements.
      let clears = true;
      for (const c in row.values) {
        const v = row.values[c];
        if (deepEqual(before.values[c] ?? null, v)) continue;
        (changes ??= {})[c] = v;
        if (v !== 0 && v !== null) clears = false;
      }
      if (changes) (clears ? clearing : updates).push(guardedUpdateStatement(table, before.values, changes));
    }
  }
  return [...deletes, ...clearing, ...updates, ...inserts];
}

/** Statements turning `current` rows into `desired` rows (same entity name), as SQL text. */
export function planRowChanges(model: EntityModel, current: Row[], desired: Row[]): string[] {
  return planRowStatements(model, current, desired).map(statementText);
}

/**
 * Values bound exactly as their literal would be read: strings, NULL, and safe integers (bound as
 * 64-bit integers, as SQLite reads an integer literal; better-sqlite3 binds plain numbers as REAL).
 * Anything else (fractions, huge numbers) is inlined as its literal, so the statement means
 * exactly what its text means.
 */
function bindable(v: SqlValue): boolean {
  return typeof v === 'string' || v === null || Number.isSafeInteger(v);
}

const preparedShapes = new WeakMap<Database.Database, Map<string, Database.Statement>>();
const MAX_PREPARED_SHAPES = 256;

/**
 * Runs planned statements in order as prepared statements (one per statement shape, cached per
 * database), with the same effect as executing their text; returns the rows each changed.
 * For callers that run many similar statements (the goal sandbox), where parsing each text dominates.
 */
export function runPlannedStatements(db: Database.Database, statements: readonly PlannedStatement[]): number[] {
  let cache = preparedShapes.get(db);
  if (!cache) {
    cache = new Map();
    preparedShapes.set(db, cache);
  }
  const changed: number[] = [];
  for (const { pieces, values } of statements) {
    let shape = pieces[0];
    const bound: (string | bigint | null)[] = [];
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      if (bindable(v)) {
        shape += '?';
        bound.push(typeof v === 'number' ? BigInt(v) : v);
      } else shape += sqlLiteral(v);
      shape += pieces[i + 1];
    }
    let stmt = cache.get(shape);
    if (!stmt) {
      if (cache.size >= MAX_PREPARED_SHAPES) cache.clear();
      stmt = db.prepare(shape);
      cache.set(shape, stmt);
    }
    changed.push(stmt.run(...bound).changes);
  }
  return changed;
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
