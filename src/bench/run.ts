import { formatLine, type Benchmark } from './harness';
import { pcdReplayBenchmark } from './pcd-replay';
import { syncPreviewBenchmark } from './sync-preview';
import { canaryRolloutBenchmark } from './canary-rollout';
import { driftPollBenchmark } from './drift-poll';
import { evaluateBenchmark } from './evaluate';
import { timelineBenchmark } from './timeline';
import { refGuideSyncBenchmark } from './ref-guide-sync';
import { goalPreviewBenchmark } from './goal-preview';
import { fleetScaleBenchmark } from './fleet-scale';
import { Profiler } from './profile';

// Each capability registers its benchmark here.
const BENCHMARKS: Benchmark[] = [pcdReplayBenchmark, syncPreviewBenchmark, canaryRolloutBenchmark, driftPollBenchmark, refGuideSyncBenchmark, timelineBenchmark, evaluateBenchmark, goalPreviewBenchmark, fleetScaleBenchmark];

async function main(): Promise<void> {
  // Loopback only: git may use local repositories and nothing else (schema fetches are off too).
  process.env.GIT_ALLOW_PROTOCOL = 'file';
  // `run.js <name>` or `run.js --profile <name>` (a phase breakdown after the figures).
  const args = process.argv.slice(2);
  const profiled = args.includes('--profile');
  const only = args.find((a) => a !== '--profile');
  for (const bench of BENCHMARKS) {
    if (only && !bench.name.includes(only)) continue;
    const why = bench.unavailable?.() ?? null;
    if (why) {
      process.stdout.write(`${bench.name}: skipped (${why})\n`);
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

main()
  .then(() => process.exit(0))
  .catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
