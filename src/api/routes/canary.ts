import { ROLLOUT_STATUSES } from '../../domain/canary';
import { decideGate, listRollouts, loadRollout, rolloutView, startRollout } from '../../services/canary/rollout-service';
import type { ApiDeps } from '../deps';
import { page, paginated, paginationQuery } from '../http/pagination';
import type { ApiRouter } from '../http/route';
import { idParam, idValue, int, text, z } from '../http/zod';
import { ArrTypeSchema } from '../schemas/common';
import { FailureEvidenceSchema, PreviewSchema } from '../schemas/previews';
import { SyncSectionSchema } from '../schemas/sync';

const tags = ['Canary rollouts'];
const IdParams = z.object({ id: idParam() });
const StatusSchema = z.enum(ROLLOUT_STATUSES);

const EvidencePreviewSchema = PreviewSchema.pick({
  instanceId: true,
  instanceName: true,
  arrType: true,
  status: true,
  generatedAt: true,
  sections: true,
  sectionOutcomes: true,
  qualityProfiles: true,
  delayProfiles: true,
  mediaManagement: true,
  metadataProfiles: true,
  counts: true,
}).extend({ previewId: z.number().int() });

const RolloutSchema = z
  .object({
    id: z.number().int(),
    arrType: ArrTypeSchema,
    status: StatusSchema,
    canaryStatus: z.enum(['pending', 'running', 'success', 'partial', 'failed', 'skipped']),
    canary: z.object({
      instanceId: z.number().int(),
      instanceName: z.string(),
      previewId: z.number().int().nullable(),
      diagnostics: z.record(z.unknown()).nullable(),
    }),
    sections: z.array(SyncSectionSchema),
    partialPolicy: z.enum(['gate', 'abort']),
    batchSize: z.number().int(),
    targets: z.array(z.object({ instanceId: z.number().int(), instanceName: z.string() })).openapi({ description: 'Captured at rollout start' }),
    remainingPreview: z
      .union([
        z.object({ version: z.number().int(), availability: z.literal('available'), generatedAt: z.string(), previews: z.array(EvidencePreviewSchema) }),
        z.object({
          version: z.number().int(),
          availability: z.literal('unavailable'),
          recordedAt: z.string(),
          failure: FailureEvidenceSchema,
          diagnosticPreviews: z.array(EvidencePreviewSchema),
        }),
      ])
      .nullable(),
    rolloutIndex: z.number().int().openapi({ description: 'Index into the remaining targets the rollout job has reached (resumable)' }),
    rolloutResults: z.array(
      z.object({
        instanceId: z.number().int(),
        instanceName: z.string(),
        status: z.enum(['success', 'partial', 'failed']),
        summary: z.string(),
        diagnostics: z.object({ failure: FailureEvidenceSchema.nullable() }).nullable(),
        previewId: z.number().int().nullable(),
        runId: z.number().int().nullable(),
      }),
    ),
    warning: z.string().nullable(),
    trigger: z.string(),
    stateToken: z.string().openapi({ description: 'Value guard for proceed and abort; re-issued on every transition' }),
    workflowId: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
    finishedAt: z.string().nullable(),
  })
  .openapi('CanaryRollout');

const StartSchema = z
  .object({
    arrType: ArrTypeSchema,
    canaryInstanceId: idValue(),
    targetInstanceIds: z.array(idValue()).min(1).max(500),
    sections: z.array(SyncSectionSchema).min(1).max(4),
    partialPolicy: z.enum(['gate', 'abort']),
    batchSize: int(1, 100).optional().openapi({ description: 'Targets synced at once while rolling out (default 5)' }),
    evidenceMaxAgeSeconds: int(1, 7 * 86_400).optional().openapi({ description: 'Staleness limit of the remaining-preview evidence (default 3600)' }),
  })
  .strict()
  .openapi('CanaryRolloutStart');

const GateSchema = z.object({ stateToken: text({ min: 1, max: 64 }) }).strict().openapi('CanaryGateRequest');

export function registerCanaryRoutes(router: ApiRouter, deps: ApiDeps): void {
  router.add({
    method: 'post',
    path: '/canary/rollouts',
    operationId: 'startCanaryRollout',
    summary: 'Start a canary rollout: sync the canary, build evidence for every target, then wait at the verification gate',
    tags,
    body: StartSchema,
    responses: { 201: { description: 'Started (workflow canary-rollout-<id>)', schema: RolloutSchema } },
    handler: async ({ body }) => {
      const rollout = await startRollout(deps, body);
      return { status: 201, body: await rolloutView(deps, await loadRollout(deps, rollout.id)) };
    },
  });

  router.add({
    method: 'get',
    path: '/canary/rollouts',
    operationId: 'listCanaryRollouts',
    summary: 'Rollouts, newest first (evidence previews are not expanded here)',
    tags,
    query: z.object({ status: StatusSchema.optional(), arrType: ArrTypeSchema.optional(), instanceId: idParam().optional(), ...paginationQuery }).strict(),
    responses: { 200: { description: 'A page of rollouts', schema: paginated(RolloutSchema) } },
    handler: async ({ query }) => {
      const { items, total } = await listRollouts(deps, query);
      const views = await Promise.all(items.map((r) => rolloutView(deps, r, { expandEvidence: false })));
      return { body: page(views, total, query.page, query.pageSize) };
    },
  });

  router.add({
    method: 'get',
    path: '/canary/rollouts/{id}',
    operationId: 'getCanaryRollout',
    summary: 'One rollout with its full state: canary diagnostics, targets, remaining-preview evidence, results and the current stateToken',
    tags,
    params: IdParams,
    responses: { 200: { description: 'The rollout', schema: RolloutSchema }, 404: { description: 'No such rollout' } },
    handler: async ({ params }) => ({ body: await rolloutView(deps, await loadRollout(deps, params.id)) }),
  });

  for (const action of ['proceed', 'abort', 'refresh'] as const) {
    router.add({
      method: 'post',
      path: `/canary/rollouts/{id}/${action === 'refresh' ? 'refresh-evidence' : action}`,
      operationId: `${action}CanaryRollout`,
      summary:
        action === 'proceed'
          ? 'Pass the verification gate: roll the approved previews out to the remaining targets'
          : action === 'abort'
            ? 'Decline at the verification gate: the remaining instances are left untouched'
            : 'Rebuild the remaining-preview evidence (e.g. when it is older than its staleness limit)',
      description: 'A Temporal update guarded by the stateToken: a token that is not the current one, or a rollout not at the gate, is 409.',
      tags,
      params: IdParams,
      body: GateSchema,
      responses: { 200: { description: 'The rollout after the transition', schema: RolloutSchema }, 404: { description: 'No such rollout' }, 409: { description: 'Stale token, wrong state, or (proceed) evidence unavailable or stale' } },
      handler: async ({ params, body }) => {
        const rollout = await loadRollout(deps, params.id);
        await decideGate(deps, rollout, action, body.stateToken);
        return { body: await rolloutView(deps, await loadRollout(deps, params.id)) };
      },
    });
  }
}
