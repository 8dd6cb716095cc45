import type { Response } from 'express';
import { AppError, isAppError } from '../../errors';
import { CRITERION_IDS, HEALTH_BANDS } from '../../domain/health/types';
import { POINT_STATES } from '../../domain/health/trends';
import { ConfigHealthService } from '../../services/config-health/config-health-service';
import type { ApiDeps } from '../deps';
import type { ApiRouter } from '../http/route';
import { idParam, text, z } from '../http/zod';
import { ArrTypeSchema } from '../schemas/common';

const tags = ['Config health'];
const Params = z.object({ instanceId: idParam() });
const TREND_PARAMETERS = ['from', 'to', 'days', 'profile', 'format'];

const Suggestion = z.object({ headline: z.string(), detail: z.array(z.string()), tone: z.enum(['neutral', 'info', 'warning', 'danger']), templateVersion: z.string() });
const Criterion = z.object({
  id: z.enum(['completeness', 'drift', 'coherence', 'compatibility', 'ref_alignment']),
  label: z.string(),
  score: z.number().int().max(100).nullable(),
  weight: z.number().int(),
  contribution: z.number().int(),
  detail: z.array(z.string()),
  suggestions: z.array(Suggestion),
});
const ScoredUnit = z.object({ score: z.number().int().max(100), band: z.enum(['healthy', 'attention', 'needs-review', 'unknown']), criteria: z.array(Criterion), suggestions: z.array(Suggestion) });
const HealthResultSchema = z
  .object({
    instanceId: z.number().int(),
    instanceName: z.string(),
    arrType: ArrTypeSchema,
    engineVersion: z.string(),
    generatedAt: z.string(),
    overall: ScoredUnit,
    profiles: z.array(ScoredUnit.extend({ name: z.string() })),
  })
  .openapi('HealthResult');
const TrendPointSchema = z.object({
  snapshotId: z.number().int(),
  generatedAt: z.string().datetime(),
  engineVersion: z.string(),
  state: z.enum(POINT_STATES).openapi({ description: 'measured; unknown (every criterion skipped); profile-missing (the profile was not in that snapshot); not-recorded (no evidence stored)' }),
  band: z.enum(HEALTH_BANDS).openapi({ description: 'unknown unless measured' }),
  score: z.number().int().max(100).nullable().openapi({ description: 'null unless measured (a measured 0 stays 0)' }),
  criteria: z
    .array(
      z.object({
        id: z.enum(CRITERION_IDS),
        state: z.enum(['measured', 'skipped', 'disabled']),
        score: z.number().int().nullable(),
        weight: z.number().int().nullable(),
        contribution: z.number().int().nullable(),
      }),
    )
    .openapi({ description: 'Overall criterion observations; empty for a profile scope and for profile-missing and not-recorded points' }),
});
const HealthTrendSchema = z
  .object({
    instance: z.object({ instanceId: z.number().int(), instanceName: z.string(), arrType: ArrTypeSchema }),
    filter: z.object({
      from: z.string().datetime().nullable().openapi({ description: 'null: unbounded' }),
      to: z.string().datetime().openapi({ description: 'The given to, or the request time captured once' }),
      days: z.number().int().nullable(),
      profile: z.string().nullable(),
    }),
    retention: z.object({
      policy: z.object({ retentionDays: z.number().int(), snapshotIntervalMinutes: z.number().int() }),
      availability: z.object({ oldestSnapshotAt: z.string().datetime().nullable(), newestSnapshotAt: z.string().datetime().nullable(), totalSnapshots: z.number().int() }),
    }),
    profileNames: z.array(z.string()).openapi({ description: 'Exact profile names seen in the selected snapshots, in a deterministic order' }),
    counts: z.object({ points: z.number().int(), measured: z.number().int(), unknown: z.number().int(), profileMissing: z.number().int(), notRecorded: z.number().int() }),
    engineVersionRuns: z.array(z.object({ engineVersion: z.string(), fromSnapshotId: z.number().int(), fromGeneratedAt: z.string().datetime() })),
    points: z.array(TrendPointSchema).openapi({ description: 'generatedAt ascending, then snapshotId ascending' }),
  })
  .openapi('HealthTrend');
const TrendQuery = z
  .object({
    from: text({ max: 64, trim: false }).optional().openapi({ description: 'ISO 8601 date-time with a zone; inclusive lower bound on generatedAt' }),
    to: text({ max: 64, trim: false }).optional().openapi({ description: 'ISO 8601 date-time with a zone; inclusive upper bound (default: now, captured once)' }),
    days: text({ max: 12, trim: false }).optional().openapi({ description: 'A relative UTC window of this many days ending now (1..3650); not combinable with from or to' }),
    profile: text({ max: 200, trim: false }).optional().openapi({ description: 'An exact quality profile name (no trimming or case folding): that profile\'s scores instead of the overall ones' }),
  });

export function registerConfigHealthRoutes(router: ApiRouter, deps: ApiDeps): void {
  const health = () => new ConfigHealthService(deps);

  router.add({
    method: 'post',
    path: '/config-health/{instanceId}/recompute',
    operationId: 'recomputeConfigHealth',
    summary: 'Recompute and persist the health of one instance (same scoring and snapshot code as the scheduled run; no app I/O)',
    description: 'One computation in flight per instance in this API process (409) and rate-limited per instance across every API process (429 with Retry-After, HEALTH_RECOMPUTE_MIN_INTERVAL_SECONDS). A degraded or unreachable instance returns 200 with band unknown.',
    tags,
    params: Params,
    responses: {
      200: { description: 'The health result', schema: HealthResultSchema },
      404: { description: 'Instance not found or not sync-capable' },
      409: { description: 'A recompute is already in progress for the instance' },
      429: { description: 'Recompute rate-limited for the instance (Retry-After)' },
    },
    handler: async ({ params }) => ({ body: await health().recompute(params.instanceId) }),
  });

  router.add({
    method: 'get',
    path: '/config-health/{instanceId}',
    operationId: 'getConfigHealth',
    summary: 'The latest persisted health of one instance',
    tags,
    params: Params,
    responses: { 200: { description: 'The latest result', schema: HealthResultSchema }, 404: { description: 'No such instance, or no snapshot yet' } },
    handler: async ({ params }) => ({ body: await health().latest(params.instanceId) }),
  });

  router.add({
    method: 'get',
    path: '/config-health/{instanceId}/trends',
    operationId: 'getConfigHealthTrends',
    summary: 'Health over time: the canonical point selection as a JSON envelope (same selection as the export)',
    tags,
    params: Params,
    query: TrendQuery,
    responses: {
      200: { description: 'The trend envelope', schema: HealthTrendSchema },
      404: { description: 'Instance not found or not sync-capable' },
      413: { description: 'Over 10,000 points or over the evidence budget (nothing returned)' },
    },
    handler: async ({ params, query }) => ({ body: await inQuery(() => health().trends(params.instanceId, query)) }),
  });

  router.add({
    method: 'get',
    path: '/config-health/{instanceId}/trends/export',
    operationId: 'exportConfigHealthTrends',
    summary: 'Download the trend selection as a JSON envelope or CSV (one row per point, criteria as a JSON cell)',
    description:
      'Headers: Content-Disposition attachment with an ASCII filename from the instance id and server time, Cache-Control: no-store, X-Content-Type-Options: nosniff. Over 10,000 points the export is refused whole (413), never truncated; an empty selection is 200 with an empty points array or a header-only CSV.',
    tags,
    params: Params,
    query: TrendQuery.extend({ format: text({ max: 10, trim: false }).optional().openapi({ description: 'json (default) or csv' }) }),
    responses: {
      200: { description: 'The attachment', contentType: 'text/csv', schema: z.string() },
      404: { description: 'Instance not found or not sync-capable' },
      413: { description: 'Over 10,000 points or over the evidence budget (no partial attachment)' },
    },
    handler: async ({ params, query, res }) => {
      send(res, await inQuery(() => health().exportTrends(params.instanceId, query)));
    },
  });
}

function send(res: Response, rendered: { body: string; headers: Record<string, string> }): void {
  for (const [name, value] of Object.entries(rendered.headers)) res.setHeader(name, value);
  res.status(200).send(rendered.body);
}

/** Domain validation messages name the parameter first ("days must be ..."): place them in the query. */
async function inQuery<T>(fn: () => T | Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (isAppError(error) && error.kind === 'validation') {
      const first = error.publicMessage.split(/[ :]/)[0];
      if (TREND_PARAMETERS.includes(first)) throw new AppError('validation', `Invalid request: query.${error.publicMessage.replace(/^(\w+):? /, '$1 ')}`);
    }
    throw error;
  }
}
