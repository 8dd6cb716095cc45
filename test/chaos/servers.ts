import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startDevServer, type DevServer } from '../../src/platform/temporal-dev-server';
import { findPostgresBin, startTempCluster, type TempCluster } from '../../src/platform/postgres-cluster';
import { TEST_NAMESPACES } from '../setup/global-setup';
import { freeStablePort } from '../setup/ports';

/**
 * The soak's own Temporal dev server and PostgreSQL cluster, which it restarts: Temporal keeps its
 * workflow histories in a file (`--db-filename`) and comes back on the same loopback port, the
 * cluster keeps its data directory and port.
 */
export interface SoakServers {
  temporalAddress: string;
  postgresUrl: string;
  restartTemporal(downMs: number): Promise<void>;
  restartPostgres(downMs: number): Promise<void>;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function startSoakServers(): Promise<SoakServers> {
  const bin = findPostgresBin();
  if (!bin) throw new Error('the chaos soak needs PostgreSQL (initdb and pg_ctl) on this machine');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arrgo-chaos-'));
  const temporalPort = await freeStablePort();
  const temporalOptions = {
    port: temporalPort,
    uiPort: null,
    dbFile: path.join(dir, 'temporal.db'),
    logFile: path.join(dir, 'temporal.log'),
    namespaces: Array.from({ length: TEST_NAMESPACES }, (_, i) => `arrgo-test-${i + 1}`),
  };
  let temporal: DevServer = await startDevServer(temporalOptions);
  // The soak crashes PostgreSQL: an acknowledged commit must survive that, as on a real server.
  let cluster: TempCluster | null = startTempCluster(bin, await freeStablePort(), { crashSafe: true });
  const postgres = cluster;
  return {
    temporalAddress: temporal.address,
    postgresUrl: postgres.url,
    async restartTemporal(downMs) {
      await temporal.stop();
      await sleep(downMs);
      temporal = await startDevServer(temporalOptions);
    },
    async restartPostgres(downMs) {
      postgres.crash();
      await sleep(downMs);
      postgres.start();
    },
    async stop() {
      await temporal.stop();
      try {
        cluster?.stop();
      } finally {
        cluster = null;
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
