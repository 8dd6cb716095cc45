import fs from 'node:fs';
import path from 'node:path';
import { MikroORM, raw, type EntityManager, type Options } from '@mikro-orm/core';
import { Migrator } from '@mikro-orm/migrations';
import type { Knex, SqlEntityManager } from '@mikro-orm/knex';
import type { Config } from '../config';
import type { Logger } from '../platform/logger';
import { BoundBetterSqliteDriver, BoundPostgreSqlDriver } from './bound-parameters';
import { ENTITIES } from './entities';
import { MIGRATIONS, migrationNumber } from './migrations';

export type DatabaseConfig = Config['database'];
export type Orm = MikroORM;

export function driverName(database: DatabaseConfig): 'postgresql' | 'sqlite' {
  return database.kind;
}

export interface OrmTuning {
  /** PostgreSQL pool size (SQLite keeps its one connection: a single writer, readers in WAL). */
  poolMax?: number;
}

export function ormOptions(database: DatabaseConfig, logger?: Logger, tuning: OrmTuning = {}): Options {
  const common: Options = {
    entities: ENTITIES,
    extensions: [Migrator],
    migrations: {
      migrationsList: MIGRATIONS,
      tableName: 'mikro_orm_migrations',
      transactional: true,
      allOrNothing: true,
    },
    forceUtcTimezone: true,
    allowGlobalContext: false,
    debug: false,
    logger: (message: string) => logger?.debug({ component: 'orm' }, stripAnsi(message)),
    discovery: { warnWhenNoEntities: false },
  };
  if (database.kind === 'postgresql') {
    return { ...common, driver: BoundPostgreSqlDriver, clientUrl: database.url, pool: { min: 0, max: tuning.poolMax ?? 10 } };
  }
  fs.mkdirSync(path.dirname(database.file), { recursive: true });
  return { ...common, driver: BoundBetterSqliteDriver, dbName: database.file };
}

export async function initOrm(database: DatabaseConfig, logger?: Logger, tuning: OrmTuning = {}): Promise<Orm> {
  const orm = await MikroORM.init(ormOptions(database, logger, tuning));
  if (database.kind === 'sqlite') {
    const connection = orm.em.getConnection();
    await connection.execute('pragma journal_mode = wal');
    await connection.execute('pragma busy_timeout = 5000');
    // WAL with synchronous=NORMAL: durable across crashes of the process, one fsync per checkpoint.
    await connection.execute('pragma synchronous = normal');
    await connection.execute('pragma foreign_keys = on');
  }
  return orm;
}

/** True when the entity manager talks to PostgreSQL (else the embedded SQLite). */
export function isPostgres(em: EntityManager): boolean {
  return em.getDriver() instanceof BoundPostgreSqlDriver;
}

const MIGRATION_LOCK_KEY = 7_979_001;

/**
 * Applies pending migrations; returns the current migration number. On PostgreSQL an advisory
 * lock serialises processes that start together (the api and worker services).
 */
export async function migrate(orm: Orm): Promise<number> {
  if (isPostgres(orm.em)) {
    await knexOf(orm).transaction(async (trx) => {
      await trx.raw('select pg_advisory_xact_lock(?)', [MIGRATION_LOCK_KEY]);
      await orm.getMigrator().up();
    });
  } else {
    await orm.getMigrator().up();
  }
  return currentMigration(orm);
}

export async function currentMigration(orm: Orm): Promise<number> {
  const executed = await orm.getMigrator().getExecutedMigrations();
  return executed.reduce((max, m) => Math.max(max, migrationNumber(m.name)), 0);
}

/** The knex instance under the ORM (schema listings, bulk copies). */
export function knexOf(orm: Orm): Knex {
  return (orm.em as SqlEntityManager).getKnex();
}

/** The tables of the application database, by name (SQLite's own tables left out). */
export async function applicationTables(knex: Knex, kind: DatabaseConfig['kind']): Promise<string[]> {
  if (kind === 'sqlite') {
    const rows: { name: string }[] = await knex.raw(`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`);
    return rows.map((r) => r.name);
  }
  const result = await knex.raw(`select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`);
  return (result.rows as { table_name: string }[]).map((r) => r.table_name);
}

export const LATEST_MIGRATION = MIGRATIONS.reduce((max, m) => Math.max(max, migrationNumber(m.name)), 0);

function stripAnsi(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;]*m/g, '');
}

/** `$ilike` on PostgreSQL; SQLite's LIKE is already case-insensitive for ASCII and has no ILIKE. */
export function caseInsensitiveLikeOperator(em: { getPlatform(): object }): '$ilike' | '$like' {
  return em.getPlatform().constructor.name.toLowerCase().includes('postgre') ? '$ilike' : '$like';
}

/**
 * A filter fragment: `column` contains `text` literally, ignoring (ASCII) case. % and _ are escaped
 * and the ESCAPE clause says so on every driver (SQLite's LIKE has no default escape character);
 * the pattern is a bound parameter. Spread it into a where (or an $or entry).
 */
export function containsText(em: { getPlatform(): object }, column: string, text: string): Record<string, []> {
  const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const like = caseInsensitiveLikeOperator(em) === '$ilike' ? 'ilike' : 'like';
  return { [raw((alias: string) => `${alias}.${column} ${like} ? escape '\\'`, [pattern])]: [] };
}
