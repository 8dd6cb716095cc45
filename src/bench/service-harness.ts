import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../config';
import { startService, type RunningService, type ServiceOptions } from '../composition/service';
import { startDevServer, type DevServer } from '../platform/temporal-dev-server';

/** Where the project's fetched data lives (beside the checkout); benchmarks skip when it is absent. */
export const SHARED_DIR = path.resolve(__dirname, '..', '..', '..', 'shared');

export interface BenchService {
  service: RunningService;
  /** The bench's own Temporal dev server process. */
  temporalPid: number;
  baseUrl: string;
  /** The service's API key (for clients of the bench's own, such as the CLI). */
  apiKey: string;
  request<T = any>(method: string, apiPath: string, body?: unknown): Promise<{ status: number; body: T }>;
  close(): Promise<void>;
}

/** A free loopback port. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * The real service for a benchmark: its own headless Temporal dev server, embedded SQLite in a
 * temp directory, API and worker in process, quiet logs.
 */
export async function startBenchService(env: Record<string, string> = {}, options: Pick<ServiceOptions, 'extraApiRoutes'> = {}): Promise<BenchService> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arrgo-bench-'));
  const dev: DevServer = await startDevServer({ port: await freePort(), uiPort: null });
  const apiKey = randomBytes(18).toString('base64url');
  const config = loadConfig({
    PORT: '0',
    BIND_ADDRESS: '127.0.0.1',
    DATA_DIR: dataDir,
    TEMPORAL_ADDRESS: dev.address,
    ARRGO_API_KEY: apiKey,
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    BACKUP_ENABLED: 'false',
    // Tests and benches never reach beyond loopback.
    PCD_SCHEMA_FETCH: 'off',
    ...env,
  });
  const service = await startService({ role: 'all', config, stdoutLogs: Boolean(process.env.BENCH_LOG_LEVEL), announce: () => undefined, ...options });
  const baseUrl = `${service.apiUrl}/api/v1`;
  return {
    service,
    temporalPid: dev.pid,
    baseUrl,
    apiKey,
    async request(method, apiPath, body) {
      const send = () =>
        fetch(baseUrl + apiPath, {
          method,
          headers: { 'X-Api-Key': apiKey, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      // A GET (a poll) is tried again when the connection fails: a kept-alive socket the server
      // closed while the bench waited is not a failure of what is measured.
      let response: Response;
      for (let attempt = 1; ; attempt++) {
        try {
          response = await send();
          break;
        } catch (error) {
          if (method !== 'GET' || attempt >= 3) throw error;
          await new Promise((r) => setTimeout(r, 50));
        }
      }
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined };
    },
    async close() {
      await service.stop();
      await dev.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Triggers a schedule, waits for the workflow it starts to complete, and returns that execution's
 * duration by the server's clock (start to close). Waiting on the result (one long poll) rather
 * than polling the API keeps the measuring loop from taking CPU from the run being measured.
 */
export async function runScheduleNow(bench: BenchService, scheduleId: string): Promise<number> {
  const { client } = bench.service.temporal;
  const schedule = client.schedule.getHandle(scheduleId);
  // Runs are told apart by their run id: a schedule names its workflows by the trigger time in
  // seconds, so two quick runs in the same second share a workflow id.
  const seen = new Set((await schedule.describe()).info.recentActions.map((a) => a.action.workflow.firstExecutionRunId));
  await schedule.trigger();
  for (const deadline = Date.now() + 600_000; Date.now() < deadline; ) {
    await new Promise((r) => setTimeout(r, 100));
    const described = await schedule.describe().catch(() => null); // a busy dev server may time out a describe: ask again
    const run = described && [...described.info.runningActions, ...described.info.recentActions.map((a) => a.action)].find((a) => !seen.has(a.workflow.firstExecutionRunId));
    if (run) {
      const handle = client.workflow.getHandle(run.workflow.workflowId, run.workflow.firstExecutionRunId);
      await handle.result();
      const { startTime, closeTime } = await handle.describe();
      return closeTime!.getTime() - startTime.getTime();
    }
  }
  throw new Error(`schedule ${scheduleId} started no workflow in time`);
}

export async function until<T>(check: () => Promise<T>, accept: (v: T) => boolean, timeoutMs = 120_000, intervalMs = 10): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (accept(value)) return value;
    if (Date.now() > deadline) throw new Error('benchmark condition not met in time');
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
