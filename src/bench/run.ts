import { spawn } from 'node:child_process';
import { formatLine, type Benchmark } from './harness';
import { pcdReplayBenchmark } from './pcd-replay';
import { syncPreviewBenchmark } from './sync-preview';
import { canaryRolloutBenchmark } from './canary-rollout';
import { syncVerifyBenchmark } from './sync-verify';
import { driftPollBenchmark } from './drift-poll';
import { evaluateBenchmark } from './evaluate';
import { timelineBenchmark } from './timeline';
import { refGuideSyncBenchmark } from './ref-guide-sync';
import { goalPreviewBenchmark } from './goal-preview';
import { readLoadBenchmark } from './read-load';
import { fleetScaleBenchmark } from './fleet-scale';
import { consoleBenchmark } from './console';
import { consoleWorkbenchBenchmark } from './console-workbench';
import { consoleGoalsBenchmark } from './console-goals';
import { cliPlanBenchmark } from './cli-plan';
import { Profiler } from './profile';

// Each capability registers its benchmark here.
const BENCHMARKS: Benchmark[] = [pcdReplayBenchmark, syncPreviewBenchmark, syncVerifyBenchmark, canaryRolloutBenchmark, driftPollBenchmark, refGuideSyncBenchmark, timelineBenchmark, evaluateBenchmark, goalPreviewBenchmark, readLoadBenchmark, fleetScaleBenchmark, consoleBenchmark, consoleWorkbenchBenchmark, consoleGoalsBenchmark, cliPlanBenchmark];

async function main(): Promise<void> {
  // Loopback only: git may use local repositories and nothing else (schema fetches are off too).
  process.env.GIT_ALLOW_PROTOCOL = 'file';
  // `run.js <name>` or `run.js --profile <name>` (a phase breakdown after the figures).
  const args = process.argv.slice(2);
  const profiled = args.includes('--profile');
  const isolated = args.includes(ISOLATED);
  const only = args.find((a) => a !== '--profile' && a !== ISOLATED);
  for (const bench of BENCHMARKS) {
    if (only && !(isolated ? bench.name === only : bench.name.includes(only))) continue;
    const why = bench.unavailable?.() ?? null;
    if (why) {
      process.stdout.write(`${bench.name}: skipped (${why})\n`);
      continue;
    }
    // Each bench in a process of its own: a bench's figures do not depend on what ran before it in
    // the same process (heap, caches, timers, JIT state); one run measured the 0 ms rollout at 3.3x
    // after the other benches and 2.7x alone.
    if (!isolated) {
      await runIsolated(bench.name, profiled);
      continue;
    }
    process.stdout.write(`# ${bench.name}\n`);
    const profile = profiled ? new Profiler() : undefined;
    try {
      await bench.run((line) => process.stdout.write(formatLine(line) + '\n'), { profile });
      profile?.print((line) => process.stdout.write(line + '\n'));
    } finally {
      profile?.close();
    }
  }
}

const ISOLATED = '--isolated';

function runIsolated(name: string, profiled: boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [__filename, ISOLATED, ...(profiled ? ['--profile'] : []), name], { stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`bench ${name} exited with ${code}`))));
  });
}

main()
  .then(() => process.exit(0))
  .catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
