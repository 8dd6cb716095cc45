import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eventually, startArrgo, type Harness } from '../helpers/harness';

const ROOT = path.resolve(__dirname, '..', '..');
const SCRIPTS: Record<string, string> = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts;

interface Run {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
  /** Stops npm and everything it started (its own process group). */
  stop(): Promise<number | null>;
}

function npmRun(script: string, args: string[], env: Record<string, string> = {}): Run {
  let output = '';
  const child = spawn('npm', ['run', '--silent', script, ...(args.length ? ['--', ...args] : [])], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    output: () => output,
    exited,
    async stop() {
      if (child.exitCode === null) {
        try {
          process.kill(-child.pid!, 'SIGTERM');
        } catch {
          /* already gone */
        }
      }
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          /* already gone */
        }
      }, 15_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

async function until(run: Run, text: string | RegExp, timeoutMs = 60_000): Promise<void> {
  const seen = (o: string) => (typeof text === 'string' ? o.includes(text) : text.test(o));
  await eventually(async () => run.output(), (o) => seen(o) || run.child.exitCode !== null, timeoutMs, 100);
  if (!seen(run.output())) throw new Error(`npm script did not print ${String(text)}; output:\n${run.output().slice(-2000)}`);
}

/**
 * Every npm script in package.json at least starts. The heavy ones (build, typecheck, test, start)
 * are run by the suite itself (npm test builds and typechecks first; npm-start.test.ts runs
 * dist/main.js); for those the files they name must exist.
 */
describe('npm scripts', () => {
  let h: Harness;
  const runs: Run[] = [];
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arrgo-scripts-'));
  beforeAll(async () => {
    h = await startArrgo();
  });
  afterAll(async () => {
    for (const run of runs) await run.stop();
    await h?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  const start = (script: string, args: string[] = [], env: Record<string, string> = {}) => {
    const run = npmRun(script, args, env);
    runs.push(run);
    return run;
  };
  const serviceEnv = () => ({
    DATA_DIR: dataDir,
    PORT: '0',
    BIND_ADDRESS: '127.0.0.1',
    TEMPORAL_ADDRESS: h.service.temporal.address,
    TEMPORAL_NAMESPACE: h.namespace,
    TEMPORAL_TASK_QUEUE: `scripts-${process.pid}`,
    ARRGO_API_KEY: h.apiKey,
    BACKUP_ENABLED: 'false',
    PCD_SCHEMA_FETCH: 'off',
  });

  // generate:client is the build then the generator, which test/unit/client/schema.test.ts runs in memory;
  // restore runs in test/integration/backup-restore.test.ts; the chaos soak itself in chaos-soak.test.ts;
  // build:cli (the CLI package) in cli-package.test.ts, which packs, installs and runs it.
  const CHECKED = ['build', 'build:cli', 'prestart', 'start', 'api', 'worker', 'emulator', 'typecheck', 'test', 'bench', 'temporal:install', 'test:unit', 'demo', 'check:layers', 'generate:client', 'fuzz', 'restore', 'chaos'];

  it('has a check for every script, and every file a script names exists', () => {
    expect(Object.keys(SCRIPTS).sort()).toEqual([...CHECKED].sort());
    for (const [name, command] of Object.entries(SCRIPTS)) {
      for (const match of command.matchAll(/\bnode\s+(\S+)/g)) {
        expect({ name, file: match[1], exists: fs.existsSync(path.join(ROOT, match[1])) }).toEqual({ name, file: match[1], exists: true });
      }
      for (const match of command.matchAll(/\btsc\s+-p\s+(\S+)/g)) expect(fs.existsSync(path.join(ROOT, match[1]))).toBe(true);
      for (const match of command.matchAll(/\bnpm run ([\w:-]+)/g)) expect(Object.keys(SCRIPTS)).toContain(match[1]);
    }
  });

  it('temporal:install finds the Temporal dev server', async () => {
    const run = start('temporal:install');
    expect(await run.exited).toBe(0);
    expect(run.output()).toMatch(/temporal dev server: \S+ \((path|tools|installed)\)/);
  });

  it('api and worker start each role alone', async () => {
    const api = start('api', [], serviceEnv());
    await until(api, 'arrgo (api) is running');
    const worker = start('worker', [], serviceEnv());
    await until(worker, 'arrgo (worker) is running');
    await api.stop();
    await worker.stop();
  });

  it('emulator serves one app', async () => {
    const run = start('emulator', ['--app', 'radarr', '--port', '0', '--api-key', 'scripts-test-key-0123456789']);
    await until(run, /Radarr emulator \S+ listening on http:\/\/127\.0\.0\.1:\d+/);
    await run.stop();
  });

  it('demo builds a fleet against a running arrgo', async () => {
    const run = start('demo', [], { ARRGO_URL: h.baseUrl, ARRGO_API_KEY: h.apiKey });
    await until(run, 'The emulators keep running', 120_000);
    expect(run.output()).toMatch(/Demo Radarr \(instance \d+\) at http:\/\/127\.0\.0\.1:\d+: preview \d+ ready/);
    await run.stop();
  });

  it('bench and test:unit start', async () => {
    // npm run bench is `npm run build` (run by npm test) then the runner, started here with a filter
    // that matches no benchmark.
    const direct = npmRunNode(['dist/bench/run.js', 'no-such-benchmark']);
    expect(await direct).toBe(0);
    const unit = start('test:unit', ['--listTests']);
    expect(await unit.exited).toBe(0);
    expect(unit.output()).toContain(path.join('test', 'unit'));
  });

  it('fuzz runs the fuzz test file in its long form', async () => {
    // npm test runs the same file in its short form (test/integration/fuzz.test.ts).
    expect(Number(/FUZZ_REQUESTS=\$\{FUZZ_REQUESTS:-(\d+)\}/.exec(SCRIPTS.fuzz)?.[1])).toBeGreaterThanOrEqual(10_000);
    const fuzz = start('fuzz', ['--listTests']);
    expect(await fuzz.exited).toBe(0);
    expect(fuzz.output()).toContain(path.join('test', 'integration', 'fuzz.test.ts'));
  });

  it('chaos refuses an argument it does not understand, with its usage', async () => {
    const chaos = start('chaos', ['--nope']);
    expect(await chaos.exited).toBe(2);
    expect(chaos.output()).toContain('usage: npm run chaos [-- --seed <non-negative integer>] [--short | --long]');
    expect(chaos.output()).toContain('(not understood: --nope)');
  });

  it('check:layers passes on the code as it is', async () => {
    // test/unit/architecture/layers.test.ts proves the same rules fail on a wrong import.
    const layers = start('check:layers', []);
    expect(await layers.exited).toBe(0);
    expect(layers.output()).toContain('no dependency violations found');
  });
});

function npmRunNode(args: string[]): Promise<number | null> {
  return new Promise((resolve) => spawn(process.execPath, args, { cwd: ROOT, stdio: 'ignore' }).once('exit', (code) => resolve(code)));
}
