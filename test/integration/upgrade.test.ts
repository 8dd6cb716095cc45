import type { Knex } from '@mikro-orm/knex';
import { startEmulator, type Emulator } from '../../src/emulators';
import { SecretBox } from '../../src/platform/crypto';
import { MIGRATIONS } from '../../src/persistence/migrations';
import { LATEST_MIGRATION, applicationTables, currentMigration, initOrm, knexOf } from '../../src/persistence/orm';
import { createEmptyDatabase, dbKinds, type DbKind, type EmptyDatabase } from '../helpers/databases';
import { dumpTables, type TableRows } from '../helpers/database-tables';
import { startArrgo } from '../helpers/harness';

/*
 * The oldest landed schema is Migration0001Foundation (instances and app_settings). The fixture is
 * generated here: a fresh database runs only that migration, then rows are written as arrgo of that
 * schema wrote them (SQLite: dates as epoch milliseconds, booleans as 0/1, JSON as text).
 */
const SECRET = 'upgrade-fixture-secret-0123456789-abcdef';
const RADARR_KEY = 'fixture-radarr-key-0123456789abcdef';
const SONARR_KEY = 'fixture-sonarr-key-fedcba9876543210';
const CREATED = new Date(Date.UTC(2025, 10, 3, 8, 15, 0));
const FIRST = MIGRATIONS[0].name;

function stored(db: DbKind, value: Date | boolean | object): unknown {
  if (value instanceof Date) return db === 'sqlite' ? value.getTime() : value;
  if (typeof value === 'boolean') return db === 'sqlite' ? (value ? 1 : 0) : value;
  return JSON.stringify(value);
}

/** A database at the first migration with rows in each of its tables; API keys sealed with SECRET. */
async function oldestSchemaFixture(db: DbKind, radarrUrl: string): Promise<EmptyDatabase> {
  const fixture = await createEmptyDatabase(db);
  const orm = await initOrm(fixture.database);
  try {
    await orm.getMigrator().up({ to: FIRST });
    const box = new SecretBox(SECRET);
    const knex = knexOf(orm);
    await knex('instances').insert([
      { id: 1, name: 'radarr-fixture', arr_type: 'movie_app', base_url: radarrUrl, api_key_sealed: box.encrypt(RADARR_KEY), enabled: stored(db, true), tags: stored(db, ['4k', 'main']), created_at: stored(db, CREATED), updated_at: stored(db, CREATED) },
      { id: 2, name: 'sonarr-fixture', arr_type: 'series_app', base_url: 'http://127.0.0.1:9', api_key_sealed: box.encrypt(SONARR_KEY), enabled: stored(db, false), tags: stored(db, []), created_at: stored(db, CREATED), updated_at: stored(db, CREATED) },
    ]);
    await knex('app_settings').insert([
      { key: 'drift', value: stored(db, { enabled: false, intervalMinutes: 45 }), updated_at: stored(db, CREATED) },
      { key: 'sync-history', value: stored(db, { enabled: true, retentionDays: 30, retentionMaxEntries: 500 }), updated_at: stored(db, CREATED) },
    ]);
    if (db === 'postgresql') await knex.raw(`select setval(pg_get_serial_sequence('instances', 'id'), 2)`);
  } catch (error) {
    await fixture.drop();
    throw error;
  } finally {
    await orm.close(true);
  }
  return fixture;
}

interface Column {
  name: string;
  type: string;
}

async function columnsOf(knex: Knex, db: DbKind, table: string): Promise<Column[]> {
  if (db === 'sqlite') return ((await knex.raw(`pragma table_info("${table}")`)) as { name: string; type: string }[]).map((c) => ({ name: c.name, type: c.type.toLowerCase() }));
  const result = await knex.raw(`select column_name, data_type from information_schema.columns where table_schema = current_schema() and table_name = ?`, [table]);
  return (result.rows as { column_name: string; data_type: string }[]).map((c) => ({ name: c.column_name, type: c.data_type }));
}

/** One row with a value in every column (nullable ones too), so later migrations must carry each of them. */
function seedRow(db: DbKind, table: string, columns: Column[]): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const { name, type } of columns) {
    if (/int/.test(type)) row[name] = 7;
    else if (/bool/.test(type)) row[name] = stored(db, true);
    else if (/date|time/.test(type)) row[name] = stored(db, CREATED);
    else if (/json/.test(type)) row[name] = stored(db, { seeded: table });
    else if (/blob|binary|bytea/.test(type)) row[name] = Buffer.from(`seed ${table}`);
    else row[name] = `${name.slice(0, 8)}-7`;
  }
  return row;
}

/** The rows of `before`, read back from `after` through `before`'s columns only. */
function sameColumns(before: TableRows, after: TableRows): TableRows {
  const columns = before.length ? Object.keys(before[0]) : [];
  return after.map((row) => Object.fromEntries(columns.map((c) => [c, row[c]])));
}

for (const db of dbKinds()) {
  describe(`upgrades from the oldest schema (${db})`, () => {
    let radarr: Emulator;
    const drops: (() => Promise<void>)[] = [];

    beforeAll(async () => {
      radarr = await startEmulator({ app: 'radarr', apiKey: RADARR_KEY });
    });
    afterAll(async () => {
      for (const drop of drops) await drop().catch(() => undefined);
      await radarr?.close();
    });

    it('migrates one step at a time: each step keeps every row and column of the steps before it', async () => {
      const fixture = await oldestSchemaFixture(db, radarr.baseUrl);
      drops.push(fixture.drop);
      const orm = await initOrm(fixture.database);
      try {
        const knex = knexOf(orm);
        expect(await currentMigration(orm)).toBe(1);
        const fixtureRows = await dumpTables(knex, db);
        expect(Object.keys(fixtureRows)).toEqual(['app_settings', 'instances', 'mikro_orm_migrations']);
        expect(fixtureRows.instances).toHaveLength(2);
        expect(fixtureRows.app_settings).toHaveLength(2);
        for (const [index, migration] of MIGRATIONS.entries()) {
          if (index === 0) continue;
          const before = await dumpTables(knex, db);
          await orm.getMigrator().up({ to: migration.name });
          const executed = (await orm.getMigrator().getExecutedMigrations()).map((m) => m.name);
          expect(executed).toEqual(MIGRATIONS.slice(0, index + 1).map((m) => m.name));
          const after = await dumpTables(knex, db);
          for (const [table, rows] of Object.entries(before)) {
            if (table === 'mikro_orm_migrations') continue;
            expect({ step: migration.name, table, rows: sameColumns(rows, after[table]) }).toEqual({ step: migration.name, table, rows });
          }
          // Tables this step created get a row, which every later step must carry.
          for (const table of (await applicationTables(knex, db)).filter((t) => !(t in before) && after[t].length === 0)) {
            await knex(table).insert(seedRow(db, table, await columnsOf(knex, db, table)));
          }
        }
        const final = await dumpTables(knex, db);
        expect(await currentMigration(orm)).toBe(LATEST_MIGRATION);
        // 0012 marked the old instances never-verified; 0016 turned the seeded configuration into its one-element list.
        expect(final.instances.map((i) => i.verification_status)).toEqual(['never-verified', 'never-verified']);
        expect(final.instance_sync_databases).toEqual(expect.arrayContaining([expect.objectContaining({ instance_id: 7, position: 0, database_id: 7 })]));
        for (const [table, rows] of Object.entries(final)) expect([table, rows.length > 0]).toEqual([table, true]);
        expect(sameColumns(fixtureRows.instances, final.instances)).toEqual(fixtureRows.instances);
        expect(final.app_settings).toEqual(fixtureRows.app_settings);
      } finally {
        await orm.close(true);
      }
    }, 120_000);

    it('the service starts on the oldest schema, migrates all at once, serves its data and opens its sealed keys', async () => {
      const fixture = await oldestSchemaFixture(db, radarr.baseUrl);
      drops.push(async () => void (await fixture.pg?.drop()));
      const h = await startArrgo({ db, existing: { dataDir: fixture.dataDir, databaseUrl: fixture.pg?.url }, env: { ARRGO_SECRET: SECRET } });
      try {
        expect(await currentMigration(h.service.orm)).toBe(LATEST_MIGRATION);
        const executed = (await h.service.orm.getMigrator().getExecutedMigrations()).map((m) => m.name);
        expect(executed).toEqual(MIGRATIONS.map((m) => m.name));

        const listed = await h.get('/instances');
        expect(listed.status).toBe(200);
        expect(listed.body.items.map((i: Record<string, unknown>) => ({ id: i.id, name: i.name, arrType: i.arrType, enabled: i.enabled, tags: i.tags }))).toEqual([
          { id: 1, name: 'radarr-fixture', arrType: 'movie_app', enabled: true, tags: ['4k', 'main'] },
          { id: 2, name: 'sonarr-fixture', arrType: 'series_app', enabled: false, tags: [] },
        ]);
        expect(listed.text).not.toContain(RADARR_KEY);
        expect((await h.get('/drift/settings')).body).toMatchObject({ enabled: false, intervalMinutes: 45 });
        expect((await h.get('/sync-history/settings')).body).toMatchObject({ enabled: true, retentionDays: 30, retentionMaxEntries: 500 });

        // The key sealed under the oldest schema opens: the emulator only answers to it.
        const tested = await h.post('/instances/1/test');
        expect(tested.body).toMatchObject({ reachable: true, appName: 'Radarr', matchesArrType: true });
        const em = h.service.orm.em.fork();
        const sealed: { id: number; api_key_sealed: string }[] = await em.getConnection().execute('select id, api_key_sealed from instances order by id');
        expect(sealed.map((r) => new SecretBox(SECRET).decrypt(r.api_key_sealed))).toEqual([RADARR_KEY, SONARR_KEY]);

        // New rows continue after the fixture's ids.
        const added = await h.post('/instances', { name: 'radarr-after-upgrade', arrType: 'movie_app', baseUrl: radarr.baseUrl, apiKey: RADARR_KEY });
        expect(added.status).toBe(201);
        expect(added.body.id).toBe(3);
      } finally {
        await h.close();
      }
    }, 120_000);
  });
}
