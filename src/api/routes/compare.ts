import type { ApiDeps } from '../deps';
import type { ApiRouter } from '../http/route';
import { INT32_MAX, booleanQuery, idParam, text, z } from '../http/zod';
import { FieldChangeSchema, ResolvedEntityTypeSchema } from '../schemas/pcd';
import { ArrTypeSchema } from '../schemas/common';
import {
  COMPARE_MAX_INSTANCES,
  COMPARE_REQUESTS_PER_WINDOW,
  COMPARE_WINDOW_SECONDS,
  CompareService,
  LIVE_FETCH_INTERVAL_SECONDS,
} from '../../services/compare/compare-service';
import { COMPARABLE_ENTITY_TYPES } from '../../domain/compare/entity-compare';

const instanceIdsQuery = z
  .string()
  .max(200)
  .regex(/^[0-9, ]*$/, 'must be comma-separated instance ids')
  .transform((value, ctx) => {
    const parts = value.split(',').map((p) => p.trim());
    const ids: number[] = [];
    for (const part of parts) {
      if (!/^[1-9]\d{0,9}$/.test(part) || Number(part) > INT32_MAX) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: `"${part.slice(0, 12)}" is not an instance id (comma-separated positive integers)` });
        return z.NEVER;
      }
      ids.push(Number(part));
    }
    if (ids.length > COMPARE_MAX_INSTANCES) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: `at most ${COMPARE_MAX_INSTANCES} instance ids (got ${ids.length})` });
      return z.NEVER;
    }
    const duplicate = ids.find((id, i) => ids.indexOf(id) !== i);
    if (duplicate !== undefined) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: `duplicate instance id ${duplicate}` });
      return z.NEVER;
    }
    return ids;
  })
  .openapi({ type: 'string', maxLength: 200, pattern: '^[0-9, ]*$', description: `Comma-separated instance ids, 1 to ${COMPARE_MAX_INSTANCES}, distinct and existing`, example: '1,2,3' });

const CompareInstanceSchema = z.object({
  instanceId: z.number().int(),
  instanceName: z.string(),
  arrType: ArrTypeSchema.nullable(),
  supported: z.boolean().openapi({ description: 'The app family can hold the entity (quality profile: every enabled quality maps to the app)' }),
  present: z.boolean().openapi({ description: "The instance's sync configuration selects the entity, so it is in its desired payload" }),
  desired: z.record(z.unknown()).nullable().openapi({ description: "The entity as the sync transform builds it for this instance (app payload, with the instance's namespace)" }),
  live: z.unknown().optional().openapi({ description: 'The raw app payload (includeLive only, when the fetch succeeded and the app has the entity): a custom format or quality profile is the one the instance\'s sync ledger binds (also when renamed since), else the one with the desired name' }),
  error: z
    .string()
    .optional()
    .openapi({ description: 'Sanitized reason: incompatible, not_configured, rate-limited (live fetch), or the drift reasons unreachable, timeout, unauthorized, invalid_response, app_mismatch (the app at the instance\'s URL is of another app type: nothing was read), rate_limited, error' }),
});

const CompareResponseSchema = z
  .object({
    databaseId: z.number().int(),
    entityType: z.enum(COMPARABLE_ENTITY_TYPES).openapi('ComparableEntityType'),
    name: z.string(),
    instances: z.array(CompareInstanceSchema),
    baselineInstanceId: z.number().int().nullable().openapi({ description: 'The instance the others are diffed against: the first (in request order) that has the entity; null when none has it' }),
    diffs: z.array(
      z.object({
        instanceId: z.number().int(),
        changes: z
          .array(
            z.object({
              entityType: z.string().openapi({ description: 'The sync entity type (as in a sync preview)' }),
              name: z.string().openapi({ description: "The entity's name on this instance (with its namespace)" }),
              action: z.enum(['update', 'unchanged']).openapi({ description: 'update: differs from the baseline' }),
              remoteId: z.null(),
              fields: z.array(FieldChangeSchema).openapi({ description: 'current: the baseline value; desired: this instance' }),
            }),
          )
          .openapi({ description: 'A SyncChange without section and category' }),
      }),
    ),
  })
  .openapi('EntityCompare');

export function registerCompareRoutes(router: ApiRouter, deps: ApiDeps): void {
  const service = CompareService.of(deps);
  router.add({
    method: 'get',
    path: '/pcd/{databaseId}/resolved/{entityType}/{name}/compare',
    operationId: 'compareResolvedEntity',
    summary: 'One entity as the sync would write it to each instance (optionally with the live payload), diffed against the first compatible instance',
    description:
      `Comparable entity types: ${COMPARABLE_ENTITY_TYPES.join(', ')}. The app reads run in a short workflow (compareEntityWorkflow); per-instance failures are inline. ` +
      `At most ${COMPARE_REQUESTS_PER_WINDOW} compare requests per ${COMPARE_WINDOW_SECONDS} s (429 with Retry-After); one live fetch per instance per ${LIVE_FETCH_INTERVAL_SECONDS} s (a second answers error rate-limited for that instance). Both limits count in the database, across every API process.`,
    tags: ['PCD'],
    params: z.object({ databaseId: idParam(), entityType: ResolvedEntityTypeSchema, name: text({ min: 1, max: 200, trim: false }) }),
    query: z.object({ instanceIds: instanceIdsQuery, includeLive: booleanQuery.optional().openapi({ description: 'Default false' }) }),
    responses: {
      200: { description: 'Per-instance payloads and the diffs against the baseline', schema: CompareResponseSchema },
      404: { description: 'No such database or entity' },
      429: { description: 'Compare requests rate-limited (Retry-After)' },
    },
    handler: async ({ params, query }) => ({
      body: await service.compare({ ...params, instanceIds: query.instanceIds, includeLive: query.includeLive ?? false }),
    }),
  });
}
