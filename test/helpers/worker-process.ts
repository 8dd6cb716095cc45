import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { addInstance, linkDatabase, SAMPLE_PCD, type FleetInstance } from './fleet';
import { httpRequester, startArrgo, type Harness } from './harness';

const MAIN = path.resolve(__dirname, '..', '..', 'dist', 'main.js');

export interface ServiceProcess {
  child: ChildProcess;
  output: () => string;
  /** SIGKILL: the process dies mid-task, as in a crash. */
  kill(): Promise<void>;
  /** SIGTERM: drain and stop. */
  stop(): Promise<void>;
}

export type WorkerProcess = ServiceProcess;

export interface ApiProcess extends ServiceProcess {
  /** http://127.0.0.1:<port> */
  baseUrl: string;
  /** A request to this process, as `Harness.request` sends it (API key unless `auth: false`). */
  request: Harness['request'];
}

/**
 * A worker in its own process (`node dist/main.js --role worker`), polling the harness's task
 * queue against the same database, Temporal namespace and secrets. npm test builds dist first.
 */
export function startWorkerProcess(h: Harness, extraEnv: Record<string, string> = {}): Promise<WorkerProcess> {
  return startServiceProcess(h, 'worker', extraEnv, (output) => output.includes('worker polling'));
}

/**
 * A second API process (`node dist/main.js --role api`) on the harness's database, Temporal
 * namespace, task queue and secrets, on its own loopback port: as `npm run api` started twice.
 */
export async function startApiProcess(h: Harness, extraEnv: Record<string, string> = {}): Promise<ApiProcess> {
  const env = { PORT: '0', BIND_ADDRESS: '127.0.0.1', ...extraEnv };
  const apiLine = /API:\s+(http:\/\/127\.0\.0\.1:\d+)\/api\/v1/;
  const started = await startServiceProcess(h, 'api', env, (output) => apiLine.test(output));
  const baseUrl = apiLine.exec(started.output())![1];
  const request = httpRequester(baseUrl, h.apiKey);
  return { ...started, baseUrl, request };
}

async function startServiceProcess(h: Harness, role: 'api' | 'worker', extraEnv: Record<string, string>, ready: (output: string) => boolean): Promise<ServiceProcess> {
  const config = h.service.config;
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    DATA_DIR: config.dataDir,
    DATABASE_URL: config.database.kind === 'postgresql' ? config.database.url : '',
    TEMPORAL_ADDRESS: h.service.temporal.address,
    TEMPORAL_NAMESPACE: h.namespace,
    TEMPORAL_TASK_QUEUE: h.taskQueue,
    ARRGO_API_KEY: h.apiKey,
    ARRGO_SECRET: config.secret ?? '',
    LOG_LEVEL: 'info',
    BACKUP_ENABLED: 'false',
    PCD_SCHEMA_FETCH: 'off',
    GIT_ALLOW_PROTOCOL: 'file',
    APP_REQUEST_TIMEOUT_MS: String(config.appRequestTimeoutMs),
    PREVIEW_TTL_MINUTES: String(config.previewTtlMinutes),
    SYNC_RETRY_INITIAL_INTERVAL_MS: String(config.syncRetry.initialIntervalMs),
    SYNC_RETRY_MAX_ATTEMPTS: String(config.syncRetry.maximumAttempts),
    DRIFT_CHECK_AFTER_EDIT: String(config.driftCheckAfterEdit),
    ...extraEnv,
  };
  let output = '';
  const child = spawn(process.execPath, [MAIN, '--role', role], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      if (ready(output)) {
        clearInterval(timer);
        resolve();
      } else if (child.exitCode !== null) {
        clearInterval(timer);
        reject(new Error(`${role} process exited early: ${output.slice(-2000)}`));
      }
    }, 100);
  });
  return {
    child,
    output: () => output,
    async kill() {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * What a worker-kill test of a sync runs on: an API-only service and one worker process (the test
 * starts more with `startWorker`), both with a short heartbeat timeout, and an emulated Radarr
 * syncing the sample PCD. Call it in a describe block: it registers the hooks.
 */
export function killableSyncSetup(heartbeatTimeoutSeconds = 3) {
  const env = { SYNC_HEARTBEAT_TIMEOUT_SECONDS: String(heartbeatTimeoutSeconds) };
  const setup = {
    h: undefined as unknown as Harness,
    radarr: undefined as unknown as FleetInstance,
    workers: [] as WorkerProcess[],
    startWorker: async () => {
      const worker = await startWorkerProcess(setup.h, env);
      setup.workers.push(worker);
      return worker;
    },
  };
  beforeAll(async () => {
    setup.h = await startArrgo({ role: 'api', env });
    await setup.startWorker();
    const databaseId = await linkDatabase(setup.h, 'sample', SAMPLE_PCD);
    setup.radarr = await addInstance(setup.h, 'movie_app', { name: 'radarr', databaseId });
  });
  afterAll(async () => {
    for (const worker of setup.workers) await worker.kill();
    await setup.h?.close();
    await setup.radarr?.emulator.close();
  });
  return setup;
}
