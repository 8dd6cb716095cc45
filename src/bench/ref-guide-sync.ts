import fs from 'node:fs';
import path from 'node:path';
import type { Benchmark } from './harness';
import { SHARED_DIR, startBenchService } from './service-harness';

const GUIDES = path.join(SHARED_DIR, 'data', 'trash-guides');
const RUNS = 3;

/**
 * A reference-guide sync of the TRaSH Guides (Radarr) through the real API, workflow, worker and
 * database: the first sync writes every entity; a sync with nothing changed reads and hashes the
 * same files but writes no entity, so it should cost well under the first.
 */
export const refGuideSyncBenchmark: Benchmark = {
  name: 'ref-guide-sync',
  unavailable: () => (fs.existsSync(GUIDES) ? null : `${GUIDES} is absent`),
  async run(report) {
    const bench = await startBenchService();
    try {
      // Disabled: the first sync below is the measured one, not a background one at creation.
      const created = await bench.request('POST', '/ref-guide/sources', { name: 'trash', origin: { kind: 'local', path: GUIDES }, arrType: 'movie_app', enabled: false });
      const id = created.body.id as number;
      const sync = async () => {
        const started = performance.now();
        const res = await bench.request('POST', `/ref-guide/sources/${id}/sync?wait=true`);
        if (res.body.status !== 'ready') throw new Error(`sync ended ${res.body.status}`);
        return { ms: performance.now() - started, changes: res.body.changes as { inserted: number; unchanged: number } };
      };
      const first = await sync();
      const unchanged: number[] = [];
      let rows = 0;
      for (let i = 0; i < RUNS; i++) {
        const run = await sync();
        if (run.changes.inserted !== 0) throw new Error('an unchanged sync inserted entities');
        rows = run.changes.unchanged;
        unchanged.push(run.ms);
      }
      unchanged.sort((a, b) => a - b);
      const median = unchanged[Math.floor(unchanged.length / 2)];
      report({ name: `first sync, ${first.changes.inserted} entities written`, values: { ms: first.ms } });
      report({
        name: `sync with nothing changed, ${rows} entities (median)`,
        values: { ms: median },
        ratio: { value: median / first.ms, baseline: 'the first sync', goal: 'below 1 (unchanged entities are not rewritten)' },
      });
    } finally {
      await bench.close();
    }
  },
};
