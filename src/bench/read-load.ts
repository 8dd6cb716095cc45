/**
 * Read path under load: 50 concurrent keep-alive clients on loopback for 3 seconds per endpoint,
 * printing req/s, p50 and p99 of each PCD read endpoint (trash-pcd) against a static 100 KB JSON
 * route served by the same Express app behind the same middleware (API key, request id, access log,
 * request context), mounted by this benchmark only. The ratio is the endpoint's req/s over the
 * static route's: how close the read gets to what the app can serve at all. Also printed: one
 * request alone (median of 20, `aloneMs`) and the first request after the pull (`firstMs`, which
 * computes and serializes the view).
 *
 * The load comes from a separate process (load-client.ts), so generating it does not share the
 * service's event loop (both still share the machine's cores). Each endpoint gets 1 s of unmeasured
 * warm-up first, and the rounds run the endpoints in turn (static first in each round) so all see
 * the same machine load; the best round of each endpoint is printed (the one least disturbed by
 * other work on the machine), for the baseline alike. Clients send no If-None-Match (every
 * response carries the whole body), except on the last line: customFormat with lineage revalidated
 * with its ETag (304, no body), what a client that keeps the body pays.
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Benchmark } from './harness';
import type { LoadResult, LoadSpec } from './load-client';
import { SHARED_DIR, startBenchService, until } from './service-harness';

const TRASH_DIR = path.join(SHARED_DIR, 'data', 'pcd', 'trash-pcd');
const CONCURRENCY = 50;
const DURATION_MS = 3000;
const WARMUP_MS = 1000;
const ROUNDS = Number(process.env.READ_LOAD_ROUNDS ?? 2);
const STATIC_PATH = '/bench-static';

/** About 100 KB of JSON, serialized once: the cheapest 100 KB response the app can give. */
function staticBody(): Buffer {
  const items = Array.from({ length: 800 }, (_, i) => ({ id: i, name: `static item ${i}`, tags: ['bench', 'static'], value: i * 7, note: 'x'.repeat(40) }));
  return Buffer.from(JSON.stringify({ items }));
}

function load(spec: LoadSpec): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(__dirname, 'load-client.js'), [JSON.stringify(spec)], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    let result: LoadResult | null = null;
    child.on('message', (message) => (result = message as LoadResult));
    child.on('error', reject);
    child.on('exit', (code) => (result ? resolve(result) : reject(new Error(`load client exited with ${code}`))));
  });
}

interface Endpoint {
  label: string;
  path: string;
  goal: string;
  /** Extra request headers (If-None-Match for the revalidation line). */
  headers?: Record<string, string>;
  /** The status every response must have (default 200). */
  status?: number;
}

export const readLoadBenchmark: Benchmark = {
  name: 'read-load',
  unavailable: () => (fs.existsSync(TRASH_DIR) ? null : `${TRASH_DIR} is absent`),
  async run(report) {
    const body = staticBody();
    const bench = await startBenchService({}, {
      extraApiRoutes: (router) => router.get(STATIC_PATH, (_req, res) => res.type('application/json').end(body)),
    });
    try {
      const linked = await bench.request('POST', '/databases', { name: 'trash', source: { kind: 'local', path: TRASH_DIR } });
      const id = linked.body.id as number;
      await until(() => bench.request('GET', `/databases/${id}`), (r) => r.body.cache.status === 'ready');
      const endpoints: Endpoint[] = [
        { label: `static ${Math.round(body.length / 1024)} KB JSON (baseline)`, path: STATIC_PATH, goal: '' },
        { label: 'GET /pcd/{id}/resolved/qualityProfile', path: `/pcd/${id}/resolved/qualityProfile`, goal: '>= 2,000 req/s, p99 <= 50 ms' },
        { label: 'GET /pcd/{id}/resolved/customFormat?includeLineage=true', path: `/pcd/${id}/resolved/customFormat?includeLineage=true`, goal: '>= 300 req/s, p99 <= 250 ms' },
        { label: 'GET /pcd/{id}/graph?arrType=movie_app', path: `/pcd/${id}/graph?arrType=movie_app`, goal: '>= 500 req/s, p99 <= 150 ms' },
      ];
      // READ_LOAD_ONLY=<text> keeps the baseline and the endpoints whose path contains it (for profiling one).
      const only = process.env.READ_LOAD_ONLY;
      if (only) endpoints.splice(0, endpoints.length, ...endpoints.filter((e) => e.path === STATIC_PATH || e.path.includes(only)));
      // One request at a time: the first after the pull (computes and serializes the view), then the median of 20.
      const first = new Map<string, number>();
      const alone = new Map<string, number>();
      const headersOf = (endpoint: Endpoint) => ({ 'X-Api-Key': bench.service.apiKey, ...endpoint.headers });
      const once = async (endpoint: Endpoint) => {
        const started = performance.now();
        const res = await fetch(bench.baseUrl + endpoint.path, { headers: headersOf(endpoint) });
        await res.arrayBuffer();
        if (res.status !== (endpoint.status ?? 200)) throw new Error(`${endpoint.path} answered ${res.status}`);
        return performance.now() - started;
      };
      const timeAlone = async (endpoint: Endpoint) => {
        first.set(endpoint.label, await once(endpoint));
        const samples: number[] = [];
        for (let i = 0; i < 20; i++) samples.push(await once(endpoint));
        alone.set(endpoint.label, samples.sort((a, b) => a - b)[10]);
      };
      for (const endpoint of endpoints) await timeAlone(endpoint);
      // A client that kept the largest body revalidates it: 304 with no body while the state is unchanged.
      const largest = endpoints.find((e) => e.path.includes('includeLineage'));
      const etag = largest && (await fetch(bench.baseUrl + largest.path, { headers: headersOf(largest) }).then(async (r) => (await r.arrayBuffer(), r.headers.get('etag'))));
      if (largest && !etag) process.stdout.write(`  ${largest.path} sent no ETag: no revalidation line\n`);
      if (largest && etag) {
        endpoints.push({ label: `${largest.label} revalidated (If-None-Match: 304)`, path: largest.path, goal: 'none (shows what a revalidating client costs)', headers: { 'If-None-Match': etag }, status: 304 });
        await timeAlone(endpoints[endpoints.length - 1]);
      }
      const best = new Map<string, LoadResult>();
      for (let round = 0; round < ROUNDS; round++) {
        for (const endpoint of endpoints) {
          const result = await load({ url: bench.baseUrl + endpoint.path, headers: headersOf(endpoint), concurrency: CONCURRENCY, durationMs: DURATION_MS, warmupMs: WARMUP_MS });
          if (Object.keys(result.statuses).some((s) => s !== String(endpoint.status ?? 200))) throw new Error(`${endpoint.path}: statuses ${JSON.stringify(result.statuses)}`);
          if (result.errors) process.stdout.write(`  ${endpoint.path}: ${result.errors} transport errors (first: ${result.firstError})\n`);
          const previous = best.get(endpoint.label);
          if (!previous || result.requests > previous.requests) best.set(endpoint.label, result);
        }
      }
      const baseline = best.get(endpoints[0].label)!;
      const perSecond = (r: LoadResult) => r.requests / r.seconds;
      for (const endpoint of endpoints) {
        const r = best.get(endpoint.label)!;
        report({
          name: endpoint.label,
          values: { reqPerSec: perSecond(r), p50Ms: r.p50, p99Ms: r.p99, KB: r.bytes / 1024, aloneMs: alone.get(endpoint.label)!, firstMs: first.get(endpoint.label)! },
          ratio: endpoint.path === STATIC_PATH ? undefined : { value: perSecond(r) / perSecond(baseline), baseline: 'static route req/s', goal: endpoint.goal },
        });
      }
    } finally {
      await bench.close();
    }
  },
};
