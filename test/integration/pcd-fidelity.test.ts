/**
 * PCD fidelity through the real API, worker and databases: the schema dependency replayed at its
 * pinned version (fetched from a local git repository: PCD_SCHEMA_FETCH=auto for this harness
 * only, every URL is file://), and honest cache status for broken repositories.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { dbKinds, type DbKind } from '../helpers/databases';
import { startArrgo, type Harness } from '../helpers/harness';
import { makeFixtureSchemaRepo, writeFixturePcd, type FixtureSchemaRepo } from '../helpers/pcd-fixtures';

function localPcd(files: Record<string, string>, dependencies: Record<string, string> = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arrgo-pcd-'));
  fs.writeFileSync(path.join(dir, 'pcd.json'), JSON.stringify({ name: 'fixture', version: '1.0.0', arr_types: ['radarr'], dependencies }));
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

const ORPHAN_CONDITIONS = "INSERT INTO custom_format_conditions (custom_format_name, name, type) VALUES ('Never Created', 'c', 'release_title');";

describe.each(dbKinds())('PCD fidelity on %s', (db: DbKind) => {
  let h: Harness;
  let schemaRepo: FixtureSchemaRepo;
  const dirs: string[] = [];

  beforeAll(async () => {
    schemaRepo = makeFixtureSchemaRepo();
    h = await startArrgo({ db, env: { PCD_SCHEMA_FETCH: 'auto' } });
  });
  afterAll(async () => {
    await h?.close();
    schemaRepo?.remove();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  const link = async (name: string, dir: string) => {
    dirs.push(dir);
    const linked = await h.post('/databases', { name, source: { kind: 'local', path: dir } });
    expect(linked.status).toBe(201);
    const pulled = await h.post(`/databases/${linked.body.id}/pull?wait=true`);
    expect(pulled.status).toBe(200);
    return pulled.body;
  };

  it('replays each database against the schema dependency version it pins', async () => {
    const old = await link('pinned-1.0.0', writeFixturePcd('1.0.0', schemaRepo.url));
    const current = await link('pinned-1.1.0', writeFixturePcd('1.1.0', schemaRepo.url));
    for (const [pulled, version] of [
      [old, '1.0.0'],
      [current, '1.1.0'],
    ] as const) {
      expect(pulled).toMatchObject({ status: 'ready', cacheStatus: 'ready', database: { cache: { status: 'ready', reason: null, stats: { failed: 0, failedOps: 0 } } } });
      expect(pulled.database.schema).toEqual({ source: 'dependency', note: expect.stringContaining(`praxrr-schema@${version}`) });
    }
    const names = async (id: number) => (await h.get(`/pcd/${id}/resolved/customFormat`)).body.entities.map((e: { name: string }) => e.name);
    expect(await names(old.database.id)).toEqual(['Old Format']);
    expect(await names(current.database.id)).toEqual(['New Format']);
    // The 1.1.0 dependency seeds a language arrgo does not know; the profile written for it uses it.
    const profile = await h.get(`/pcd/export?databaseId=${current.database.id}&entityType=quality_profile&name=Klingon%20Profile`);
    expect(profile.body.data.languages).toEqual([{ name: 'Klingon', type: 'must' }]);
    expect(profile.headers.get('x-arrgo-cache-status')).toBe('ready');
    // arrgo's music_app tables were added where the dependency lacks them.
    expect((await h.get(`/pcd/${old.database.id}/resolved/musicAppMetadataProfile`)).body.entities).toEqual([]);
    // One clone per URL and version.
    expect(fs.readdirSync(path.join(h.dataDir, 'pcd-deps')).filter((d) => !d.endsWith('.partial'))).toHaveLength(2);
    // Pulling again reuses the clones (one per URL and version) and changes nothing.
    const again = await h.post(`/databases/${old.database.id}/pull?wait=true`);
    expect(again.body).toMatchObject({ cacheStatus: 'ready', database: { contentVersion: old.database.contentVersion } });
  });

  it('fails a database whose pinned dependency (a branch named by the version) lacks columns arrgo reads, and says which', async () => {
    const pulled = await link('pinned-0.9.0', writeFixturePcd('1.0.0', schemaRepo.url, '0.9.0'));
    expect(pulled.database.schema.source).toBe('dependency');
    expect(pulled.database.cache).toMatchObject({ status: 'failed', reason: 'schema_gaps', stats: { schemaGaps: ['custom_formats.include_in_rename'] } });
    const read = await h.get(`/pcd/${pulled.database.id}/resolved/customFormat`);
    expect(read.status).toBe(400);
    expect(read.body.error).toBe(`Database ${pulled.database.id} cannot be read: its schema dependency lacks columns arrgo reads (custom_formats.include_in_rename)`);
    expect((await h.patch(`/databases/${pulled.database.id}`, { enabled: false })).status).toBe(200);
  });

  it('falls back to the bundled schema, and says so, when the dependency cannot be fetched', async () => {
    const pulled = await link('unfetchable-schema', localPcd({ 'ops/1.initial.sql': "INSERT INTO custom_formats (name) VALUES ('Kept');" }, { 'file:///nonexistent/other-schema': '9.9.9' }));
    expect(pulled.database.cache.status).toBe('ready');
    expect(pulled.database.schema.source).toBe('bundled');
    expect(pulled.database.schema.note).toContain('other-schema@9.9.9 could not be fetched; the bundled PCD schema');
  });

  it('reports a repository whose ops partly fail as degraded, names the failed ops, and still serves it marked so', async () => {
    const pulled = await link(
      'partly-broken',
      localPcd({
        'ops/1.initial.sql': "INSERT INTO custom_formats (name) VALUES ('Kept');",
        'ops/2.orphan-conditions.sql': ORPHAN_CONDITIONS,
        'ops/3.stale-guard.sql': "INSERT INTO tags (name) VALUES ('t');\nUPDATE custom_formats SET description = 'x' WHERE name = 'Kept' AND description = 'stale';",
      }),
    );
    const id = pulled.database.id;
    expect(pulled.cacheStatus).toBe('degraded');
    expect(pulled.database.cache).toMatchObject({
      status: 'degraded',
      reason: 'ops_failed',
      message: expect.stringContaining('Some operations failed to apply'),
      stats: {
        failedOps: 1,
        failedOpsByReason: { missing_target: 1 },
        firstFailed: [{ layer: 'base', file: 'ops/2.orphan-conditions.sql', position: 1, markerId: null, target: null, reason: 'missing_target' }],
        entities: 1,
        skipped: 0,
        skippedWrites: 1,
        firstSkippedWrites: [{ layer: 'base', file: 'ops/3.stale-guard.sql', statement: 2, kind: 'update', table: 'custom_formats' }],
      },
    });
    expect(JSON.stringify(pulled.database.cache)).not.toMatch(/FOREIGN KEY|constraint|SQLITE/i);

    const resolved = await h.get(`/pcd/${id}/resolved/customFormat`);
    expect(resolved.status).toBe(200);
    expect(resolved.body).toMatchObject({ cacheStatus: 'degraded', entities: [{ name: 'Kept' }] });
    expect(resolved.headers.get('x-arrgo-cache-status')).toBe('degraded');
    const graph = await h.get(`/pcd/${id}/graph`);
    expect(graph.body.cacheStatus).toBe('degraded');
    expect(graph.headers.get('x-arrgo-cache-status')).toBe('degraded');
    const exported = await h.get(`/pcd/export?databaseId=${id}&entityType=custom_format&name=Kept`);
    expect(exported.status).toBe(200);
    expect(exported.headers.get('x-arrgo-cache-status')).toBe('degraded');

    const health = await h.get('/health?verbose=true');
    expect(health.body.components.repos).toMatchObject({ status: 'degraded', message: expect.stringContaining('1 of 4 enabled databases are degraded (some operations failed)') });
  });

  it('reports a replay that produced no entity from a non-empty repository as failed', async () => {
    const pulled = await link('all-broken', localPcd({ 'ops/1.conditions.sql': ORPHAN_CONDITIONS }));
    expect(pulled.cacheStatus).toBe('failed');
    expect(pulled.database.cache).toMatchObject({
      status: 'failed',
      reason: 'replay_empty',
      message: expect.stringContaining('produced no entities'),
      stats: { entities: 0, failedOps: 1, firstFailed: [{ file: 'ops/1.conditions.sql', reason: 'missing_target' }] },
    });
    const health = await h.get('/health');
    expect(health.body.components.repos.status).toBe('degraded');
    expect(health.body.components.repos.message).toContain('1 of 5 enabled databases failed to build');
    // Disabling the broken databases makes the repos component healthy again.
    for (const row of (await h.get('/databases')).body.filter((d: { cache: { status: string } }) => d.cache.status !== 'ready')) {
      expect((await h.patch(`/databases/${row.id}`, { enabled: false })).status).toBe(200);
    }
    expect((await h.get('/health')).body.components.repos.status).toBe('healthy');
  });
});
