import fs from 'node:fs';
import path from 'node:path';
import { driftScheduleId } from '../services/schedules';
import { SECTIONS, SELECTION } from './canary-rollout';
import { startEmulatorFleet } from './emulator-fleet';
import { median, type Benchmark, type BenchLine } from './harness';
import type { Profiler } from './profile';
import { runScheduleNow, startBenchService, until, type BenchService } from './service-harness';

const SAMPLE = path.resolve(__dirname, '..', '..', 'examples', 'sample-pcd');
const SIZES = [20, 50, 200];
/** No app latency: what is left is arrgo's own per-instance cost (workflows, database, CPU). */
const LATENCY_MS = 0;
const BATCH = 10;
/**
 * Runs per size (each with a fresh service and fleet); the medians are reported. One run of the
 * smaller fleets is short enough to swing by a quarter (rollouts of 20 took 2.5 to 3.4 s, 127 to 169
 * ms per instance, in one evening's runs), and the smallest is every growth ratio's baseline.
 */
const runsAt = (size: number) => (size < 200 ? 3 : 1);

interface SizeTimes {
  size: number;
  pollMs: number;
  rolloutMs: number;
}

/**
 * How arrgo's fleet work grows with the fleet: at 20, 50 and 200 emulated Radarr instances (a
 * fresh service and fleet per run; runsAt runs per size, medians), one drift polling run (the real
 * schedule, 16 checks at a time) (best of two) and one canary rollout to every instance (canary,
 * evidence for the others, gate passed at once, batches of 10). Prints time and time per instance at each size, and how the per-instance cost
 * grows from the smallest fleet: at most 1.0x is linear or better.
 */
export const fleetScaleBenchmark: Benchmark = {
  name: 'fleet-scale',
  unavailable: () => (fs.existsSync(SAMPLE) ? null : `${SAMPLE} is absent`),
  async run(report, options) {
    const started = performance.now();
    const measured: SizeTimes[] = [];
    for (const size of SIZES) {
      const runs: SizeTimes[] = [];
      for (let run = 0; run < runsAt(size); run++) runs.push(await measureSize(size, run === runsAt(size) - 1 ? options?.profile : undefined));
      const times = { size, pollMs: median(runs.map((r) => r.pollMs)), rolloutMs: median(runs.map((r) => r.rolloutMs)) };
      measured.push(times);
      report({ name: `drift polling run, ${size} instances`, values: { totalMs: times.pollMs, perInstanceMs: times.pollMs / size } });
      report({ name: `canary rollout, ${size} instances`, values: { totalMs: times.rolloutMs, perInstanceMs: times.rolloutMs / size } });
    }
    const [first] = measured;
    for (const times of measured.slice(1)) {
      for (const line of growth(first, times)) report(line);
    }
    report({ name: 'fleet-scale bench, wall time', values: { totalS: (performance.now() - started) / 1000 }, ratio: { value: (performance.now() - started) / 300_000, baseline: '5 minutes', goal: '< 1' } });
  },
};

function growth(from: SizeTimes, to: SizeTimes): BenchLine[] {
  const factor = to.size / from.size;
  return [
    {
      name: `drift polling run, ${from.size} -> ${to.size} instances`,
      values: { timeGrowth: `${(to.pollMs / from.pollMs).toFixed(2)}x for ${factor.toFixed(1)}x instances` },
      ratio: { value: to.pollMs / to.size / (from.pollMs / from.size), baseline: `per-instance cost at ${from.size}`, goal: '<= 1.0 (linear or better)' },
    },
    {
      name: `canary rollout, ${from.size} -> ${to.size} instances`,
      values: { timeGrowth: `${(to.rolloutMs / from.rolloutMs).toFixed(2)}x for ${factor.toFixed(1)}x instances` },
      ratio: { value: to.rolloutMs / to.size / (from.rolloutMs / from.size), baseline: `per-instance cost at ${from.size}`, goal: '<= 1.0 (linear or better)' },
    },
  ];
}

async function measureSize(size: number, profile?: Profiler): Promise<SizeTimes> {
  const bench = await startBenchService();
  const fleet = await startEmulatorFleet('radarr', size, LATENCY_MS);
  try {
    profile?.trackProcess('temporal server', bench.temporalPid);
    profile?.trackProcess('emulated apps', fleet.pid);
    const ids = await registerFleet(bench, fleet.instances);
    // Warm-up: one check through the worker (connections, JIT, the cache's sync source).
    await bench.request('POST', `/drift/${ids[0]}/check`);
    await bench.request('PUT', '/drift/settings', { enabled: true, intervalMinutes: 1440 });
    const startedAt = Date.now();
    profile?.section(`fleet-scale: drift polling run, ${size} instances`);
    // Best of two runs: a single run on a shared machine swings by 2x.
    const scheduleId = driftScheduleId(bench.service.config.temporal.taskQueue);
    const pollMs = Math.min(await runScheduleNow(bench, scheduleId), await runScheduleNow(bench, scheduleId));
    profile?.section(`fleet-scale: canary rollout, ${size} instances`);
    const rolloutMs = await rollout(bench, ids);
    await profile?.collectHistories(bench.service.temporal.client, startedAt);
    return { size, pollMs, rolloutMs };
  } finally {
    await fleet.close();
    await bench.close();
  }
}

/**
 * Links the sample database and registers one instance per emulated Radarr (`radarr-<n>`), each synced
 * from it with the rollout's selection; `extra` adds fields to an instance's creation (tags, ...).
 */
export async function registerFleet(bench: BenchService, targets: { baseUrl: string; apiKey: string }[], extra: (index: number) => Record<string, unknown> = () => ({})): Promise<number[]> {
  const linked = await bench.request('POST', '/databases', { name: 'sample', source: { kind: 'local', path: SAMPLE } });
  await until(() => bench.request('GET', `/databases/${linked.body.id}`), (r) => r.body.cache.status === 'ready');
  const ids: number[] = [];
  for (const [i, target] of targets.entries()) {
    const instance = await bench.request('POST', '/instances', { name: `radarr-${i}`, arrType: 'movie_app', baseUrl: target.baseUrl, apiKey: target.apiKey, ...extra(i) });
    await until(() => bench.request('PUT', `/instances/${instance.body.id}/sync-config`, { databaseId: linked.body.id, ...SELECTION }), (r) => r.status === 200);
    ids.push(instance.body.id);
  }
  return ids;
}

/** A rollout to the whole fleet, from the request to the workflow's end (the gate is passed at once). */
async function rollout(bench: BenchService, ids: number[]): Promise<number> {
  const started = performance.now();
  const created = await bench.request('POST', '/canary/rollouts', {
    arrType: 'movie_app',
    canaryInstanceId: ids[0],
    targetInstanceIds: ids.slice(1),
    sections: SECTIONS,
    partialPolicy: 'abort',
    batchSize: BATCH,
  });
  if (created.status >= 300) throw new Error(`rollout refused: ${created.status}`);
  const gated = await until(() => bench.request('GET', `/canary/rollouts/${created.body.id}`), (r) => r.body.status !== 'canary_running' && r.body.remainingPreview !== null, 300_000, 100);
  if (gated.body.status !== 'awaiting_confirmation') throw new Error(`rollout ${gated.body.status} before the gate`);
  await bench.request('POST', `/canary/rollouts/${created.body.id}/proceed`, { stateToken: gated.body.stateToken });
  await bench.service.temporal.client.workflow.getHandle(gated.body.workflowId ?? `canary-rollout-${created.body.id}`).result();
  const elapsed = performance.now() - started;
  const done = await bench.request('GET', `/canary/rollouts/${created.body.id}`);
  if (done.body.status !== 'completed') throw new Error(`rollout ended ${done.body.status}`);
  return elapsed;
}
