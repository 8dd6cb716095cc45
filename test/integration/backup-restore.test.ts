import { randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { backupsDir } from '../../src/services/backup/backup-service';
import { RestoreRefused, restoreBackup } from '../../src/services/backup/restore-service';
import { LATEST_MIGRATION } from '../../src/persistence/orm';
import { MIGRATIONS } from '../../src/persistence/migrations';
import { backupWorkflow } from '../../src/workflows/contracts';
import { createEmptyDatabase, dbKinds, type EmptyDatabase } from '../helpers/databases';
import { dumpDatabase, type TableRows } from '../helpers/database-tables';
import { SAMPLE_PCD, addInstance, linkDatabase, startMovieRollout, type FleetInstance } from '../helpers/fleet';
import { eventually, startArrgo, type Harness } from '../helpers/harness';

const ROOT = path.resolve(__dirname, '..', '..');
const SECTIONS = ['qualityProfiles', 'delayProfiles', 'mediaManagement'];
// What a populated service must hold before its backup proves anything (the list).
const POPULATED = ['instances', 'instance_sync_configs', 'instance_sync_databases', 'sync_runs', 'sync_previews', 'sync_ledger', 'canary_rollouts', 'pcd_databases', 'pcd_ops', 'pcd_snapshots', 'pcd_snapshot_bases', 'notification_channels', 'timeline_annotations', 'ui_preferences', 'users', 'sessions', 'app_settings', 'mikro_orm_migrations'];

/** The backup's own rows, read as the restored database is read. */
async function backupContents(db: 'postgresql' | 'sqlite', file: string): Promise<Record<string, TableRows>> {
  if (db === 'postgresql') {
    const tables: Record<string, TableRows> = JSON.parse(fs.readFileSync(file, 'utf8')).tables;
    const sorted = (rows: TableRows) => rows.sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : JSON.stringify(a) > JSON.stringify(b) ? 1 : 0));
    return Object.fromEntries(Object.entries(tables).map(([table, rows]) => [table, sorted(rows)]));
  }
  const copy = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'arrgo-backup-copy-')), 'copy.sqlite');
  fs.copyFileSync(file, copy);
  try {
    return await dumpDatabase({ kind: 'sqlite', file: copy });
  } finally {
    fs.rmSync(path.dirname(copy), { recursive: true, force: true });
  }
}

/** A copy of the backup whose migration history has one migration this arrgo does not ship. */
function backupFromNewerSchema(db: 'postgresql' | 'sqlite', file: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arrgo-newer-'));
  const newer = path.join(dir, path.basename(file));
  if (db === 'postgresql') {
    const backup = JSON.parse(fs.readFileSync(file, 'utf8'));
    backup.tables.mikro_orm_migrations.push({ id: 999, name: 'Migration0999FromTheFuture', executed_at: new Date().toISOString() });
    fs.writeFileSync(newer, JSON.stringify(backup));
  } else {
    fs.copyFileSync(file, newer);
    const sqlite = new Database(newer);
    sqlite.prepare('insert into mikro_orm_migrations (name, executed_at) values (?, ?)').run('Migration0999FromTheFuture', Date.now());
    sqlite.close();
  }
  return newer;
}

for (const db of dbKinds()) {
  describe(`backup and restore (${db})`, () => {
    const secret = randomBytes(36).toString('base64url');
    let h: Harness;
    let instances: FleetInstance[] = [];
    let backupFile: string;
    let backupCopyDir: string;
    let droppedChannelId: number;
    const cleanups: (() => Promise<void>)[] = [];

    beforeAll(async () => {
      h = await startArrgo({ db, env: { ARRGO_SECRET: secret } });
      const databaseId = await linkDatabase(h, 'sample', SAMPLE_PCD);
      const canary = await addInstance(h, 'movie_app', { name: 'radarr-canary', databaseId });
      const target = await addInstance(h, 'movie_app', { name: 'radarr-target', databaseId });
      const synced = await addInstance(h, 'movie_app', { name: 'radarr-synced', databaseId });
      instances = [canary, target, synced];

      // History: a sync run with its preview and ledger; a rollout through its gate to the end.
      const run = await h.post(`/instances/${synced.id}/sync?wait=true`, {});
      expect(run.status).toBe(200);
      const started = await startMovieRollout(h, canary, [target], { sections: SECTIONS, partialPolicy: 'gate' });
      expect(`${started.status} ${started.text}`).toMatch(/^201 /);
      const gated = await eventually(() => h.get(`/canary/rollouts/${started.body.id}`), (r) => r.body.status === 'awaiting_confirmation', 90_000);
      expect((await h.post(`/canary/rollouts/${started.body.id}/proceed`, { stateToken: gated.body.stateToken })).status).toBe(200);
      await eventually(() => h.get(`/canary/rollouts/${started.body.id}`), (r) => r.body.status === 'completed', 90_000);

      // A user op, a snapshot, a channel, an annotation, a UI preference, a console user, settings.
      const edited = await h.patch(`/pcd/${databaseId}/entities/regular_expression/Atmos`, { changes: [{ path: 'description', value: 'Object-based audio, restored' }] });
      expect(edited.body).toEqual({ success: true, changed: true });
      expect((await h.post(`/databases/${databaseId}/snapshots`, { note: 'before the backup' })).status).toBe(201);
      expect((await h.post('/notifications/channels', { name: 'ops-hook', kind: 'webhook', url: 'http://127.0.0.1:9/hook', secret: 'whsec-restore-0123456789', events: ['sync.failed'] })).status).toBe(201);
      // The newest channel is deleted: its id must not be handed out again after the restore.
      const dropped = await h.post('/notifications/channels', { name: 'dropped-hook', kind: 'webhook', url: 'http://127.0.0.1:9/dropped', secret: 'whsec-dropped-0123456789', events: ['sync.failed'] });
      expect(dropped.status).toBe(201);
      droppedChannelId = dropped.body.id;
      expect((await h.del(`/notifications/channels/${droppedChannelId}`)).status).toBe(204);
      const runs = await h.get('/sync-history?pageSize=5');
      expect((await h.post('/timeline/annotations', { eventId: `sync:${runs.body.items[0].id}`, body: 'Checked before the backup' })).status).toBe(201);
      expect((await h.patch('/ui-preferences', { section_key: 'pcd:quality-profiles:scoring', mode: 'advanced' })).status).toBe(200);
      expect((await h.post('/auth/setup', { username: 'admin', password: 'restore-password-0123' })).status).toBe(201);
      expect((await h.put('/drift/settings', { enabled: false, intervalMinutes: 90 })).status).toBe(200);

      // The existing backup path: the scheduled workflow's run, on this service's worker.
      const result = await h.service.temporal.client.workflow.execute(backupWorkflow, { taskQueue: h.taskQueue, workflowId: `${h.taskQueue}-backup-test` });
      expect(result.file).toMatch(db === 'postgresql' ? /^arrgo-\d{8}T\d{6}Z\.json$/ : /^arrgo-\d{8}T\d{6}Z\.sqlite$/);
      backupCopyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arrgo-backups-'));
      backupFile = path.join(backupCopyDir, result.file);
      fs.copyFileSync(path.join(backupsDir(h.dataDir), result.file), backupFile);
    }, 400_000);

    afterAll(async () => {
      await h?.close();
      for (const cleanup of cleanups) await cleanup().catch(() => undefined);
      for (const instance of instances) await instance.emulator.close();
      if (backupCopyDir) fs.rmSync(backupCopyDir, { recursive: true, force: true });
    });

    it('restores the backup into an empty database: every table equal row by row, and the service serves it', async () => {
      const expected = await backupContents(db, backupFile);
      for (const table of POPULATED) expect([table, (expected[table] ?? []).length > 0]).toEqual([table, true]);

      const target = await createEmptyDatabase(db);
      cleanups.push(target.drop);
      const outcome = await restoreBackup(target.database, backupFile);
      const rowCount = Object.values(expected).reduce((sum, rows) => sum + rows.length, 0);
      expect(outcome).toEqual({ driver: db, tables: Object.keys(expected).length, rows: rowCount, backupMigration: LATEST_MIGRATION, migration: LATEST_MIGRATION });

      const restored = await dumpDatabase(target.database);
      expect(Object.keys(restored).sort()).toEqual(Object.keys(expected).sort());
      for (const table of Object.keys(expected)) expect({ table, rows: restored[table] }).toEqual({ table, rows: expected[table] });

      // A restore into a database that now holds rows is refused, and changes nothing.
      const again = await restoreBackup(target.database, backupFile).catch((e: Error) => e);
      expect(again).toBeInstanceOf(RestoreRefused);
      expect((again as Error).message).toMatch(/^The target database is not empty: table \w+ has \d+ row\(s\)\. A restore goes into an empty database/);
      expect(await dumpDatabase(target.database)).toEqual(restored);

      // The service starts on the restored database with the same secret: sealed keys open.
      const served = await startArrgo({ db, existing: { dataDir: target.dataDir, databaseUrl: target.pg?.url }, env: { ARRGO_SECRET: secret } });
      try {
        const listed = await served.get('/instances');
        expect(listed.body.items.map((i: { name: string }) => i.name).sort()).toEqual(['radarr-canary', 'radarr-synced', 'radarr-target']);
        const tested = await served.post(`/instances/${instances[0].id}/test`);
        expect(tested.body).toMatchObject({ reachable: true, appName: 'Radarr' });
        expect((await served.get('/notifications/channels')).body.items.map((c: { name: string }) => c.name)).toEqual(['ops-hook']);
        expect((await served.get('/drift/settings')).body).toMatchObject({ enabled: false, intervalMinutes: 90 });
        // New rows continue after every id the backed-up database handed out, the deleted channel's too.
        const channel = await served.post('/notifications/channels', { name: 'after-restore', kind: 'webhook', url: 'http://127.0.0.1:9/after', secret: 'whsec-after-0123456789', events: ['sync.failed'] });
        expect(channel.status).toBe(201);
        expect(channel.body.id).toBe(droppedChannelId + 1);
      } finally {
        await served.close();
      }
    }, 180_000);

    it('refuses a backup from a newer schema with a clear message, leaving the target empty', async () => {
      const target = await createEmptyDatabase(db);
      cleanups.push(target.drop);
      const newer = backupFromNewerSchema(db, backupFile);
      cleanups.push(async () => fs.rmSync(path.dirname(newer), { recursive: true, force: true }));
      const refused = await restoreBackup(target.database, newer).catch((e: Error) => e);
      expect(refused).toBeInstanceOf(RestoreRefused);
      expect((refused as Error).message).toBe(
        'The backup comes from a newer arrgo: its schema includes Migration0999FromTheFuture, which this version does not know ' +
          `(its newest migration is ${MIGRATIONS[MIGRATIONS.length - 1].name}). Restore it with the arrgo version that wrote it, or a newer one. Nothing was changed.`,
      );
      const after = await dumpDatabase(target.database);
      expect(Object.values(after).every((rows) => rows.length === 0)).toBe(true);
    }, 60_000);

    it('refuses a backup of the other engine, naming what to set', async () => {
      const other = await createEmptyDatabase(db === 'postgresql' ? 'sqlite' : 'postgresql').catch(() => null);
      if (!other) return;
      cleanups.push(other.drop);
      const refused = await restoreBackup(other.database, backupFile).catch((e: Error) => e);
      expect(refused).toBeInstanceOf(RestoreRefused);
      expect((refused as Error).message).toMatch(db === 'postgresql' ? /^This is a PostgreSQL JSON export: it restores into PostgreSQL\. Set DATABASE_URL/ : /^This is a SQLite backup: it restores into the embedded SQLite database\. Unset DATABASE_URL/);
    }, 60_000);

    it('npm run restore: restores, and refuses a newer schema with exit code 1 and the message', async () => {
      if (!fs.existsSync(path.join(ROOT, 'dist', 'scripts', 'restore.js'))) throw new Error('dist/scripts/restore.js is missing: run npm run build first');
      const run = (file: string, target: EmptyDatabase) =>
        promisify(execFile)('npm', ['run', '--silent', 'restore', '--', file], {
          cwd: ROOT,
          env: { ...process.env, DATA_DIR: target.dataDir, DATABASE_URL: target.pg?.url ?? '' },
        }).then(
          (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
          (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
        );
      const target = await createEmptyDatabase(db);
      cleanups.push(target.drop);
      const restored = await run(backupFile, target);
      expect(restored.code).toBe(0);
      expect(restored.stdout).toMatch(new RegExp(`^Restored \\d+ rows in \\d+ tables into .+ \\(schema ${LATEST_MIGRATION}\\)\\.\\n$`));
      expect(restored.stdout).not.toContain(target.pg?.url ?? '\u0000');

      const newer = backupFromNewerSchema(db, backupFile);
      cleanups.push(async () => fs.rmSync(path.dirname(newer), { recursive: true, force: true }));
      const fresh = await createEmptyDatabase(db);
      cleanups.push(fresh.drop);
      const refused = await run(newer, fresh);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('Restore refused: The backup comes from a newer arrgo: its schema includes Migration0999FromTheFuture');
      expect((await run(backupFile, target)).stderr).toContain('Restore refused: The target database is not empty');
    }, 120_000);
  });
}
