import fs from 'node:fs';
import path from 'node:path';
import { startEmulatorFleet, type EmulatorFleet } from './emulator-fleet';
import { SyncPreview } from '../persistence/entities';
import type { Benchmark } from './harness';
import { SHARED_DIR, startBenchService, until, type BenchService } from './service-harness';

const TRASH = path.join(SHARED_DIR, 'data', 'pcd', 'trash-pcd');
const INSTANCES = 10;
const SINGLE_RUNS = 5;
/** Without latency the apps answer in about a millisecond on loopback; 100 ms stands for a LAN. */
const LATENCIES_MS = [0, 100];

/**
 * Preview generation through the real API, workflow and worker for 1 and for 10 emulated Radarr
 * instances syncing trash-pcd profiles. The work is I/O-bound, so ten concurrent previews should
 * take well under ten single ones (goal: ratio at most 0.25 at 100 ms, issue 18).
 */
export const syncPreviewBenchmark: Benchmark = {
  name: 'sync-preview',
  unavailable: () => (fs.existsSync(TRASH) ? null : `${TRASH} is absent`),
  async run(report) {
    for (const latencyMs of LATENCIES_MS) await measure(latencyMs, report);
  },
};

async function measure(latencyMs: number, report: Parameters<Benchmark['run']>[0]): Promise<void> {
    const bench = await startBenchService();
    const fleet = await startEmulatorFleet('radarr', INSTANCES, latencyMs);
    try {
      const ids = await setUp(bench, fleet);
      // Timed by the service's own clocks (request accepted -> preview generated), so the polling
      // that waits for the result does not distort the measure; it reads three columns from the
      // database, not the API's full preview, so that ten pollers take no CPU from the previews.
      const preview = async (instanceId: number) => {
        const created = await bench.request('POST', '/sync/previews', { instanceId });
        const done = await until(() => bench.service.orm.em.fork().findOneOrFail(SyncPreview, { id: created.body.id }, { fields: ['status', 'createdAt', 'generatedAt'] }), (p) => p.status !== 'generating', 120_000, 25);
        return { accepted: done.createdAt.getTime(), generated: done.generatedAt!.getTime() };
      };
      await preview(ids[0]); // warm-up: caches, connections, JIT
      const singles: number[] = [];
      for (let i = 0; i < SINGLE_RUNS; i++) {
        const t = await preview(ids[i % ids.length]);
        singles.push(t.generated - t.accepted);
      }
      singles.sort((a, b) => a - b);
      const single = singles[Math.floor(singles.length / 2)];
      const all = await Promise.all(ids.map((id) => preview(id)));
      const total = Math.max(...all.map((t) => t.generated)) - Math.min(...all.map((t) => t.accepted));
      report({ name: `preview, 1 instance (median), app latency ${latencyMs} ms`, values: { ms: single } });
      report({
        name: `preview, ${INSTANCES} instances at once, app latency ${latencyMs} ms`,
        values: { totalMs: total, perInstanceMs: total / INSTANCES },
        ratio: { value: total / (INSTANCES * single), baseline: `${INSTANCES} single previews`, goal: latencyMs === 100 ? '<= 0.25 (issue 18)' : 'none (CPU- and Temporal-bound)' },
      });
    } finally {
      await fleet.close();
      await bench.close();
    }
}

async function setUp(bench: BenchService, fleet: EmulatorFleet): Promise<number[]> {
  const linked = await bench.request('POST', '/databases', { name: 'trash', source: { kind: 'local', path: TRASH } });
  const databaseId = linked.body.id;
  await until(() => bench.request('GET', `/databases/${databaseId}`), (r) => r.body.cache.status === 'ready');
  const parity = await bench.request('GET', `/compatibility/parity?databaseId=${databaseId}`);
  const profiles = (parity.body.profiles as { name: string; compatibleArrTypes: string[] }[]).filter((p) => p.compatibleArrTypes.includes('movie_app')).slice(0, 4).map((p) => p.name);
  const ids: number[] = [];
  for (const [i, target] of fleet.instances.entries()) {
    const instance = await bench.request('POST', '/instances', { name: `radarr-${i}`, arrType: 'movie_app', baseUrl: target.baseUrl, apiKey: target.apiKey });
    await until(() => bench.request('PUT', `/instances/${instance.body.id}/sync-config`, { databaseId, qualityProfiles: profiles }), (r) => r.status === 200);
    ids.push(instance.body.id);
  }
  return ids;
}
