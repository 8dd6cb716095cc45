import fs from 'node:fs';
import Database from 'better-sqlite3';
import type { Knex } from '@mikro-orm/knex';
import { applicationTables, initOrm, knexOf, migrate, type DatabaseConfig, type Orm } from '../../persistence/orm';
import { MIGRATIONS, migrationNumber } from '../../persistence/migrations';

/** A restore that was not started: the message says why and what to do; the target is unchanged. */
export class RestoreRefused extends Error {}

export interface RestoreOutcome {
  driver: DatabaseConfig['kind'];
  tables: number;
  rows: number;
  /** The schema (migration number) the backup was taken at, and the one the database is at now. */
  backupMigration: number;
  migration: number;
}

type Row = Record<string, unknown>;

interface BackupContents {
  driver: DatabaseConfig['kind'];
  tables: Map<string, Row[]>;
  /** The last id each sequence handed out (SQLite: sqlite_sequence by table; PostgreSQL: by sequence name). */
  sequences: Map<string, number>;
}

const MIGRATIONS_TABLE = 'mikro_orm_migrations';
const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');
// Bound parameters per insert stay well under SQLite's and PostgreSQL's limits; knex writes a
// multi-row SQLite insert as a compound select, which SQLite caps at 500 terms.
const PARAMETERS_PER_INSERT = 5000;
const ROWS_PER_INSERT = 400;

/**
 * Restores a backup written by createBackup (a SQLite copy or a PostgreSQL JSON export) into an
 * empty database of the same engine: the schema is built up to the backup's migration, every row is
 * inserted in one transaction (the migration history too), then the migrations the backup predates
 * run. Refuses, before writing anything, a backup from a newer schema or a target that holds rows.
 */
export async function restoreBackup(database: DatabaseConfig, backupFile: string): Promise<RestoreOutcome> {
  const backup = readBackup(backupFile);
  if (backup.driver !== database.kind) {
    throw new RestoreRefused(
      backup.driver === 'postgresql'
        ? 'This is a PostgreSQL JSON export: it restores into PostgreSQL. Set DATABASE_URL to an empty PostgreSQL database and run the restore again.'
        : 'This is a SQLite backup: it restores into the embedded SQLite database. Unset DATABASE_URL (DATA_DIR names where arrgo.sqlite goes) and run the restore again.',
    );
  }
  const backupMigrations = schemaOf(backup);
  const orm = await initOrm(database);
  try {
    const knex = knexOf(orm);
    await refuseUnlessEmpty(orm, knex, database.kind, backupMigrations);
    await orm.getMigrator().up({ to: backupMigrations[backupMigrations.length - 1] });
    const rows = await insertRows(knex, database.kind, backup);
    const migration = await migrate(orm);
    return { driver: database.kind, tables: backup.tables.size, rows, backupMigration: migrationNumber(backupMigrations[backupMigrations.length - 1]), migration };
  } finally {
    await orm.close(true);
  }
}

function readBackup(file: string): BackupContents {
  let head: Buffer;
  try {
    const fd = fs.openSync(file, 'r');
    head = Buffer.alloc(SQLITE_HEADER.length);
    fs.readSync(fd, head, 0, head.length, 0);
    fs.closeSync(fd);
  } catch {
    throw new RestoreRefused(`The backup file ${file} cannot be read.`);
  }
  if (head.equals(SQLITE_HEADER)) return readSqliteBackup(file);
  let parsed: { format?: unknown; version?: unknown; driver?: unknown; tables?: unknown; sequences?: Record<string, number> };
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    parsed = {};
  }
  if (parsed.format !== 'arrgo-backup' || parsed.driver !== 'postgresql' || typeof parsed.tables !== 'object' || parsed.tables === null) {
    throw new RestoreRefused(`${file} is neither an arrgo SQLite backup nor an arrgo PostgreSQL JSON export.`);
  }
  if (parsed.version !== 1) throw new RestoreRefused(`${file} is a JSON export of format version ${String(parsed.version)}; this arrgo reads version 1. Restore it with the arrgo version that wrote it.`);
  return { driver: 'postgresql', tables: new Map(Object.entries(parsed.tables as Record<string, Row[]>)), sequences: new Map(Object.entries(parsed.sequences ?? {})) };
}

function readSqliteBackup(file: string): BackupContents {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const names = db.prepare(`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`).all() as { name: string }[];
    const hasSequences = db.prepare(`select 1 from sqlite_master where type = 'table' and name = 'sqlite_sequence'`).get() !== undefined;
    const sequences = hasSequences ? (db.prepare('select name, seq from sqlite_sequence').all() as { name: string; seq: number }[]) : [];
    return {
      driver: 'sqlite',
      tables: new Map(names.map(({ name }) => [name, db.prepare(`select * from ${quote(name)}`).all() as Row[]])),
      sequences: new Map(sequences.map((r) => [r.name, r.seq])),
    };
  } finally {
    db.close();
  }
}

/** The backup's migration names, checked to be a prefix of the ones this arrgo ships. */
function schemaOf(backup: BackupContents): string[] {
  const rows = backup.tables.get(MIGRATIONS_TABLE);
  if (!rows?.length) throw new RestoreRefused('The backup has no migration history, so its schema is unknown: it is not an arrgo backup.');
  const names = rows.map((r) => String(r.name));
  const known = new Set(MIGRATIONS.map((m) => m.name));
  const unknown = names.filter((n) => !known.has(n));
  if (unknown.length) {
    const latest = MIGRATIONS[MIGRATIONS.length - 1].name;
    throw new RestoreRefused(
      `The backup comes from a newer arrgo: its schema includes ${unknown.join(', ')}, which this version does not know (its newest migration is ${latest}). ` +
        'Restore it with the arrgo version that wrote it, or a newer one. Nothing was changed.',
    );
  }
  const expected = MIGRATIONS.slice(0, names.length).map((m) => m.name);
  if (names.some((n) => !expected.includes(n))) {
    throw new RestoreRefused(`The backup's migration history (${names.join(', ')}) is not a prefix of this arrgo's migrations: it was not written by arrgo.`);
  }
  return expected;
}

async function refuseUnlessEmpty(orm: Orm, knex: Knex, driver: DatabaseConfig['kind'], backupMigrations: string[]): Promise<void> {
  for (const table of await applicationTables(knex, driver)) {
    if (table === MIGRATIONS_TABLE) continue;
    const [{ count }] = await knex(table).count({ count: '*' });
    if (Number(count) > 0) {
      throw new RestoreRefused(
        `The target database is not empty: table ${table} has ${Number(count)} row(s). A restore goes into an empty database ` +
          '(a new PostgreSQL database in DATABASE_URL, or a DATA_DIR without arrgo.sqlite). Nothing was changed.',
      );
    }
  }
  const applied = (await orm.getMigrator().getExecutedMigrations()).map((m) => m.name);
  const ahead = applied.filter((n) => !backupMigrations.includes(n));
  if (ahead.length) {
    throw new RestoreRefused(
      `The target database already has a newer schema than the backup (${ahead[ahead.length - 1]} is applied; the backup stops at ${backupMigrations[backupMigrations.length - 1]}). ` +
        'Restore into a database arrgo has not started on. Nothing was changed.',
    );
  }
}

/** Inserts every backed-up row (the migration history replaces the one the schema build wrote); returns the row count. */
async function insertRows(knex: Knex, driver: DatabaseConfig['kind'], backup: BackupContents): Promise<number> {
  const present = new Set(await applicationTables(knex, driver));
  const missing = [...backup.tables.keys()].filter((t) => !present.has(t));
  if (missing.length) throw new RestoreRefused(`The backup has tables its schema does not create (${missing.join(', ')}): it was not written by arrgo. Nothing was restored.`);
  const columnTypes = driver === 'postgresql' ? await postgresColumnTypes(knex) : new Map<string, string>();
  let count = 0;
  await knex.transaction(async (trx) => {
    await trx(MIGRATIONS_TABLE).delete();
    for (const [table, rows] of backup.tables) {
      if (!rows.length) continue;
      const values = driver === 'postgresql' ? rows.map((row) => toPostgresRow(table, row, columnTypes)) : rows;
      const perInsert = Math.max(1, Math.min(ROWS_PER_INSERT, Math.floor(PARAMETERS_PER_INSERT / Object.keys(rows[0]).length)));
      for (let i = 0; i < values.length; i += perInsert) await trx(table).insert(values.slice(i, i + perInsert));
      count += rows.length;
    }
    if (driver === 'postgresql') await resetSequences(trx, backup.sequences);
    else await restoreSqliteSequences(trx, backup.sequences);
  });
  return count;
}

async function postgresColumnTypes(knex: Knex): Promise<Map<string, string>> {
  const result = await knex.raw(`select table_name, column_name, data_type from information_schema.columns where table_schema = current_schema()`);
  return new Map((result.rows as { table_name: string; column_name: string; data_type: string }[]).map((r) => [`${r.table_name}.${r.column_name}`, r.data_type]));
}

/** A JSON export holds json columns as values and bytea as Node's JSON form of a Buffer. */
function toPostgresRow(table: string, row: Row, columnTypes: Map<string, string>): Row {
  const out: Row = {};
  for (const [column, value] of Object.entries(row)) {
    const type = columnTypes.get(`${table}.${column}`);
    if (value === null || value === undefined) out[column] = null;
    else if (type === 'json' || type === 'jsonb') out[column] = JSON.stringify(value);
    else if (type === 'bytea' && typeof value === 'object' && Array.isArray((value as { data?: unknown }).data)) out[column] = Buffer.from((value as { data: number[] }).data);
    else out[column] = value;
  }
  return out;
}

/** Serial columns continue after the restored ids and after every id the backed-up database handed out. */
async function resetSequences(trx: Knex.Transaction, lastValues: Map<string, number>): Promise<void> {
  const result = await trx.raw(
    `select table_name, column_name, pg_get_serial_sequence(quote_ident(table_name), column_name) as sequence
       from information_schema.columns where table_schema = current_schema() and column_default like 'nextval(%'`,
  );
  for (const { table_name, column_name, sequence } of result.rows as { table_name: string; column_name: string; sequence: string | null }[]) {
    if (!sequence) continue;
    const handedOut = lastValues.get(sequence.replace(/^.*\./, '').replace(/"/g, '')) ?? 0;
    await trx.raw(`select setval(?, greatest(coalesce((select max(${quote(column_name)}) from ${quote(table_name)}), 0), ?) + 1, false)`, [sequence, handedOut]);
  }
}

async function restoreSqliteSequences(trx: Knex.Transaction, lastValues: Map<string, number>): Promise<void> {
  for (const [table, seq] of lastValues) {
    await trx('sqlite_sequence').where({ name: table }).delete();
    await trx('sqlite_sequence').insert({ name: table, seq });
  }
}

function quote(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}
