import type { Knex } from '@mikro-orm/knex';
import { applicationTables, initOrm, knexOf, type DatabaseConfig } from '../../src/persistence/orm';

export type TableRows = Record<string, unknown>[];

/** Every row of every table, as JSON values (dates as ISO strings), each table's rows in a stable order. */
export async function dumpTables(knex: Knex, driver: DatabaseConfig['kind']): Promise<Record<string, TableRows>> {
  const out: Record<string, TableRows> = {};
  for (const table of await applicationTables(knex, driver)) {
    const rows: TableRows = JSON.parse(JSON.stringify(await knex(table).select('*')));
    out[table] = rows.sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : JSON.stringify(a) > JSON.stringify(b) ? 1 : 0));
  }
  return out;
}

/** dumpTables over a connection of its own. */
export async function dumpDatabase(database: DatabaseConfig): Promise<Record<string, TableRows>> {
  const orm = await initOrm(database);
  try {
    return await dumpTables(knexOf(orm), database.kind);
  } finally {
    await orm.close(true);
  }
}
