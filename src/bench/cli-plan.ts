import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createArrgoClient, unwrap } from '../client';
import { loadFleet } from '../cli/fleet/load';
import { planFleet } from '../cli/fleet/plan';
import { runCli } from '../cli/main';
import { startEmulatorFleet } from './emulator-fleet';
import { registerFleet } from './fleet-scale';
import { medianMs, pairedTimings, type Benchmark, type PairedTimings } from './harness';
import { startBenchService, type BenchService } from './service-harness';

const SAMPLE = path.resolve(__dirname, '..', '..', 'examples', 'sample-pcd');
/** The built binary (package.json's bin), beside this file in dist/. */
const CLI_MAIN = path.resolve(__dirname, '..', 'cli', 'main.js');
const SIZE = 200;
const CHANNELS = 2;
/** In-process rounds are short (tens of ms); a process round pays node's start twice. */
const IN_PROCESS_ROUNDS = 21;
const PROCESS_ROUNDS = 11;
const GOAL = '<= 1.5';

/**
 * The bare process the binary is compared with: node, one fetch of the configuration and its JSON
 * parse, nothing else. What the binary costs beyond it is arrgo's CLI (its modules, the file, the diff).
 */
const BARE_READ = `fetch(process.env.ARRGO_URL + '/api/v1/fleet/configuration', { headers: { 'X-Api-Key': process.env.ARRGO_API_KEY } })
  .then(async (r) => { await r.json(); process.exit(r.ok ? 0 : 1); }, () => process.exit(1));`;

/**
 * `arrgo plan -f` over a fleet of 200 instances (emulated Radarr instances on loopback, each with tags
 * and a sync configuration, two channels, the settings), against the one API read it needs
 * (GET /fleet/configuration): in process (`runCli`, as the binary runs it, against the same read by
 * the same client) and as the real binary (against a bare node process doing the read). Both for the
 * exported file (no changes, exit 0) and for a file that changes every instance's tags (exit 2).
 */
export const cliPlanBenchmark: Benchmark = {
  name: 'cli-plan',
  unavailable: () => (!fs.existsSync(SAMPLE) ? `${SAMPLE} is absent` : !fs.existsSync(CLI_MAIN) ? `${CLI_MAIN} is absent (npm run build)` : null),
  async run(report) {
    const bench = await startBenchService();
    const fleet = await startEmulatorFleet('radarr', SIZE, 0);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arrgo-cli-plan-'));
    try {
      await buildFleet(bench, fleet.instances);
      const url = bench.baseUrl.replace(/\/api\/v1$/, '');
      const env = { ARRGO_URL: url, ARRGO_API_KEY: bench.apiKey };
      const inSync = path.join(dir, 'arrgo.yaml');
      const edited = path.join(dir, 'arrgo-edited.yaml');
      await expectExit(runProcess(['export', '-f', inSync], env), 0, 'export');
      fs.writeFileSync(edited, editedFleet((await expectExit(runProcess(['export', '-o', 'json'], env), 0, 'export -o json')).stdout));

      const client = createArrgoClient({ baseUrl: url, apiKey: bench.apiKey });
      const read = async () => unwrap(client.GET('/api/v1/fleet/configuration'));
      const configBytes = JSON.stringify(await read()).length;
      report({ name: `fleet of ${SIZE} instances`, values: { fileKB: fs.statSync(inSync).size / 1024, configurationKB: configBytes / 1024 } });

      for (const [label, file, exit] of [['no changes', inSync, 0], ['every instance changed', edited, 2]] as const) {
        const inProcess = await pairedTimings(IN_PROCESS_ROUNDS, read, () => planInProcess(file, url, bench.apiKey, exit));
        report(line(`plan in process, ${label}`, inProcess, 'GET /fleet/configuration, same client'));
        const binary = await pairedTimings(
          PROCESS_ROUNDS,
          () => expectExit(runProcess(['-e', BARE_READ], env, false), 0, 'bare read'),
          () => expectExit(runProcess(['plan', '-f', file], env), exit, 'plan'),
          2,
        );
        report(line(`arrgo plan binary, ${label}`, binary, 'node + the same GET'));
        // Where the plan's own time goes (warm, in process): the file (YAML, schema) and the diff.
        const current = await read();
        const loaded = await loadFleet(file, { cwd: dir });
        report({
          name: `plan parts in process, ${label}`,
          values: { loadFileMs: await medianMs(IN_PROCESS_ROUNDS, () => loadFleet(file, { cwd: dir }), 3), diffMs: await medianMs(IN_PROCESS_ROUNDS, () => planFleet(loaded, current, { prune: false }), 3) },
        });
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      await fleet.close();
      await bench.close();
    }
  },
};

/** The fleet: every instance tagged and synced from the sample database, a few channels. */
async function buildFleet(bench: BenchService, targets: { baseUrl: string; apiKey: string }[]): Promise<void> {
  await registerFleet(bench, targets, (i) => ({ tags: ['bench', `group-${i % 10}`] }));
  for (let i = 0; i < CHANNELS; i++) {
    const created = await bench.request('POST', '/notifications/channels', { name: `ops-${i}`, kind: 'webhook', url: `http://127.0.0.1:9/hook-${i}`, secret: 'bench-webhook-secret-0123456789', events: ['drift.detected', 'sync.failed'] });
    if (created.status !== 201) throw new Error(`channel refused: ${created.status}`);
  }
}

/** The exported fleet (its JSON form, which is YAML too) with one more tag on every instance. */
function editedFleet(exported: string): string {
  const file = JSON.parse(exported) as { instances: { tags?: string[] }[] };
  for (const instance of file.instances) instance.tags = [...(instance.tags ?? []), 'edited'];
  return JSON.stringify(file, null, 2);
}

/** `arrgo plan -f` as the binary runs it (`runCli`), its output swallowed; checks the exit code. */
async function planInProcess(file: string, url: string, apiKey: string, exit: number): Promise<void> {
  const write = process.stdout.write;
  process.stdout.write = (() => true) as typeof process.stdout.write;
  let code: number;
  try {
    code = await runCli(['--url', url, '--api-key', apiKey, 'plan', '-f', file]);
  } finally {
    process.stdout.write = write;
    process.exitCode = undefined;
  }
  if (code !== exit) throw new Error(`plan exited ${code}, expected ${exit}`);
}

interface ProcessRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** `node dist/cli/main.js <args>` (or `node <args>` without the CLI), with only PATH, HOME and `env`. */
function runProcess(args: string[], env: Record<string, string>, cli = true): Promise<ProcessRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, cli ? [CLI_MAIN, ...args] : args, { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

async function expectExit(run: Promise<ProcessRun>, code: number, what: string): Promise<ProcessRun> {
  const done = await run;
  if (done.code !== code) throw new Error(`${what} exited ${done.code}, expected ${code}: ${done.stderr.slice(0, 500)}`);
  return done;
}

function line(name: string, t: PairedTimings, baseline: string) {
  return {
    name,
    values: { planMs: t.measured.medianMs, readMs: t.baseline.medianMs, bestRatio: `${t.bestRatio.toFixed(2)}x`, rounds: t.rounds },
    ratio: { value: t.medianRatio, baseline: `${baseline} (medians)`, goal: GOAL },
  };
}
