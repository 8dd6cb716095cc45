/**
 * Building blocks shared by the entity models.
 */
import type Database from 'better-sqlite3';
import { z } from 'zod';
import { formatPath } from '../../diff/path';
import { dataColumns, schemaColumns, type SqlValue } from '../schema/registry';
import type { EntityModel, FieldSource, OwnedTable, Row } from './types';

export const bool = (v: SqlValue): boolean => v === 1 || v === '1' || v === 'true';
export const flag = (v: boolean): number => (v ? 1 : 0);
export const str = (v: SqlValue): string => (v === null ? '' : String(v));
export const strOrNull = (v: SqlValue): string | null => (v === null ? null : String(v));
export const num = (v: SqlValue): number => (typeof v === 'number' ? v : Number(v));
export const numOrNull = (v: SqlValue): number | null => (v === null ? null : num(v));

/** Entity names: what PCD's VARCHAR(100) name columns hold. */
export const entityName = z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters');
export const tagName = z.string().trim().min(1, 'must not be empty').max(50, 'must be at most 50 characters');
export const int = z.number().int();

export function uniqueStrings(values: string[], path: string): string[] {
  const seen = new Set<string>();
  const errors: string[] = [];
  for (const v of values) {
    if (seen.has(v)) errors.push(`${path}: duplicate value "${v}"`);
    seen.add(v);
  }
  return errors;
}

export function columnSource(row: Row, column: string): FieldSource | null {
  return row.rowid === undefined ? null : { kind: 'column', table: row.table, rowid: row.rowid, column, value: row.values[column] ?? null };
}

export function rowsSource(table: string, rows: Row[], owner: string | null, columns?: string[]): FieldSource {
  return { kind: 'rows', table, rowids: rows.flatMap((r) => (r.rowid === undefined ? [] : [r.rowid])), owner, columns };
}

/** Collects field sources under formatted paths. */
export class Sources {
  readonly map = new Map<string, FieldSource>();
  set(path: string, source: FieldSource | null): void {
    if (source) this.map.set(path, source);
  }
  /**
   * The column behind a field. A row read without its rowid has no source; a path given as
   * segments is only formatted when there is one (readers that skip rowids skip the formatting).
   */
  column(path: string | readonly string[], row: Row | undefined, column: string): void {
    if (row && row.rowid !== undefined) this.set(typeof path === 'string' ? path : formatPath(path), columnSource(row, column));
  }
}

const statementCache = new WeakMap<Database.Database, Map<string, Database.Statement>>();

function cachedStatement(db: Database.Database, sql: string): Database.Statement {
  let cache = statementCache.get(db);
  if (!cache) {
    cache = new Map();
    statementCache.set(db, cache);
  }
  let stmt = cache.get(sql);
  if (!stmt) {
    stmt = db.prepare(sql);
    cache.set(sql, stmt);
  }
  return stmt;
}

/**
 * Rows of one owned table for an entity, data columns only, with rowids (which lineage needs);
 * `rowids: false` leaves them out, for readers that only want the values.
 */
export function readOwnedRows(db: Database.Database, owned: OwnedTable, name: string, rowids = true): Row[] {
  const names = dataColumns(owned.table).map((c) => c.name);
  const cols = names.map((c) => `"${c}"`).join(', ');
  const sql = `SELECT ${rowids ? 'rowid AS "__rowid", ' : ''}${cols} FROM "${owned.table}" WHERE "${owned.ownerColumn}" = ? ORDER BY ${owned.orderBy ?? 'rowid'}`;
  if (!rowids) {
    // Rows as arrays, made into objects here: cheaper than better-sqlite3's row objects.
    const raw = cachedStatement(db, sql).raw(true).all(name) as SqlValue[][];
    return raw.map((r) => {
      const values: Record<string, SqlValue> = {};
      for (let i = 0; i < names.length; i++) values[names[i]] = r[i];
      return { table: owned.table, values };
    });
  }
  const rows = cachedStatement(db, sql).all(name) as Record<string, SqlValue>[];
  return rows.map((r) => {
    const { __rowid, ...values } = r;
    return { table: owned.table, values, rowid: __rowid as number };
  });
}

/** All rows of an entity; null when the entity does not exist. `rowids: false`: see readOwnedRows. */
export function readEntityRows(db: Database.Database, model: EntityModel, name: string, options: { rowids?: boolean } = {}): Row[] | null {
  const rows: Row[] = [];
  for (const owned of model.tables) {
    const part = readOwnedRows(db, owned, name, options.rowids ?? true);
    if (owned.table === model.rootTable && part.length === 0) return null;
    rows.push(...part);
  }
  return rows;
}

/** Names of all entities of a model in a database, sorted. */
export function listEntityNames(db: Database.Database, model: EntityModel): string[] {
  return cachedStatement(db, `SELECT DISTINCT "name" FROM "${model.rootTable}" ORDER BY "name"`)
    .pluck()
    .all() as string[];
}

/** Database id of an entity's root row (null when the table has no id column, or when absent). */
export function entityRowId(db: Database.Database, model: EntityModel, name: string): number | null {
  if (model.rootless || !schemaColumns().get(model.rootTable)?.some((c) => c.name === 'id')) return null;
  const id = cachedStatement(db, `SELECT "id" FROM "${model.rootTable}" WHERE "name" = ?`).pluck().get(name);
  return typeof id === 'number' ? id : null;
}

export function rowsOf(rows: Row[], table: string): Row[] {
  return rows.filter((r) => r.table === table);
}

/** SQL that creates each tag if missing (tags are shared rows, never owned by one entity). */
export function ensureTags(tags: string[]): string[] {
  return tags.map((t) => {
    const v = `'${t.replace(/'/g, "''")}'`;
    return `INSERT INTO "tags" ("name") SELECT ${v} WHERE NOT EXISTS (SELECT 1 FROM "tags" WHERE "name" = ${v})`;
  });
}

/**
 * A single-row entity whose fields map one-to-one onto columns (naming, media settings, delay
 * profiles). Codecs convert between the stored value and the portable value.
 */
export interface FieldMapping<T> {
  field: keyof T & string;
  column: string;
  read: (v: SqlValue) => unknown;
  write: (v: unknown) => SqlValue;
}

export const asBool = <T>(field: keyof T & string, column: string): FieldMapping<T> => ({
  field,
  column,
  read: bool,
  write: (v) => flag(v as boolean),
});
export const asText = <T>(field: keyof T & string, column: string): FieldMapping<T> => ({
  field,
  column,
  read: str,
  write: (v) => v as string,
});
export const asTextOrNull = <T>(field: keyof T & string, column: string): FieldMapping<T> => ({
  field,
  column,
  read: strOrNull,
  write: (v) => (v as string | null) ?? null,
});
export const asNum = <T>(field: keyof T & string, column: string): FieldMapping<T> => ({
  field,
  column,
  read: num,
  write: (v) => v as number,
});
export const asNumOrNull = <T>(field: keyof T & string, column: string): FieldMapping<T> => ({
  field,
  column,
  read: numOrNull,
  write: (v) => (v as number | null) ?? null,
});

export function singleRowCodec<T extends { name: string }>(table: string, fields: FieldMapping<T>[]) {
  return {
    toRows(data: T): Row[] {
      const values: Record<string, SqlValue> = { name: data.name };
      for (const f of fields) values[f.column] = f.write(data[f.field]);
      return [{ table, values }];
    },
    fromRows(name: string, rows: Row[]): { data: T; sources: Map<string, FieldSource> } {
      const root = rows.find((r) => r.table === table);
      if (!root) throw new Error(`${table} row of "${name}" missing`);
      const data: Record<string, unknown> = { name: str(root.values.name) };
      const sources = new Sources();
      sources.column('name', root, 'name');
      for (const f of fields) {
        data[f.field] = f.read(root.values[f.column] ?? null);
        sources.column(formatPath([f.field]), root, f.column);
      }
      return { data: data as T, sources: sources.map };
    },
  };
}
