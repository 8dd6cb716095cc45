import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freeStablePort } from '../setup/ports';
import { eventually } from '../helpers/harness';

const MAIN = path.resolve(__dirname, '..', '..', 'dist', 'main.js');

function portInUse(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/**
 * The embedded Temporal dev server never outlives arrgo: after a SIGKILL of `node dist/main.js`
 * the next start on the same ports comes up with a dev server of its own, and a port held by
 * another process is a clear message on the console.
 */
describe('the embedded Temporal dev server and a crash of its parent', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arrgo-orphan-'));
  const started: Started[] = [];
  let ports: { api: number; temporal: number; ui: number };

  beforeAll(async () => {
    ports = { api: await freeStablePort(), temporal: await freeStablePort(), ui: await freeStablePort() };
  });
  afterAll(() => {
    for (const s of started) if (s.child.exitCode === null) s.child.kill('SIGKILL');
    const pidFile = path.join(dataDir, 'temporal-dev-server.pid');
    if (fs.existsSync(pidFile)) {
      const pid = Number(fs.readFileSync(pidFile, 'utf8'));
      if (alive(pid)) process.kill(pid, 'SIGKILL');
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const start = (extraEnv: Record<string, string> = {}): Started => {
    let output = '';
    const child = spawn(process.execPath, [MAIN], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? dataDir,
        DATA_DIR: dataDir,
        PORT: String(ports.api),
        BIND_ADDRESS: '127.0.0.1',
        TEMPORAL_PORT: String(ports.temporal),
        TEMPORAL_UI_PORT: String(ports.ui),
        BACKUP_ENABLED: 'false',
        PCD_SCHEMA_FETCH: 'off',
        ...extraEnv,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const s = { child, output: () => output, exited };
    started.push(s);
    return s;
  };
  const running = async (s: Started) => {
    await eventually(async () => s.output(), (o) => o.includes('arrgo is running') || s.child.exitCode !== null, 120_000, 200);
    expect(s.output()).toContain('arrgo is running');
  };
  const devServerPid = () => Number(fs.readFileSync(path.join(dataDir, 'temporal-dev-server.pid'), 'utf8'));

  it('comes up with its own dev server after a SIGKILL, and after SIGTERM nothing listens on its ports', async () => {
    expect(fs.existsSync(MAIN)).toBe(true); // npm test builds before running jest
    const first = start();
    await running(first);
    const firstDevServer = devServerPid();
    expect(alive(firstDevServer)).toBe(true);

    first.child.kill('SIGKILL');
    await first.exited;
    // Started again at once, on the same ports: the orphan is stopped, not reused.
    const second = start();
    await running(second);
    const secondDevServer = devServerPid();
    expect(secondDevServer).not.toBe(firstDevServer);
    expect(alive(firstDevServer)).toBe(false);
    const health = await fetch(`http://127.0.0.1:${ports.api}/api/v1/health`).then((r) => r.json() as Promise<any>);
    expect(health.components.jobs.status).toBe('healthy');

    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    expect(alive(secondDevServer)).toBe(false);
    for (const port of [ports.api, ports.temporal, ports.ui]) expect(await portInUse(port)).toBe(false);
  });

  it('stops the dev server when its parent dies, even with nothing started after it', async () => {
    const s = start();
    await running(s);
    const devServer = devServerPid();
    s.child.kill('SIGKILL');
    await s.exited;
    await eventually(async () => alive(devServer), (a) => !a, 30_000, 200);
    await eventually(async () => portInUse(ports.temporal), (busy) => !busy, 10_000, 200);
  });

  it('binds the Web UI to TEMPORAL_UI_BIND_ADDRESS (loopback by default) and prints where it is', async () => {
    // Another loopback address, so the test sends no traffic beyond loopback (Linux routes 127/8 to lo).
    const other = '127.0.0.2';
    const bindable = await new Promise<boolean>((resolve) => {
      const probe = net.createServer();
      probe.once('error', () => resolve(false));
      probe.listen(0, other, () => probe.close(() => resolve(true)));
    });
    if (!bindable) {
      console.warn(`skipping the Web UI bind address check: ${other} cannot be bound on this machine`);
      return;
    }
    const s = start({ TEMPORAL_UI_BIND_ADDRESS: other });
    try {
      await running(s);
      expect(s.output()).toContain(`Temporal Web UI:  http://${other}:${ports.ui}`);
      expect((await fetch(`http://${other}:${ports.ui}/`)).status).toBe(200);
      // Only there: the default address no longer answers.
      await expect(fetch(`http://127.0.0.1:${ports.ui}/`)).rejects.toThrow();
    } finally {
      s.child.kill('SIGTERM');
      expect(await s.exited).toBe(0);
    }
  });

  it('names the port and what to do when another process holds it', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(ports.ui, '127.0.0.1', resolve));
    try {
      const s = start();
      expect(await s.exited).toBe(1);
      expect(s.output()).toContain(
        `arrgo failed to start: port ${ports.ui} (TEMPORAL_UI_PORT) on 127.0.0.1 is already in use by another process, so the embedded Temporal dev server cannot start. ` +
          'Stop that process, set TEMPORAL_UI_PORT to a free port, or set TEMPORAL_ADDRESS to use a Temporal server that is already running.',
      );
      expect(await portInUse(ports.temporal)).toBe(false);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });
});
