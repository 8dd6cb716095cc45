import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { initOrm, LATEST_MIGRATION, migrate } from '../../src/persistence/orm';
import { createPostgresDatabase, postgresAvailable } from '../helpers/databases';

const describePg = postgresAvailable() ? describe : describe.skip;

describePg('migrations on PostgreSQL', () => {
  it('bring an empty database exactly to the entity model, idempotently', async () => {
    const db = await createPostgresDatabase();
    const orm = await initOrm({ kind: 'postgresql', url: db.url });
    try {
      expect(await migrate(orm)).toBe(LATEST_MIGRATION);
      expect(await migrate(orm)).toBe(LATEST_MIGRATION);
      // The portable knex migrations and the MikroORM entities describe the same schema.
      expect((await orm.schema.getUpdateSchemaSQL({ wrap: false })).trim()).toBe('');
    } finally {
      await orm.close(true);
      await db.drop();
    }
  });
});

describe('migrations on SQLite', () => {
  it('create the embedded database file and report the same migration number', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arrgo-sqlite-'));
    const file = path.join(dir, 'nested', 'arrgo.sqlite');
    const orm = await initOrm({ kind: 'sqlite', file });
    try {
      expect(await migrate(orm)).toBe(LATEST_MIGRATION);
      expect(fs.existsSync(file)).toBe(true);
      const tables: { name: string }[] = await orm.em.getConnection().execute(`select name from sqlite_master where type = 'table' order by name`);
      expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(['instances', 'app_settings', 'mikro_orm_migrations', 'notification_channels', 'notification_events', 'notification_deliveries']));
    } finally {
      await orm.close(true);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
