import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type Role } from '../../src/config';
import { startService, type RunningService } from '../../src/composition/service';
import { createPostgresDatabase, defaultDbKind, type DbKind } from './databases';
import { TEST_NAMESPACES } from '../setup/global-setup';

export interface HttpResult<T = any> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

export interface Harness {
  /** http://127.0.0.1:<port> (without URL_BASE; `request` adds it) */
  baseUrl: string;
  apiKey: string;
  dataDir: string;
  db: DbKind;
  namespace: string;
  taskQueue: string;
  service: RunningService;
  /** Every log line written so far (scrubbed exactly as production writes them). */
  logs: string[];
  request<T = any>(method: string, apiPath: string, body?: unknown, options?: { headers?: Record<string, string>; auth?: boolean }): Promise<HttpResult<T>>;
  get<T = any>(apiPath: string): Promise<HttpResult<T>>;
  post<T = any>(apiPath: string, body?: unknown): Promise<HttpResult<T>>;
  put<T = any>(apiPath: string, body?: unknown): Promise<HttpResult<T>>;
  patch<T = any>(apiPath: string, body?: unknown): Promise<HttpResult<T>>;
  del<T = any>(apiPath: string): Promise<HttpResult<T>>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  db?: DbKind;
  role?: Role;
  env?: Record<string, string>;
  /** The console's web build to serve (default `<repo>/dist/web`). */
  webRoot?: string;
  /**
   * A database prepared by the test instead of a fresh one: SQLite's arrgo.sqlite in `dataDir`, or
   * PostgreSQL at `databaseUrl` (the test drops it). The harness still removes `dataDir` on close.
   */
  existing?: { dataDir: string; databaseUrl?: string };
}

export function testNamespace(): string {
  const worker = Number(process.env.JEST_WORKER_ID ?? '1');
  return `arrgo-test-${((worker - 1) % TEST_NAMESPACES) + 1}`;
}

/**
 * Starts the real service (API + worker) against the test run's Temporal server and a fresh
 * database of the requested kind, on an ephemeral port, with a task queue of its own.
 */
export async function startArrgo(options: HarnessOptions = {}): Promise<Harness> {
  const db = options.db ?? defaultDbKind();
  const dataDir = options.existing?.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'arrgo-h-'));
  const pg = db === 'postgresql' && !options.existing ? await createPostgresDatabase() : null;
  const apiKey = randomBytes(18).toString('base64url');
  const namespace = testNamespace();
  const taskQueue = `t-${randomBytes(5).toString('hex')}`;
  const logs: string[] = [];
  const config = loadConfig({
    PORT: '0',
    BIND_ADDRESS: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: pg?.url ?? options.existing?.databaseUrl ?? '',
    TEMPORAL_ADDRESS: process.env.TEST_TEMPORAL_ADDRESS!,
    TEMPORAL_NAMESPACE: namespace,
    TEMPORAL_TASK_QUEUE: taskQueue,
    ARRGO_API_KEY: apiKey,
    // Shared with worker processes started by the test (they decrypt the same instance keys).
    ARRGO_SECRET: randomBytes(36).toString('base64url'),
    LOG_LEVEL: 'debug',
    BACKUP_ENABLED: 'false',
    APP_REQUEST_TIMEOUT_MS: '3000',
    SYNC_RETRY_INITIAL_INTERVAL_MS: '200',
    SYNC_RETRY_MAX_ATTEMPTS: '4',
    // Tests and benches never reach beyond loopback.
    PCD_SCHEMA_FETCH: 'off',
    // Tests of edits do not also race a drift check each edit queues; the outbox tests turn it on.
    DRIFT_CHECK_AFTER_EDIT: 'false',
    ...options.env,
  });
  const service = await startService({
    role: options.role ?? 'all',
    config,
    stdoutLogs: false,
    logDestinations: [{ write: (line: string) => void logs.push(line) }],
    workflowBundlePath: process.env.TEST_WORKFLOW_BUNDLE,
    announce: (line) => void logs.push(line),
    webRoot: options.webRoot,
  });
  const baseUrl = service.apiUrl ?? '';
  const request = httpRequester(`${baseUrl}${config.urlBase}`, apiKey);
  const harness: Harness = {
    baseUrl,
    apiKey,
    dataDir,
    db,
    namespace,
    taskQueue,
    service,
    logs,
    request,
    get: (p) => request('GET', p),
    post: (p, b) => request('POST', p, b),
    put: (p, b) => request('PUT', p, b),
    patch: (p, b) => request('PATCH', p, b),
    del: (p) => request('DELETE', p),
    async close() {
      await cleanTemporal(service, taskQueue).catch(() => undefined);
      await service.stop();
      await pg?.drop().catch(() => undefined);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return harness;
}

/** Requests to one API process at `root` (its URL with URL_BASE), with the API key unless `auth: false`. */
export function httpRequester(root: string, apiKey: string): Harness['request'] {
  return async (method, apiPath, body, opts = {}) => {
    const headers: Record<string, string> = { ...(opts.auth === false ? {} : { 'X-Api-Key': apiKey }), ...opts.headers };
    let payload: string | undefined;
    if (body !== undefined) {
      headers['Content-Type'] ??= 'application/json';
      payload = typeof body === 'string' ? body : JSON.stringify(body);
    }
    const response = await fetch(`${root}${apiPath.startsWith('/api') ? '' : '/api/v1'}${apiPath}`, { method, headers, body: payload });
    const text = await response.text();
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: response.status, body: parsed as any, text, headers: response.headers };
  };
}

/** Leaves nothing running in the shared namespace: workflows on this task queue and its schedules. */
async function cleanTemporal(service: RunningService, taskQueue: string): Promise<void> {
  await service.temporal.connection.withDeadline(Date.now() + 5000, () => cleanTemporalNow(service, taskQueue));
}

async function cleanTemporalNow(service: RunningService, taskQueue: string): Promise<void> {
  const client = service.temporal.client;
  for await (const schedule of client.schedule.list()) {
    if (schedule.scheduleId.startsWith(`${taskQueue}-`)) await client.schedule.getHandle(schedule.scheduleId).delete().catch(() => undefined);
  }
  for await (const wf of client.workflow.list({ query: `TaskQueue = '${taskQueue}' AND ExecutionStatus = 'Running'` })) {
    await client.workflow.getHandle(wf.workflowId, wf.runId).terminate('test harness closed').catch(() => undefined);
  }
}

/** Polls until the check passes (for state that settles asynchronously), or fails with the last value. */
export async function eventually<T>(check: () => Promise<T>, accept: (value: T) => boolean, timeoutMs = 30_000, intervalMs = 200): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T = await check();
  while (!accept(last)) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms; last value: ${JSON.stringify(last)?.slice(0, 2000)}`);
    await new Promise((r) => setTimeout(r, intervalMs));
    last = await check();
  }
  return last;
}
