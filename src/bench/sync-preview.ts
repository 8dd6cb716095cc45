import fs from 'node:fs';
import path from 'node:path';
import { startEmulatorFleet, type EmulatorFleet } from './emulator-fleet';
import type { Benchmark } from './harness';
import type { Profiler } from './profile';
import { SHARED_DIR, startBenchService, until, type BenchService } from './service-harness';

const TRASH = path.join(SHARED_DIR, 'data', 'pcd', 'trash-pcd');
const INSTANCES = 10;
const SINGLE_RUNS = 5;
/** Measured batches of ten (BENCH_ROUNDS overrides), after one warm-up batch; the median is reported. */
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
/**
 * Without latency the apps answer in about a millisecond on loopback; 100 ms stands for a LAN.
 * BENCH_LATENCIES_MS=100 (comma-separated) measures only some latencies, e.g. while profiling.
 */
const LATENCIES_MS = process.env.BENCH_LATENCIES_MS ? process.env.BENCH_LATENCIES_MS.split(',').map(Number) : [0, 100];

/**
 * Preview generation through the real API, workflow and worker for 1 and for 10 emulated Radarr
 * instances syncing trash-pcd profiles. The work is I/O-bound, so ten concurrent previews should
 * take well under ten single ones (goal: ratio at most 0.25 at 100 ms, issue 18).
 */
export const syncPreviewBenchmark: Benchmark = {
  name: 'sync-preview',
  unavailable: () => (fs.existsSync(TRASH) ? null : `${TRASH} is absent`),
  /** With --profile, the single previews and the batch of each latency are broken down. */
  async run(report, options) {
    for (const latencyMs of LATENCIES_MS) await measure(latencyMs, report, options?.profile);
  },
};

async function measure(latencyMs: number, report: Parameters<Benchmark['run']>[0], profile?: Profiler): Promise<void> {
    const bench = await startBenchService();
    const fleet = await startEmulatorFleet('radarr', INSTANCES, latencyMs);
    const watcher = new PreviewWatcher(bench);
    try {
      const ids = await setUp(bench, fleet);
      // Timed by the service's own clocks (request accepted -> preview generated), so the waiting
      // for the result does not distort the measure. It takes as little CPU from the previews as it
      // can: one watcher reads the status and clocks of every pending preview in one statement
      // every 25 ms.
      const preview = async (instanceId: number) => {
        const created = await bench.request('POST', '/sync/previews', { instanceId });
        if (created.status !== 202) throw new Error(`preview not started: HTTP ${created.status}`);
        return watcher.generated(created.body.id);
      };
      await preview(ids[0]); // warm-up: caches, connections, JIT
      await Promise.all(ids.map((id) => preview(id)));
      profile?.trackProcess('temporal server', bench.temporalPid);
      profile?.trackProcess('emulated apps', fleet.pid);
      const startedAt = Date.now();
      profile?.section(`preview, 1 instance ×${SINGLE_RUNS}, app latency ${latencyMs} ms`);
      const singles: number[] = [];
      for (let i = 0; i < SINGLE_RUNS; i++) {
        const t = await preview(ids[i % ids.length]);
        singles.push(t.generated - t.accepted);
      }
      profile?.end();
      singles.sort((a, b) => a - b);
      const single = singles[Math.floor(singles.length / 2)];
      // Several rounds of ten, the median reported, as the single preview is; the last is profiled.
      const totals: number[] = [];
      for (let round = 1; round <= ROUNDS; round++) {
        if (round === ROUNDS) profile?.section(`preview, ${INSTANCES} instances at once, app latency ${latencyMs} ms`);
        const all = await Promise.all(ids.map((id) => preview(id)));
        totals.push(Math.max(...all.map((t) => t.generated)) - Math.min(...all.map((t) => t.accepted)));
      }
      profile?.end();
      await profile?.collectHistories(bench.service.temporal.client, startedAt);
      totals.sort((a, b) => a - b);
      const total = totals[Math.floor(totals.length / 2)];
      report({ name: `preview, 1 instance (median), app latency ${latencyMs} ms`, values: { ms: single } });
      report({
        name: `preview, ${INSTANCES} instances at once, app latency ${latencyMs} ms`,
        values: { totalMs: total, perInstanceMs: total / INSTANCES },
        ratio: { value: total / (INSTANCES * single), baseline: `${INSTANCES} single previews`, goal: latencyMs === 100 ? '<= 0.25 (issue 18)' : 'none (CPU- and Temporal-bound)' },
      });
    } finally {
      watcher.close();
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

/** Waits for previews to leave status generating: one statement per tick for all of them. */
class PreviewWatcher {
  private readonly waiting = new Map<number, (times: { accepted: number; generated: number | null; status: string }) => void>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly bench: BenchService) {}

  async generated(id: number): Promise<{ accepted: number; generated: number }> {
    const done = await new Promise<{ accepted: number; generated: number | null; status: string }>((resolve) => {
      this.waiting.set(id, resolve);
      this.timer ??= setInterval(() => void this.tick(), 25);
    });
    if (done.generated === null) throw new Error(`preview ${id} ended ${done.status} without being generated`);
    return { accepted: done.accepted, generated: done.generated };
  }

  private async tick(): Promise<void> {
    const ids = [...this.waiting.keys()];
    if (!ids.length) return;
    // Dates are numbers (ms) on SQLite, Date objects on PostgreSQL.
    const rows: { id: number; status: string; created_at: number | Date; generated_at: number | Date | null }[] = await this.bench.service.orm.em
      .getConnection()
      .execute(`select id, status, created_at, generated_at from sync_previews where id in (${ids.map(Number).join(', ')})`);
    for (const row of rows) {
      const resolve = this.waiting.get(Number(row.id));
      if (resolve && row.status !== 'generating') {
        this.waiting.delete(Number(row.id));
        resolve({ status: row.status, accepted: new Date(row.created_at).getTime(), generated: row.generated_at === null ? null : new Date(row.generated_at).getTime() });
      }
    }
    if (!this.waiting.size && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
