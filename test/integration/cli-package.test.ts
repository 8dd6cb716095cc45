import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startEmulator, type Emulator } from '../../src/emulators';
import { runCliBinary, type CliRun } from '../helpers/cli';
import { startArrgo, type Harness } from '../helpers/harness';

const ROOT = path.resolve(__dirname, '..', '..');
const PACKAGE_DIR = path.join(ROOT, 'dist', 'cli-package');

function run(command: string, args: string[], cwd: string): string {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: process.env });
  if (result.status === 0) return result.stdout;
  const hint = result.stderr.includes('ENOTCACHED') ? '\n(npm\'s cache lacks a tarball of the lock: `npm ci` in the checkout fills it)' : '';
  throw new Error(`${command} ${args.join(' ')} exited ${result.status}:\n${result.stdout}\n${result.stderr}${hint}`);
}

// `npm run build:cli`, then the package packed, installed where the checkout's node_modules cannot
// be reached, and its `arrgo` run against the real service (docs/cli.md#installing-the-cli-on-its-own).
describe('the arrgo CLI package', () => {
  let h: Harness;
  let emulator: Emulator;
  let work: string;

  beforeAll(async () => {
    h = await startArrgo();
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'arrgo-cli-package-'));
  });
  afterAll(async () => {
    await h?.close();
    await emulator?.close();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  it('packs only the CLI, installs offline on its own, and its arrgo talks to the service', async () => {
    expect(run('npm', ['run', '--silent', 'build:cli'], ROOT)).toMatch(/^CLI package written: dist\/cli-package \(arrgo-cli \d+\.\d+\.\d+: \d+ modules; /);
    const manifest = JSON.parse(fs.readFileSync(path.join(PACKAGE_DIR, 'package.json'), 'utf8'));
    const service = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    expect(manifest).toMatchObject({ name: 'arrgo-cli', version: service.version, license: 'MIT', bin: { arrgo: 'dist/cli/main.js' }, engines: { node: '>=20' } });
    // The packages the CLI requires at run time, at the service's ranges; none of the service's own.
    const used = ['@asteasolutions/zod-to-openapi', 'cli-progress', 'cli-table3', 'commander', 'js-yaml', 'openapi-fetch', 'picocolors', 'yaml', 'zod'];
    expect(manifest.dependencies).toEqual(Object.fromEntries(used.map((name) => [name, service.dependencies[name]])));

    const [packed] = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', work], PACKAGE_DIR)) as { filename: string }[];
    const tarball = path.join(work, packed.filename);
    expect(packed.filename).toBe(`arrgo-cli-${service.version}.tgz`);
    const files = run('tar', ['-tzf', tarball], work).trim().split('\n').map((entry) => entry.replace(/^package\//, '')).sort();
    // The compiled src/cli and src/client, src/version.ts, the fleet file's schema and the package's own files; no service code.
    expect(files.filter((file) => !/^dist\/(cli\/.+|client\/index|version)\.js$/.test(file))).toEqual(['README.md', 'npm-shrinkwrap.json', 'package.json', 'schemas/arrgo-fleet.schema.json']);
    expect(files).toEqual(expect.arrayContaining(['dist/cli/main.js', 'dist/cli/fleet/plan.js', 'dist/cli/import/read.js', 'dist/cli/commands/rollout.js', 'dist/client/index.js', 'dist/version.js']));
    expect(files.filter((file) => /(^|\/)(api|workflows|activities|persistence|services|domain|composition|emulators)\//.test(file))).toEqual([]);

    // Installed offline: `npm ci` of a project whose lock names the tarball and, under it, the
    // package's shrinkwrap (the versions arrgo is tested with), whose tarballs npm's cache holds.
    // (`npm install --offline <tgz>` would need the registry's package documents, which the cache
    // does not keep, to resolve the ranges.)
    const project = path.join(work, 'project');
    fs.mkdirSync(project);
    const spec = `file:../${packed.filename}`;
    const shrinkwrap = JSON.parse(fs.readFileSync(path.join(PACKAGE_DIR, 'npm-shrinkwrap.json'), 'utf8'));
    const { '': own, ...locked } = shrinkwrap.packages as Record<string, Record<string, unknown>>;
    const nested = Object.fromEntries(Object.entries(locked).map(([at, entry]) => [`node_modules/arrgo-cli/${at}`, entry]));
    fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'cli-package-test', private: true, dependencies: { 'arrgo-cli': spec } }));
    fs.writeFileSync(
      path.join(project, 'package-lock.json'),
      JSON.stringify({ name: 'cli-package-test', lockfileVersion: 3, requires: true, packages: { '': { name: 'cli-package-test', dependencies: { 'arrgo-cli': spec } }, 'node_modules/arrgo-cli': { ...own, resolved: spec }, ...nested } }),
    );
    run('npm', ['ci', '--offline', '--no-audit', '--no-fund'], project);
    const bin = path.join(project, 'node_modules', '.bin', 'arrgo');
    expect(fs.existsSync(path.join(project, 'node_modules', 'arrgo-cli', 'node_modules', 'commander', 'package.json'))).toBe(true);

    // Nothing of the checkout is reachable from there: no NODE_PATH, and the checkout is not above it.
    expect(path.relative(ROOT, fs.realpathSync(bin)).startsWith('..')).toBe(true);
    emulator = await startEmulator({ app: 'radarr', apiKey: 'packaged-radarr-key-0123456789' });
    const created = await h.post('/instances', { name: 'packaged-radarr', arrType: 'movie_app', baseUrl: emulator.baseUrl, apiKey: 'packaged-radarr-key-0123456789' });
    expect(created.status).toBe(201);
    const env = { ARRGO_URL: h.baseUrl, ARRGO_API_KEY: h.apiKey, XDG_CONFIG_HOME: work };
    const arrgo = (args: string[]): Promise<CliRun> => runCliBinary(args, { bin, env, cwd: work });

    const health = await h.request('GET', '/health', undefined, { auth: false });
    expect(await arrgo(['--version'])).toEqual({ code: 0, stdout: `${health.body.version}\n`, stderr: '' });
    expect(health.body.version).toBe(service.version);

    const status = await arrgo(['status', '-o', 'json']);
    expect({ code: status.code, stderr: status.stderr }).toEqual({ code: 0, stderr: '' });
    const overview = JSON.parse(status.stdout);
    expect(overview.instances.map((i: { id: number; name: string; arrType: string }) => [i.id, i.name, i.arrType])).toEqual([[created.body.id, 'packaged-radarr', 'movie_app']]);
    expect(overview.instancesTotal).toBe(1);
    // A table (cli-table3, loaded when a table is printed) and the schema generator (zod-to-openapi, loaded by fleet-schema).
    const table = await arrgo(['status']);
    expect({ code: table.code, row: new RegExp(`│ ${created.body.id} +│ packaged-radarr +│ movie_app +│`).test(table.stdout) }).toEqual({ code: 0, row: true });
    const schema = await arrgo(['fleet-schema']);
    expect(schema.code).toBe(0);
    expect(JSON.parse(schema.stdout)).toEqual(JSON.parse(fs.readFileSync(path.join(project, 'node_modules', 'arrgo-cli', 'schemas', 'arrgo-fleet.schema.json'), 'utf8')));
  });
});
