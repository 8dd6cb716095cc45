import { DRIFT_STATUSES } from '../../domain/drift';
import { HEALTH_BANDS } from '../../domain/health/types';
import { VERIFICATION_STATUSES } from '../../domain/instance-verification';
import { FLEET_OVERVIEW_FAILURES_MAX, FLEET_OVERVIEW_GATE_MAX, FLEET_OVERVIEW_INSTANCES_MAX, readFleetOverview } from '../../services/fleet/fleet-overview';
import { FLEET_CONFIGURATION_MAX, readFleetConfiguration, readFleetSchema } from '../../services/fleet/fleet-configuration';
import { SYNC_RUN_STATUSES } from '../../services/sync/history-service';
import type { ApiDeps } from '../deps';
import type { ApiRouter } from '../http/route';
import { z } from '../http/zod';
import { ArrTypeSchema } from '../schemas/common';
import { DatabaseSchema } from '../schemas/databases';
import { InstanceSchema } from '../schemas/instances';
import { ChannelSchema } from '../schemas/notifications';
import { RefGuideSourceSchema } from '../schemas/ref-guide';
import { SnapshotSettingsBodySchema } from '../schemas/snapshots';
import { HistorySettingsSchema, SyncSelectionSchema } from '../schemas/sync';

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

const ScheduleSettingsSchema = z.object({ enabled: z.boolean(), intervalMinutes: z.number().int() });

const FleetConfigurationSchema = z
  .object({
    instances: z.array(InstanceSchema).openapi({ description: `Every instance, oldest first (at most ${FLEET_CONFIGURATION_MAX})` }),
    syncConfigs: z
      .array(z.object({ instanceId: z.number().int(), databases: z.array(z.object({ databaseId: z.number().int(), selection: SyncSelectionSchema })) }))
      .openapi({ description: 'The sync configuration of every instance that has one: its databases in priority order, each with its selection (as GET /instances/{id}/sync-config)' }),
    databases: z.array(DatabaseSchema),
    refGuideSources: z.array(RefGuideSourceSchema),
    channels: z.array(ChannelSchema).openapi({ description: `Every notification channel, oldest first (at most ${FLEET_CONFIGURATION_MAX})` }),
    settings: z.object({
      driftPolling: ScheduleSettingsSchema.openapi({ description: 'As PUT /drift/settings takes it' }),
      refGuideRefresh: ScheduleSettingsSchema.openapi({ description: 'As PUT /ref-guide/settings takes it' }),
      syncHistoryRetention: HistorySettingsSchema,
      snapshots: SnapshotSettingsBodySchema,
    }),
  })
  .openapi('FleetConfiguration');


export function registerFleetRoutes(router: ApiRouter, deps: ApiDeps): void {
  router.add({
    method: 'get',
    path: '/fleet/configuration',
    operationId: 'getFleetConfiguration',
    summary: "Everything the fleet file (arrgo.yaml) declares, in one read: instances, their sync configurations, databases, reference-guide sources, notification channels and the settings",
    description:
      'What `arrgo plan` compares a fleet file against and `arrgo export` writes (docs/cli.md, "The fleet file"). Secrets (API keys, git tokens, channel URLs and secrets) are never returned: apiKeySet, tokenSet, urlSet and secretSet say whether one is stored. No app is called.',
    tags: ['Fleet'],
    responses: { 200: { description: 'The configuration', schema: FleetConfigurationSchema } },
    handler: async () => ({ body: await readFleetConfiguration(deps) }),
  });

  router.add({
    method: 'get',
    path: '/fleet/schema',
    operationId: 'getFleetSchema',
    summary: 'The JSON Schema of the fleet file (arrgo.yaml), for editors (`# yaml-language-server: $schema=<arrgo>/api/v1/fleet/schema`)',
    description: 'Public (no API key): an editor fetches it without credentials. It holds no configuration, only the file format; the CLI ships the same file (schemas/arrgo-fleet.schema.json).',
    tags: ['Fleet'],
    public: true,
    responses: { 200: { description: 'A JSON Schema (draft 2020-12)', schema: z.record(z.unknown()).openapi({ description: 'The JSON Schema document' }) } },
    handler: async () => ({ body: await readFleetSchema() }),
  });

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
