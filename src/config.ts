import net from 'node:net';
import path from 'node:path';
import { z } from 'zod';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const booleanFlag = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
    .optional()
    .transform((v) => (v === undefined ? fallback : ['true', '1', 'yes'].includes(v)));

const integerIn = (min: number, max: number, fallback: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return fallback;
      if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: `must be an integer between ${min} and ${max}` });
        return z.NEVER;
      }
      return Number(v);
    });

/** Longest URL_BASE accepted. */
const URL_BASE_MAX = 100;

const envSchema = z.object({
  PORT: integerIn(0, 65535, 7979),
  BIND_ADDRESS: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .optional()
    .refine((v) => v === undefined || v === '' || /^postgres(ql)?:\/\/.+/.test(v), {
      message: 'must be a postgres:// or postgresql:// URL (leave it unset for the embedded SQLite database)',
    }),
  TEMPORAL_ADDRESS: z
    .string()
    .optional()
    .refine((v) => v === undefined || v === '' || /^[A-Za-z0-9.\-_\[\]:]+:\d+$/.test(v), {
      message: 'must be host:port (leave it unset to run the embedded Temporal dev server)',
    }),
  TEMPORAL_NAMESPACE: z.string().regex(/^[A-Za-z0-9._-]{1,255}$/, 'must be a Temporal namespace name').default('default'),
  TEMPORAL_TASK_QUEUE: z.string().regex(/^[A-Za-z0-9._-]{1,200}$/, 'must be a task queue name').default('arrgo'),
  TEMPORAL_PORT: integerIn(1, 65535, 7233),
  TEMPORAL_UI_PORT: integerIn(1, 65535, 8233),
  TEMPORAL_UI_BIND_ADDRESS: z
    .string()
    .optional()
    .refine((v) => v === undefined || v === '' || net.isIP(v) !== 0, { message: 'must be an IPv4 or IPv6 address (the interface the embedded Temporal Web UI listens on)' })
    .transform((v) => v || '127.0.0.1'),
  TEMPORAL_UI_URL: z
    .string()
    .max(500)
    .optional()
    .refine((v) => v === undefined || v === '' || /^https?:\/\/[^\s]+$/.test(v), { message: 'must be an http:// or https:// URL of the Temporal Web UI' }),
  ARRGO_API_KEY: z
    .string()
    .optional()
    .refine((v) => v === undefined || v === '' || /^[A-Za-z0-9._~-]{16,128}$/.test(v), {
      message: 'must be 16 to 128 characters of letters, digits, ".", "_", "~" or "-"',
    }),
  ARRGO_SECRET: z
    .string()
    .optional()
    .refine((v) => v === undefined || v === '' || v.length >= 32, { message: 'must be at least 32 characters' }),
  LOG_LEVEL: z.enum(LOG_LEVELS, { message: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  LOG_RETENTION_FILES: integerIn(1, 365, 14),
  BACKUP_ENABLED: booleanFlag(true),
  BACKUP_INTERVAL_HOURS: integerIn(1, 24 * 30, 24),
  BACKUP_RETENTION_DAYS: integerIn(1, 3650, 14),
  PREVIEW_TTL_MINUTES: integerIn(1, 7 * 24 * 60, 30),
  SYNC_HEARTBEAT_TIMEOUT_SECONDS: integerIn(2, 3600, 30),
  SYNC_RETRY_INITIAL_INTERVAL_MS: integerIn(10, 600_000, 2000),
  SYNC_RETRY_MAX_ATTEMPTS: integerIn(1, 100, 6),
  HEALTH_SNAPSHOT_INTERVAL_MINUTES: integerIn(5, 7 * 24 * 60, 360),
  HEALTH_RECOMPUTE_MIN_INTERVAL_SECONDS: integerIn(0, 3600, 10),
  HEALTH_RETENTION_DAYS: integerIn(1, 3650, 365),
  APP_REQUEST_TIMEOUT_MS: integerIn(100, 600_000, 15_000),
  READ_VIEW_CACHE_MB: integerIn(0, 4096, 64),
  PCD_SCHEMA_FETCH: z.enum(['auto', 'off'], { message: 'must be auto or off' }).default('auto'),
  ARRGO_PUBLIC_URL: z
    .string()
    .max(500)
    .optional()
    .refine((v) => v === undefined || v === '' || /^https?:\/\/[^\s]+$/.test(v), { message: 'must be the http:// or https:// URL users reach arrgo at' }),
  NOTIFY_REQUEST_TIMEOUT_MS: integerIn(100, 120_000, 10_000),
  NOTIFY_RETRY_INITIAL_INTERVAL_MS: integerIn(10, 600_000, 5000),
  NOTIFY_RETRY_MAX_ATTEMPTS: integerIn(1, 50, 8),
  NOTIFY_DRIFT_WINDOW_MINUTES: integerIn(0, 24 * 60, 30),
  NOTIFY_GATE_WAIT_MINUTES: integerIn(0, 7 * 24 * 60, 60),
  DRIFT_CHECK_AFTER_EDIT: booleanFlag(true),
  CANARY_PRECHECK_WAIT_MS: integerIn(0, 120_000, 30_000),
  METRICS_PUBLIC: booleanFlag(false),
  METRICS_PORT: integerIn(0, 65535, 0),
  WORKER_MAX_CONCURRENT_ACTIVITIES: integerIn(1, 1000, 50),
  DATABASE_POOL_MAX: integerIn(1, 200, 10),
  URL_BASE: z
    .string()
    .max(URL_BASE_MAX, `must be at most ${URL_BASE_MAX} characters`)
    .optional()
    .refine((v) => v === undefined || v === '' || (/^(\/[A-Za-z0-9._~-]+)+$/.test(v) && !/\/\.{1,2}(\/|$)/.test(v)), {
      message: 'must be a path such as /arrgo: starting with "/", not ending with "/", of letters, digits, ".", "_", "~" and "-" (leave it unset to serve at /)',
    })
    .transform((v) => v ?? ''),
  SESSION_TTL_HOURS: integerIn(1, 24 * 366, 168),
  TRUST_PROXY: booleanFlag(false),
});


export type Role = 'all' | 'api' | 'worker';

export interface Config {
  port: number;
  bindAddress: string;
  dataDir: string;
  database: { kind: 'sqlite'; file: string } | { kind: 'postgresql'; url: string };
  temporal: {
    /** null: run the embedded dev server. */
    address: string | null;
    namespace: string;
    taskQueue: string;
    devServerPort: number;
    devServerUiPort: number;
    /** Interface of the embedded dev server's Web UI: loopback by default, the UI has no authentication. */
    devServerUiBindAddress: string;
    /** Temporal Web UI base URL for deep links (the embedded dev server's when unset). */
    uiUrl: string | null;
  };
  apiKey: string | undefined;
  secret: string | undefined;
  logLevel: (typeof LOG_LEVELS)[number];
  logRetentionFiles: number;
  backup: { enabled: boolean; intervalHours: number; retentionDays: number };
  previewTtlMinutes: number;
  /** An apply attempt silent for this long is retried by another worker (resuming where it got to). */
  syncHeartbeatTimeoutSeconds: number;
  /** Apply retries for timeouts and 5xx: first interval (doubling) and attempts. */
  syncRetry: { initialIntervalMs: number; maximumAttempts: number };
  health: { snapshotIntervalMinutes: number; recomputeMinIntervalSeconds: number; retentionDays: number };
  appRequestTimeoutMs: number;
  /** Bound of the memo of serialized PCD read views (bytes of bodies; 0: no memo). */
  readViewCacheBytes: number;
  /** auto: fetch a PCD manifest's schema dependency from its URL; off: never (the bundled schema stands in). */
  pcdSchemaFetch: 'auto' | 'off';
  /** Base URL users reach arrgo at, for absolute links in notifications (null: API paths only); includes urlBase. */
  publicUrl: string | null;
  /** Path everything is served under (`/arrgo` behind a reverse proxy; '' at the root). */
  urlBase: string;
  /** How long a console sign-in lasts, from login. */
  sessionTtlHours: number;
  /** Behind one reverse proxy: take the client's protocol (Secure cookies) and address (login throttling) from its X-Forwarded-* headers. */
  trustProxy: boolean;
  notifications: {
    requestTimeoutMs: number;
    /** Retries of timeouts, 408, 429 and 5xx: first interval (doubling) and attempts. */
    retry: { initialIntervalMs: number; maximumAttempts: number };
    /** Flood guard: repeated drift of one instance within this window is coalesced (0: off). */
    driftWindowMinutes: number;
    /** A rollout notifies once it has waited at the gate this long (0: on arrival). */
    gateWaitMinutes: number;
  };
  /** An edit of a database's desired configuration queues a drift check of the instances that sync from it. */
  driftCheckAfterEdit: boolean;
  /** How long a rollout's start waits for its pre-check before starting without it. */
  canaryPrecheckWaitMs: number;
  /** GET /metrics without the API key; a worker-only process serves /metrics on workerPort (0: not served). */
  metrics: { public: boolean; workerPort: number };
  /** Activities one worker process runs at once (local activities have their own, equal limit). */
  workerMaxConcurrentActivities: number;
  /** PostgreSQL connections per process (SQLite always has one connection: one writer). */
  databasePoolMax: number;
}

export class ConfigError extends Error {}

/** Parses the environment; throws ConfigError with one line naming the first bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue.path[0]);
    const shown = env[name] === undefined ? '' : ` (got ${JSON.stringify(redactIfSecret(name, env[name]!))})`;
    throw new ConfigError(`Invalid configuration: ${name} ${issue.message}${shown}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  const publicUrl = e.ARRGO_PUBLIC_URL ? e.ARRGO_PUBLIC_URL.replace(/\/+$/, '') : null;
  if (publicUrl !== null) checkPublicUrlPath(publicUrl, e.URL_BASE);
  return {
    port: e.PORT,
    bindAddress: e.BIND_ADDRESS,
    dataDir,
    database: e.DATABASE_URL
      ? { kind: 'postgresql', url: e.DATABASE_URL }
      : { kind: 'sqlite', file: path.join(dataDir, 'arrgo.sqlite') },
    temporal: {
      address: e.TEMPORAL_ADDRESS || null,
      namespace: e.TEMPORAL_NAMESPACE,
      taskQueue: e.TEMPORAL_TASK_QUEUE,
      devServerPort: e.TEMPORAL_PORT,
      devServerUiPort: e.TEMPORAL_UI_PORT,
      devServerUiBindAddress: e.TEMPORAL_UI_BIND_ADDRESS,
      uiUrl: e.TEMPORAL_UI_URL || null,
    },
    apiKey: e.ARRGO_API_KEY || undefined,
    secret: e.ARRGO_SECRET || undefined,
    logLevel: e.LOG_LEVEL,
    logRetentionFiles: e.LOG_RETENTION_FILES,
    backup: { enabled: e.BACKUP_ENABLED, intervalHours: e.BACKUP_INTERVAL_HOURS, retentionDays: e.BACKUP_RETENTION_DAYS },
    previewTtlMinutes: e.PREVIEW_TTL_MINUTES,
    syncHeartbeatTimeoutSeconds: e.SYNC_HEARTBEAT_TIMEOUT_SECONDS,
    syncRetry: { initialIntervalMs: e.SYNC_RETRY_INITIAL_INTERVAL_MS, maximumAttempts: e.SYNC_RETRY_MAX_ATTEMPTS },
    health: {
      snapshotIntervalMinutes: e.HEALTH_SNAPSHOT_INTERVAL_MINUTES,
      recomputeMinIntervalSeconds: e.HEALTH_RECOMPUTE_MIN_INTERVAL_SECONDS,
      retentionDays: e.HEALTH_RETENTION_DAYS,
    },
    appRequestTimeoutMs: e.APP_REQUEST_TIMEOUT_MS,
    readViewCacheBytes: e.READ_VIEW_CACHE_MB * 1024 * 1024,
    pcdSchemaFetch: e.PCD_SCHEMA_FETCH,
    publicUrl,
    urlBase: e.URL_BASE,
    sessionTtlHours: e.SESSION_TTL_HOURS,
    trustProxy: e.TRUST_PROXY,
    notifications: {
      requestTimeoutMs: e.NOTIFY_REQUEST_TIMEOUT_MS,
      retry: { initialIntervalMs: e.NOTIFY_RETRY_INITIAL_INTERVAL_MS, maximumAttempts: e.NOTIFY_RETRY_MAX_ATTEMPTS },
      driftWindowMinutes: e.NOTIFY_DRIFT_WINDOW_MINUTES,
      gateWaitMinutes: e.NOTIFY_GATE_WAIT_MINUTES,
    },
    driftCheckAfterEdit: e.DRIFT_CHECK_AFTER_EDIT,
    canaryPrecheckWaitMs: e.CANARY_PRECHECK_WAIT_MS,
    metrics: { public: e.METRICS_PUBLIC, workerPort: e.METRICS_PORT },
    workerMaxConcurrentActivities: e.WORKER_MAX_CONCURRENT_ACTIVITIES,
    databasePoolMax: e.DATABASE_POOL_MAX,
  };
}

/** Links built from ARRGO_PUBLIC_URL must reach the paths arrgo serves, so its path ends with URL_BASE. */
function checkPublicUrlPath(publicUrl: string, urlBase: string): void {
  let pathname: string;
  try {
    pathname = new URL(publicUrl).pathname.replace(/\/+$/, '');
  } catch {
    throw new ConfigError('Invalid configuration: ARRGO_PUBLIC_URL must be the http:// or https:// URL users reach arrgo at');
  }
  if (!pathname.endsWith(urlBase)) {
    throw new ConfigError(
      `Invalid configuration: ARRGO_PUBLIC_URL must end with URL_BASE (${urlBase}): links are built from it, so its path (${pathname || '/'}) must be the one arrgo is served under`,
    );
  }
}

function redactIfSecret(name: string, value: string): string {
  return /KEY|SECRET|URL/.test(name) ? '[redacted]' : value;
}
