import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';

export const CLI_MAIN = path.resolve(__dirname, '..', '..', 'dist', 'cli', 'main.js');

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built `arrgo` binary (node dist/cli/main.js; `npm run build` first) with ARRGO_URL and
 * ARRGO_API_KEY for the harness, in `cwd`, with standard input closed (not a terminal) unless given.
 */
export function runArrgo(args: string[], options: { url?: string; apiKey?: string; cwd?: string; env?: Record<string, string>; input?: string } = {}): Promise<CliRun> {
  const child = spawn(process.execPath, [CLI_MAIN, ...args], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', ...(options.url ? { ARRGO_URL: options.url } : {}), ...(options.apiKey ? { ARRGO_API_KEY: options.apiKey } : {}), ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const run = finished(child);
  child.stdin.end(options.input ?? '');
  return run;
}

function finished(child: ChildProcessWithoutNullStreams): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

const shellQuote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;

/**
 * Runs the binary in a pseudo-terminal (util-linux `script`), so standard input is a terminal and
 * the command may ask; `input` is typed into it. Standard output and error arrive together.
 */
export function runArrgoInTerminal(args: string[], options: { url: string; apiKey: string; cwd: string; env?: Record<string, string>; input: string }): Promise<CliRun> {
  const command = [process.execPath, CLI_MAIN, ...args].map(shellQuote).join(' ');
  const child = spawn('script', ['-qec', command, '/dev/null'], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', TERM: 'dumb', ARRGO_URL: options.url, ARRGO_API_KEY: options.apiKey, ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const run = finished(child);
  // The terminal keeps standard input open: what is typed waits in it until the prompt reads it.
  child.stdin.write(options.input);
  return run;
}
