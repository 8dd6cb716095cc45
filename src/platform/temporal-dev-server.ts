import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { devServerArgs, findTemporalBinary } from '../../temporal/provision.cjs';
import { browsableHost, isLoopback } from './addresses';
import type { Logger } from './logger';
import { waitForTemporal } from './temporal-client';

export interface DevServerOptions {
  port: number;
  /** null: headless. */
  uiPort: number | null;
  /** Persist workflow state here; omitted: in memory. */
  dbFile?: string;
  /** Where the server's own output goes. */
  logFile?: string;
  /**
   * Holds the server's pid while it runs. A start finding a live dev server recorded here (left
   * behind by a process that was killed) stops it before starting its own.
   */
  pidFile?: string;
  namespaces?: string[];
  ip?: string;
  /** Interface of the Web UI; omitted: the same as ip. The UI has no authentication. */
  uiIp?: string;
  logger?: Logger;
}

export interface DevServer {
  address: string;
  uiUrl: string | null;
  pid: number;
  stop(): Promise<void>;
}

/** Starts `temporal server start-dev` as a child process and waits until it answers. */
export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  const found = findTemporalBinary({ install: true, log: (m) => options.logger?.info(m) });
  if (!found) throw new Error('Temporal dev server binary not found');
  const ip = options.ip ?? '127.0.0.1';
  const uiIp = options.uiIp ?? ip;
  const args = devServerArgs({
    ip,
    uiIp,
    port: options.port,
    uiPort: options.uiPort ?? undefined,
    headless: options.uiPort === null,
    dbFile: options.dbFile,
    namespaces: options.namespaces,
  });
  if (options.dbFile) fs.mkdirSync(path.dirname(options.dbFile), { recursive: true });
  if (options.pidFile) await reclaimOrphan(options.pidFile, options.logger);
  await assertPortFree(ip, options.port, 'TEMPORAL_PORT');
  if (options.uiPort !== null) await assertPortFree(uiIp, options.uiPort, 'TEMPORAL_UI_PORT');
  let output: number | 'ignore' = 'ignore';
  if (options.logFile) {
    fs.mkdirSync(path.dirname(options.logFile), { recursive: true });
    output = fs.openSync(options.logFile, 'a');
  }
  const child: ChildProcess = spawn(found.path, args, { stdio: ['ignore', output, output], detached: false });
  if (typeof output === 'number') fs.closeSync(output);
  let exited = false;
  const exitedPromise = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true;
      if (options.pidFile) removePidFile(options.pidFile, child.pid);
      resolve();
    }),
  );
  if (options.pidFile && child.pid) fs.writeFileSync(options.pidFile, `${child.pid}\n`);
  const watchdog = child.pid ? watchParent(child.pid) : null;
  const address = `${ip}:${options.port}`;
  options.logger?.info({ binary: found.source, address }, 'starting the Temporal dev server');
  if (options.uiPort !== null && !isLoopback(uiIp)) {
    options.logger?.warn({ uiBindAddress: uiIp }, 'the Temporal Web UI listens beyond loopback and has no authentication: anyone who reaches it can see and terminate workflows');
  }
  try {
    await waitForTemporal(address, 60_000, () => !exited);
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(
      `The Temporal dev server did not start on port ${options.port}` +
        (options.logFile ? `; see ${options.logFile}` : '') +
        ' (is the port already in use?)',
    );
  }
  return {
    address,
    uiUrl: options.uiPort === null ? null : `http://${browsableHost(uiIp)}:${options.uiPort}`,
    pid: child.pid!,
    async stop() {
      watchdog?.kill('SIGKILL');
      if (exited) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exitedPromise;
      clearTimeout(timer);
    },
  };
}

/**
 * The dev server must not outlive arrgo, even when arrgo is killed with SIGKILL: a detached shell
 * (a few KB, one `sleep` a second) stops the server when the parent process is gone.
 */
function watchParent(childPid: number): ChildProcess | null {
  if (process.platform === 'win32') return null;
  const script =
    'while kill -0 "$1" 2>/dev/null && kill -0 "$2" 2>/dev/null; do sleep 1; done; ' +
    'kill -0 "$2" 2>/dev/null || exit 0; kill -TERM "$2" 2>/dev/null; ' +
    'i=0; while kill -0 "$2" 2>/dev/null && [ $i -lt 10 ]; do sleep 1; i=$((i+1)); done; kill -KILL "$2" 2>/dev/null; exit 0';
  try {
    const watchdog = spawn('/bin/sh', ['-c', script, 'arrgo-temporal-watchdog', String(process.pid), String(childPid)], { stdio: 'ignore', detached: true });
    watchdog.on('error', () => undefined);
    watchdog.unref();
    return watchdog;
  } catch {
    return null;
  }
}

/** A port another process holds fails the start with a message saying what to do. */
async function assertPortFree(ip: string, port: number, variable: string): Promise<void> {
  if (await portFree(ip, port)) return;
  throw new Error(
    `port ${port} (${variable}) on ${ip} is already in use by another process, so the embedded Temporal dev server cannot start. ` +
      `Stop that process, set ${variable} to a free port, or set TEMPORAL_ADDRESS to use a Temporal server that is already running.`,
  );
}

function portFree(ip: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen({ host: ip, port, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

async function reclaimOrphan(pidFile: string, logger?: Logger): Promise<void> {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(pidFile, 'utf8').trim());
  } catch {
    return;
  }
  if (Number.isInteger(pid) && pid > 1 && isTemporalDevServer(pid)) {
    logger?.warn({ pid }, 'stopping a Temporal dev server left running by a previous arrgo process');
    signal(pid, 'SIGTERM');
    const deadline = Date.now() + 10_000;
    while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    if (alive(pid)) signal(pid, 'SIGKILL');
    while (alive(pid) && Date.now() < deadline + 5000) await new Promise((r) => setTimeout(r, 100));
  }
  removePidFile(pidFile);
}

function isTemporalDevServer(pid: number): boolean {
  if (!alive(pid)) return false;
  let command = '';
  try {
    command = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    try {
      command = execFileSync('ps', ['-p', String(pid), '-o', 'command='], { encoding: 'utf8' });
    } catch {
      return false;
    }
  }
  return /\bserver\s+start-dev\b/.test(command);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    /* already gone */
  }
}

function removePidFile(pidFile: string, onlyIf?: number): void {
  try {
    if (onlyIf !== undefined && Number(fs.readFileSync(pidFile, 'utf8').trim()) !== onlyIf) return;
    fs.rmSync(pidFile, { force: true });
  } catch {
    /* nothing to remove */
  }
}
