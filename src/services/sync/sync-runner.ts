import { WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { Config } from '../../config';
import { APP_OF } from '../../domain/arr-types';
import { failureEvidence } from '../../domain/failure-evidence';
import { AppError, conflict } from '../../errors';
import type { Orm } from '../../persistence/orm';
import { SyncPreview } from '../../persistence/entities';
import { deploymentScopedId } from '../schedules';
import type { TemporalGateway } from '../../platform/temporal-client';
import {
  APPLY_REFUSALS,
  applyPreviewUpdate,
  previewGeneratedUpdate,
  searchAttributes,
  syncWorkflow,
  type ApplyResponse,
  type SyncWorkflowInput,
  type SyncWorkflowResult,
} from '../../workflows/contracts';
import type { PcdCacheManager } from '../pcd/cache-manager';
import { startWorkflow, translateTemporalError, unlessStarted, waitWithin, workflowResultWithin, type BoundedWait } from '../workflow-runner';
import { createPreviewRecord, type PreviewRequest } from './preview-records';

export interface SyncRunnerDeps {
  config: Config;
  orm: Orm;
  temporal: TemporalGateway;
  pcdCaches: PcdCacheManager;
}

export function syncWorkflowId(taskQueue: string, previewId: number): string {
  return deploymentScopedId(taskQueue, `sync-${previewId}`);
}

export function syncWorkflowInput(config: Config, previewId: number, options: { autoApply: boolean; trigger: SyncWorkflowInput['trigger']; ttlSeconds?: number; rolloutId?: number | null }): SyncWorkflowInput {
  return {
    previewId,
    autoApply: options.autoApply,
    ttlMs: (options.ttlSeconds ?? config.previewTtlMinutes * 60) * 1000,
    trigger: options.trigger,
    rolloutId: options.rolloutId ?? null,
    heartbeatTimeoutMs: config.syncHeartbeatTimeoutSeconds * 1000,
    retry: config.syncRetry,
  };
}

/** Records a preview and starts its workflow (generation, then apply when autoApply). */
export async function startSync(deps: SyncRunnerDeps, request: PreviewRequest & { ttlSeconds?: number }): Promise<SyncPreview> {
  const preview = await createPreviewRecord(deps.orm.em, request, (id) => syncWorkflowId(deps.temporal.taskQueue, id));
  // A preview whose workflow never started would wait forever: it goes with the refused start.
  await unlessStarted(() => deps.orm.em.nativeDelete(SyncPreview, { id: preview.id }), () => startWorkflow(deps.temporal, syncWorkflow, {
    workflowId: preview.workflowId,
    eager: true,
    args: [syncWorkflowInput(deps.config, preview.id, { autoApply: request.autoApply, trigger: request.trigger, ttlSeconds: request.ttlSeconds })],
    staticSummary: `${request.autoApply ? 'Sync' : 'Sync preview'} of ${APP_OF[preview.arrType].label} instance "${preview.instanceName}" (${preview.sections.join(', ')})`,
    staticDetails: `Preview ${preview.id}; trigger ${request.trigger}; sections ${preview.sections.join(', ')}`,
    searchAttributes: searchAttributes({ kind: 'sync', arrType: preview.arrType, instanceIds: [preview.instanceId], trigger: request.trigger, syncStatus: 'generating' }),
  }));
  return preview;
}

/** The sync workflow's result if it finishes within `withinMs`. */
export function waitForSync(deps: SyncRunnerDeps, workflowId: string, withinMs: number): Promise<BoundedWait<SyncWorkflowResult>> {
  return workflowResultWithin(deps.temporal.client.workflow.getHandle<typeof syncWorkflow>(workflowId), withinMs);
}

/**
 * Waits at most `withinMs` for the preview to be generated (ready, or failed). A workflow that has
 * closed already is past generation.
 */
export function waitForPreviewGenerated(deps: SyncRunnerDeps, workflowId: string, withinMs: number): Promise<BoundedWait<unknown>> {
  const handle = deps.temporal.client.workflow.getHandle<typeof syncWorkflow>(workflowId);
  return waitWithin(handle.client, withinMs, async () => {
    try {
      return await handle.executeUpdate(previewGeneratedUpdate);
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) return null;
      throw error;
    }
  });
}

/**
 * Sends the apply update. A preview that expired (TTL passed, or the app moved since it was
 * generated) is refused with code stale, one whose app is now of another type with code
 * appMismatch; one that is not ready is a plain conflict.
 */
export async function requestApply(deps: SyncRunnerDeps, preview: Pick<SyncPreview, 'id' | 'trigger' | 'status' | 'workflowId'>): Promise<ApplyResponse> {
  const refusedFor = (status: string) =>
    status === 'expired' ? new AppError('conflict', `Preview ${preview.id} is stale: it expired before it was applied; generate a new one`, { code: 'stale' }) : conflict(`Preview ${preview.id} is ${status}: only a ready preview can be applied`);
  if (preview.trigger === 'canary') throw conflict(`Preview ${preview.id} belongs to a canary rollout; proceed the rollout instead`);
  if (preview.status !== 'ready') throw refusedFor(preview.status);
  let response: ApplyResponse;
  try {
    response = await deps.temporal.client.workflow.getHandle<typeof syncWorkflow>(preview.workflowId).executeUpdate(applyPreviewUpdate);
  } catch (error) {
    if (error instanceof WorkflowUpdateFailedError) {
      const refusal = error.cause instanceof ApplicationFailure ? error.cause : null;
      switch (refusal?.type) {
        case APPLY_REFUSALS.stale:
          throw refusedFor('expired');
        case APPLY_REFUSALS.notReady:
          throw refusedFor(String(refusal.details?.[0] ?? 'not ready'));
        default:
          throw refusedFor('not ready');
      }
    }
    deps.orm.em.clear();
    const current = await deps.orm.em.findOne(SyncPreview, { id: preview.id });
    if (current && current.status !== 'ready') throw refusedFor(current.status);
    throw translateTemporalError(error);
  }
  if (response.code === 'stale') {
    throw new AppError('conflict', `Preview ${preview.id} is stale: the instance changed since the preview was generated; generate a new one`, { code: 'stale' });
  }
  if (response.code === 'appMismatch') {
    const evidence = response.failure ?? failureEvidence('appMismatch');
    throw new AppError('conflict', `Preview ${preview.id} was not applied and nothing was written: ${evidence.message} ${evidence.recoveryAction}`, { code: 'appMismatch' });
  }
  return response;
}
