import fs from 'node:fs';
import path from 'node:path';
import { createArrClient } from '../clients/arr-client';
import { loadPcdRepository, replayPcd } from '../domain/pcd';
import { applyPlan, liveNeeds, planSync, readSyncSource, verificationNeeds, verifyPlan, writtenSteps } from '../domain/sync';
import { probe } from '../platform/profiling';
import { checkAppIdentity } from '../services/instances/app-identity';
import { readRepositoryFiles } from '../services/pcd/source-files';
import { readLiveState } from '../services/sync/live-state';
import { SECTIONS, SELECTION } from './canary-rollout';
import { startEmulatorFleet } from './emulator-fleet';
import { median, type Benchmark } from './harness';

const SAMPLE = path.resolve(__dirname, '..', '..', 'examples', 'sample-pcd');
// BENCH_LATENCIES_MS=0 (comma-separated) measures only some latencies.
const LATENCIES_MS = process.env.BENCH_LATENCIES_MS ? process.env.BENCH_LATENCIES_MS.split(',').map(Number) : [0, 100];
/** Measured rounds after one warm-up round (BENCH_ROUNDS overrides); the medians are reported. */
const roundsAt = (latencyMs: number) => Math.max(1, Number(process.env.BENCH_ROUNDS ?? (latencyMs === 0 ? 9 : 3)));

/**
 * The cost of a verified apply's read-back (docs/sync.md "Verified apply") against the apply it
 * follows, on an emulated Radarr syncing sample-pcd's movie profile and settings: the apply is the
 * apply activity's app work (who answers, then the plan's writes), the verification the
 * verification activity's (who answers beside one list per resource the plan wrote, then verifyPlan). Each
 * round on a fresh app (an apply changes it). The ratio is the verified apply against the apply
 * alone, (apply + verification) / apply: goal at most 1.3x (issue 28), i.e. verification adds at
 * most 30% to the apply it follows.
 */
export const syncVerifyBenchmark: Benchmark = {
  name: 'sync-verify',
  unavailable: () => (fs.existsSync(SAMPLE) ? null : `${SAMPLE} is absent`),
  async run(report) {
    const repo = loadPcdRepository(readRepositoryFiles(SAMPLE));
    const replayed = replayPcd({ base: repo.base, tweaks: repo.tweaks });
    const source = readSyncSource(replayed.resolved, 'movie_app', SELECTION);
    try {
      for (const latencyMs of LATENCIES_MS) {
        const applies: number[] = [];
        const verifies: number[] = [];
        let steps = 0;
        let checked = 0;
        for (let round = 0; round <= roundsAt(latencyMs); round++) {
          const fleet = await startEmulatorFleet('radarr', 1, latencyMs);
          try {
            const target = fleet.instances[0];
            const client = createArrClient({ arrType: 'movie_app', baseUrl: target.baseUrl, apiKey: target.apiKey }, 15_000);
            const { live } = await readLiveState(client, liveNeeds('movie_app', SELECTION, SECTIONS));
            const { plan } = planSync({ arrType: 'movie_app', selection: SELECTION, source, live, sections: SECTIONS });
            const applyStarted = performance.now();
            await checkAppIdentity(client);
            const outcomes = await applyPlan(plan, client);
            const applyMs = performance.now() - applyStarted;
            const verifyStarted = performance.now();
            const [, read] = await Promise.all([checkAppIdentity(client), readLiveState(client, verificationNeeds(writtenSteps(plan, outcomes).map((w) => w.step)))]);
            const verification = probe('transform', 'verifyPlan', () => verifyPlan(plan, outcomes, read.live, new Date()));
            const verifyMs = performance.now() - verifyStarted;
            if (verification.status !== 'verified') throw new Error(`the bench apply did not verify: ${verification.mismatches.length} mismatches`);
            if (round === 0) continue; // warm-up: JIT, connections
            applies.push(applyMs);
            verifies.push(verifyMs);
            steps = plan.steps.length;
            checked = verification.checked;
          } finally {
            await fleet.close();
          }
        }
        const apply = median(applies);
        const verify = median(verifies);
        report({ name: `apply of ${steps} steps, app latency ${latencyMs} ms`, values: { medianMs: apply, rounds: applies.map((ms) => Math.round(ms)).join('/') } });
        report({
          name: `verification of ${checked} entities, app latency ${latencyMs} ms`,
          values: { medianMs: verify, rounds: verifies.map((ms) => Math.round(ms)).join('/') },
          ratio: { value: (apply + verify) / apply, baseline: 'the apply it follows: (apply + verification) / apply, medians', goal: '<= 1.3 (issue 28)' },
        });
      }
    } finally {
      replayed.base.close();
      replayed.resolved.close();
    }
  },
};
