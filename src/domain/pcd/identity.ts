/**
 * Identity of renameable PCD entities across renames.
 *
 * An app entity arrgo wrote is remembered (the sync ledger) by the PCD entity it came from. Names
 * are what ops address entities by, and a replayed op that updates a row's `name` keeps the row:
 * so the replay records, per renamed root row, the name the row had before its first rename (its
 * origin). `_pcd_identity` is filled by AFTER UPDATE OF name triggers (the first name sticks:
 * INSERT OR IGNORE); a deleted row's entry goes with it, and an inserted row clears whatever an
 * earlier row with its rowid left (rowid reuse must not inherit an identity). The table and its
 * triggers live inside the replayed database, like lineage, so a serialized copy (base ->
 * resolved) keeps them and renames of every layer (base, tweaks, user edits, pulls) are seen.
 *
 * The identity of an entity is its origin name, or its current name when it was never renamed.
 */
import type Database from 'better-sqlite3';
import type { PortableType } from './entities/types';

/** Portable types whose identity is tracked, and their root tables. */
export const IDENTITY_TABLES = { custom_format: 'custom_formats', quality_profile: 'quality_profiles' } as const satisfies Partial<Record<PortableType, string>>;
export type IdentityType = keyof typeof IDENTITY_TABLES;

export const IDENTITY_DDL = `
CREATE TABLE _pcd_identity (
  tbl TEXT NOT NULL,
  rid INTEGER NOT NULL,
  origin TEXT NOT NULL,
  PRIMARY KEY (tbl, rid)
) WITHOUT ROWID;
`;

const q = (s: string) => `'${s.replace(/'/g, "''")}'`;

/**
 * Trigger DDL for the tracked tables the database has (with a `name` column): a schema dependency
 * may lack one. `tables` lists the database's tables with their columns.
 */
export function identityTriggersDdl(columns: ReadonlyMap<string, readonly string[]>): string {
  const out: string[] = [];
  for (const table of Object.values(IDENTITY_TABLES)) {
    if (!columns.get(table)?.includes('name')) continue;
    out.push(`CREATE TRIGGER "_pcd_identity_u_${table}" AFTER UPDATE OF "name" ON "${table}" WHEN OLD."name" IS NOT NEW."name" BEGIN
  INSERT OR IGNORE INTO _pcd_identity (tbl, rid, origin) VALUES (${q(table)}, NEW.rowid, OLD."name");
END;
CREATE TRIGGER "_pcd_identity_d_${table}" AFTER DELETE ON "${table}" BEGIN
  DELETE FROM _pcd_identity WHERE tbl = ${q(table)} AND rid = OLD.rowid;
END;
CREATE TRIGGER "_pcd_identity_i_${table}" AFTER INSERT ON "${table}" BEGIN
  DELETE FROM _pcd_identity WHERE tbl = ${q(table)} AND rid = NEW.rowid;
END;`);
  }
  return out.join('\n');
}

/** Current name -> origin name of every renamed entity of a type (empty when the database tracks none). */
export function renamedEntities(db: Database.Database, type: IdentityType): Map<string, string> {
  const table = IDENTITY_TABLES[type];
  const tracked = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_pcd_identity'").get();
  if (!tracked) return new Map();
  const rows = db
    .prepare(`SELECT t."name" AS name, i.origin AS origin FROM _pcd_identity i JOIN "${table}" t ON t.rowid = i.rid WHERE i.tbl = ?`)
    .all(table) as { name: string; origin: string }[];
  return new Map(rows.filter((r) => r.name !== r.origin).map((r) => [r.name, r.origin]));
}

/** The identity of an entity: the name it had before its first rename, or its current name. */
export function entityIdentity(db: Database.Database, type: IdentityType, name: string): string {
  return renamedEntities(db, type).get(name) ?? name;
}
