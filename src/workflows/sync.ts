import {
  ActivityFailure,
  ApplicationFailure,
  ParentClosePolicy,
  condition,
  defineQuery,
  defineUpdate,
  proxyActivities,
  patched,
  proxyLocalActivities,
  setCurrentDetails,
  startChild,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import { APP_FAILURE_CODES, type AppFailureCode, type FailureEvidence } from '../domain/failure-evidence';
import type { PreviewStatus } from '../persistence/entities';
import { driftCheckWorkflow } from './drift';
import { SA } from './search-attributes';

export interface SyncWorkflowInput {
  previewId: number;
  /** Apply as soon as the preview is ready (POST /instances/{id}/sync, canary rollouts). */
  autoApply: boolean;
  /** Staleness TTL of the preview: applying after it is refused. */
  ttlMs: number;
  trigger: 'manual' | 'canary' | 'schedule';
  rolloutId: number | null;
  /** How long an apply attempt may go without a heartbeat before another worker takes over. */
  heartbeatTimeoutMs: number;
  /** Apply retries (timeouts and 5xx only). */
  retry: { initialIntervalMs: number; maximumAttempts: number };
  /**
   * False: the preview was generated and approved elsewhere (canary evidence); apply it as it is,
   * after the freshness check. Default true.
   */
  generate?: boolean;
  /** With generate false: the preview's counts, when the caller has them. */
  counts?: SyncWorkflowResult['counts'];
}

export interface SyncWorkflowResult {
  previewId: number;
  status: PreviewStatus;
  runId: number | null;
  runStatus: 'success' | 'partial' | 'failed' | null;
  counts: { create: number; update: number; delete: number; unchanged: number };
  failure: FailureEvidence | null;
}

export interface ApplyResponse {
  status: PreviewStatus;
  /** Set when the apply was refused after acceptance (the app moved since the preview). */
  code?: 'stale';
}

export const applyPreviewUpdate = defineUpdate<ApplyResponse>('apply');
export const previewStatusQuery = defineQuery<{ status: PreviewStatus; expiresAtMs: number | null }>('status');

const STALE: FailureEvidence = {
  code: 'stale',
  message: 'The preview is too old to apply safely.',
  recoveryAction: 'Generate a new preview and apply that one.',
};
const EXECUTION_FAILED = (cause: FailureEvidence | null): FailureEvidence => ({
  code: 'executionFailed',
  message: cause ? `The apply run did not complete successfully: ${cause.message}` : 'The apply run did not complete successfully.',
  recoveryAction: cause?.recoveryAction ?? 'Review the per-entity outcomes, then generate a new preview and apply again.',
  cause: cause && isAppFailureCode(cause.code) ? cause.code : null,
});

const APP_FAILURES: readonly string[] = APP_FAILURE_CODES;
function isAppFailureCode(code: string): code is AppFailureCode {
  return APP_FAILURES.includes(code);
}

// Short bookkeeping and the preview itself run as local activities: no task-queue round trip per
// step, which keeps many concurrent previews cheap. The apply, long and resumable, is a regular one.
const quick = proxyLocalActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumAttempts: 5, nonRetryableErrorTypes: ['AppError'] },
});

/**
 * One sync preview, and its apply: generating -> ready (-> applying -> applied | failed) or
 * expired when the staleness TTL passes first, or failed when generation failed. The status is
 * persisted at every transition and queryable while the workflow runs.
 */
export async function syncWorkflow(input: SyncWorkflowInput): Promise<SyncWorkflowResult> {
  const apply = proxyActivities<Activities>({
    startToCloseTimeout: '1 hour',
    heartbeatTimeout: input.heartbeatTimeoutMs,
    // Timeouts and 5xx are retried with backoff; other 4xx fail at once (non-retryable failures).
    retry: {
      initialInterval: input.retry.initialIntervalMs,
      backoffCoefficient: 2,
      maximumInterval: '1 minute',
      maximumAttempts: input.retry.maximumAttempts,
      nonRetryableErrorTypes: ['AppError'],
    },
  });
  let status: PreviewStatus = 'generating';
  let persisted: PreviewStatus = 'generating';
  let expiresAtMs: number | null = null;
  let applyRequested = input.autoApply;
  let refusedStale = false;
  const result: SyncWorkflowResult = {
    previewId: input.previewId,
    status,
    runId: null,
    runStatus: null,
    counts: { create: 0, update: 0, delete: 0, unchanged: 0 },
    failure: null,
  };

  // The workflow's own state moves first, then the database: a client that reads the new status
  // from the database always finds the workflow already there.
  const transition = async <T = void>(next: PreviewStatus, persist: () => Promise<T> = () => quick.recordPreviewStatus(input.previewId, next) as Promise<T>): Promise<T> => {
    status = next;
    result.status = next;
    upsertSearchAttributes([{ key: SA.syncStatus, value: next }]);
    setCurrentDetails(`Preview ${input.previewId}: ${next}`);
    const value = await persist();
    persisted = next;
    return value;
  };

  setHandler(previewStatusQuery, () => ({ status, expiresAtMs }));
  setHandler(
    applyPreviewUpdate,
    async (): Promise<ApplyResponse> => {
      applyRequested = true;
      // Answer once the outcome (applying, or expired when stale) is in the database too.
      await condition(() => persisted !== 'ready' && persisted === status);
      return refusedStale ? { status, code: 'stale' } : { status };
    },
    {
      validator: () => {
        if (status === 'ready' && expiresAtMs !== null && Date.now() >= expiresAtMs) throw new Error('stale: the preview expired');
        if (status !== 'ready') throw new Error(status === 'expired' ? 'stale: the preview expired' : `conflict: the preview is ${status}`);
      },
    },
  );

  if (input.generate === false) {
    result.counts = input.counts ?? (await quick.previewCounts(input.previewId));
    status = 'ready';
    persisted = 'ready';
    expiresAtMs = Date.now() + input.ttlMs;
  } else {
    setCurrentDetails(`Preview ${input.previewId}: generating`);
    upsertSearchAttributes([{ key: SA.syncStatus, value: 'generating' }]);
    const generated = await quick.generateSyncPreview(input.previewId);
    result.counts = generated.counts;
    if (generated.status === 'failed') {
      result.failure = generated.failure;
      await transition('failed');
      return result;
    }
    expiresAtMs = Date.now() + input.ttlMs;
    await transition('ready', () => quick.recordPreviewStatus(input.previewId, 'ready', { expiresAtMs: expiresAtMs! }));
  }

  if (!(await condition(() => applyRequested, input.ttlMs))) {
    await transition('expired', () => quick.recordPreviewStatus(input.previewId, 'expired', { failure: STALE }));
    result.failure = STALE;
    return result;
  }
  // A preview generated moments ago for an automatic apply (one-step sync, canary) needs no check:
  // nobody reviewed it in between. One applied as it is (generate false) is checked inside the
  // apply attempt instead. A preview a person applies later is checked here, so the update can
  // answer stale.
  if (input.generate !== false && !input.autoApply && !(await quick.checkPreviewFresh(input.previewId))) {
    refusedStale = true;
    result.failure = STALE;
    await transition('expired', () => quick.recordPreviewStatus(input.previewId, 'expired', { failure: STALE }));
    return result;
  }

  // Recording the run also moves the preview to applying (one step, fewer round trips).
  const runId = await transition('applying', () => quick.startSyncRun(input.previewId, workflowInfo().workflowId, input.trigger, input.rolloutId));
  result.runId = runId;
  let failure: FailureEvidence | null = null;
  try {
    const applied = await apply.applySyncPlan(input.previewId, runId, { checkFreshness: input.generate === false });
    if (applied.stale) failure = STALE;
  } catch (error) {
    failure = EXECUTION_FAILED(evidenceOf(error));
  }
  const run = await transition(failure ? 'failed' : 'applied', () => quick.finishSyncRun(runId, failure));
  result.failure = run.failure;
  result.runStatus = run.status;
  // The stored drift result of the instance no longer describes it: check again, in the background.
  if (run.refreshDriftOf !== null && run.refreshDriftOf !== undefined && patched('refresh-drift-after-apply')) {
    try {
      await startChild(driftCheckWorkflow, {
        workflowId: `${workflowInfo().workflowId}-drift`,
        args: [run.refreshDriftOf],
        parentClosePolicy: ParentClosePolicy.ABANDON,
        workflowExecutionTimeout: '10 minutes',
        typedSearchAttributes: [
          { key: SA.kind, value: 'drift-check' },
          { key: SA.instanceIds, value: [String(run.refreshDriftOf)] },
        ],
      });
    } catch {
      /* a refresh for this apply already started */
    }
  }
  return result;
}

/** The pre-authored evidence an activity attached to its failure, if any. */
function evidenceOf(error: unknown): FailureEvidence | null {
  const cause = error instanceof ActivityFailure ? error.cause : error;
  if (cause instanceof ApplicationFailure) {
    const evidence = (cause.details?.[0] as { evidence?: FailureEvidence } | undefined)?.evidence;
    if (evidence) return evidence;
  }
  return null;
}
