import fs from 'node:fs';
import path from 'node:path';
import type { Worker } from '@temporalio/worker';

export const WORKER_HEARTBEAT_FILE = 'worker.heartbeat';
export const WORKER_HEARTBEAT_STALE_MS = 60_000;
const INTERVAL_MS = 15_000;

/** Touches DATA_DIR/worker.heartbeat while the worker is running (read by the container health check). */
export function startWorkerHeartbeat(dataDir: string, worker: Worker): () => void {
  const file = path.join(dataDir, WORKER_HEARTBEAT_FILE);
  const beat = () => {
    if (worker.getState() === 'RUNNING') fs.writeFileSync(file, new Date().toISOString() + '\n');
  };
  beat();
  const timer = setInterval(beat, INTERVAL_MS);
  timer.unref();
  return () => {
    clearInterval(timer);
    fs.rmSync(file, { force: true });
  };
}
