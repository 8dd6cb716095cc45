import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startEmulator, type Emulator } from '../../src/emulators';
import { dbKinds, type DbKind } from '../helpers/databases';
import { SAMPLE_PCD } from '../helpers/fleet';
import { runCliBinary, runCliInTerminal, type CliRun } from '../helpers/cli';
import { startArrgo, type Harness } from '../helpers/harness';

const FIXTURES = path.resolve(__dirname, '..', 'fixtures', 'fleet');
const KEYS = { radarr: 'fleet-radarr-key-0123456789abcdef', sonarr: 'fleet-sonarr-key-0123456789abcdef', lidarr: 'fleet-lidarr-key-0123456789abcdef' };
const CHANNEL_URL = 'http://127.0.0.1:9/hooks/fleet-channel-url-secret-path';
const CHANNEL_SECRET = 'fleet-channel-hmac-secret-0123456789';
const SECRETS = [...Object.values(KEYS), CHANNEL_URL, 'fleet-channel-url-secret-path', CHANNEL_SECRET];

describe.each(dbKinds())('arrgo fleet file on %s (the real binary against the real service)', (db: DbKind) => {
  let h: Harness;
  let dir: string;
  const emulators: Emulator[] = [];
  const env = { FLEET_TEST_RADARR_KEY: KEYS.radarr, FLEET_TEST_SONARR_KEY: KEYS.sonarr, FLEET_TEST_CHANNEL_URL: CHANNEL_URL };
  /** The arrgo binary as a script runs it: the harness's URL and key in its environment, no colours. */
  const cliEnv = (extra: Record<string, string> = {}) => ({ ARRGO_URL: h.baseUrl, ARRGO_API_KEY: h.apiKey, NO_COLOR: '1', ...extra });
  const arrgo = (args: string[], extra: { env?: Record<string, string> } = {}) => runCliBinary(args, { cwd: dir, env: cliEnv({ ...env, ...extra.env }) });
  const expectNoSecret = (run: CliRun) => {
    for (const secret of SECRETS) {
      expect(run.stdout).not.toContain(secret);
      expect(run.stderr).not.toContain(secret);
    }
  };
  const editFile = async (file: string, from: string, to: string) => {
    const text = await readFile(path.join(dir, file), 'utf8');
    expect(text).toContain(from);
    await writeFile(path.join(dir, file), text.replace(from, to));
  };
  const instances = async () => (await h.get('/instances?pageSize=100')).body.items as { id: number; name: string; arrType: string; baseUrl: string; tags: string[]; enabled: boolean; verification: { status: string } }[];

  beforeAll(async () => {
    h = await startArrgo({ db });
    const [radarr, sonarr, lidarr] = await Promise.all([
      startEmulator({ app: 'radarr', apiKey: KEYS.radarr }),
      startEmulator({ app: 'sonarr', apiKey: KEYS.sonarr }),
      startEmulator({ app: 'lidarr', apiKey: KEYS.lidarr }),
    ]);
    emulators.push(radarr, sonarr, lidarr);
    dir = await mkdtemp(path.join(os.tmpdir(), 'arrgo-fleet-'));
    await cp(SAMPLE_PCD, path.join(dir, 'pcd-b'), { recursive: true });
    await mkdir(path.join(dir, 'guide'));
    const fill = (text: string) =>
      text
        .replaceAll('__PCD_A__', SAMPLE_PCD)
        .replaceAll('__PCD_B__', path.join(dir, 'pcd-b'))
        .replaceAll('__GUIDE__', path.join(dir, 'guide'))
        .replaceAll('__RADARR_URL__', radarr.baseUrl)
        .replaceAll('__SONARR_URL__', sonarr.baseUrl)
        .replaceAll('__LIDARR_URL__', lidarr.baseUrl);
    for (const file of await readdir(FIXTURES)) await writeFile(path.join(dir, file), fill(await readFile(path.join(FIXTURES, file), 'utf8')));
    await writeFile(path.join(dir, 'channel-secret.txt'), `${CHANNEL_SECRET}\n`);
    await writeFile(path.join(dir, 'lidarr-key.txt'), `${KEYS.lidarr}\n`);
  }, 120_000);

  afterAll(async () => {
    await Promise.all(emulators.map((e) => e.close()));
    await h?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('validate reports a schema error with its file, line and column (exit 1)', async () => {
    const run = await arrgo(['validate', '-f', 'bad-schema.yaml']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("bad-schema.yaml:8:11: instances.1.type: Invalid enum value. Expected 'movie_app' | 'series_app' | 'music_app', received 'tv_app'");
    expect(run.stderr).toContain('bad-schema.yaml:11:5: instances.1: unknown key colour');
    const plan = await arrgo(['plan', '-f', 'bad-schema.yaml']);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain('bad-schema.yaml:8:11');
    expect((await instances()).length).toBe(0);
  });

  it('plan of a new fleet lists what apply would create (exit 2), secrets by reference only', async () => {
    const run = await arrgo(['plan', '-f', 'arrgo.yaml']);
    expect(run.code).toBe(2);
    expect(run.stdout).toContain('+ instance radarr-main');
    expect(run.stdout).toContain('+ instance sonarr-main');
    expect(run.stdout).toContain('+ database sample-copy');
    expect(run.stdout).toContain('apiKey: !env FLEET_TEST_RADARR_KEY');
    expect(run.stdout).toContain('apiKey: !file lidarr-key.txt');
    expect(run.stdout).toContain('secret: !file channel-secret.txt');
    expect(run.stdout).toContain('Plan: 10 to create, 4 to update, 0 to delete.');
    expectNoSecret(run);
    const json = await arrgo(['-o', 'json', 'plan', '-f', 'arrgo.yaml']);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout).summary).toEqual({ create: 10, update: 4, delete: 0 });
    expectNoSecret(json);
  });

  it('apply creates exactly the file: 3 instances, 2 databases, sync configurations, a channel and the schedules', async () => {
    const run = await arrgo(['-o', 'json', 'apply', '-f', 'arrgo.yaml']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expectNoSecret(run);
    expect(JSON.parse(run.stdout).applied).toHaveLength(14);

    const all = await instances();
    expect(all.map((i) => [i.name, i.arrType, i.baseUrl, i.tags, i.enabled]).sort()).toEqual(
      [
        ['lidarr-main', 'music_app', emulators[2].baseUrl, [], true],
        ['radarr-main', 'movie_app', emulators[0].baseUrl, ['movies'], true],
        ['sonarr-main', 'series_app', emulators[1].baseUrl, ['tv'], true],
      ].sort(),
    );
    // The keys were read from the environment and the file: each connection test reached its app with it.
    expect(all.map((i) => i.verification.status)).toEqual(['verified', 'verified', 'verified']);
    const databases = (await h.get('/databases')).body as { id: number; name: string; source: { path: string } }[];
    expect(databases.map((d) => [d.name, d.source.path])).toEqual([
      ['sample', SAMPLE_PCD],
      ['sample-copy', path.join(dir, 'pcd-b')],
    ]);
    const sources = (await h.get('/ref-guide/sources')).body as { name: string; arrType: string; origin: { path: string }; databaseIds: number[] }[];
    expect(sources.map((s) => [s.name, s.arrType, s.origin.path, s.databaseIds])).toEqual([['trash-movies', 'movie_app', path.join(dir, 'guide'), [databases[0].id]]]);
    const byName = Object.fromEntries(all.map((i) => [i.name, i.id]));
    const radarrSync = (await h.get(`/instances/${byName['radarr-main']}/sync-config`)).body;
    expect(radarrSync.databases).toEqual([
      { databaseId: databases[0].id, selection: { qualityProfiles: ['Movies 1080p'], delayProfile: 'Standard', naming: 'Standard', mediaSettings: 'Standard', qualityDefinitions: 'Movie Sizes', metadataProfile: null, namespace: null, deleteUnmanaged: false } },
    ]);
    const sonarrSync = (await h.get(`/instances/${byName['sonarr-main']}/sync-config`)).body;
    expect(sonarrSync.databases).toEqual([
      { databaseId: databases[1].id, selection: { qualityProfiles: ['Series 1080p'], delayProfile: null, naming: 'Standard', mediaSettings: null, qualityDefinitions: 'Series Sizes', metadataProfile: null, namespace: 'fleet', deleteUnmanaged: false } },
    ]);
    expect((await h.get(`/instances/${byName['lidarr-main']}/sync-config`)).body.databases[0].selection.metadataProfile).toBe('Studio Albums');
    const channels = (await h.get('/notifications/channels')).body.items;
    expect(channels.map((c: any) => [c.name, c.kind, c.events, c.urlSet, c.secretSet, c.enabled])).toEqual([['ops-webhook', 'webhook', ['drift.detected', 'sync.failed'], true, true, true]]);
    expect((await h.get('/drift/settings')).body).toMatchObject({ enabled: true, intervalMinutes: 45 });
    expect((await h.get('/ref-guide/settings')).body).toMatchObject({ enabled: false, intervalMinutes: 720, paused: true });
    expect((await h.get('/sync-history/settings')).body).toEqual({ enabled: true, retentionDays: 30, retentionMaxEntries: 500 });
    expect((await h.get('/snapshots/settings')).body).toEqual({ maxPerDatabase: 20, retentionDays: 90 });
  }, 240_000);

  it('GET /fleet/configuration answers everything the file declares in one read, without a secret', async () => {
    const read = await h.get('/fleet/configuration');
    expect(read.status).toBe(200);
    for (const secret of SECRETS) expect(read.text).not.toContain(secret);
    const { instances: all, syncConfigs, databases, refGuideSources, channels, settings } = read.body;
    expect(all.map((i: { name: string; apiKeySet: boolean }) => [i.name, i.apiKeySet])).toEqual([
      ['radarr-main', true],
      ['sonarr-main', true],
      ['lidarr-main', true],
    ]);
    expect(syncConfigs.map((c: { instanceId: number; databases: { databaseId: number }[] }) => [c.instanceId, c.databases.map((d) => d.databaseId)])).toEqual([
      [all[0].id, [databases[0].id]],
      [all[1].id, [databases[1].id]],
      [all[2].id, [databases[0].id]],
    ]);
    expect(refGuideSources.map((s: { name: string }) => s.name)).toEqual(['trash-movies']);
    expect(channels.map((c: { name: string; urlSet: boolean }) => [c.name, c.urlSet])).toEqual([['ops-webhook', true]]);
    expect(settings).toEqual({
      driftPolling: { enabled: true, intervalMinutes: 45 },
      refGuideRefresh: { enabled: false, intervalMinutes: 720 },
      syncHistoryRetention: { enabled: true, retentionDays: 30, retentionMaxEntries: 500 },
      snapshots: { maxPerDatabase: 20, retentionDays: 90 },
    });
  });

  it('a second apply and plan report no changes (exit 0)', async () => {
    const plan = await arrgo(['plan', '-f', 'arrgo.yaml']);
    expect(plan.stdout).toBe('No changes: arrgo matches the file.\n');
    expect(plan.code).toBe(0);
    const apply = await arrgo(['apply', '-f', 'arrgo.yaml']);
    expect(apply.code).toBe(0);
    expect(apply.stdout).toBe('No changes: arrgo already matches the file.\n');
    // Plan needs no secret when nothing would send one.
    expect((await runCliBinary(['plan', '-f', 'arrgo.yaml'], { cwd: dir, env: cliEnv() })).code).toBe(0);
  });

  it('an edit in the file gives exit 2 and the diff of exactly that edit; apply makes it', async () => {
    await editFile('arrgo.yaml', 'tags: [movies]', 'tags: [movies, 4k]');
    await editFile('arrgo.yaml', 'driftPolling: { enabled: true, intervalMinutes: 45 }', 'driftPolling: { enabled: true, intervalMinutes: 60 }');
    await editFile('instances.yaml', 'namespace: fleet', 'namespace: tv');
    const plan = await arrgo(['plan', '-f', 'arrgo.yaml']);
    expect(plan.code).toBe(2);
    expect(plan.stdout).toBe(
      [
        '~ instance radarr-main',
        '    tags: ["movies"] -> ["movies","4k"]',
        '~ syncConfig sonarr-main',
        '    sync[0].namespace: fleet -> tv',
        '~ setting driftPolling',
        '    intervalMinutes: 45 -> 60',
        'Plan: 0 to create, 3 to update, 0 to delete.',
        '',
      ].join('\n'),
    );
    expect((await arrgo(['apply', '-f', 'arrgo.yaml'])).code).toBe(0);
    expect((await instances()).find((i) => i.name === 'radarr-main')!.tags).toEqual(['movies', '4k']);
    expect((await h.get('/drift/settings')).body.intervalMinutes).toBe(60);
    expect((await arrgo(['plan', '-f', 'arrgo.yaml'])).code).toBe(0);
  }, 120_000);

  it('export writes the configuration with secrets as !env references, and plan of it reports no changes', async () => {
    const exported = await arrgo(['export']);
    expect(exported.code).toBe(0);
    expectNoSecret(exported);
    expect(exported.stdout.split('\n')[0]).toBe(`# yaml-language-server: $schema=${h.baseUrl}/api/v1/fleet/schema`);
    expect(exported.stdout).toContain('apiKey: !env ARRGO_INSTANCE_RADARR_MAIN_API_KEY');
    expect(exported.stdout).toContain('url: !env ARRGO_CHANNEL_OPS_WEBHOOK_URL');
    expect(exported.stdout).toContain('secret: !env ARRGO_CHANNEL_OPS_WEBHOOK_SECRET');
    const json = await arrgo(['-o', 'json', 'export']);
    expectNoSecret(json);
    expect(JSON.parse(json.stdout).instances.find((i: { name: string }) => i.name === 'radarr-main').apiKey).toEqual({ env: 'ARRGO_INSTANCE_RADARR_MAIN_API_KEY' });
    await writeFile(path.join(dir, 'exported.yaml'), exported.stdout);
    // No secret in the environment: nothing to send, so none is needed.
    const plan = await runCliBinary(['plan', '-f', 'exported.yaml'], { cwd: dir, env: cliEnv() });
    expect(plan.stderr).toBe('');
    expect(plan.code).toBe(0);
  });

  it('--prune deletes what the file no longer names: refused without --yes off a terminal, asked on a terminal (declined keeps it, confirmed deletes), done with --yes', async () => {
    const text = await readFile(path.join(dir, 'instances.yaml'), 'utf8');
    await writeFile(path.join(dir, 'instances.yaml'), text.slice(0, text.indexOf('  - name: lidarr-main')));
    const plain = await arrgo(['plan', '-f', 'arrgo.yaml']);
    expect(plain.code).toBe(0);
    const plan = await arrgo(['plan', '-f', 'arrgo.yaml', '--prune']);
    expect(plan.code).toBe(2);
    expect(plan.stdout).toBe('- instance lidarr-main\nPlan: 0 to create, 0 to update, 1 to delete.\n');
    const refused = await arrgo(['apply', '-f', 'arrgo.yaml', '--prune']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe('arrgo: Refusing to delete instance lidarr-main without confirmation: pass --yes (standard input is not a terminal)\n');
    expect((await instances()).map((i) => i.name)).toContain('lidarr-main');
    // On a terminal it asks; anything but yes keeps everything.
    const declined = await runCliInTerminal(['apply', '-f', 'arrgo.yaml', '--prune'], { cwd: dir, env: cliEnv({ TERM: 'dumb', ...env }), input: 'n\n', keepInputOpen: true });
    expect(declined.stdout).toContain('Delete instance lidarr-main from arrgo? [y/N]');
    expect(declined.stdout).toContain('arrgo: Nothing applied: the deletions were not confirmed');
    expect(declined.code).toBe(1);
    expect((await instances()).map((i) => i.name)).toContain('lidarr-main');
    const applied = await arrgo(['apply', '-f', 'arrgo.yaml', '--prune', '--yes']);
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain('- instance lidarr-main: deleted');
    expect((await instances()).map((i) => i.name).sort()).toEqual(['radarr-main', 'sonarr-main']);
    expect((await arrgo(['plan', '-f', 'arrgo.yaml', '--prune'])).code).toBe(0);
    // A confirmation typed on a terminal deletes too: the channel, once the file stops naming it.
    const text2 = await readFile(path.join(dir, 'arrgo.yaml'), 'utf8');
    await writeFile(path.join(dir, 'arrgo.yaml'), text2.replace(/channels:\n(  .*\n|    .*\n)*/, ''));
    const confirmed = await runCliInTerminal(['apply', '-f', 'arrgo.yaml', '--prune'], { cwd: dir, env: cliEnv({ TERM: 'dumb', ...env }), input: 'y\n', keepInputOpen: true });
    expect(confirmed.stdout).toContain('Delete channel ops-webhook from arrgo? [y/N]');
    expect(confirmed.stdout).toContain('- channel ops-webhook: deleted');
    expect(confirmed.code).toBe(0);
    expect((await h.get('/notifications/channels')).body.items).toEqual([]);
  });

  it('publishes the JSON Schema without a key (for editors) and the shipped copy is the same document', async () => {
    const schema = await h.request('GET', '/fleet/schema', undefined, { auth: false });
    expect(schema.status).toBe(200);
    expect(schema.body).toEqual(JSON.parse(await readFile(path.resolve(__dirname, '..', '..', 'schemas', 'arrgo-fleet.schema.json'), 'utf8')));
    expect(schema.body.properties.instances.items.required).toEqual(['name', 'type', 'baseUrl', 'apiKey']);
    expect((await h.request('GET', '/fleet/configuration', undefined, { auth: false })).status).toBe(401);
  });
});
