import fs from 'node:fs';
import path from 'node:path';
import { driftScheduleId } from '../services/schedules';
import { startEmulatorFleet } from './emulator-fleet';
import type { Benchmark } from './harness';
import { runScheduleNow, startBenchService, until } from './service-harness';

const SAMPLE = path.resolve(__dirname, '..', '..', 'examples', 'sample-pcd');
const INSTANCES = 50;
const LATENCY_MS = 100;

/**
 * One drift polling run over 50 emulated Radarr instances (apps answering with 100 ms latency)
 * through the real schedule, workflows and worker, against a single check of one instance: the
 * checks run concurrently, so the run takes a small multiple of one check, far below fifty.
 */
export const driftPollBenchmark: Benchmark = {
  name: 'drift-poll',
  unavailable: () => (fs.existsSync(SAMPLE) ? null : `${SAMPLE} is absent`),
  async run(report, options) {
    const profile = options?.profile;
    const bench = await startBenchService();
    const fleet = await startEmulatorFleet('radarr', INSTANCES, LATENCY_MS);
    try {
      const linked = await bench.request('POST', '/databases', { name: 'sample', source: { kind: 'local', path: SAMPLE } });
      await until(() => bench.request('GET', `/databases/${linked.body.id}`), (r) => r.body.cache.status === 'ready');
      const ids: number[] = [];
      for (const [i, target] of fleet.instances.entries()) {
        const instance = await bench.request('POST', '/instances', { name: `radarr-${i}`, arrType: 'movie_app', baseUrl: target.baseUrl, apiKey: target.apiKey });
        await until(
          () => bench.request('PUT', `/instances/${instance.body.id}/sync-config`, { databaseId: linked.body.id, qualityProfiles: ['Movies 1080p'], delayProfile: 'Standard', naming: 'Standard' }),
          (r) => r.status === 200,
        );
        ids.push(instance.body.id);
      }
      await bench.request('POST', `/drift/${ids[0]}/check`); // warm-up
      profile?.trackProcess('temporal server', bench.temporalPid);
      profile?.trackProcess('emulated apps', fleet.pid);
      const singlesStartedAt = Date.now();
      profile?.section(`drift check, 1 instance ×5, app latency ${LATENCY_MS} ms`);
      const singles: number[] = [];
      for (let i = 0; i < 5; i++) {
        const started = performance.now();
        const res = await bench.request('POST', `/drift/${ids[i + 1]}/check`);
        if (res.body.status !== 'drifted' && res.body.status !== 'in-sync') throw new Error(`unexpected drift status ${res.body.status}`);
        singles.push(performance.now() - started);
      }
      singles.sort((a, b) => a - b);
      const single = singles[2];
      await bench.request('PUT', '/drift/settings', { enabled: true, intervalMinutes: 1440 });
      profile?.section(`drift polling run, ${INSTANCES} instances, app latency ${LATENCY_MS} ms`);
      const total = await runScheduleNow(bench, driftScheduleId(bench.service.config.temporal.taskQueue));
      await profile?.collectHistories(bench.service.temporal.client, singlesStartedAt);
      report({ name: `drift check, 1 instance (median), app latency ${LATENCY_MS} ms`, values: { ms: single } });
      report({
        name: `drift polling run, ${INSTANCES} instances`,
        values: { totalMs: total, perInstanceMs: total / INSTANCES },
        ratio: { value: total / single, baseline: 'one drift check', goal: '<= 5x (issue 18; a pool of 16 ideally about 3.2x)' },
      });
    } finally {
      await fleet.close();
      await bench.close();
    }
  },
};
