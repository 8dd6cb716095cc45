/**
 * arrgo's additions on top of a schema dependency's tables.
 *
 * When a manifest names a schema dependency, its ops/ are the schema layer. arrgo then adds only
 * what the dependency lacks: the bundled tables it does not define (music_app tables, for
 * instance) with their indexes, and seed rows where the dependency's tables lack them. A table
 * the dependency defines is never altered.
 */
import type Database from 'better-sqlite3';
import { statementRanges } from '../sql/split';
import { schemaColumns } from './registry';
import { SCHEMA_DDL } from './tables';

const CREATE_TABLE = /^\s*CREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?"?([A-Za-z_]\w*)"?/i;
const CREATE_INDEX = /^\s*CREATE\s+(?:UNIQUE\s+)?INDEX\s+(?:IF\s+NOT\s+EXISTS\s+)?"?[A-Za-z_]\w*"?\s+ON\s+"?([A-Za-z_]\w*)"?/i;

/** Statements of the bundled DDL with the table each creates or indexes. */
function bundledStatements(): { table: string; sql: string }[] {
  const out: { table: string; sql: string }[] = [];
  for (const [start, end] of statementRanges(SCHEMA_DDL)) {
    const sql = SCHEMA_DDL.slice(start, end).replace(/^(\s*--[^\n]*\n)+/, '');
    const m = CREATE_TABLE.exec(sql) ?? CREATE_INDEX.exec(sql);
    if (m) out.push({ table: m[1].toLowerCase(), sql });
  }
  return out;
}

function tablesOf(db: Database.Database): Set<string> {
  return new Set((db.prepare("SELECT lower(name) FROM sqlite_master WHERE type = 'table'").pluck().all() as string[]).map(String));
}

/** Creates the bundled tables (and their indexes) the database lacks; returns their names. */
export function addMissingBundledTables(db: Database.Database): string[] {
  const present = tablesOf(db);
  const created = new Set<string>();
  for (const { table, sql } of bundledStatements()) {
    if (present.has(table) && !created.has(table)) continue;
    db.exec(sql);
    created.add(table);
  }
  return [...created];
}

/**
 * Columns arrgo's readers use (bundled schema data columns) that the database's tables lack, as
 * `table.column`. Empty when the dependency is compatible with what arrgo reads.
 */
export function schemaGaps(db: Database.Database): string[] {
  const gaps: string[] = [];
  for (const [table, columns] of schemaColumns()) {
    const present = new Set((db.prepare(`PRAGMA table_info("${table}")`).all() as { name: string }[]).map((c) => c.name.toLowerCase()));
    if (present.size === 0) {
      gaps.push(table);
      continue;
    }
    for (const c of columns) if (!present.has(c.name)) gaps.push(`${table}.${c.name}`);
  }
  return gaps;
}

/** Seed SQL made additive: rows the dependency's tables already hold (or refuse) are left alone. */
export function additiveSeedSql(sql: string): string {
  return sql.replace(/^INSERT INTO /gim, 'INSERT OR IGNORE INTO ');
}
