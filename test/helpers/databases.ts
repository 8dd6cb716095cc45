import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { initOrm, migrate, type DatabaseConfig, type Orm } from '../../src/persistence/orm';

export type DbKind = 'postgresql' | 'sqlite';

export function postgresAvailable(): boolean {
  return Boolean(process.env.TEST_DATABASE_URL);
}

/** Every driver this run can test: PostgreSQL (when the setup found one) and SQLite. */
export function dbKinds(): DbKind[] {
  return postgresAvailable() ? ['postgresql', 'sqlite'] : ['sqlite'];
}

/** PostgreSQL is the production database: integration tests use it whenever it is available. */
export function defaultDbKind(): DbKind {
  return postgresAvailable() ? 'postgresql' : 'sqlite';
}

export interface TestPostgresDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A fresh, empty PostgreSQL database for one harness. */
export async function createPostgresDatabase(): Promise<TestPostgresDatabase> {
  const adminUrl = process.env.TEST_DATABASE_URL!;
  const name = `arrgo_t_${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}

export interface EmptyDatabase {
  database: DatabaseConfig;
  /** A DATA_DIR of its own (SQLite's arrgo.sqlite lives there). */
  dataDir: string;
  pg: TestPostgresDatabase | null;
  drop(): Promise<void>;
}

/** A fresh, empty application database of the engine that no service has started on. */
export async function createEmptyDatabase(db: DbKind): Promise<EmptyDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arrgo-db-'));
  const pg = db === 'postgresql' ? await createPostgresDatabase() : null;
  const database: DatabaseConfig = pg ? { kind: 'postgresql', url: pg.url } : { kind: 'sqlite', file: path.join(dataDir, 'arrgo.sqlite') };
  return {
    database,
    dataDir,
    pg,
    async drop() {
      await pg?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Two ORMs on one fresh, migrated database of the kind, as two processes hold it (racing writers),
 * and how to close both and remove the database.
 */
export async function twoConnections(db: DbKind): Promise<{ orms: Orm[]; close: () => Promise<void> }> {
  let orms: Orm[];
  let remove: () => Promise<void>;
  if (db === 'postgresql') {
    const pg = await createPostgresDatabase();
    orms = [await initOrm({ kind: 'postgresql', url: pg.url }), await initOrm({ kind: 'postgresql', url: pg.url })];
    remove = () => pg.drop();
  } else {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arrgo-two-connections-'));
    const file = path.join(dir, 'arrgo.sqlite');
    orms = [await initOrm({ kind: 'sqlite', file })];
    // The SQLite file exists (with its schema) before the second connection opens it.
    await migrate(orms[0]);
    orms.push(await initOrm({ kind: 'sqlite', file }));
    remove = async () => fs.rmSync(dir, { recursive: true, force: true });
  }
  await migrate(orms[0]);
  return {
    orms,
    close: async () => {
      for (const orm of orms) await orm.close(true);
      await remove();
    },
  };
}
