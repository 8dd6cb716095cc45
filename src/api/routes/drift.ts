import { WorkflowIdConflictPolicy } from '@temporalio/common';
import { DRIFT_REASONS, DRIFT_STATUSES } from '../../domain/drift';
import { notFound } from '../../errors';
import { Instance } from '../../persistence/entities';
import { applyDriftSchedule, deploymentScopedId } from '../../platform/schedules';
import { DRIFT_SETTINGS_KEY, driftSettingsView } from '../../services/drift/drift-settings';
import { driftDetail } from '../../services/drift/drift-view';
import { SettingsStore } from '../../services/settings-store';
import { executeWorkflow, translateTemporalError } from '../../services/workflow-runner';
import { SA } from '../../workflows/search-attributes';
import type { ApiDeps } from '../deps';
import type { ApiRouter } from '../http/route';
import { idParam, int, z } from '../http/zod';
import { ArrTypeSchema } from '../schemas/common';
import { SyncChangeSchema } from '../schemas/previews';

const tags = ['Drift'];

const DriftSchema = z
  .object({
    instanceId: z.number().int(),
    instanceName: z.string(),
    arrType: ArrTypeSchema,
    status: z.enum(DRIFT_STATUSES),
    reason: z.enum(DRIFT_REASONS).nullable(),
    detectedVersion: z.string().nullable(),
    checkedAt: z.string().nullable(),
    contentCheckedAt: z.string().nullable().openapi({ description: 'When the content was last compared (kept when a later check cannot reach the app)' }),
    counts: z.object({ drifted: z.number().int(), missing: z.number().int(), unmanaged: z.number().int() }),
    drift: z.array(SyncChangeSchema).openapi({ description: 'action update, category drift' }),
    missing: z.array(SyncChangeSchema).openapi({ description: 'action create, category missing (alerting)' }),
    unmanaged: z.array(SyncChangeSchema).openapi({ description: 'action delete, category unmanaged (non-alerting)' }),
  })
  .openapi('DriftDetail');

const SettingsSchema = z
  .object({
    enabled: z.boolean(),
    intervalMinutes: z.number().int(),
    lastRunAt: z.string().nullable(),
    nextRunAt: z.string().nullable(),
    backoffUntil: z.string().nullable().openapi({ description: 'Earliest time an instance backing off after repeated failures is checked again' }),
    errorCount: z.number().int().openapi({ description: 'Consecutive polling runs that left an instance failing' }),
  })
  .openapi('DriftSettings');

export function registerDriftRoutes(router: ApiRouter, deps: ApiDeps): void {
  const settingsView = () => driftSettingsView(deps.orm.em, deps.temporal);

  router.add({
    method: 'get',
    path: '/drift/settings',
    operationId: 'getDriftSettings',
    summary: 'Drift polling settings and the state of the polling job',
    tags,
    responses: { 200: { description: 'Settings', schema: SettingsSchema } },
    handler: async () => ({ body: await settingsView() }),
  });

  router.add({
    method: 'put',
    path: '/drift/settings',
    operationId: 'putDriftSettings',
    summary: 'Enable or disable drift polling and set its interval (creates, updates or pauses the Temporal Schedule)',
    tags,
    body: z.object({ enabled: z.boolean(), intervalMinutes: int(1, 10_080) }).strict().openapi('DriftSettingsInput'),
    responses: { 200: { description: 'Settings now in force', schema: SettingsSchema } },
    handler: async ({ body }) => {
      try {
        await applyDriftSchedule(deps.temporal, body);
      } catch (error) {
        throw translateTemporalError(error);
      }
      await new SettingsStore(deps.orm.em).put(DRIFT_SETTINGS_KEY, body);
      return { body: await settingsView() };
    },
  });

  router.add({
    method: 'get',
    path: '/drift',
    operationId: 'listDrift',
    summary: 'Drift status of every instance (never-checked for instances with no check yet)',
    tags,
    responses: { 200: { description: 'One entry per instance', schema: z.array(DriftSchema) } },
    handler: async () => {
      const instances = await deps.orm.em.find(Instance, {}, { orderBy: { id: 'asc' }, fields: ['id'] });
      return { body: await Promise.all(instances.map((i) => driftDetail(deps.orm.em, i.id))) };
    },
  });

  router.add({
    method: 'get',
    path: '/drift/{instanceId}',
    operationId: 'getDrift',
    summary: 'Stored drift detail of one instance; degraded states are carried in a 200 body',
    tags,
    params: z.object({ instanceId: idParam() }),
    responses: { 200: { description: 'Drift detail', schema: DriftSchema }, 404: { description: 'The instance does not exist' } },
    handler: async ({ params }) => ({ body: await driftDetail(deps.orm.em, params.instanceId) }),
  });

  router.add({
    method: 'post',
    path: '/drift/{instanceId}/check',
    operationId: 'checkDrift',
    summary: 'Check one instance now (a workflow); answers when the result is stored',
    tags,
    params: z.object({ instanceId: idParam() }),
    responses: { 200: { description: 'The stored drift detail', schema: DriftSchema }, 404: { description: 'The instance does not exist' } },
    handler: async ({ params }) => {
      const instance = await deps.orm.em.findOne(Instance, { id: params.instanceId });
      if (!instance) throw notFound(`Instance ${params.instanceId} not found`);
      await executeWorkflow(deps.temporal, 'driftCheckWorkflow', {
        workflowId: deploymentScopedId(deps.temporal.taskQueue, `drift-check-${instance.id}`),
        conflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
        args: [instance.id],
        staticSummary: `Drift check of "${instance.name}"`,
        searchAttributes: [
          { key: SA.kind, value: 'drift-check' },
          { key: SA.arrType, value: instance.arrType },
          { key: SA.instanceIds, value: [String(instance.id)] },
          { key: SA.trigger, value: 'manual' },
        ],
      });
      deps.orm.em.clear();
      return { body: await driftDetail(deps.orm.em, instance.id) };
    },
  });
}
