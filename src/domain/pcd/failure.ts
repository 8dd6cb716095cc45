/**
 * Why an op could not be applied.
 *
 * - duplicate_key: a UNIQUE or PRIMARY KEY constraint failed.
 * - missing_target: a FOREIGN KEY constraint failed, or an UPDATE/DELETE changed nothing because
 *   the entity it targets does not exist.
 * - guard_mismatch: an UPDATE/DELETE changed nothing although its target entity exists, i.e. its
 *   value guard (the old values in the WHERE clause) no longer matches.
 * - invalid: anything else (syntax, CHECK, NOT NULL, type errors...).
 *
 * A statement that changes nothing is not a failure when the state it asks for already holds:
 * an UPDATE whose row already carries the new values (typically because a rename cascaded into it
 * first) or a DELETE whose row is already gone while its owner still exists. PCD repositories
 * rely on this: trash-pcd renames regexes and custom formats and then re-points the referencing
 * rows explicitly.
 */
import type Database from 'better-sqlite3';
import { toPcdArrType, type ArrType } from '../arr-types';
import { BOOKKEEPING_COLUMNS, tableSpec, TABLE_SPECS, type SqlValue } from './schema/registry';
import { NOT_LITERAL, parseWrite, quoteIdent, type Conjunct } from './sql/statement';
import type { OpTarget } from './ops';

export const FAILURE_REASONS = ['duplicate_key', 'missing_target', 'guard_mismatch', 'invalid'] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];

/** Maps a SQLite error to a failure reason. */
export function reasonForError(error: unknown): FailureReason {
  const code = (error as { code?: unknown })?.code;
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') return 'duplicate_key';
  if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY') return 'missing_target';
  return 'invalid';
}

const MARKER_ROOTS: Record<string, string> = {
  custom_format: 'custom_formats',
  quality_profile: 'quality_profiles',
  regular_expression: 'regular_expressions',
  delay_profile: 'delay_profiles',
  music_app_metadata_profile: 'lidarr_metadata_profiles',
  lidarr_metadata_profile: 'lidarr_metadata_profiles',
};

/** Table holding the entity an op target names (marker entity types and portable types), or null. */
export function targetRootTable(entityType: string): string | null {
  if (MARKER_ROOTS[entityType]) return MARKER_ROOTS[entityType];
  const spec = TABLE_SPECS[entityType];
  if (spec?.owner?.table === entityType) return entityType;
  const m = /^(movie_app|series_app|music_app)_(naming|media_settings|quality_definitions)$/.exec(entityType);
  if (m) return `${toPcdArrType(m[1] as ArrType)}_${m[2]}`;
  return null;
}

function where(conjuncts: { column: string; value: SqlValue; test?: Conjunct['test'] }[]): { sql: string; params: SqlValue[] } {
  if (conjuncts.length === 0) return { sql: '1', params: [] };
  const params: SqlValue[] = [];
  const parts = conjuncts.map((c) => {
    if (c.test === 'null' || (c.test !== 'notnull' && c.value === null)) return `${quoteIdent(c.column)} IS NULL`;
    if (c.test === 'notnull') return `${quoteIdent(c.column)} IS NOT NULL`;
    params.push(c.value);
    return `${quoteIdent(c.column)} = ?`;
  });
  return { sql: parts.join(' AND '), params };
}

function exists(db: Database.Database, table: string, conjuncts: { column: string; value: SqlValue; test?: Conjunct['test'] }[]): boolean {
  const w = where(conjuncts);
  return db.prepare(`SELECT 1 FROM ${quoteIdent(table)} WHERE ${w.sql} LIMIT 1`).get(...w.params) !== undefined;
}

export type NoChangeVerdict = { ok: true } | { ok: false; reason: FailureReason; message: string };

/** Decides whether an UPDATE/DELETE that changed no row is harmless or a failure. */
export function judgeNoChange(db: Database.Database, sql: string, target: OpTarget | null | undefined): NoChangeVerdict {
  const detail = parseWrite(sql);
  const targetExists = (): boolean | null => {
    if (!target) return null;
    const root = targetRootTable(target.entityType);
    if (!root) return null;
    return exists(db, root, [{ column: 'name', value: target.name }]);
  };
  const fail = (reason: FailureReason, message: string): NoChangeVerdict => ({ ok: false, reason, message });

  if (!detail || detail.where === null || !tableSpec(detail.table)) {
    return targetExists() === false
      ? fail('missing_target', 'statement changed no row and its target entity does not exist')
      : fail('guard_mismatch', 'statement changed no row');
  }
  const spec = tableSpec(detail.table)!;
  const eq = detail.where.filter((c) => c.test === 'eq');
  const byColumn = new Map(eq.map((c) => [c.column, c.value]));
  const isUpdate = detail.set !== null && detail.set.size > 0;

  // Already applied? (UPDATE: the row, addressed by its key after the update, carries the new values.)
  if (isUpdate) {
    const sets = [...detail.set!.entries()].filter(([col]) => !BOOKKEEPING_COLUMNS.has(col));
    if (sets.length > 0 && sets.every(([, v]) => v !== NOT_LITERAL)) {
      const probe = new Map<string, SqlValue>();
      for (const k of spec.key) if (byColumn.has(k)) probe.set(k, byColumn.get(k)!);
      for (const [col, v] of sets) probe.set(col, v as SqlValue);
      if (exists(db, detail.table, [...probe].map(([column, value]) => ({ column, value })))) return { ok: true };
    }
  }

  // Does the owning entity exist?
  let ownerExists: boolean | null = null;
  if (spec.owner && byColumn.has(spec.owner.column)) {
    ownerExists = exists(db, spec.owner.table, [{ column: spec.owner.rootColumn, value: byColumn.get(spec.owner.column)! }]);
  } else {
    ownerExists = targetExists();
  }
  if (ownerExists === false) {
    return fail('missing_target', `${detail.table}: the entity this statement targets does not exist`);
  }

  if (!isUpdate) {
    // DELETE: harmless when the addressed row is already gone; a row that is there with other
    // values means the guard no longer matches.
    const keyConjuncts = detail.where.filter((c) => spec.key.includes(c.column));
    if (keyConjuncts.length === detail.where.length) return { ok: true };
    return exists(db, detail.table, keyConjuncts)
      ? fail('guard_mismatch', `${detail.table}: the row exists but no longer matches the guarded values`)
      : { ok: true };
  }
  return fail('guard_mismatch', `${detail.table}: no row matches the guarded values`);
}
