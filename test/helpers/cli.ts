import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** The built `arrgo` binary (package.json bin); `npm run build` makes it. */
export const CLI_MAIN = path.resolve(__dirname, '..', '..', 'dist', 'cli', 'main.js');

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliRunOptions {
  /** The environment beside PATH and HOME (nothing else of the test process leaks in: no ARRGO_* by accident). */
  env?: Record<string, string>;
  /** Written to stdin, then stdin is closed (without it stdin is closed at once: not a terminal). */
  input?: string;
  /** In a terminal: keep stdin open after `input` (what is typed waits there until a prompt reads it). */
  keepInputOpen?: boolean;
  /** The working directory (relative paths of a fleet file resolve from it). */
  cwd?: string;
  timeoutMs?: number;
  /** An installed `arrgo` (an npm bin) to run as a program, through its shebang, instead of `node dist/cli/main.js`. */
  bin?: string;
}

/** Runs `node dist/cli/main.js <args>` (or `options.bin <args>`) as a user would, and collects its exit code and output. */
export function runCliBinary(args: string[], options: CliRunOptions = {}): Promise<CliRun> {
  const program = options.bin ?? CLI_MAIN;
  if (!fs.existsSync(program)) throw new Error(`${program} is missing: run \`npm run build\` first`);
  const [command, commandArgs] = options.bin ? [options.bin, args] : [process.execPath, [CLI_MAIN, ...args]];
  return collect(spawn(command, commandArgs, { cwd: options.cwd, env: cliEnv(options.env), stdio: ['pipe', 'pipe', 'pipe'] }), options);
}

/**
 * Runs the binary in a pseudo-terminal (util-linux `script`), so that stdout and stdin are a TTY:
 * progress bars, colours and questions behave as in a terminal. Output is what the terminal got
 * (stdout and stderr together, with its control sequences).
 */
export function runCliInTerminal(args: string[], options: CliRunOptions = {}): Promise<CliRun> {
  if (!fs.existsSync(CLI_MAIN)) throw new Error(`${CLI_MAIN} is missing: run \`npm run build\` first`);
  const command = [process.execPath, CLI_MAIN, ...args].map(shellQuote).join(' ');
  return collect(spawn('script', ['-qfec', command, '/dev/null'], { cwd: options.cwd, env: cliEnv({ TERM: 'xterm', COLUMNS: '120', LINES: '40', ...options.env }), stdio: ['pipe', 'pipe', 'pipe'] }), options);
}

function cliEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...extra };
}

function collect(child: ReturnType<typeof spawn>, options: CliRunOptions): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? 128 : -1), stdout, stderr });
    });
    if (options.keepInputOpen) child.stdin!.write(options.input ?? '');
    else if (options.input !== undefined) child.stdin!.end(options.input);
    else child.stdin!.end();
  });
}

function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
