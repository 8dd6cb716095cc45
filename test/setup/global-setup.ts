import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { bundleWorkflowCode } from '@temporalio/worker';
import { startDevServer } from '../../src/platform/temporal-dev-server';
import { waitForTemporal } from '../../src/platform/temporal-client';
import { ensureNamespace } from '../../src/platform/temporal-namespace';
import { findPostgresBin, startTempCluster } from './postgres-cluster';
import { freePort } from './ports';

/** Namespaces handed to jest workers (arrgo-test-<JEST_WORKER_ID>), so parallel files never share ids. */
export const TEST_NAMESPACES = 8;

type Teardown = () => Promise<void> | void;
declare global {
  // eslint-disable-next-line no-var
  var __ARRGO_TEARDOWN__: Teardown[] | undefined;
}

export default async function globalSetup(): Promise<void> {
  const teardown: Teardown[] = [];
  globalThis.__ARRGO_TEARDOWN__ = teardown;
  const log = (line: string) => process.stdout.write(`[test setup] ${line}\n`);
  const namespaces = Array.from({ length: TEST_NAMESPACES }, (_, i) => `arrgo-test-${i + 1}`);
  // Loopback only: git (and every process the tests start) may use local repositories and nothing
  // else, so a fetch beyond loopback fails instead of reaching the network.
  process.env.GIT_ALLOW_PROTOCOL = 'file';
  process.env.PCD_SCHEMA_FETCH = 'off';
  if (process.env.ARRGO_TEST_SKIP_SERVICES === '1') {
    // Pure unit runs (test/unit) need no Temporal, PostgreSQL or workflow bundle.
    log('ARRGO_TEST_SKIP_SERVICES=1: Temporal, PostgreSQL and the workflow bundle are not started');
    return;
  }

  const started = await Promise.all([
    (async () => {
      if (process.env.TEMPORAL_ADDRESS) {
        await waitForTemporal(process.env.TEMPORAL_ADDRESS, 30_000);
        await registerNamespaces(process.env.TEMPORAL_ADDRESS, namespaces);
        process.env.TEST_TEMPORAL_ADDRESS = process.env.TEMPORAL_ADDRESS;
        return `Temporal: external server at ${process.env.TEMPORAL_ADDRESS}`;
      }
      const port = await freePort();
      const server = await startDevServer({
        port,
        uiPort: null,
        logFile: path.join(os.tmpdir(), `arrgo-test-temporal-${port}.log`),
        namespaces,
      });
      teardown.push(() => server.stop());
      process.env.TEST_TEMPORAL_ADDRESS = server.address;
      return `Temporal: dev server at ${server.address}`;
    })(),
    (async () => {
      if (process.env.TEST_DATABASE_URL) return `PostgreSQL: ${redactUrl(process.env.TEST_DATABASE_URL)}`;
      const bin = findPostgresBin();
      if (!bin) {
        if (process.env.ARRGO_REQUIRE_POSTGRES === '1') throw new Error('PostgreSQL is required (ARRGO_REQUIRE_POSTGRES=1) but initdb was not found');
        process.env.TEST_DATABASE_URL = '';
        return 'PostgreSQL: not installed here; PostgreSQL tests are skipped and the SQLite path runs alone';
      }
      const cluster = startTempCluster(bin, await freePort());
      teardown.push(() => cluster.stop());
      process.env.TEST_DATABASE_URL = cluster.url;
      return `PostgreSQL: temporary cluster from ${bin}`;
    })(),
    (async () => {
      const { code } = await bundleWorkflowCode({
        workflowsPath: require.resolve('../../src/workflows'),
        logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error: (m: string) => process.stderr.write(m + '\n') },
      });
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'arrgo-bundle-')), 'workflow-bundle.js');
      fs.writeFileSync(file, code);
      teardown.push(() => fs.rmSync(path.dirname(file), { recursive: true, force: true }));
      process.env.TEST_WORKFLOW_BUNDLE = file;
      return 'workflow bundle built';
    })(),
  ]);
  for (const line of started) log(line);
}

async function registerNamespaces(address: string, names: string[]): Promise<void> {
  const connection = await Connection.connect({ address });
  try {
    for (const name of names) await ensureNamespace(connection, name, 1);
  } finally {
    await connection.close();
  }
}

function redactUrl(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//***@');
}
