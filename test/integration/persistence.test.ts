import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { initOrm, LATEST_MIGRATION, migrate, type Orm } from '../../src/persistence/orm';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { Adoption, CanaryRollout, Instance, InstanceSyncDatabase, PcdDatabase, RefGuideSource, Session, SyncLedgerEntry, SyncRun, User } from '../../src/persistence/entities';
import { openGitCredential, sealUrlCredentials } from '../../src/services/git-credentials';
import type { Logger } from '../../src/platform/logger';
import { readLedger, writeLedger } from '../../src/services/sync/ledger-service';
import { emptySelection } from '../../src/domain/sync';
import { SyncConfigService } from '../../src/services/sync/sync-config-service';
import { PROFILE_CHANNEL, type ProfileSample } from '../../src/platform/profiling';
import type { Knex } from '@mikro-orm/knex';
import { SecretBox } from '../../src/platform/crypto';
import { InstanceService } from '../../src/services/instances/instance-service';
import { SyncHistoryService } from '../../src/services/sync/history-service';
import { storeRunVerification } from '../../src/services/sync/run-rows';
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
      expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(['instances', 'app_settings', 'mikro_orm_migrations', 'notification_channels', 'notification_events', 'notification_deliveries', 'users', 'sessions', 'adoptions', 'rate_limit_windows', 'login_throttle']));
    } finally {
      await orm.close(true);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** Statements written to the database while fn runs (through the profiling probe of the drivers). */
async function writesDuring(fn: () => Promise<void>): Promise<string[]> {
  const writes: string[] = [];
  const listener = (message: unknown) => {
    const sample = message as ProfileSample;
    if (sample.phase === 'db-write') writes.push(sample.name);
  };
  subscribe(PROFILE_CHANNEL, listener);
  try {
    await fn();
  } finally {
    unsubscribe(PROFILE_CHANNEL, listener);
  }
  return writes;
}

async function expectLoadedDatesUntouched(orm: Orm): Promise<void> {
  const created = new Date('2026-01-02T03:04:05.678Z');
  const seed = orm.em.fork();
  seed.create(Instance, { name: 'dates', arrType: 'movie_app', baseUrl: 'http://127.0.0.1:1', apiKeySealed: 'sealed', enabled: true, tags: [], createdAt: created, updatedAt: created });
  await seed.flush();
  const em = orm.em.fork();
  const loaded = await em.findOneOrFail(Instance, { name: 'dates' });
  expect(loaded.createdAt.toISOString()).toBe(created.toISOString());
  // A flush with nothing changed writes nothing (dates used to look changed on SQLite and were rewritten).
  expect(await writesDuring(() => em.flush())).toEqual([]);
  loaded.name = 'dates-renamed';
  expect(await writesDuring(() => em.flush())).toEqual(['update instances']);
  expect((await orm.em.fork().findOneOrFail(Instance, { name: 'dates-renamed' })).createdAt.toISOString()).toBe(created.toISOString());
}

describeOnMigratedDatabases('unchanged entities are not written back', expectLoadedDatesUntouched);

/** Migration 0010: the runs of a rollout's targets all carry the rollout's workflow id. */
async function expectRunsShareAWorkflowId(orm: Orm): Promise<void> {
  const em = orm.em.fork();
  const run = (instanceName: string) =>
    em.create(SyncRun, {
      instanceId: null,
      instanceName,
      arrType: 'movie_app',
      trigger: 'canary',
      sectionsAttempted: ['qualityProfiles'],
      sectionsKey: ',qualityProfiles,',
      status: 'running',
      sectionsRun: 0,
      itemsSynced: 0,
      failureCount: 0,
      entityChangeCount: 0,
      entityOutcomeCount: 0,
      error: null,
      outcomes: [],
      verification: null,
      previewId: null,
      rolloutId: 7,
      workflowId: 'canary-rollout-7',
      startedAt: new Date(),
      finishedAt: null,
      createdAt: new Date(),
    });
  run('target-1');
  run('target-2');
  await em.flush();
  const stored = await orm.em.fork().find(SyncRun, { workflowId: 'canary-rollout-7' }, { orderBy: { id: 'asc' } });
  expect(stored.map((r) => r.instanceName)).toEqual(['target-1', 'target-2']);
}

describeOnMigratedDatabases('sync runs of one rollout share its workflow id', expectRunsShareAWorkflowId);

/** Migration 0011: why a rollout ended is stored with it (code and text, the text unbounded by a column length). */
async function expectRolloutReasonStored(orm: Orm): Promise<void> {
  const em = orm.em.fork();
  // Three failed targets named with names of the longest form (100 characters).
  const named = [1, 2, 3].map((i) => `${`radarr-${i}-`.padEnd(100, 'x')} (partly synced): the app instance rejected the request`);
  const reason = `Failed: 30 of 40 targets failed (${named.join('; ')}; and 27 more).`;
  const rollout = em.create(CanaryRollout, {
    arrType: 'movie_app',
    canaryInstanceId: 1,
    canaryInstanceName: 'radarr-1',
    targets: [],
    sections: ['qualityProfiles'],
    partialPolicy: 'gate',
    batchSize: 5,
    evidenceMaxAgeSeconds: 3600,
    status: 'failed',
    canaryStatus: 'success',
    canaryPreviewId: null,
    canaryDiagnostics: null,
    warning: null,
    statusReasonCode: 'targets_failed',
    statusReason: reason,
    remainingPreview: null,
    rolloutIndex: 40,
    rolloutResults: [],
    trigger: 'manual',
    stateToken: 'token',
    workflowId: 'canary-rollout-1',
    createdAt: new Date(),
    updatedAt: new Date(),
    finishedAt: new Date(),
  });
  await em.flush();
  const stored = await orm.em.fork().findOneOrFail(CanaryRollout, { id: rollout.id });
  expect(reason.length).toBeGreaterThan(500);
  expect([stored.statusReasonCode, stored.statusReason]).toEqual(['targets_failed', reason]);
}

describeOnMigratedDatabases('a rollout keeps why it ended', expectRolloutReasonStored);

/**
 * Migration 0012: an instance registered before it is never-verified (and listed with the
 * unverified ones); what a connection test found is stored and read back.
 */
async function expectInstanceVerification(orm: Orm): Promise<void> {
  await orm.getMigrator().up({ to: 'Migration0011RolloutStatusReason' });
  // A row as arrgo wrote it before the migration (its columns only).
  const insertLegacy = (name: string) =>
    (orm.em.getConnection() as unknown as { getKnex(): Knex }).getKnex()('instances').insert({ name, arr_type: 'movie_app', base_url: 'http://127.0.0.1:1', api_key_sealed: 'sealed', enabled: true, tags: '[]', created_at: new Date(), updated_at: new Date() });
  await insertLegacy('before');
  expect(await migrate(orm)).toBe(LATEST_MIGRATION);
  const before = await orm.em.fork().findOneOrFail(Instance, { name: 'before' });
  expect(before).toMatchObject({ verificationStatus: 'never-verified', verificationCheckedAt: null, verificationAppName: null, verificationAppVersion: null, verificationReason: null });

  const service = new InstanceService(orm.em.fork(), new SecretBox('persistence-test-secret-0123456789'));
  const checkedAt = new Date('2026-03-04T05:06:07.000Z');
  const created = await service.create(
    { name: 'after', arrType: 'series_app', baseUrl: 'http://127.0.0.1:2/', apiKeySealed: 'sealed' },
    { status: 'unverified', checkedAt, appName: 'Radarr', version: '6.1.0.10293', reason: 'appMismatch' },
  );
  await service.recordVerification(before.id, { status: 'unverified', checkedAt, appName: null, version: null, reason: 'unreachable' });
  const reread = new InstanceService(orm.em.fork(), new SecretBox('persistence-test-secret-0123456789'));
  expect((await reread.get(created.id)).verification).toEqual({ status: 'unverified', checkedAt: checkedAt.toISOString(), appName: 'Radarr', version: '6.1.0.10293', reason: 'appMismatch' });
  expect((await reread.get(before.id)).verification).toEqual({ status: 'unverified', checkedAt: checkedAt.toISOString(), appName: null, version: null, reason: 'unreachable' });
  await insertLegacy('legacy');
  const unverified = await reread.list({ verified: false, page: 1, pageSize: 10 });
  expect(unverified.items.map((i) => [i.name, i.verification.status])).toEqual([
    ['before', 'unverified'],
    ['after', 'unverified'],
    ['legacy', 'never-verified'],
  ]);
  expect((await reread.list({ verified: true, page: 1, pageSize: 10 })).total).toBe(0);
}

describeOnDatabases('instance verification columns (migration 0012)', expectInstanceVerification);

/** Migration 0013: console users (unique names) and sessions stored by the hash of their id. */
async function expectUsersAndSessions(orm: Orm): Promise<void> {
  const em = orm.em.fork();
  const user = em.create(User, { username: 'admin', passwordHash: 'scrypt$32768$8$1$salt$hash', createdAt: new Date(), updatedAt: new Date() });
  await em.flush();
  const expiresAt = new Date('2030-01-02T03:04:05.678Z');
  em.create(Session, { idHash: 'a'.repeat(64), userId: user.id, csrfToken: 'c'.repeat(43), createdAt: new Date(), expiresAt });
  await em.flush();
  const stored = await orm.em.fork().findOneOrFail(Session, { idHash: 'a'.repeat(64) });
  expect([stored.userId, stored.csrfToken, stored.expiresAt.toISOString()]).toEqual([user.id, 'c'.repeat(43), expiresAt.toISOString()]);
  expect(await orm.em.fork().count(Session, { expiresAt: { $lte: new Date('2030-01-01T00:00:00Z') } })).toBe(0);
  const twin = orm.em.fork();
  twin.create(User, { username: 'admin', passwordHash: 'x', createdAt: new Date(), updatedAt: new Date() });
  await expect(twin.flush()).rejects.toBeInstanceOf(UniqueConstraintViolationException);
}

describeOnMigratedDatabases('users and sessions (migration 0013)', expectUsersAndSessions);

/**
 * Migration 0014: the sync ledger. One row per (instance, entity type, app id); a write with the
 * same bindings changes nothing; a rebinding moves the identity; deleting the instance removes its rows.
 */
async function expectSyncLedger(orm: Orm): Promise<void> {
  await orm.getMigrator().up({ to: 'Migration0013UsersAndSessions' });
  expect(await migrate(orm)).toBe(LATEST_MIGRATION);
  const service = new InstanceService(orm.em.fork(), new SecretBox('persistence-test-secret-0123456789'));
  const instance = await service.create(
    { name: 'ledgered', arrType: 'movie_app', baseUrl: 'http://127.0.0.1:3/', apiKeySealed: 'sealed' },
    { status: 'unverified', checkedAt: new Date(), appName: null, version: null, reason: 'unreachable' },
  );
  const upserts = [
    { entityType: 'customFormat' as const, appId: 11, identity: '4:Atmos', name: 'Atmos (DD+)', databaseId: 4, created: true },
    { entityType: 'qualityProfile' as const, appId: 11, identity: '4:HD', name: 'HD', databaseId: 4, created: false },
  ];
  expect(await writeLedger(orm.em, instance.id, { upserts, deletes: [] })).toEqual({ written: 2, removed: 0 });
  const first = await orm.em.fork().find(SyncLedgerEntry, { instanceId: instance.id }, { orderBy: { id: 'asc' } });
  expect(first.map((r) => [r.entityType, r.appId, r.identity, r.name, r.databaseId, r.createdByArrgo])).toEqual([
    ['customFormat', 11, '4:Atmos', 'Atmos (DD+)', 4, true],
    ['qualityProfile', 11, '4:HD', 'HD', 4, false],
  ]);
  // Written again (a retried apply): nothing changes; found by name later, created stays true.
  expect(await writeLedger(orm.em, instance.id, { upserts: upserts.map((u) => ({ ...u, created: false })), deletes: [] })).toEqual({ written: 0, removed: 0 });
  // The identity bound to a new app id (recreated on the app): the old row goes.
  expect(await writeLedger(orm.em, instance.id, { upserts: [{ ...upserts[0], appId: 12 }], deletes: [{ entityType: 'qualityProfile', appId: 11 }] })).toEqual({ written: 1, removed: 2 });
  expect(await readLedger(orm.em, instance.id)).toEqual([{ entityType: 'customFormat', appId: 12, identity: '4:Atmos', name: 'Atmos (DD+)', createdByArrgo: true }]);
  const twin = orm.em.fork();
  twin.create(SyncLedgerEntry, { instanceId: instance.id, entityType: 'customFormat', appId: 12, identity: '4:Other', name: 'Other', databaseId: 4, createdByArrgo: false, updatedAt: new Date() });
  await expect(twin.flush()).rejects.toBeInstanceOf(UniqueConstraintViolationException);
  await new InstanceService(orm.em.fork(), new SecretBox('persistence-test-secret-0123456789')).delete(instance.id);
  expect(await orm.em.fork().count(SyncLedgerEntry, {})).toBe(0);
}

describeOnDatabases('sync ledger (migration 0014)', expectSyncLedger);

/**
 * Migration 0015: a run recorded before it has no verification (null); what reading an apply back
 * found is stored on the run (one statement) and read back by the sync history.
 */
async function expectRunVerification(orm: Orm): Promise<void> {
  await orm.getMigrator().up({ to: 'Migration0013UsersAndSessions' });
  const knex = (orm.em.getConnection() as unknown as { getKnex(): Knex }).getKnex();
  // A row as arrgo wrote it before the migration (its columns only).
  const [legacy] = await knex('sync_runs')
    .insert({ instance_name: 'before', arr_type: 'movie_app', trigger: 'manual', sections_attempted: '["mediaManagement"]', sections_key: ',mediaManagement,', status: 'success', outcomes: '[]', workflow_id: 'wf-before', started_at: new Date(), created_at: new Date() })
    .returning('id');
  expect(await migrate(orm)).toBe(LATEST_MIGRATION);
  const legacyId = Number((legacy as { id?: number }).id ?? legacy);
  const history = { get: (id: number) => new SyncHistoryService({ orm: { em: orm.em.fork() }, temporal: undefined as never }).get(id) };
  expect((await history.get(legacyId)).verification).toBeNull();

  const verification = {
    status: 'unverified',
    checked: 3,
    mismatches: [{ stepId: 'qualityDefinitions:merge:Movie Sizes', entityType: 'qualityDefinition', name: 'Bluray-1080p', path: 'maxSize', expected: 100, actual: 400, code: 'notApplied' }],
    verifiedAt: '2026-11-27T08:00:00.000Z',
  };
  await storeRunVerification(orm.em.fork(), legacyId, verification);
  expect((await history.get(legacyId)).verification).toEqual(verification);
}

describeOnDatabases('sync run verification column (migration 0015)', expectRunVerification);

/**
 * Migration 0016: a sync configuration stored before several databases becomes its one-element
 * list (same database and selection, position 0); a database is listed once per instance.
 */
async function expectSyncConfigDatabases(orm: Orm): Promise<void> {
  await orm.getMigrator().up({ to: 'Migration0013UsersAndSessions' });
  const knex = (orm.em.getConnection() as unknown as { getKnex(): Knex }).getKnex();
  const selection = { qualityProfiles: ['Movies 1080p'], naming: 'Standard', namespace: 'ns' };
  await knex('instance_sync_configs').insert({ instance_id: 7, database_id: 3, selection: JSON.stringify(selection), updated_at: new Date() });
  expect(await migrate(orm)).toBe(LATEST_MIGRATION);
  const rows = await orm.em.fork().find(InstanceSyncDatabase, {});
  expect(rows.map((r) => [r.instanceId, r.position, r.databaseId, r.selection])).toEqual([[7, 0, 3, selection]]);
  const found = await new SyncConfigService(orm.em.fork(), null as never).find(7);
  expect(found).toMatchObject({ databaseId: 3, databases: [{ databaseId: 3, selection: { ...emptySelection(), ...selection } }], selection: { ...emptySelection(), ...selection } });
  const em = orm.em.fork();
  em.create(InstanceSyncDatabase, { instanceId: 7, position: 1, databaseId: 4, selection: { qualityProfiles: ['Other'] } });
  await em.flush();
  expect((await new SyncConfigService(orm.em.fork(), null as never).find(7))!.selection.qualityProfiles).toEqual(['Movies 1080p', 'Other']);
  const twin = orm.em.fork();
  twin.create(InstanceSyncDatabase, { instanceId: 7, position: 2, databaseId: 3, selection: {} });
  await expect(twin.flush()).rejects.toBeInstanceOf(UniqueConstraintViolationException);
}

describeOnDatabases('sync configurations with several databases (migration 0016)', expectSyncConfigDatabases);
/** Migration 0017: adoptions keep their preview, planned ops, applied op ids and snapshot; workflow ids are unique. */
async function expectAdoptions(orm: Orm): Promise<void> {
  const em = orm.em.fork();
  const adoption = em.create(Adoption, {
    instanceId: 7,
    instanceName: 'Radarr',
    arrType: 'movie_app',
    databaseId: 3,
    sections: ['qualityProfiles'],
    workflowId: 'tq-adopt-1',
    selectAdopted: true,
    status: 'generating',
    failure: null,
    preview: { counts: { create: 2, override: 1, skipped: 0, unchanged: 4 } },
    ops: [{ kind: 'create', sql: "INSERT INTO tags (name) VALUES ('x');", target: { portableType: 'custom_format', name: 'A' }, summary: 'adopt' }],
    createdAt: new Date(),
    updatedAt: new Date(),
  });
  await em.flush();
  const stored = await orm.em.fork().findOneOrFail(Adoption, { id: adoption.id });
  expect([stored.status, stored.selectAdopted, stored.appliedOpIds, stored.snapshotId]).toEqual(['generating', true, null, null]);
  expect(stored.preview).toEqual({ counts: { create: 2, override: 1, skipped: 0, unchanged: 4 } });
  stored.appliedOpIds = [11, 12];
  stored.snapshotId = 5;
  stored.status = 'applied';
  await orm.em.fork().upsert(stored);
  const applied = await orm.em.fork().findOneOrFail(Adoption, { id: adoption.id });
  expect([applied.status, applied.appliedOpIds, applied.snapshotId]).toEqual(['applied', [11, 12], 5]);
  const twin = orm.em.fork();
  twin.create(Adoption, { instanceId: 7, instanceName: 'Radarr', arrType: 'movie_app', databaseId: 3, sections: [], workflowId: 'tq-adopt-1', selectAdopted: false, status: 'generating', preview: null, failure: null, createdAt: new Date(), updatedAt: new Date() });
  await expect(twin.flush()).rejects.toBeInstanceOf(UniqueConstraintViolationException);
}

describeOnMigratedDatabases('adoptions (migration 0017)', expectAdoptions);

/**
 * Migration 0018: git sources keep a sealed credential apart from their URL. A source stored before
 * with credentials in its URL loses them at start-up (sealUrlCredentials): an http(s) source keeps
 * them as its sealed credential, another source only loses them.
 */
async function expectGitCredentials(orm: Orm): Promise<void> {
  await orm.getMigrator().up({ to: 'Migration0017Adoptions' });
  const knex = (orm.em.getConnection() as unknown as { getKnex(): Knex }).getKnex();
  const now = new Date();
  const database = (name: string, url: string) => ({ name, source_kind: 'git', source_location: url, branch: 'main', enabled: true, cache_status: 'ready', content_version: 0, user_version: 0, created_at: now, updated_at: now });
  await knex('pcd_databases').insert([database('with token', 'https://reader:ghp_legacy%3Atoken@git.example.invalid/org/pcd.git'), database('token as user', 'https://ghp_asUser0123@git.example.invalid/org/pcd'), database('clean', 'https://git.example.invalid/org/clean')]);
  await knex('ref_guide_sources').insert([
    { name: 'ssh guide', type: 'trash-guides', origin_kind: 'git', origin_location: 'ssh://git:sshpass@git.example.invalid/guides.git', branch: 'main', arr_type: 'movie_app', enabled: true, database_ids: '[]', sync_status: 'pending', created_at: now, updated_at: now },
  ]);
  expect(await migrate(orm)).toBe(LATEST_MIGRATION);
  const box = new SecretBox('persistence-test-secret-0123456789');
  const warnings: unknown[] = [];
  const logger = { warn: (fields: unknown) => void warnings.push(fields) } as unknown as Logger;
  expect(await sealUrlCredentials(orm.em.fork(), box, logger)).toBe(3);
  expect(await sealUrlCredentials(orm.em.fork(), box, logger)).toBe(0);
  const databases = await orm.em.fork().find(PcdDatabase, {}, { orderBy: { id: 'asc' } });
  expect(databases.map((d) => [d.name, d.sourceLocation, openGitCredential(box, d.gitCredentialSealed)])).toEqual([
    ['with token', 'https://git.example.invalid/org/pcd.git', { username: 'reader', token: 'ghp_legacy:token' }],
    ['token as user', 'https://git.example.invalid/org/pcd', { username: 'ghp_asUser0123', token: '' }],
    ['clean', 'https://git.example.invalid/org/clean', null],
  ]);
  const rows: { git_credential_sealed: string | null }[] = await knex('pcd_databases').select('git_credential_sealed');
  for (const row of rows) expect(String(row.git_credential_sealed)).not.toMatch(/ghp_/);
  const guide = await orm.em.fork().findOneOrFail(RefGuideSource, { name: 'ssh guide' });
  expect([guide.originLocation, guide.gitCredentialSealed]).toEqual(['ssh://git@git.example.invalid/guides.git', null]);
  expect(JSON.stringify(warnings)).not.toMatch(/ghp_|sshpass|example/);
}

describeOnDatabases('git credentials sealed apart from URLs (migration 0018)', expectGitCredentials);

/** A check run on a freshly migrated SQLite file and PostgreSQL database (when the tests have one). */
function describeOnMigratedDatabases(name: string, check: (orm: Orm) => Promise<void>): void {
  describeOnDatabases(name, async (orm) => {
    await migrate(orm);
    await check(orm);
  });
}

/** A check run on a fresh SQLite file and PostgreSQL database (when the tests have one), not migrated. */
function describeOnDatabases(name: string, check: (orm: Orm) => Promise<void>): void {
  describe(name, () => {
    it('on SQLite', async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arrgo-sqlite-'));
      const orm = await initOrm({ kind: 'sqlite', file: path.join(dir, 'arrgo.sqlite') });
      try {
        await check(orm);
      } finally {
        await orm.close(true);
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });

    (postgresAvailable() ? it : it.skip)('on PostgreSQL', async () => {
      const db = await createPostgresDatabase();
      const orm = await initOrm({ kind: 'postgresql', url: db.url });
      try {
        await check(orm);
      } finally {
        await orm.close(true);
        await db.drop();
      }
    });
  });
}
