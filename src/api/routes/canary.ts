import { ROLLOUT_STATUSES } from '../../domain/canary';
import { PRECHECK_REFUSALS } from '../../domain/canary/precheck';
import { STATUS_REASON_CODES } from '../../domain/canary/status-reason';
import { decideGate, listRollouts, loadRollout, rolloutView, startRollout } from '../../services/canary/rollout-service';
import type { ApiDeps } from '../deps';
import { page, paginated, paginationQuery } from '../http/pagination';
import type { ApiRouter } from '../http/route';
import { idParam, idValue, int, text, z } from '../http/zod';
import { ArrTypeSchema } from '../schemas/common';
import { ChangeCountsSchema, FailureEvidenceSchema, PreviewSchema } from '../schemas/previews';
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
})
  .extend({ previewId: z.number().int() })
  .openapi('CanaryEvidencePreview');

const EvidenceAvailableSchema = z
  .object({ version: z.number().int(), availability: z.literal('available'), generatedAt: z.string(), previews: z.array(EvidencePreviewSchema) })
  .openapi('CanaryEvidenceAvailable');

const EvidenceUnavailableSchema = z
  .object({
    version: z.number().int(),
    availability: z.literal('unavailable'),
    recordedAt: z.string(),
    failure: FailureEvidenceSchema,
    diagnosticPreviews: z.array(EvidencePreviewSchema).openapi({ description: 'The targets whose evidence preview is ready' }),
    failedPreviews: z.array(EvidencePreviewSchema.extend({ failure: FailureEvidenceSchema.nullable() }).openapi('CanaryFailedEvidencePreview')).openapi({
      description:
        "The targets whose evidence preview failed (an unreachable app, a rejected key, …): each with its failure evidence and its section outcomes (each failed section's own failure evidence, e.g. unreachable)",
    }),
  })
  .openapi('CanaryEvidenceUnavailable');

const CanaryDiagnosticsSchema = z
  .object({
    previewId: z.number().int().nullable(),
    runId: z.number().int().nullable(),
    summary: z.string().openapi({ description: 'What the canary sync changed, e.g. "6 created, 5 updated, 6 unchanged"' }),
    failure: FailureEvidenceSchema.nullable(),
  })
  .openapi('CanaryDiagnostics');

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
      diagnostics: CanaryDiagnosticsSchema.nullable().openapi({ description: 'The canary sync: its preview and run, what it changed and its failure evidence (null while it runs)' }),
    }),
    sections: z.array(SyncSectionSchema),
    partialPolicy: z.enum(['gate', 'abort']),
    batchSize: z.number().int(),
    targets: z.array(z.object({ instanceId: z.number().int(), instanceName: z.string() })).openapi({ description: 'Captured at rollout start' }),
    remainingPreview: z
      .union([EvidenceAvailableSchema, EvidenceUnavailableSchema])
      .nullable()
      .openapi({ description: 'The evidence: a preview per remaining target (CanaryEvidenceAvailable), or why it is unavailable (CanaryEvidenceUnavailable); null until it is built' }),
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
    warning: z.string().nullable().openapi({ description: 'Set while the rollout waits at the gate after a partial canary (partialPolicy gate); an unverified canary names the fields that did not land' }),
    statusReasonCode: z
      .enum(STATUS_REASON_CODES)
      .nullable()
      .openapi({
        description:
          'Why the rollout ended aborted or failed (null otherwise, and for rollouts that ended before reasons were recorded): canary_in_sync (the canary had nothing to change: it was skipped), canary_failed, canary_partial (a partial canary under partialPolicy abort), canary_unverified (the apply of the canary went through but a field did not land, or it could not be read back, under partialPolicy abort; the text names the fields), gate_declined (aborted at the gate), targets_failed',
      }),
    statusReason: z
      .string()
      .nullable()
      .openapi({
        description:
          'The same reason in words (pre-authored, never exception text), e.g. "Aborted: the canary (radarr-1) had nothing to change, so there was nothing to verify; …", "Aborted at the gate by the operator; …", "Failed: 2 of 19 targets failed (radarr-4 (partly synced): the app instance rejected the request; …)". Also shown in the timeline item and the rollout.failed / rollout.aborted notification.',
        example: 'Aborted at the gate by the operator; the 3 remaining instances were left untouched.',
      }),
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
    allowInSyncCanary: z
      .boolean()
      .optional()
      .openapi({
        description:
          'Default false: before anything starts, the canary is read (in a short read-only workflow) and a canary with nothing to change is refused with 409. true skips that check and starts anyway: a canary with nothing to change is then skipped and the rollout ends aborted (statusReasonCode canary_in_sync), as the states table says.',
      }),
  })
  .strict()
  .openapi('CanaryRolloutStart');

const PrecheckRefusalSchema = z
  .object({
    error: z.string().openapi({ description: 'What was found and what to do: names the targets with changes and suggests one as the canary, or says the whole fleet is in sync' }),
    code: z.enum(PRECHECK_REFUSALS).openapi({ description: 'canary_in_sync: the canary has nothing to change (targetsWithChanges lists the targets that have); fleet_in_sync: neither the canary nor any target has anything to change' }),
    targetsWithChanges: z
      .array(z.object({ instanceId: z.number().int(), instanceName: z.string(), changes: z.number().int().openapi({ description: 'Creates, updates and deletes a sync would make' }), counts: ChangeCountsSchema }))
      .openapi({ description: 'Targets a sync would change, most changes first (ties in request order); at most the 500 targets of the request' }),
    unreadTargets: z.array(z.object({ instanceId: z.number().int(), instanceName: z.string() })).openapi({ description: 'Targets that could not be read (unreachable, rejected key, …): whether they have changes is unknown' }),
    suggestedCanaryInstanceId: z.number().int().nullable().openapi({ description: 'The target with the most changes (the canary that verifies the most); null when no target has changes' }),
  })
  .openapi('CanaryPrecheckRefusal');

const GateSchema = z.object({ stateToken: text({ min: 1, max: 64 }) }).strict().openapi('CanaryGateRequest');

export function registerCanaryRoutes(router: ApiRouter, deps: ApiDeps): void {
  router.add({
    method: 'post',
    path: '/canary/rollouts',
    operationId: 'startCanaryRollout',
    summary: 'Start a canary rollout: sync the canary, build evidence for every target, then wait at the verification gate',
    description: [
      'Before anything starts, a short read-only workflow (`canary-precheck-<canaryId>-<uuid>`) computes what a sync of the canary would change, as a preview would, without storing it. A canary with nothing to change would prove nothing (the rollout would end aborted at once), so the start is refused with 409 and no rollout is recorded: the targets are then read too (5 at a time) and the answer names those with changes and suggests the one with the most as the canary (`code: canary_in_sync`), or says that the whole fleet is already in sync (`code: fleet_in_sync`).',
      'A canary that cannot be read (unreachable, rejected key, database not ready) does not block the start: the rollout starts and its canary sync fails with failure evidence (aborted, statusReasonCode canary_failed). Nor does a check that has not answered within `CANARY_PRECHECK_WAIT_MS` (default 30 s; a worker lost, a slow app): the rollout starts as if the check had not run. `allowInSyncCanary: true` skips the check.',
    ].join('\n\n'),
    tags,
    body: StartSchema,
    responses: {
      201: { description: 'Started (workflow canary-rollout-<id>)', schema: RolloutSchema },
      409: { description: 'The canary has nothing to change (canary_in_sync), or nothing in the fleet has (fleet_in_sync); nothing was started', schema: PrecheckRefusalSchema },
    },
    handler: async ({ body }) => {
      const start = await startRollout(deps, body);
      if (start.refusal) {
        const { message, ...fields } = start.refusal;
        return { status: 409, body: { error: message, ...fields } };
      }
      // Answered from what the start stored, not read again: once its workflow runs, the rollout must
      // reach the client even while the database cannot be read (a 503 here left one waiting at its gate).
      return { status: 201, body: await rolloutView(deps, start.rollout) };
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
