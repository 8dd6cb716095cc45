import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Worker } from '@temporalio/worker';

/**
 * The heartbeat file of the workers on this host, named after the host: scaled-out worker
 * containers share one data volume, and each container's health check must read its own worker's
 * heartbeat, not another's.
 */
export function workerHeartbeatFile(host: string = os.hostname()): string {
  return `worker.${host.replace(/[^A-Za-z0-9._-]/g, '_')}.heartbeat`;
}
export const WORKER_HEARTBEAT_STALE_MS = 60_000;
const INTERVAL_MS = 15_000;

/** Touches DATA_DIR/worker.<host>.heartbeat while the worker is running (read by the container health check). */
export function startWorkerHeartbeat(dataDir: string, worker: Worker): () => void {
  const file = path.join(dataDir, workerHeartbeatFile());
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
