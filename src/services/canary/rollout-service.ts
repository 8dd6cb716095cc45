import { randomUUID } from 'node:crypto';
import type { FilterQuery } from '@mikro-orm/core';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { APP_OF, type ArrType } from '../../domain/arr-types';
import { normalizeEvidence, type EvidenceEntry, type PartialPolicy } from '../../domain/canary';
import type { PrecheckRefusal } from '../../domain/canary/precheck';
import { appSections, SYNC_SECTIONS, type SyncSection } from '../../domain/sync';
import { AppError, conflict, notFound, validationError } from '../../errors';
import { CanaryRollout, Instance, InstanceSyncConfig, SyncPreview } from '../../persistence/entities';
import {
  canaryRolloutWorkflow,
  GATE_REFUSALS,
  gateUpdate,
  searchAttributes,
  type CanaryRolloutInput,
  type GateAction,
  type RolloutState,
} from '../../workflows/contracts';
import { toPreviewView } from '../sync/preview-view';
import type { ServiceDeps } from '../deps';
import type { SyncRunnerDeps } from '../sync/sync-runner';
import { precheckRollout } from './precheck';
import { startWorkflow, translateTemporalError, unlessStarted } from '../workflow-runner';

export interface RolloutRequest {
  arrType: ArrType;
  canaryInstanceId: number;
  targetInstanceIds: number[];
  sections: string[];
  partialPolicy: PartialPolicy;
  batchSize?: number;
  evidenceMaxAgeSeconds?: number;
  /** Start even when the canary has nothing to change (the rollout then ends aborted, its canary skipped). */
  allowInSyncCanary?: boolean;
}

/** A start: the rollout, or the pre-check's refusal (the canary has nothing to change; nothing was recorded). */
export type RolloutStart = { rollout: CanaryRollout; refusal?: never } | { refusal: PrecheckRefusal; rollout?: never };

export const DEFAULT_BATCH_SIZE = 5;
export const DEFAULT_EVIDENCE_MAX_AGE_SECONDS = 3600;

export function rolloutWorkflowId(id: number): string {
  return `canary-rollout-${id}`;
}

/**
 * Validates the request, checks that the canary has something to change (unless the request
 * insists) and starts the rollout workflow (canary-rollout-<id>).
 */
export async function startRollout(deps: SyncRunnerDeps & Pick<ServiceDeps, 'logger'>, request: RolloutRequest): Promise<RolloutStart> {
  const em = deps.orm.em;
  const ids = [request.canaryInstanceId, ...request.targetInstanceIds];
  const seen = new Set<number>();
  request.targetInstanceIds.forEach((id, i) => {
    if (id === request.canaryInstanceId) throw validationError(`Invalid request: body.targetInstanceIds.${i} is the canary; the canary cannot also be a target`);
    if (seen.has(id)) throw validationError(`Invalid request: body.targetInstanceIds.${i} instance ${id} appears more than once`);
    seen.add(id);
  });
  const instances = new Map((await em.find(Instance, { id: { $in: ids } })).map((i) => [i.id, i]));
  const configured = new Set((await em.find(InstanceSyncConfig, { instanceId: { $in: ids } })).map((c) => c.instanceId));
  ids.forEach((id, index) => {
    const field = index === 0 ? 'body.canaryInstanceId' : `body.targetInstanceIds.${index - 1}`;
    const instance = instances.get(id);
    if (!instance) throw validationError(`Invalid request: ${field} instance ${id} does not exist`);
    if (!instance.enabled) throw validationError(`Invalid request: ${field} instance ${id} is disabled`);
    if (instance.arrType !== request.arrType) throw validationError(`Invalid request: ${field} instance ${id} is a ${instance.arrType} instance, not ${request.arrType}`);
    if (!configured.has(id)) throw validationError(`Invalid request: ${field} instance ${id} has no sync configuration`);
  });
  const available = appSections(request.arrType);
  request.sections.forEach((section, i) => {
    if (!available.includes(section as SyncSection)) throw validationError(`Invalid request: body.sections.${i} ${section} is not a section of ${request.arrType}`);
  });
  const sections = [...new Set(request.sections)].sort((a, b) => SYNC_SECTIONS.indexOf(a as SyncSection) - SYNC_SECTIONS.indexOf(b as SyncSection));
  const canary = instances.get(request.canaryInstanceId)!;
  const targets = request.targetInstanceIds.map((id) => ({ instanceId: id, instanceName: instances.get(id)!.name }));
  if (!request.allowInSyncCanary) {
    const refusal = await precheckRollout(deps, { arrType: request.arrType, canary: { instanceId: canary.id, instanceName: canary.name }, targets, sections });
    if (refusal) return { refusal };
  }
  const rollout = em.create(CanaryRollout, {
    arrType: request.arrType,
    canaryInstanceId: canary.id,
    canaryInstanceName: canary.name,
    targets,
    sections,
    partialPolicy: request.partialPolicy,
    batchSize: request.batchSize ?? DEFAULT_BATCH_SIZE,
    evidenceMaxAgeSeconds: request.evidenceMaxAgeSeconds ?? DEFAULT_EVIDENCE_MAX_AGE_SECONDS,
    status: 'canary_running',
    canaryStatus: 'running',
    canaryPreviewId: null,
    canaryDiagnostics: null,
    warning: null,
    remainingPreview: null,
    rolloutIndex: 0,
    rolloutResults: [],
    trigger: 'manual',
    stateToken: randomUUID(),
    workflowId: 'pending',
    createdAt: new Date(),
    updatedAt: new Date(),
    finishedAt: null,
  });
  await em.flush();
  rollout.workflowId = rolloutWorkflowId(rollout.id);
  await em.flush();
  const input: CanaryRolloutInput = {
    rolloutId: rollout.id,
    arrType: rollout.arrType,
    canary: { instanceId: canary.id, instanceName: canary.name },
    targets,
    sections,
    partialPolicy: rollout.partialPolicy,
    batchSize: rollout.batchSize,
    evidenceMaxAgeMs: rollout.evidenceMaxAgeSeconds * 1000,
    heartbeatTimeoutMs: deps.config.syncHeartbeatTimeoutSeconds * 1000,
    initialStateToken: rollout.stateToken,
  };
  const label = APP_OF[rollout.arrType].label;
  // A rollout whose workflow never started would show as running forever: it goes with the refused start.
  await unlessStarted(() => em.nativeDelete(CanaryRollout, { id: rollout.id }), () => startWorkflow(deps.temporal, canaryRolloutWorkflow, {
    workflowId: rollout.workflowId,
    args: [input],
    staticSummary: `Canary rollout ${rollout.id} to ${targets.length} ${label} instance${targets.length === 1 ? '' : 's'}: canary "${canary.name}"`,
    staticDetails: [
      `**Canary:** ${canary.name} (instance ${canary.id})`,
      `**Targets:** ${targets.map((t) => `${t.instanceName} (${t.instanceId})`).join(', ')}`,
      `**Sections:** ${sections.join(', ')}`,
      `**Partial policy:** ${rollout.partialPolicy}; **batch size:** ${rollout.batchSize}`,
    ].join('\n\n'),
    searchAttributes: searchAttributes({
      kind: 'canary-rollout',
      arrType: rollout.arrType,
      instanceIds: [canary.id, ...targets.map((t) => t.instanceId)],
      trigger: 'manual',
      rolloutStatus: 'canary_running',
    }),
  }));
  return { rollout };
}

export async function loadRollout(deps: SyncRunnerDeps, id: number): Promise<CanaryRollout> {
  deps.orm.em.clear();
  const rollout = await deps.orm.em.findOne(CanaryRollout, { id });
  if (!rollout) throw notFound(`Rollout ${id} not found`);
  return rollout;
}

/**
 * Sends a gate decision. A token that is not the current one, or a rollout not at the gate, is a
 * 409; so is proceeding while the evidence is unavailable or stale.
 */
export async function decideGate(deps: SyncRunnerDeps, rollout: CanaryRollout, action: GateAction, stateToken: string): Promise<RolloutState> {
  if (rollout.status !== 'awaiting_confirmation') throw conflict(`Rollout ${rollout.id} is ${rollout.status}, not awaiting confirmation`);
  try {
    return await deps.temporal.client.workflow.getHandle<typeof canaryRolloutWorkflow>(rollout.workflowId).executeUpdate(gateUpdate, { args: [{ action, stateToken }] });
  } catch (error) {
    if (error instanceof WorkflowUpdateFailedError) {
      const refusal = error.cause instanceof ApplicationFailure ? error.cause : null;
      switch (refusal?.type) {
        case GATE_REFUSALS.staleToken:
          throw conflict(`Rollout ${rollout.id}: the state token is stale; read the rollout and use its current stateToken`, 'stale_token');
        case GATE_REFUSALS.evidenceUnavailable:
          throw conflict(`Rollout ${rollout.id} cannot proceed: ${refusal.message}`, 'evidence_unavailable');
        case GATE_REFUSALS.wrongState:
          throw conflict(`Rollout ${rollout.id} is not awaiting confirmation`);
        default:
          throw new AppError('validation', 'Invalid gate request');
      }
    }
    throw translateTemporalError(error);
  }
}

export interface RolloutFilter {
  status?: string;
  arrType?: ArrType;
  instanceId?: number;
  page: number;
  pageSize: number;
}

export async function listRollouts(deps: SyncRunnerDeps, filter: RolloutFilter): Promise<{ items: CanaryRollout[]; total: number }> {
  const where: FilterQuery<CanaryRollout> = {};
  if (filter.status) where.status = filter.status as CanaryRollout['status'];
  if (filter.arrType) where.arrType = filter.arrType;
  let rows = await deps.orm.em.find(CanaryRollout, where, { orderBy: { id: 'desc' }, exclude: ['remainingPreview'] });
  if (filter.instanceId) rows = rows.filter((r) => r.canaryInstanceId === filter.instanceId || r.targets.some((t) => t.instanceId === filter.instanceId));
  const start = (filter.page - 1) * filter.pageSize;
  return { items: rows.slice(start, start + filter.pageSize) as CanaryRollout[], total: rows.length };
}

/** The spec's rollout shape, with the evidence previews expanded from their records. */
export async function rolloutView(deps: SyncRunnerDeps, rollout: CanaryRollout, options: { expandEvidence: boolean } = { expandEvidence: true }) {
  const evidence = rollout.remainingPreview ? normalizeEvidence(rollout.remainingPreview, rollout.targets, new Date()) : null;
  let remainingPreview: Record<string, unknown> | null = null;
  if (evidence) {
    const entries = evidence.entries.filter((e: EvidenceEntry) => e.previewId !== null);
    const previews = options.expandEvidence && entries.length ? await deps.orm.em.find(SyncPreview, { id: { $in: entries.map((e) => e.previewId!) } }, { exclude: ['plan'] }) : [];
    const byId = new Map(previews.map((p) => [p.id, evidencePreview(p as SyncPreview)]));
    const shown = (status: EvidenceEntry['status']) => entries.filter((e) => e.status === status && byId.has(e.previewId!)).map((e) => ({ entry: e, preview: byId.get(e.previewId!)! }));
    remainingPreview =
      evidence.availability === 'available'
        ? { version: evidence.version, availability: 'available', generatedAt: evidence.generatedAt, previews: shown('ready').map((s) => s.preview) }
        : {
            version: evidence.version,
            availability: 'unavailable',
            recordedAt: evidence.recordedAt,
            failure: evidence.failure,
            diagnosticPreviews: shown('ready').map((s) => s.preview),
            failedPreviews: shown('failed').map(({ entry, preview }) => ({ ...preview, failure: entry.failure })),
          };
  }
  return {
    id: rollout.id,
    arrType: rollout.arrType,
    status: rollout.status,
    canaryStatus: rollout.canaryStatus,
    canary: { instanceId: rollout.canaryInstanceId, instanceName: rollout.canaryInstanceName, previewId: rollout.canaryPreviewId, diagnostics: rollout.canaryDiagnostics },
    sections: rollout.sections,
    partialPolicy: rollout.partialPolicy,
    batchSize: rollout.batchSize,
    targets: rollout.targets,
    remainingPreview,
    rolloutIndex: rollout.rolloutIndex,
    rolloutResults: rollout.rolloutResults,
    warning: rollout.warning,
    statusReasonCode: rollout.statusReasonCode,
    statusReason: rollout.statusReason,
    trigger: rollout.trigger,
    stateToken: rollout.stateToken,
    workflowId: rollout.workflowId,
    createdAt: rollout.createdAt.toISOString(),
    updatedAt: rollout.updatedAt.toISOString(),
    finishedAt: rollout.finishedAt?.toISOString() ?? null,
  };
}

/** The spec's per-instance preview (no arrgo bookkeeping fields). */
function evidencePreview(preview: SyncPreview) {
  const view = toPreviewView(preview);
  return {
    instanceId: view.instanceId,
    instanceName: view.instanceName,
    arrType: view.arrType,
    status: view.status,
    generatedAt: view.generatedAt,
    sections: view.sections,
    sectionOutcomes: view.sectionOutcomes,
    qualityProfiles: view.qualityProfiles,
    delayProfiles: view.delayProfiles,
    mediaManagement: view.mediaManagement,
    metadataProfiles: view.metadataProfiles,
    counts: view.counts,
    previewId: view.id,
  };
}
