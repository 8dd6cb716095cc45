import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../config';
import { workerHeartbeatFile, WORKER_HEARTBEAT_STALE_MS } from '../platform/worker-heartbeat';

/** Container health checks: `healthcheck api` asks <URL_BASE>/api/v1/health; `healthcheck worker` reads the heartbeat file. */
async function main(): Promise<number> {
  const role = process.argv[2];
  const config = loadConfig();
  if (role === 'api') {
    const response = await fetch(`http://127.0.0.1:${config.port}${config.urlBase}/api/v1/health`, { signal: AbortSignal.timeout(4000) });
    const body = (await response.json()) as { status?: string };
    return response.ok && body.status !== 'unhealthy' ? 0 : 1;
  }
  if (role === 'worker') {
    const stat = fs.statSync(path.join(config.dataDir, workerHeartbeatFile()));
    return Date.now() - stat.mtimeMs < WORKER_HEARTBEAT_STALE_MS ? 0 : 1;
  }
  process.stderr.write('usage: healthcheck api|worker\n');
  return 2;
}

main()
  .then((code) => process.exit(code))
  .catch(() => process.exit(1));
