import {
  ApplicationFailure,
  ParentClosePolicy,
  condition,
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
import type { FailureEvidence } from '../domain/failure-evidence';
import { EXECUTION_FAILED, evidenceOf, STALE } from './apply-failures';
import type { PreviewStatus, VerificationSummary } from '../domain/sync';
import { verifyAppliedRun } from './verify-apply';
import { settled } from './settle';
import {
  APPLY_REFUSALS,
  applyPreviewUpdate,
  driftCheckWorkflow,
  previewGeneratedUpdate,
  previewStatusQuery,
  SA,
  searchAttributes,
  type ApplyResponse,
  type SyncWorkflowInput,
  type SyncWorkflowResult,
} from './contracts';

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
  /** Why an accepted apply was refused before it wrote anything (the update answers with it). */
  let refusal: Pick<ApplyResponse, 'code' | 'failure'> | null = null;
  const result: SyncWorkflowResult = {
    previewId: input.previewId,
    status,
    runId: null,
    runStatus: null,
    counts: { create: 0, update: 0, delete: 0, unchanged: 0 },
    failure: null,
    verification: null,
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
  setHandler(previewGeneratedUpdate, async () => {
    await condition(() => persisted !== 'generating');
    return { status: persisted };
  });
  setHandler(
    applyPreviewUpdate,
    async (): Promise<ApplyResponse> => {
      applyRequested = true;
      // Answer once the outcome (applying, or expired when stale) is in the database too.
      await condition(() => persisted !== 'ready' && persisted === status);
      return refusal ? { status, ...refusal } : { status };
    },
    {
      validator: () => {
        const expired = status === 'expired' || (status === 'ready' && expiresAtMs !== null && Date.now() >= expiresAtMs);
        if (expired) throw ApplicationFailure.create({ type: APPLY_REFUSALS.stale, message: 'the preview expired', nonRetryable: true });
        if (status !== 'ready') throw ApplicationFailure.create({ type: APPLY_REFUSALS.notReady, message: `the preview is ${status}`, details: [status], nonRetryable: true });
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
      return settled(result);
    }
    expiresAtMs = Date.now() + input.ttlMs;
    await transition('ready', () => quick.recordPreviewStatus(input.previewId, 'ready', { expiresAtMs: expiresAtMs! }));
  }

  if (!(await condition(() => applyRequested, input.ttlMs))) {
    await transition('expired', () => quick.recordPreviewStatus(input.previewId, 'expired', { failure: STALE }));
    result.failure = STALE;
    return settled(result);
  }
  // A preview generated moments ago for an automatic apply (one-step sync, canary) needs no check:
  // nobody reviewed it in between. One applied as it is (generate false) is checked inside the
  // apply attempt instead. A preview a person applies later is checked here, so the update can
  // answer stale (expired), or appMismatch (failed) when the app at the URL is now of another type.
  if (input.generate !== false && !input.autoApply) {
    const fresh = await quick.checkPreviewFresh(input.previewId);
    if (fresh !== true) {
      const failure = fresh === false ? STALE : fresh;
      const next = fresh === false ? 'expired' : 'failed';
      refusal = fresh === false ? { code: 'stale' } : { code: 'appMismatch', failure };
      result.failure = failure;
      await transition(next, () => quick.recordPreviewStatus(input.previewId, next, { failure }));
      return settled(result);
    }
  }

  // Recording the run also moves the preview to applying (one step, fewer round trips).
  const runId = await transition('applying', () => quick.startSyncRun(input.previewId, workflowInfo().workflowId, input.trigger, input.rolloutId));
  result.runId = runId;
  let failure: FailureEvidence | null = null;
  try {
    const applied = await apply.applySyncPlan(input.previewId, runId, { checkFreshness: input.generate === false });
    if (applied.stale) failure = STALE;
    else if (applied.refused) failure = applied.refused;
  } catch (error) {
    failure = EXECUTION_FAILED(evidenceOf(error));
  }
  // Verified apply: what was written is read back before the run is completed, which reads the
  // stored verification (a field that did not land makes the run partial). Applies started before
  // this change complete unverified, as they did.
  if (!failure && patched('verify-after-apply')) result.verification = await verifyRun(apply, runId);
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
        typedSearchAttributes: searchAttributes({ kind: 'drift-check', instanceIds: [run.refreshDriftOf] }),
      });
    } catch {
      /* a refresh for this apply already started */
    }
  }
  return settled(result);

  async function verifyRun(activities: typeof apply, run: number): Promise<VerificationSummary> {
    setCurrentDetails(`Preview ${input.previewId}: verifying the apply`);
    return verifyAppliedRun(activities, quick, input.previewId, run);
  }
}
