import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { eventually } from '../helpers/harness';

const ROOT = path.resolve(__dirname, '..', '..');
const MAIN = path.join(ROOT, 'dist', 'main.js');
const DEFAULT_PORTS = [7979, 7233, 8233];

function portInUse(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

/**
 * `npm start` is the prestart step (a build when the build is older than its sources: see the
 * second describe) then `node dist/main.js`. The test suite builds first
 * (npm test), then runs the built entry point exactly as npm start does: no environment at all,
 * in an empty directory standing for a fresh clone's working directory.
 */
describe('npm start with zero setup', () => {
  let child: ChildProcess | undefined;
  let output = '';
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'arrgo-start-'));

  afterAll(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGKILL');
    }
    fs.rmSync(cwd, { recursive: true, force: true });
  });

  it('brings the service up on the defaults, healthy, with the Temporal Web UI, and shuts down cleanly', async () => {
    expect(fs.existsSync(MAIN)).toBe(true); // npm test builds before running jest
    const busy = (await Promise.all(DEFAULT_PORTS.map(portInUse))).some(Boolean);
    if (busy) {
      console.warn(`skipping the zero-setup start: one of the default ports ${DEFAULT_PORTS.join(', ')} is in use on this machine`);
      return;
    }
    child = spawn(process.execPath, [MAIN], {
      cwd,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? cwd },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));

    await eventually(async () => output, (o) => o.includes('arrgo is running') || child!.exitCode !== null, 120_000);
    expect(output).toContain('arrgo is running');
    expect(output).toContain('API:              http://localhost:7979/api/v1');
    expect(output).toContain('API docs:         http://localhost:7979/docs/');
    expect(output).toContain('Temporal Web UI:  http://127.0.0.1:8233');
    const key = fs.readFileSync(path.join(cwd, 'data', 'api-key'), 'utf8').trim();
    expect(output).toContain(`generated an API key and stored it in ${path.join(cwd, 'data', 'api-key')}: ${key}`);

    const health = await eventually(
      async (): Promise<any> => (await fetch('http://127.0.0.1:7979/api/v1/health?verbose=true', { headers: { 'X-Api-Key': key } })).json(),
      (h: any) => h.status === 'healthy',
      60_000,
    );
    expect(Object.keys(health.components).sort()).toEqual(['backups', 'jobs', 'logs', 'outbox', 'repos', 'sqlite']);
    expect(health.components.sqlite).toMatchObject({ status: 'healthy', driver: 'sqlite' });
    for (const c of Object.values(health.components) as { status: string }[]) expect(c.status).toBe('healthy');

    const ui = await fetch('http://127.0.0.1:8233/');
    expect(ui.status).toBe(200);
    expect(fs.existsSync(path.join(cwd, 'data', 'arrgo.sqlite'))).toBe(true);
    expect(fs.existsSync(path.join(cwd, 'data', 'temporal.db'))).toBe(true);
    expect(fs.existsSync(path.join(cwd, 'data', 'logs', 'arrgo.log'))).toBe(true);
    expect(fs.readFileSync(path.join(cwd, 'data', 'logs', 'arrgo.log'), 'utf8')).not.toContain(key);

    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(await portInUse(7233)).toBe(false);
    expect(await portInUse(7979)).toBe(false);
  });
});

/**
 * The prestart step builds only when the build is missing or older than a source. Run with npm in a
 * copy of the project's layout: the real prestart and start scripts and the check script, with a
 * build that records each run (the real one is exercised by npm test, which always builds).
 */
describe('npm start builds only when the build is older than its sources', () => {
  const SCRIPTS: Record<string, string> = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'arrgo-prestart-'));
  const builds = path.join(root, 'builds.log');
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  const write = (file: string, content: string) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), content);
  };
  const touch = (file: string) => fs.utimesSync(path.join(root, file), new Date(), new Date());
  const buildCount = () => (fs.existsSync(builds) ? fs.readFileSync(builds, 'utf8').split('\n').filter(Boolean).length : 0);
  const npmStart = () =>
    new Promise<{ code: number | null; output: string }>((resolve) => {
      let output = '';
      const child = spawn('npm', ['start'], { cwd: root, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? root }, stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout!.on('data', (d) => (output += d));
      child.stderr!.on('data', (d) => (output += d));
      child.once('exit', (code) => resolve({ code, output }));
    });
  const expectStart = async (line: string, expectedBuilds: number) => {
    const run = await npmStart();
    expect({ code: run.code, line: run.output.includes(line), started: run.output.includes('fake arrgo started'), builds: buildCount() }).toEqual({ code: 0, line: true, started: true, builds: expectedBuilds });
    return run.output;
  };

  beforeAll(() => {
    fs.mkdirSync(path.join(root, 'scripts'));
    fs.copyFileSync(path.join(ROOT, 'scripts', 'build-if-stale.cjs'), path.join(root, 'scripts', 'build-if-stale.cjs'));
    write('package.json', JSON.stringify({ name: 'prestart-layout', private: true, scripts: { prestart: SCRIPTS.prestart, start: SCRIPTS.start, build: 'node fake-build.cjs' } }));
    write('package-lock.json', '{}');
    write('tsconfig.json', '{}');
    write('src/main.ts', 'export {};\n');
    write('src/platform/old.ts', 'export {};\n');
    write('web/src/main.tsx', 'export {};\n');
    write(
      'fake-build.cjs',
      "const fs = require('node:fs');\nfs.mkdirSync('dist', { recursive: true });\nfs.writeFileSync('dist/main.js', \"console.log('fake arrgo started');\\n\");\n" +
        "fs.mkdirSync('dist/web', { recursive: true });\nfs.writeFileSync('dist/web/index.html', '<!doctype html>\\n');\n" +
        "fs.writeFileSync('dist/workflow-bundle.js', '// bundle\\n');\nfs.appendFileSync('builds.log', 'built\\n');\n",
    );
  });

  it('skips a second start, and rebuilds after a source, the lock file or a removal changed, or with the build incomplete', async () => {
    expect(SCRIPTS.prestart).toBe('node scripts/build-if-stale.cjs');
    await expectStart('building: dist/main.js is missing', 1);
    const skipped = await expectStart('build skipped: dist/workflow-bundle.js is newer than every source (src/, web/, tsconfig*.json, package.json, package-lock.json)', 1);
    expect(skipped).not.toContain('building:');

    touch('src/main.ts');
    await expectStart('building: src/main.ts changed after the last build', 2);
    await expectStart('build skipped', 2);

    touch('package-lock.json');
    await expectStart('building: package-lock.json changed after the last build', 3);

    fs.rmSync(path.join(root, 'src', 'platform', 'old.ts'));
    await expectStart('building: src/platform changed after the last build', 4);

    // The console: its sources and its build count too.
    touch('web/src/main.tsx');
    await expectStart('building: web/src/main.tsx changed after the last build', 5);
    fs.rmSync(path.join(root, 'dist', 'web', 'index.html'));
    await expectStart('building: dist/web/index.html is missing', 6);

    fs.rmSync(path.join(root, 'dist', 'workflow-bundle.js'));
    await expectStart('building: dist/workflow-bundle.js is missing', 7);
    await expectStart('build skipped', 7);
  });

  it('leaves npm test and npm run bench building unconditionally: tests test the current source', () => {
    expect(SCRIPTS.test.startsWith('npm run build && ')).toBe(true);
    expect(SCRIPTS.bench.startsWith('npm run build && ')).toBe(true);
  });
});
