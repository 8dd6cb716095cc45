// Starts what the browser tests run against, as a user would: arrgo from dist/ (its embedded
// Temporal dev server, SQLite in a temporary DATA_DIR) and emulated apps from dist/emulators.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '..', '..');

export interface Started {
  child: ChildProcess;
  /** The groups of the line that told it is ready. */
  match: RegExpMatchArray;
  output: () => string;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Runs `node <script> ...args` until its output matches `ready`; the process is stopped by stop(). */
export async function startNode(script: string, args: string[], env: Record<string, string>, ready: RegExp, timeoutMs = 120_000): Promise<Started> {
  if (!fs.existsSync(path.join(ROOT, script))) throw new Error(`${script} is missing: run \`npm run build\` before the browser tests`);
  const child = spawn(process.execPath, [script, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const match = await new Promise<RegExpMatchArray>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not start in ${timeoutMs} ms:\n${output.slice(-3000)}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const found = output.match(ready);
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with ${code} before it was ready:\n${output.slice(-3000)}`));
    });
  });
  const exited = new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())));
  return {
    child,
    match,
    output: () => output,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.exitCode === null && child.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export interface Arrgo {
  /** http://127.0.0.1:<port><URL_BASE> */
  url: string;
  apiKey: string;
  dataDir: string;
  temporalAddress: string;
  stop(): Promise<void>;
}

/**
 * arrgo from dist/main.js on free ports with a fresh SQLite DATA_DIR. Without `temporalAddress` it
 * starts its embedded Temporal dev server; with it, it joins that one on a task queue of its own.
 */
export async function startArrgo(options: { urlBase?: string; temporalAddress?: string } = {}): Promise<Arrgo> {
  // Ports are picked free and bound moments later by another process: an outgoing connection can
  // take one in between (the ephemeral range is the same). Such a start is tried again on new ports.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startArrgoOnce(options);
    } catch (error) {
      if (attempt >= 3 || !PORT_TAKEN.test(String(error))) throw error;
    }
  }
}

const PORT_TAKEN = /address already in use|is the port already in use/;

async function startArrgoOnce(options: { urlBase?: string; temporalAddress?: string }): Promise<Arrgo> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arrgo-e2e-'));
  const port = await freePort();
  const temporalPort = await freePort();
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    PORT: String(port),
    BIND_ADDRESS: '127.0.0.1',
    URL_BASE: options.urlBase ?? '',
    PCD_SCHEMA_FETCH: 'off',
    // As in the integration tests: an edit does not also race the drift check it would queue (test/integration/outbox.test.ts covers it).
    DRIFT_CHECK_AFTER_EDIT: 'false',
    BACKUP_ENABLED: 'false',
    LOG_LEVEL: 'warn',
    ARRGO_API_KEY: '',
    ARRGO_PUBLIC_URL: '',
    TEMPORAL_TASK_QUEUE: `e2e-${randomBytes(4).toString('hex')}`,
    ...(options.temporalAddress
      ? { TEMPORAL_ADDRESS: options.temporalAddress }
      : { TEMPORAL_ADDRESS: '', TEMPORAL_PORT: String(temporalPort), TEMPORAL_UI_PORT: String(await freePort()), TEMPORAL_UI_BIND_ADDRESS: '127.0.0.1' }),
  };
  const started = await startNode('dist/main.js', [], env, /Console:\s+(http:\/\/\S+)\/\n/, 180_000).catch((error: unknown) => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw error;
  });
  return {
    url: started.match[1],
    apiKey: fs.readFileSync(path.join(dataDir, 'api-key'), 'utf8').trim(),
    dataDir,
    temporalAddress: options.temporalAddress ?? `127.0.0.1:${temporalPort}`,
    async stop() {
      await started.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface EmulatedApp {
  url: string;
  apiKey: string;
  version: string;
  stop(): Promise<void>;
}

export async function startEmulatedApp(app: 'radarr' | 'sonarr' | 'lidarr'): Promise<EmulatedApp> {
  const apiKey = randomBytes(16).toString('hex');
  const started = await startNode('dist/emulators/cli.js', ['--app', app, '--port', '0', '--api-key', apiKey], {}, /emulator (\S+) listening on (http:\/\/127\.0\.0\.1:\d+)/, 30_000);
  return { url: started.match[2], apiKey, version: started.match[1], stop: () => started.stop() };
}
