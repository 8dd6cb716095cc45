import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { devServerArgs, findTemporalBinary } from '../../temporal/provision.cjs';
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
  namespaces?: string[];
  ip?: string;
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
  const args = devServerArgs({
    ip,
    port: options.port,
    uiPort: options.uiPort ?? undefined,
    headless: options.uiPort === null,
    dbFile: options.dbFile,
    namespaces: options.namespaces,
  });
  if (options.dbFile) fs.mkdirSync(path.dirname(options.dbFile), { recursive: true });
  let output: number | 'ignore' = 'ignore';
  if (options.logFile) {
    fs.mkdirSync(path.dirname(options.logFile), { recursive: true });
    output = fs.openSync(options.logFile, 'a');
  }
  const child: ChildProcess = spawn(found.path, args, { stdio: ['ignore', output, output], detached: false });
  if (typeof output === 'number') fs.closeSync(output);
  let exited = false;
  const exitedPromise = new Promise<void>((resolve) => child.once('exit', () => ((exited = true), resolve())));
  const address = `${ip}:${options.port}`;
  options.logger?.info({ binary: found.source, address }, 'starting the Temporal dev server');
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
    uiUrl: options.uiPort === null ? null : `http://${ip === '0.0.0.0' ? 'localhost' : ip}:${options.uiPort}`,
    pid: child.pid!,
    async stop() {
      if (exited) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exitedPromise;
      clearTimeout(timer);
    },
  };
}
