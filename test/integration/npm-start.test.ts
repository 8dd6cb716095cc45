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
 * `npm start` is `npm run build` (prestart) then `node dist/main.js`. The test suite builds first
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
    expect(Object.keys(health.components).sort()).toEqual(['backups', 'jobs', 'logs', 'repos', 'sqlite']);
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
