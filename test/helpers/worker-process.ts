import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { Harness } from './harness';

const MAIN = path.resolve(__dirname, '..', '..', 'dist', 'main.js');

export interface WorkerProcess {
  child: ChildProcess;
  output: () => string;
  /** SIGKILL: the worker dies mid-task, as in a crash. */
  kill(): Promise<void>;
  /** SIGTERM: drain and stop. */
  stop(): Promise<void>;
}

/**
 * A worker in its own process (`node dist/main.js --role worker`), polling the harness's task
 * queue against the same database, Temporal namespace and secrets. npm test builds dist first.
 */
export async function startWorkerProcess(h: Harness, extraEnv: Record<string, string> = {}): Promise<WorkerProcess> {
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
    ...extraEnv,
  };
  let output = '';
  const child = spawn(process.execPath, [MAIN, '--role', 'worker'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      if (output.includes('worker polling')) {
        clearInterval(timer);
        resolve();
      } else if (child.exitCode !== null) {
        clearInterval(timer);
        reject(new Error(`worker process exited early: ${output.slice(-2000)}`));
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
