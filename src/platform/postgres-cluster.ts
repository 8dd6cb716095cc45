import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A throwaway PostgreSQL cluster (test runs and benchmarks): initdb into a temp dir, started on a free
 * port with trust auth on loopback. Root cannot run initdb, so as root it runs as `postgres`.
 */
export interface TempCluster {
  url: string;
  /** Stops the server as a crash would (immediate mode, no checkpoint); its data stays for `start`. */
  crash(): void;
  /** Starts the server again on the same port and data (after `crash`). */
  start(): void;
  stop(): void;
}

export function findPostgresBin(): string | null {
  const base = '/usr/lib/postgresql';
  const fromPath = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).stdout.trim();
  if (fromPath) return path.dirname(fromPath);
  try {
    const versions = fs.readdirSync(base).filter((v) => fs.existsSync(path.join(base, v, 'bin', 'initdb')));
    versions.sort((a, b) => Number(b) - Number(a));
    return versions.length ? path.join(base, versions[0], 'bin') : null;
  } catch {
    return null;
  }
}

/**
 * `crashSafe`: commits are written to the kernel before they are acknowledged (synchronous_commit on),
 * so a crash of the server (`crash`) loses none; without it a crash may lose the last ~0.6 s of them.
 */
export function startTempCluster(bin: string, port: number, options: { crashSafe?: boolean } = {}): TempCluster {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'arrgo-pg-'));
  const asRoot = process.getuid?.() === 0;
  const run = (cmd: string, args: string[]) => {
    const full = asRoot ? ['runuser', ['-u', 'postgres', '--', path.join(bin, cmd), ...args]] : [path.join(bin, cmd), args];
    execFileSync(full[0] as string, full[1] as string[], { stdio: ['ignore', 'pipe', 'pipe'] });
  };
  if (asRoot) execFileSync('chown', ['postgres:postgres', root]);
  fs.chmodSync(root, 0o700);
  const data = path.join(root, 'data');
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const start = () =>
    run('pg_ctl', [
      '-D', data, '-l', path.join(root, 'server.log'), '-w', '-t', '60',
      '-o', `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=off ${options.crashSafe ? '' : '-c synchronous_commit=off '}-c full_page_writes=off -c max_connections=300`,
      'start',
    ]);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    crash: () => run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']),
    start,
    stop() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        fs.rmSync(root, { recursive: true, force: true });
      }
    },
  };
}
