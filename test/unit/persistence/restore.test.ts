import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { createBackup } from '../../../src/services/backup/backup-service';
import { RestoreRefused, restoreBackup } from '../../../src/services/backup/restore-service';
import { LATEST_MIGRATION, initOrm, knexOf, migrate, type DatabaseConfig } from '../../../src/persistence/orm';
import { dumpDatabase } from '../../helpers/database-tables';

/** The restore's checks on SQLite alone (the integration test runs both engines through a real service). */
describe('restoreBackup (SQLite)', () => {
  let dir: string;
  let backup: string;
  const sqlite = (name: string): DatabaseConfig => ({ kind: 'sqlite', file: path.join(dir, name, 'arrgo.sqlite') });

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arrgo-restore-unit-'));
    const orm = await initOrm(sqlite('source'));
    await migrate(orm);
    const at = Date.UTC(2026, 0, 2, 3, 4, 5);
    await knexOf(orm)('instances').insert([1, 2, 3].map((id) => ({ id, name: `radarr-${id}`, arr_type: 'movie_app', base_url: `http://127.0.0.1:${7000 + id}`, api_key_sealed: `v1.sealed-${id}`, enabled: 1, tags: '["a"]', created_at: at, updated_at: at })));
    await knexOf(orm)('instances').where({ id: 3 }).delete();
    await knexOf(orm)('app_settings').insert({ key: 'drift', value: '{"enabled":false,"intervalMinutes":5}', updated_at: at });
    backup = path.join(dir, 'backups', (await createBackup(orm, sqlite('source'), path.join(dir, 'backups'))).file);
    await orm.close(true);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('restores every row into an empty database, and the deleted top id is not handed out again', async () => {
    const outcome = await restoreBackup(sqlite('target'), backup);
    expect(outcome).toMatchObject({ driver: 'sqlite', rows: 3 + LATEST_MIGRATION, backupMigration: LATEST_MIGRATION, migration: LATEST_MIGRATION });
    expect(await dumpDatabase(sqlite('target'))).toEqual(await dumpDatabase(sqlite('source')));
    const orm = await initOrm(sqlite('target'));
    const [id] = await knexOf(orm)('instances').insert({ name: 'new', arr_type: 'movie_app', base_url: 'http://127.0.0.1:1', api_key_sealed: 'x', enabled: 1, tags: '[]', created_at: 0, updated_at: 0 });
    await orm.close(true);
    expect(id).toBe(4);
  });

  it('refuses a non-empty target', async () => {
    await restoreBackup(sqlite('full'), backup);
    await expect(restoreBackup(sqlite('full'), backup)).rejects.toThrow(/^The target database is not empty: table \w+ has \d+ row\(s\)/);
  });

  it('refuses a backup from a newer schema, writing nothing', async () => {
    const newer = path.join(dir, 'newer.sqlite');
    fs.copyFileSync(backup, newer);
    const db = new Database(newer);
    db.prepare('insert into mikro_orm_migrations (name, executed_at) values (?, ?)').run('Migration0999FromTheFuture', Date.now());
    db.close();
    const refused = await restoreBackup(sqlite('untouched'), newer).catch((e: Error) => e);
    expect(refused).toBeInstanceOf(RestoreRefused);
    expect((refused as Error).message).toMatch(/^The backup comes from a newer arrgo: its schema includes Migration0999FromTheFuture, which this version does not know/);
    expect(await dumpDatabase(sqlite('untouched'))).toEqual({});
  });

  it('refuses a file that is not a backup, and a JSON export for SQLite', async () => {
    const text = path.join(dir, 'notes.txt');
    fs.writeFileSync(text, 'hello');
    await expect(restoreBackup(sqlite('x'), text)).rejects.toThrow(`${text} is neither an arrgo SQLite backup nor an arrgo PostgreSQL JSON export.`);
    const json = path.join(dir, 'export.json');
    fs.writeFileSync(json, JSON.stringify({ format: 'arrgo-backup', version: 1, driver: 'postgresql', tables: {} }));
    await expect(restoreBackup(sqlite('y'), json)).rejects.toThrow(/^This is a PostgreSQL JSON export: it restores into PostgreSQL/);
  });
});
