import { DRIFT_STATUSES } from '../../domain/drift';
import { HEALTH_BANDS } from '../../domain/health/types';
import { VERIFICATION_STATUSES } from '../../domain/instance-verification';
import { FLEET_OVERVIEW_FAILURES_MAX, FLEET_OVERVIEW_GATE_MAX, FLEET_OVERVIEW_INSTANCES_MAX, readFleetOverview } from '../../services/fleet/fleet-overview';
import { SYNC_RUN_STATUSES } from '../../services/sync/history-service';
import type { ApiDeps } from '../deps';
import type { ApiRouter } from '../http/route';
import { z } from '../http/zod';
import { ArrTypeSchema } from '../schemas/common';

const workflowUrl = z.string().nullable().openapi({ description: 'The workflow in the Temporal Web UI, when its address is known (TEMPORAL_UI_URL or the embedded dev server)' });
const countsOf = <T extends string>(keys: readonly T[]) => z.object(Object.fromEntries(keys.map((k) => [k, z.number().int()])) as Record<T, z.ZodNumber>);

const FleetInstanceSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    arrType: ArrTypeSchema,
    enabled: z.boolean(),
    version: z.string().nullable().openapi({ description: 'The app version reported at the newer of the last connection test and the last drift check' }),
    verification: z.enum(VERIFICATION_STATUSES),
    drift: z.object({
      status: z.enum(DRIFT_STATUSES),
      checkedAt: z.string().datetime().nullable(),
      counts: z.object({ drifted: z.number().int(), missing: z.number().int(), unmanaged: z.number().int() }).nullable(),
    }),
    health: z
      .object({ band: z.enum(HEALTH_BANDS), score: z.number().int().nullable(), generatedAt: z.string().datetime() })
      .nullable()
      .openapi({ description: 'The newest health snapshot (GET /config-health/{instanceId} has its criteria); null before the first' }),
    lastSync: z
      .object({
        runId: z.number().int(),
        status: z.enum(SYNC_RUN_STATUSES),
        trigger: z.string(),
        startedAt: z.string().datetime(),
        finishedAt: z.string().datetime().nullable(),
        error: z.string().nullable().openapi({ description: 'Pre-authored failure text of a failed or partial run' }),
        workflowUrl,
      })
      .nullable()
      .openapi({ description: 'The newest sync run (GET /sync-history has them all); null when the instance never synced' }),
  })
  .openapi('FleetInstance');

const FleetOverviewSchema = z
  .object({
    generatedAt: z.string().datetime(),
    instancesTotal: z.number().int().openapi({ description: `Instances registered; at most ${FLEET_OVERVIEW_INSTANCES_MAX} are listed (by name)` }),
    instances: z.array(FleetInstanceSchema),
    counts: z
      .object({
        enabled: z.number().int(),
        disabled: z.number().int(),
        drift: countsOf(DRIFT_STATUSES),
        health: countsOf([...HEALTH_BANDS, 'none'] as const).openapi({ description: 'By the band of the newest snapshot; none: no snapshot yet' }),
        lastSync: countsOf([...SYNC_RUN_STATUSES, 'never'] as const).openapi({ description: 'By the status of the newest sync run; never: no run yet' }),
      })
      .openapi({ description: 'Over the listed instances' }),
    gate: z
      .array(
        z.object({
          rolloutId: z.number().int(),
          arrType: ArrTypeSchema,
          canaryInstanceId: z.number().int(),
          canaryInstanceName: z.string(),
          targetCount: z.number().int(),
          waitingSince: z.string().datetime().openapi({ description: 'When the rollout reached the gate' }),
          waitedSeconds: z.number().int(),
          workflowUrl,
        }),
      )
      .openapi({ description: `Rollouts waiting at the gate (awaiting_confirmation), the longest-waiting first; at most ${FLEET_OVERVIEW_GATE_MAX}` }),
    recentFailures: z
      .array(
        z.object({
          kind: z.enum(['sync', 'rollout']),
          id: z.number().int().openapi({ description: "The sync run's or the rollout's id" }),
          instanceId: z.number().int().nullable().openapi({ description: "The run's instance or the rollout's canary (null once deleted)" }),
          instanceName: z.string(),
          status: z.string().openapi({ description: 'failed or partial (sync runs), failed or aborted (rollouts)' }),
          code: z.string().nullable().openapi({ description: "The rollout's reason code (canary_failed, canary_partial, canary_unverified, targets_failed); null for sync runs" }),
          message: z.string().nullable().openapi({ description: 'Pre-authored text' }),
          at: z.string().datetime(),
          workflowUrl,
        }),
      )
      .openapi({
        description: `The newest failed or partial sync runs and rollouts that ended because a canary or targets failed (not an operator's abort), newest first; at most ${FLEET_OVERVIEW_FAILURES_MAX}`,
      }),
  })
  .openapi('FleetOverview');

export function registerFleetRoutes(router: ApiRouter, deps: ApiDeps): void {
  router.add({
    method: 'get',
    path: '/fleet/overview',
    operationId: 'getFleetOverview',
    summary: "The fleet at a glance (the console's dashboard): every instance's version, drift status, health band and last sync, counts, rollouts at the gate and recent failures",
    description: `One read from arrgo's database (no app is called), in a fixed number of statements whatever the fleet's size. At most ${FLEET_OVERVIEW_INSTANCES_MAX} instances, ${FLEET_OVERVIEW_GATE_MAX} waiting rollouts and ${FLEET_OVERVIEW_FAILURES_MAX} failures.`,
    tags: ['Fleet'],
    responses: { 200: { description: 'The overview', schema: FleetOverviewSchema } },
    handler: async () => ({ body: await readFleetOverview(deps) }),
  });
}
