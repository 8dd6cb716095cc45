import http from 'node:http';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { constantTimeMatcher } from './crypto';

/**
 * The process's Prometheus registry and every metric arrgo exports. Labels are bounded sets
 * (route templates, statuses, triggers, activity types, channel kinds): never an id, a name, a URL
 * or a secret. Counters and histograms count what this process did; gauges of the fleet are read
 * from the application database at scrape time (`setFleetGaugeSource`).
 */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry, prefix: 'arrgo_' });

const registers = [metricsRegistry];
const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const LONG_SECONDS = [0.1, 0.5, 1, 2, 5, 10, 30, 60, 120, 300, 600, 1800];

export const httpRequestDuration = new Histogram({
  name: 'arrgo_http_request_duration_seconds',
  help: 'API request duration by method, route template and status code.',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: SECONDS,
  registers,
});

export const syncRunsTotal = new Counter({
  name: 'arrgo_sync_runs_total',
  help: 'Finished sync runs by status (success, partial, failed) and trigger.',
  labelNames: ['status', 'trigger'] as const,
  registers,
});

export const syncApplyDuration = new Histogram({
  name: 'arrgo_sync_apply_duration_seconds',
  help: 'Duration of sync applies, from the run record to its finish, by status.',
  labelNames: ['status'] as const,
  buckets: LONG_SECONDS,
  registers,
});

export const pcdCacheBuildsTotal = new Counter({
  name: 'arrgo_pcd_cache_builds_total',
  help: 'PCD cache builds by layer (base: schema, base and tweak ops; user: the user layer on a copy) and result.',
  labelNames: ['layer', 'result'] as const,
  registers,
});

export const pcdCacheBuildDuration = new Histogram({
  name: 'arrgo_pcd_cache_build_duration_seconds',
  help: 'Duration of PCD cache builds by layer.',
  labelNames: ['layer'] as const,
  buckets: LONG_SECONDS,
  registers,
});

export const evaluationStatesWarmedTotal = new Counter({
  name: 'arrgo_evaluation_states_warmed_total',
  help: 'New PCD cache states whose release-evaluation model was built and compiled in the background, by result (warmed, failed).',
  labelNames: ['result'] as const,
  registers,
});

export const notificationDeliveriesTotal = new Counter({
  name: 'arrgo_notification_deliveries_total',
  help: 'Notification delivery attempts by result (delivered, retried, rejected, failed, skipped) and channel kind.',
  labelNames: ['result', 'channel_kind'] as const,
  registers,
});

export const activityScheduleToStart = new Histogram({
  name: 'arrgo_worker_activity_schedule_to_start_seconds',
  help: 'Worker activity task latency: from scheduling (of this attempt) to the start of its execution, by activity type.',
  labelNames: ['activity'] as const,
  buckets: SECONDS,
  registers,
});

export const activityExecution = new Histogram({
  name: 'arrgo_worker_activity_execution_seconds',
  help: 'Worker activity execution time by activity type and outcome (completed, failed).',
  labelNames: ['activity', 'outcome'] as const,
  buckets: LONG_SECONDS,
  registers,
});

/** What the fleet gauges show, read at scrape time. */
export interface FleetGauges {
  instancesByDriftStatus: Record<string, number>;
  rolloutsByStatus: Record<string, number>;
  /** Seconds the longest-waiting rollout has waited at the gate (0 when none waits). */
  gateWaitMaxSeconds: number;
  /** Outbox entries waiting for Temporal, and how long the oldest has waited (0 when none waits). */
  outbox: { backlog: number; oldestAgeSeconds: number };
}

const fleetSources: (() => Promise<FleetGauges>)[] = [];
let fleetRead: Promise<FleetGauges | null> | null = null;

/**
 * The composition root says where fleet gauges come from (the API's database); the returned
 * function withdraws it. The latest source still registered answers (one per process in production).
 */
export function addFleetGaugeSource(source: () => Promise<FleetGauges>): () => void {
  fleetSources.push(source);
  return () => {
    const index = fleetSources.indexOf(source);
    if (index >= 0) fleetSources.splice(index, 1);
  };
}

/** One database read per scrape, shared by the fleet gauges' collect callbacks. */
function readFleet(): Promise<FleetGauges | null> {
  const source = fleetSources[fleetSources.length - 1];
  if (!source) return Promise.resolve(null);
  fleetRead ??= source()
    .catch(() => null)
    .finally(() => setTimeout(() => (fleetRead = null), 0));
  return fleetRead;
}

function setAll<T extends string>(gauge: Gauge<T>, label: T, values: Record<string, number>): void {
  gauge.reset();
  for (const [value, count] of Object.entries(values)) gauge.set({ [label]: value } as Record<T, string>, count);
}

new Gauge({
  name: 'arrgo_instances',
  help: 'Registered instances by drift status (never-checked when no drift check stored a result).',
  labelNames: ['drift_status'] as const,
  registers,
  async collect() {
    const fleet = await readFleet();
    if (fleet) setAll(this, 'drift_status', fleet.instancesByDriftStatus);
  },
});

new Gauge({
  name: 'arrgo_rollouts',
  help: 'Canary rollouts by status.',
  labelNames: ['status'] as const,
  registers,
  async collect() {
    const fleet = await readFleet();
    if (fleet) setAll(this, 'status', fleet.rolloutsByStatus);
  },
});

new Gauge({
  name: 'arrgo_rollout_gate_wait_seconds',
  help: 'How long the longest-waiting rollout has waited at the verification gate (0 when none waits).',
  registers,
  async collect() {
    const fleet = await readFleet();
    if (fleet) this.set(fleet.gateWaitMaxSeconds);
  },
});

new Gauge({
  name: 'arrgo_outbox_backlog',
  help: 'Outbox entries (events, drift checks after edits, first pulls and syncs) waiting to be handed to Temporal.',
  registers,
  async collect() {
    const fleet = await readFleet();
    if (fleet) this.set(fleet.outbox.backlog);
  },
});

new Gauge({
  name: 'arrgo_outbox_oldest_age_seconds',
  help: 'How long the oldest outbox entry has waited for Temporal (0 when none waits).',
  registers,
  async collect() {
    const fleet = await readFleet();
    if (fleet) this.set(fleet.outbox.oldestAgeSeconds);
  },
});

/** `GET /metrics` is open when METRICS_PUBLIC=true, otherwise it takes the API key like the API. */
export function metricsAuthorized(headers: http.IncomingHttpHeaders, matchesApiKey: (given: string) => boolean, isPublic: boolean): boolean {
  if (isPublic) return true;
  const header = headers['x-api-key'];
  const bearer = /^Bearer\s+(.+)$/i.exec(headers.authorization ?? '')?.[1];
  const given = (Array.isArray(header) ? header[0] : header) ?? bearer;
  return given !== undefined && matchesApiKey(given);
}

/**
 * A worker-only process has no API: with METRICS_PORT it serves its registry (activity latency,
 * sync runs, cache builds, deliveries) on /metrics, with the same access rule.
 */
export function serveMetrics(port: number, host: string, apiKey: string, isPublic: boolean): Promise<http.Server> {
  const matchesApiKey = constantTimeMatcher(apiKey);
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'Not found' }));
      return;
    }
    if (!metricsAuthorized(req.headers, matchesApiKey, isPublic)) {
      res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'Missing or wrong API key' }));
      return;
    }
    metricsRegistry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': metricsRegistry.contentType }).end(text),
      () => res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'Internal error' })),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
