/**
 * The read-load benchmark's load generator, run in its own process (forked by read-load.ts) so that
 * generating load does not share the service's event loop: `concurrency` keep-alive connections on
 * loopback, each sending its next GET as soon as the previous response has been read whole, for
 * `durationMs` after `warmupMs` of unmeasured requests. Measured: every response completed inside
 * the window (throughput, and the latency of each from its send). Node's own HTTP client (llhttp) reads the
 * bodies; no dependency is needed for a closed-loop generator this small.
 *
 * Input: argv[2] is JSON { url, headers, concurrency, durationMs, warmupMs }. Output: one IPC message
 * { requests, seconds, p50, p99, errors, firstError, statuses, bytes } (latencies in milliseconds).
 */
import http from 'node:http';

export interface LoadSpec {
  url: string;
  headers: Record<string, string>;
  concurrency: number;
  durationMs: number;
  warmupMs: number;
}

export interface LoadResult {
  requests: number;
  seconds: number;
  p50: number;
  p99: number;
  errors: number;
  /** The first transport error's code or message (null when none). */
  firstError: string | null;
  /** Responses by status code (measured phase). */
  statuses: Record<string, number>;
  /** Body bytes of the last measured response. */
  bytes: number;
}

async function run(spec: LoadSpec): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: spec.concurrency });
  const url = new URL(spec.url);
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let errors = 0;
  let firstError: string | null = null;
  let bytes = 0;
  const failed = (error: NodeJS.ErrnoException) => {
    errors++;
    firstError ??= error.code ?? error.message;
  };
  const start = performance.now();
  const measureFrom = start + spec.warmupMs;
  const end = measureFrom + spec.durationMs;

  const once = () =>
    new Promise<void>((resolve) => {
      const sent = performance.now();
      const req = http.get({ hostname: url.hostname, port: url.port, path: url.pathname + url.search, headers: spec.headers, agent }, (res) => {
        let size = 0;
        res.on('data', (chunk: Buffer) => (size += chunk.length));
        res.on('end', () => {
          const done = performance.now();
          if (done >= measureFrom && done <= end) {
            latencies.push(done - sent);
            statuses[res.statusCode ?? 0] = (statuses[res.statusCode ?? 0] ?? 0) + 1;
            bytes = size;
          }
          resolve();
        });
        res.on('error', (error) => {
          failed(error);
          resolve();
        });
      });
      req.on('error', (error) => {
        failed(error);
        resolve();
      });
    });

  const client = async () => {
    while (performance.now() < end) await once();
  };
  await Promise.all(Array.from({ length: spec.concurrency }, client));
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => (latencies.length ? latencies[Math.min(latencies.length - 1, Math.ceil(latencies.length * p) - 1)] : NaN);
  return { requests: latencies.length, seconds: spec.durationMs / 1000, p50: pct(0.5), p99: pct(0.99), errors, firstError, statuses, bytes };
}

if (require.main === module) {
  run(JSON.parse(process.argv[2]) as LoadSpec)
    .then((result) => {
      process.send?.(result);
      process.exit(0);
    })
    .catch((error: unknown) => {
      process.stderr.write(`load client failed: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    });
}
