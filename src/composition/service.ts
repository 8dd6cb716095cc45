import fs from 'node:fs';
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import path from 'node:path';
import { Client } from '@temporalio/client';
import { createApp, type AppOptions } from '../api/app';
import type { Config, Role } from '../config';
import { initOrm, migrate, type Orm } from '../persistence/orm';
import { APP_VERSION } from '../version';
import { SecretBox } from '../platform/crypto';
import { createLogger, secretScrubber, type LogDestination, type Logger, logFailure } from '../platform/logger';
import { backupsDir, summarizeBackups } from '../services/backup/backup-service';
import { HealthRecomputer } from '../services/config-health/health-snapshots';
import { EvaluationService } from '../services/evaluation/evaluation-service';
import { PcdCacheManager } from '../services/pcd/cache-manager';
import { readHistorySettings } from '../services/sync/history-service';
import { readDriftSettings } from '../services/drift/drift-settings';
import { readRefGuideSettings } from '../services/ref-guide/settings';
import { applyDriftSchedule, applyHistoryRetentionSchedule, applyRefGuideSchedule, deploymentScopedId, ensureBackupSchedule, ensureHealthSchedule } from '../services/schedules';
import { ApiKeyStore, apiKeyFile, loadOrCreateSecrets } from '../platform/secrets';
import { AuthService } from '../services/auth/auth-service';
import { connectTemporal, type TemporalGateway } from '../platform/temporal-client';
import { OutboxRelay } from '../services/outbox/outbox-relay';
import { browsableHost } from '../platform/addresses';
import { startDevServer, type DevServer } from '../platform/temporal-dev-server';
import { installTemporalRuntimeLogging } from '../platform/temporal-runtime';
import { startWorker, type RunningWorker } from './worker';
import { startWorkerHeartbeat } from '../platform/worker-heartbeat';
import { addFleetGaugeSource, serveMetrics } from '../platform/metrics';
import { readFleetGauges } from '../services/metrics/fleet-gauges';
import { sealUrlCredentials } from '../services/git-credentials';

export interface ServiceOptions {
  role: Role;
  config: Config;
  /** Extra log destinations (tests capture lines). */
  logDestinations?: LogDestination[];
  stdoutLogs?: boolean;
  workflowBundlePath?: string;
  /** Where the one-time API key notice goes; defaults to stdout. */
  announce?: (line: string) => void;
  /** Extra API routes (benchmarks mount their baselines here; production mounts none). */
  extraApiRoutes?: AppOptions['extraRoutes'];
  /** The console's web build (default `<repo>/dist/web`). */
  webRoot?: string;
}

export interface RunningService {
  config: Config;
  logger: Logger;
  orm: Orm;
  /** The API key as of now (regenerable through the API). */
  readonly apiKey: string;
  migration: number;
  temporal: TemporalGateway;
  temporalUiUrl: string | null;
  /** http://host:port of the API when the role serves it. */
  apiUrl: string | null;
  worker: RunningWorker | null;
  stop(): Promise<void>;
}

/** Starts arrgo in one of its roles: all (API + worker + embedded Temporal when needed), api, worker. */
export async function startService(options: ServiceOptions): Promise<RunningService> {
  const { config, role } = options;
  const announce = options.announce ?? ((line: string) => process.stdout.write(line + '\n'));
  fs.mkdirSync(config.dataDir, { recursive: true });
  const secrets = loadOrCreateSecrets(config.dataDir, { apiKey: config.apiKey, secret: config.secret });
  secretScrubber.add(secrets.apiKey);
  secretScrubber.add(secrets.secret);
  const apiKeys = new ApiKeyStore(secrets.apiKey, secrets.apiKeySource, apiKeyFile(config.dataDir));
  const logger = createLogger({
    level: config.logLevel,
    logsDir: path.join(config.dataDir, 'logs'),
    retentionFiles: config.logRetentionFiles,
    stdout: options.stdoutLogs,
    extra: options.logDestinations,
  });
  const cleanups: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    for (const cleanup of cleanups.reverse()) {
      await cleanup().catch((error) => logFailure(logger, 'warn', {}, error, 'shutdown step failed'));
    }
    cleanups.length = 0;
  };
  try {
    const orm = await initOrm(config.database, logger, { poolMax: config.databasePoolMax });
    cleanups.push(() => orm.close(true));
    const migration = await migrate(orm);
    const secretBox = new SecretBox(secrets.secret);
    await sealUrlCredentials(orm.em.fork(), secretBox, logger);
    logger.info({ driver: config.database.kind, migration }, 'application database ready');

    let address = config.temporal.address;
    let devServer: DevServer | null = null;
    if (!address) {
      if (role !== 'all') throw new Error(`TEMPORAL_ADDRESS is required when running --role ${role}`);
      devServer = await startDevServer({
        port: config.temporal.devServerPort,
        uiPort: config.temporal.devServerUiPort,
        uiIp: config.temporal.devServerUiBindAddress,
        dbFile: path.join(config.dataDir, 'temporal.db'),
        logFile: path.join(config.dataDir, 'logs', 'temporal-dev-server.log'),
        pidFile: path.join(config.dataDir, 'temporal-dev-server.pid'),
        namespaces: [config.temporal.namespace],
        logger,
      });
      const server = devServer;
      cleanups.push(() => server.stop());
      address = devServer.address;
    }
    const temporal = connectTemporal(address, config.temporal.namespace, config.temporal.taskQueue);
    cleanups.push(() => temporal.close());
    const pcdCaches = new PcdCacheManager(orm, logger.child({ component: 'pcd-cache' }));
    cleanups.push(async () => pcdCaches.closeAll());
    const outbox = new OutboxRelay({ orm, temporal, config, logger: logger.child({ component: 'outbox' }) });
    outbox.start();
    cleanups.push(() => outbox.stop());

    let worker: RunningWorker | null = null;
    if (role !== 'api') {
      installTemporalRuntimeLogging(logger);
      worker = await startWorker({
        address,
        namespace: config.temporal.namespace,
        taskQueue: config.temporal.taskQueue,
        deps: { config, orm, secretBox, logger: logger.child({ component: 'activity' }), pcdCaches, outbox, temporalUiUrl: config.temporal.uiUrl ?? devServer?.uiUrl ?? null },
        workflowBundlePath: options.workflowBundlePath,
        maxConcurrentActivityTaskExecutions: config.workerMaxConcurrentActivities,
      });
      const running = worker;
      if (role === 'all') {
        // API and worker share the process: starts hand their first workflow task to this worker.
        temporal.localWorkerClient = new Client({ connection: running.connection, namespace: config.temporal.namespace });
        void running.done.catch(() => undefined).finally(() => (temporal.localWorkerClient = undefined));
      }
      cleanups.push(async () => {
        temporal.localWorkerClient = undefined;
        await running.shutdown();
      });
      const stopHeartbeat = startWorkerHeartbeat(config.dataDir, worker.worker);
      cleanups.push(async () => stopHeartbeat());
      worker.done.catch((error) => logFailure(logger, 'error', {}, error, 'worker stopped with an error'));
      await ensureBackupSchedule(temporal, config.backup);
      if (config.backup.enabled && summarizeBackups(backupsDir(config.dataDir)).count === 0) {
        // A fresh install gets its first backup now rather than one interval later.
        await temporal.client.schedule.getHandle(deploymentScopedId(config.temporal.taskQueue, 'backup')).trigger();
      }
      await applyHistoryRetentionSchedule(temporal, (await readHistorySettings(orm.em.fork())).enabled);
      await applyDriftSchedule(temporal, await readDriftSettings(orm.em.fork()));
      await ensureHealthSchedule(temporal, config.health.snapshotIntervalMinutes);
      await applyRefGuideSchedule(temporal, await readRefGuideSettings(orm.em.fork()));
      if (role === 'worker' && config.metrics.workerPort > 0) {
        const metricsServer = await serveMetrics(config.metrics.workerPort, config.bindAddress, secrets.apiKey, config.metrics.public);
        cleanups.push(() => closeServer(metricsServer));
        logger.info({ port: config.metrics.workerPort }, 'worker metrics served on /metrics');
      }
      logger.info({ taskQueue: config.temporal.taskQueue }, 'worker polling');
    }

    let apiUrl: string | null = null;
    if (role !== 'worker') {
      const withdrawGauges = addFleetGaugeSource(() => readFleetGauges(orm.em.fork()));
      cleanups.push(async () => withdrawGauges());
      const stopWarming = pcdCaches.startWarming();
      cleanups.push(async () => stopWarming());
      const healthRecomputer = new HealthRecomputer(pcdCaches, config.health.recomputeMinIntervalSeconds * 1000);
      const evaluation = new EvaluationService(pcdCaches, logger.child({ component: 'evaluation' }));
      cleanups.push(() => evaluation.close());
      const stopEvaluationWarming = pcdCaches.onStateBuilt((cache) => evaluation.warm(cache));
      cleanups.push(async () => stopEvaluationWarming());
      const auth = new AuthService({ orm, apiKeys, logger: logger.child({ component: 'auth' }), sessionTtlHours: config.sessionTtlHours });
      const app = createApp(
        { config, logger, orm, secretBox, temporal, pcdCaches, outbox, temporalUiUrl: config.temporal.uiUrl ?? devServer?.uiUrl ?? null, healthRecomputer, evaluation, apiKeys, auth, startedAt: new Date(), version: APP_VERSION },
        { extraRoutes: options.extraApiRoutes, webRoot: options.webRoot },
      );
      const server = await listen(app, config.port, config.bindAddress);
      cleanups.push(() => closeServer(server));
      const port = (server.address() as { port: number }).port;
      apiUrl = `http://${browsableHost(config.bindAddress)}:${port}`;
    }

    if (secrets.apiKeyGenerated) {
      announce(`arrgo generated an API key and stored it in ${path.join(config.dataDir, 'api-key')}: ${secrets.apiKey}`);
    }
    return {
      config,
      logger,
      orm,
      get apiKey() {
        return apiKeys.current;
      },
      migration,
      temporal,
      temporalUiUrl: config.temporal.uiUrl ?? devServer?.uiUrl ?? null,
      apiUrl,
      worker,
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/**
 * Idle keep-alive connections stay open longer than reverse proxies (nginx, Traefik) and HTTP clients keep
 * them for reuse (60 s and less): a server that closes first races a request sent on the closing socket,
 * which the client sees as a reset (and a proxy as a 502).
 */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/** What Node's HTTP parser refuses never reaches Express: it is answered here, as JSON `{error}` too. */
function answerMalformedRequest(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, message] = error.code === 'HPE_HEADER_OVERFLOW' ? ['431 Request Header Fields Too Large', 'Request headers too large'] : ['400 Bad Request', 'Malformed HTTP request'];
  const body = JSON.stringify({ error: message });
  socket.end(`HTTP/1.1 ${status}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

function listen(app: ReturnType<typeof createApp>, port: number, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host);
    server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
    server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1000;
    server.on('clientError', answerMalformedRequest);
    server.once('listening', () => resolve(server));
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(new Error(error.code === 'EADDRINUSE' ? `Port ${port} is already in use (set PORT to another port)` : `Cannot listen on port ${port}`)),
    );
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), 5000).unref();
  });
}
