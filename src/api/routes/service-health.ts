import { serviceHealthReport } from '../../services/service-health/service-health';
import type { ApiDeps } from '../deps';
import type { ApiRouter } from '../http/route';
import { AppError } from '../../errors';
import { ErrorBody, booleanQuery, z } from '../http/zod';

const Status = z.enum(['healthy', 'degraded', 'unhealthy']);
const date = z.string().nullable();

const HealthSchema = z
  .object({
    status: Status.openapi({ description: 'healthy = all components normal; degraded = core works but a component has issues; unhealthy = core broken' }),
    timestamp: z.string().datetime(),
    version: z.string(),
    uptime: z.number().int().openapi({ description: 'Seconds since start' }),
    components: z.object({
      sqlite: z
        .object({
          status: Status,
          responseTimeMs: z.number(),
          migration: z.number().int(),
          message: z.string().optional(),
          driver: z.enum(['sqlite', 'postgresql']).optional().openapi({ description: 'verbose only: the application database driver' }),
        })
        .openapi({ description: 'The application database (key kept as in the contract whatever the driver)' }),
      repos: z.object({
        status: Status,
        message: z.string(),
        total: z.number().int().optional(),
        enabled: z.number().int().optional(),
        cached: z.number().int().optional(),
        disabled: z.number().int().optional(),
      }),
      jobs: z.object({ status: Status, message: z.string(), lastRun: z.record(date).optional() }),
      outbox: z
        .object({
          status: Status,
          message: z.string(),
          backlog: z.number().int().min(0).openapi({ description: 'Effects of committed changes not yet handed to Temporal (notification events, drift checks after edits, the first pull of a linked database, the first sync of a new reference-guide source)' }),
          oldestAgeSeconds: z.number().int().min(0).openapi({ description: 'How long the oldest of them has waited (0 when none waits)' }),
        })
        .openapi({ description: 'The transactional outbox: degraded when its oldest entry has waited 60 s or more (Temporal is not taking them; nothing is lost, they are published once it answers)' }),
      backups: z.object({
        status: Status,
        enabled: z.boolean(),
        message: z.string(),
        lastBackup: date.optional(),
        count: z.number().int().optional(),
        totalSize: z.string().optional(),
        retentionDays: z.number().int().optional(),
      }),
      logs: z.object({
        status: Status,
        message: z.string(),
        totalSize: z.string().optional(),
        fileCount: z.number().int().optional(),
        oldestLog: date.optional(),
        newestLog: date.optional(),
      }),
    }),
    temporalUi: z
      .string()
      .nullable()
      .optional()
      .openapi({ description: "verbose only: the Temporal Web UI's list of arrgo's workflows (TEMPORAL_UI_URL, or the embedded dev server's UI); null when its address is unknown" }),
  })
  .openapi('Health');

export function registerServiceHealthRoutes(router: ApiRouter, deps: ApiDeps): void {
  router.add({
    method: 'get',
    path: '/health',
    operationId: 'getHealth',
    summary: 'Service health: this arrgo process and what it runs on (no API key needed; verbose detail needs the key); the apps\' config health is under /config-health',
    description:
      'The plain report is public. verbose=true adds backup, log, schedule and driver detail and the Temporal Web UI link, and needs the API key or a session (401 without it). ' +
      'jobs is degraded when no worker polls the task queue or when the last run of a scheduled job (backup, drift poll, health snapshots, sync-history retention) failed. ' +
      'outbox reports the effects of committed changes waiting for Temporal (its backlog and oldest age), also while Temporal is down.',
    tags: ['System'],
    public: true,
    query: z.object({ verbose: booleanQuery.optional().openapi({ description: 'Add detail (needs the API key)' }) }),
    responses: {
      200: { description: 'Health report (status is in the body, also when degraded or unhealthy)', schema: HealthSchema },
      401: { description: 'verbose=true without a valid API key', schema: ErrorBody },
    },
    handler: async ({ query, req }) => {
      if (query.verbose && !req.authenticated) throw new AppError('unauthorized', 'API key required for verbose health detail: send it in the X-Api-Key header');
      return { body: await serviceHealthReport(deps, query.verbose ?? false) };
    },
  });
}
