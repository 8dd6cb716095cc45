import fs from 'node:fs';
import path from 'node:path';
import { createArrClient } from '../clients/arr-client';
import { batchesFrom } from '../domain/canary';
import { loadPcdRepository, replayPcd } from '../domain/pcd';
import { applyPlan, emptySelection, liveNeeds, planSync, readSyncSource, type SyncSection, type SyncSelection } from '../domain/sync';
import { probe } from '../platform/profiling';
import { readLiveState } from '../services/sync/live-state';
import { readRepositoryFiles } from '../services/pcd/source-files';
import { startEmulatorFleet } from './emulator-fleet';
import { median, type Benchmark } from './harness';
import type { Profiler } from './profile';
import { startBenchService, until, type BenchService } from './service-harness';

const SAMPLE = path.resolve(__dirname, '..', '..', 'examples', 'sample-pcd');
const INSTANCES = 20;
const BATCH = 5;
// BENCH_LATENCIES_MS=0 (comma-separated) measures only some latencies, e.g. while profiling.
const LATENCIES_MS = process.env.BENCH_LATENCIES_MS ? process.env.BENCH_LATENCIES_MS.split(',').map(Number) : [0, 100];
/** What the rollout benches sync: sample-pcd's movie profile and its settings (also used by fleet-scale). */
export const SECTIONS: SyncSection[] = ['qualityProfiles', 'delayProfiles', 'mediaManagement'];
export const SELECTION: SyncSelection = {
  ...emptySelection(),
  qualityProfiles: ['Movies 1080p'],
  delayProfile: 'Standard',
  naming: 'Standard',
  mediaSettings: 'Standard',
  qualityDefinitions: 'Movie Sizes',
};

/**
 * Measured rounds per side after the warm-up rounds (BENCH_ROUNDS overrides); the median is reported.
 * At 0 ms a round takes well under a second and the direct sync (~0.3 s) moves by ±20% from round
 * to round, so more rounds steady the median; at 100 ms a round takes ~17 s and varies by ~1%.
 */
const roundsAt = (latencyMs: number) => Math.max(1, Number(process.env.BENCH_ROUNDS ?? (latencyMs === 0 ? 7 : 3)));
/**
 * Warm-up rounds per side before them: at 0 ms the rollouts got faster over the first four or five
 * rounds of a fresh service (928, 901, 851, 774, 724, 747, 747 ms in one run; the direct sync alike),
 * so one warm-up measured the JIT as much as the rollout. A running arrgo is warm.
 */
const warmUpsAt = (latencyMs: number) => (latencyMs === 0 ? 4 : 1);
const GOALS: Record<number, string> = { 0: '<= 2.0', 100: '<= 1.2' };

/**
 * A canary rollout across 20 emulated Radarr instances through the real API and workflows
 * (canary sync, evidence for 19 targets, gate passed at once, batches of 5), against syncing the
 * same 20 instances directly with the same domain code and batch size, without Temporal or the
 * database: the ratio is the cost of durability.
 *
 * Both sides alike: warm-up rounds (warmUpsAt: JIT, the worker's workflow sandbox, connection pools), then
 * the measured rounds (roundsAt), each on a fresh fleet of emulated apps (a rollout changes them), and the
 * median of each side. The rollouts of one latency share one service, as a running arrgo would.
 * With --profile, the last measured round of each side is broken down.
 */
export const canaryRolloutBenchmark: Benchmark = {
  name: 'canary-rollout',
  unavailable: () => (fs.existsSync(SAMPLE) ? null : `${SAMPLE} is absent`),
  async run(report, options) {
    const profile = options?.profile;
    for (const latencyMs of LATENCIES_MS) {
      const warmUps = warmUpsAt(latencyMs);
      const last = warmUps + roundsAt(latencyMs) - 1;
      const directs: number[] = [];
      const scheduled: number[] = [];
      for (let round = 0; round <= last; round++) {
        const ms = await directSync(latencyMs, 'batches', round === last ? profile : undefined);
        const canaryFirst = await directSync(latencyMs, 'canary-first');
        if (round >= warmUps) directs.push(ms);
        if (round >= warmUps) scheduled.push(canaryFirst);
      }
      const rollouts = await rolloutsThroughService(latencyMs, profile);
      const direct = median(directs);
      const rollout = [...rollouts].sort((a, b) => a.total - b.total)[Math.floor(rollouts.length / 2)];
      report({ name: `direct sync of ${INSTANCES} instances, app latency ${latencyMs} ms`, values: { medianMs: direct, rounds: directs.map((ms) => Math.round(ms)).join('/') } });
      report({
        name: `canary rollout to ${INSTANCES} instances, app latency ${latencyMs} ms`,
        values: {
          medianMs: rollout.total,
          canaryToGateMs: rollout.toGate,
          rollingOutMs: rollout.rolling,
          gateCallMs: rollout.gate,
          rounds: rollouts.map((r) => Math.round(r.total)).join('/'),
        },
        ratio: { value: rollout.total / direct, baseline: 'direct sync of the same instances (medians)', goal: GOALS[latencyMs] },
      });
      // The rollout syncs the canary alone before its batches: one sequential round more than the
      // direct sync above. The same direct sync in the rollout's schedule isolates what durability
      // (Temporal, the database, evidence and freshness reads) costs on top (no goal of its own).
      report({
        name: `the same rollout vs direct sync in the rollout's schedule (canary alone, then batches of ${BATCH}), app latency ${latencyMs} ms`,
        values: { directMedianMs: median(scheduled), rounds: scheduled.map((ms) => Math.round(ms)).join('/') },
        ratio: { value: rollout.total / median(scheduled), baseline: "direct sync, canary first (medians)" },
      });
    }
  },
};

const chunks = <T>(items: T[], size: number): T[][] => batchesFrom(items, size, 0).map((batch) => batch.items);

/**
 * Syncs the fleet without Temporal or the database: in batches of BATCH ('batches', the issue's
 * baseline), or the first instance alone and then the others in batches ('canary-first', the
 * rollout's schedule).
 */
async function directSync(latencyMs: number, schedule: 'batches' | 'canary-first', profile?: Profiler): Promise<number> {
  const fleet = await startEmulatorFleet('radarr', INSTANCES, latencyMs);
  try {
    const repo = loadPcdRepository(readRepositoryFiles(SAMPLE));
    profile?.trackProcess('emulated apps', fleet.pid);
    profile?.section(`direct sync, app latency ${latencyMs} ms`);
    const started = performance.now();
    const replayed = probe('replay', 'replayPcd', () => replayPcd({ base: repo.base, tweaks: repo.tweaks }));
    const source = probe('transform', 'readSyncSource', () => readSyncSource(replayed.resolved, 'movie_app', SELECTION));
    const rounds = schedule === 'batches' ? chunks(fleet.instances, BATCH) : [fleet.instances.slice(0, 1), ...chunks(fleet.instances.slice(1), BATCH)];
    for (const round of rounds) {
      await Promise.all(
        round.map(async (target) => {
          const client = createArrClient({ arrType: 'movie_app', baseUrl: target.baseUrl, apiKey: target.apiKey }, 15_000);
          const { live } = await readLiveState(client, liveNeeds('movie_app', SELECTION, SECTIONS));
          const planned = probe('transform', 'planSync', () => planSync({ arrType: 'movie_app', selection: SELECTION, source, live, sections: SECTIONS }));
          await applyPlan(planned.plan, client);
        }),
      );
    }
    const elapsed = performance.now() - started;
    profile?.end();
    replayed.base.close();
    replayed.resolved.close();
    return elapsed;
  } finally {
    await fleet.close();
  }
}

interface RolloutTimes {
  total: number;
  gate: number;
  toGate: number;
  rolling: number;
}

/** One service; warm-up rollouts (warmUpsAt), then the measured ones (roundsAt), each on a fresh fleet. */
async function rolloutsThroughService(latencyMs: number, profile?: Profiler): Promise<RolloutTimes[]> {
  const warmUps = warmUpsAt(latencyMs);
  const last = warmUps + roundsAt(latencyMs) - 1;
  const bench = await startBenchService();
  try {
    const linked = await bench.request('POST', '/databases', { name: 'sample', source: { kind: 'local', path: SAMPLE } });
    await until(() => bench.request('GET', `/databases/${linked.body.id}`), (r) => r.body.cache.status === 'ready');
    const measured: RolloutTimes[] = [];
    for (let round = 0; round <= last; round++) {
      const times = await rolloutRound(bench, linked.body.id, round, latencyMs, round === last ? profile : undefined);
      if (round >= warmUps) measured.push(times);
    }
    return measured;
  } finally {
    await bench.close();
  }
}

async function rolloutRound(bench: BenchService, databaseId: number, round: number, latencyMs: number, profile?: Profiler): Promise<RolloutTimes> {
  const fleet = await startEmulatorFleet('radarr', INSTANCES, latencyMs);
  try {
    const ids: number[] = [];
    for (const [i, target] of fleet.instances.entries()) {
      const instance = await bench.request('POST', '/instances', { name: `radarr-${round}-${i}`, arrType: 'movie_app', baseUrl: target.baseUrl, apiKey: target.apiKey });
      await until(() => bench.request('PUT', `/instances/${instance.body.id}/sync-config`, { databaseId, ...SELECTION }), (r) => r.status === 200);
      ids.push(instance.body.id);
    }
    profile?.trackProcess('temporal server', bench.temporalPid);
    profile?.trackProcess('emulated apps', fleet.pid);
    const startedAt = Date.now();
    profile?.section(`canary rollout, app latency ${latencyMs} ms: canary to gate`);
    const started = performance.now();
    const rollout = await bench.request('POST', '/canary/rollouts', {
      arrType: 'movie_app',
      canaryInstanceId: ids[0],
      targetInstanceIds: ids.slice(1),
      sections: SECTIONS,
      partialPolicy: 'abort',
      batchSize: BATCH,
    });
    // The gate is watched on two columns of the rollout's row (one small statement every 20 ms),
    // then the rollout is read once through the API for its state token: polling the API itself
    // would load the rollout with its evidence JSON 50 times a second in the process measured.
    const connection = bench.service.orm.em.getConnection();
    await until(
      () => connection.execute('select status, case when remaining_preview is null then 0 else 1 end as has_evidence from canary_rollouts where id = ?', [rollout.body.id]) as Promise<{ status: string; has_evidence: number }[]>,
      (rows) => rows[0].status !== 'canary_running' && Number(rows[0].has_evidence) === 1,
      300_000,
      20,
    );
    const gateSeen = performance.now();
    const gated = await bench.request('GET', `/canary/rollouts/${rollout.body.id}`);
    if (gated.body.status !== 'awaiting_confirmation') throw new Error(`rollout ${gated.body.status} before the gate`);
    profile?.section(`canary rollout, app latency ${latencyMs} ms: gate call (proceed)`);
    await bench.request('POST', `/canary/rollouts/${rollout.body.id}/proceed`, { stateToken: gated.body.stateToken });
    const proceeded = performance.now();
    profile?.section(`canary rollout, app latency ${latencyMs} ms: rolling out`);
    // The end is awaited on the workflow's result (the rollout records its final state before it
    // returns), then read through the API: polling the API every 20 ms for the whole rollout put
    // ~50 requests/s of extra load on the service being measured, which a person watching does not.
    await bench.service.temporal.client.workflow.getHandle(gated.body.workflowId ?? `canary-rollout-${rollout.body.id}`).result();
    // The human decision is not part of the cost: the time spent in the proceed call stays in.
    const times = { total: performance.now() - started, gate: proceeded - gateSeen, toGate: gateSeen - started, rolling: performance.now() - proceeded };
    const done = await bench.request('GET', `/canary/rollouts/${rollout.body.id}`);
    if (done.body.status !== 'completed') throw new Error(`rollout ended ${done.body.status}`);
    await profile?.collectHistories(bench.service.temporal.client, startedAt);
    return times;
  } finally {
    await fleet.close();
  }
}
