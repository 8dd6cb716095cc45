import {
  ApplicationFailure,
  condition,
  executeChild,
  ParentClosePolicy,
  patched,
  proxyLocalActivities,
  proxyActivities,
  setCurrentDetails,
  setHandler,
  startChild,
  upsertSearchAttributes,
  uuid4,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import {
  assembleEvidence,
  batchesFrom,
  canaryPasses,
  judgeCanary,
  proceedBlocker,
  summarizeCounts,
  targetResult,
  type Counts,
  type EvidenceEntry,
  type SyncOutcome,
  type TargetResult,
} from '../domain/canary';
import { canaryAbortReason, canaryPartialWarning, gateDeclinedReason, targetsFailedReason, type StatusReason } from '../domain/canary/status-reason';
import {
  driftCheckWorkflow,
  GATE_REFUSALS,
  gateUpdate,
  rolloutStateQuery,
  SA,
  searchAttributes,
  syncWorkflow,
  type CanaryRolloutInput,
  type GateRequest,
  type RolloutPatch,
  type RolloutTarget,
  type RolloutState,
  type SyncWorkflowInput,
  type SyncWorkflowResult,
} from './contracts';
import { EXECUTION_FAILED, evidenceOf, STALE } from './apply-failures';
import { settled } from './settle';
import { verifyAppliedRun } from './verify-apply';

const NO_COUNTS: Counts = { create: 0, update: 0, delete: 0, unchanged: 0 };

const bookkeeping = proxyLocalActivities<Activities>({ startToCloseTimeout: '1 minute', retry: { maximumAttempts: 10, nonRetryableErrorTypes: ['AppError'] } });
const evidence = proxyActivities<Activities>({ startToCloseTimeout: '5 minutes', retry: { maximumAttempts: 3, nonRetryableErrorTypes: ['AppError'] } });

/** Evidence previews are generated this many at a time (EVIDENCE_CONCURRENCY in chunks: rollouts started before the pool). */
const EVIDENCE_POOL = 5;
const EVIDENCE_CONCURRENCY = 20;
/** For rollouts started before their input carried the heartbeat timeout. */
const DEFAULT_EVIDENCE_HEARTBEAT_TIMEOUT_MS = 60_000;

/**
 * canary_running -> (aborted | awaiting_confirmation) -> (aborted | rolling_out) -> (completed | failed).
 * The canary is synced inline; each remaining target gets one evidence preview; at the gate a
 * human proceeds (the approved previews are applied in batches) or aborts (nothing is touched).
 */
export async function canaryRolloutWorkflow(input: CanaryRolloutInput): Promise<RolloutState> {
  const workflowId = workflowInfo().workflowId;
  const state: RolloutState = {
    status: 'canary_running',
    canaryStatus: 'running',
    stateToken: input.initialStateToken,
    warning: null,
    remainingPreview: null,
    rolloutIndex: 0,
    rolloutResults: [],
  };
  let decision: GateRequest | null = null;
  let transitions = 0;
  let persisted = 0;
  let evidenceRound = 0;

  /** Moves to a new state: new token at once (so a second concurrent gate request is refused), then persisted. */
  const transition = async (patch: Partial<RolloutState>, extra: Omit<RolloutPatch, keyof RolloutState> = {}) => {
    Object.assign(state, patch, { stateToken: uuid4() });
    transitions++;
    const mine = transitions;
    upsertSearchAttributes([{ key: SA.rolloutStatus, value: state.status }]);
    setCurrentDetails(details(input, state));
    const record: RolloutPatch = { ...patch, stateToken: state.stateToken, ...extra };
    await bookkeeping.recordRolloutState(input.rolloutId, record);
    persisted = Math.max(persisted, mine);
  };

  setHandler(rolloutStateQuery, () => state);
  setHandler(
    gateUpdate,
    async (request): Promise<RolloutState> => {
      decision = request;
      // Rotate now: a second request carrying the same token fails validation.
      state.stateToken = uuid4();
      const waitFor = transitions + 1;
      await condition(() => persisted >= waitFor);
      return state;
    },
    {
      validator: (request) => {
        const refuse = (type: string, message: string) => ApplicationFailure.create({ type, message, nonRetryable: true });
        if (!request || !['proceed', 'abort', 'refresh'].includes(request.action)) throw refuse(GATE_REFUSALS.invalid, 'action must be proceed, abort or refresh');
        if (request.stateToken !== state.stateToken) throw refuse(GATE_REFUSALS.staleToken, 'the state token is not the current one; read the rollout again');
        if (state.status !== 'awaiting_confirmation' || decision !== null) throw refuse(GATE_REFUSALS.wrongState, `the rollout is ${state.status}, not awaiting confirmation`);
        if (request.action === 'proceed') {
          const blocker = proceedBlocker(state.remainingPreview, input.targets, Date.now(), input.evidenceMaxAgeMs);
          if (blocker) throw refuse(GATE_REFUSALS.evidenceUnavailable, blocker);
        }
      },
    },
  );

  setCurrentDetails(details(input, state));
  upsertSearchAttributes([{ key: SA.rolloutStatus, value: state.status }]);

  // canary_running: sync the canary inline (preview, then apply). The remaining targets' evidence
  // previews only read the apps and do not depend on the canary, so they are built meanwhile; they
  // are shown only if the canary passes.
  const canaryChildId = `${workflowId}-canary-${input.canary.instanceId}`;
  const evidenceBuilt = buildEvidence();
  const canaryInput = await bookkeeping.prepareRolloutSync(input.rolloutId, input.canary.instanceId, canaryChildId);
  const canaryResult = await runSync(input, canaryChildId, canaryInput);
  const canaryStatus = judgeCanary(outcomeOf(canaryResult));
  const canaryDiagnostics = { previewId: canaryResult.previewId, runId: canaryResult.runId, summary: summarizeCounts(canaryResult.counts), failure: canaryResult.failure };
  let evidencePreviewIds = await evidenceBuilt;
  if (!canaryPasses(canaryStatus, input.partialPolicy)) {
    await bookkeeping.expireEvidencePreviews(evidencePreviewIds);
    state.remainingPreview = null;
    const reason = canaryAbortReason(input.canary.instanceName, canaryStatus, canaryResult.failure, input.targets.length, canaryResult.verification);
    await transition({ status: 'aborted', canaryStatus }, { canaryPreviewId: canaryResult.previewId, canaryDiagnostics, finished: true, ...recorded(reason) });
    return settled(state);
  }
  const warning = canaryStatus === 'partial' ? canaryPartialWarning(canaryResult.verification) : null;
  await transition({ canaryStatus, warning }, { canaryPreviewId: canaryResult.previewId, canaryDiagnostics });

  // The gate.
  for (;;) {
    decision = null;
    await transition({ status: 'awaiting_confirmation', remainingPreview: state.remainingPreview });
    await condition(() => decision !== null);
    const action = (decision as GateRequest | null)?.action;
    if (action === 'abort') {
      await bookkeeping.expireEvidencePreviews(evidencePreviewIds);
      await transition({ status: 'aborted' }, { finished: true, ...recorded(gateDeclinedReason(input.targets.length)) });
      return settled(state);
    }
    if (action === 'proceed') break;
    await bookkeeping.expireEvidencePreviews(evidencePreviewIds);
    evidencePreviewIds = await buildEvidence();
  }

  // rolling_out: apply the approved previews in batches, recording the index reached. Each target
  // is one apply activity of this workflow (run recorded before, completed after, one local
  // activity each per batch); rollouts started before this change go on with a child sync
  // workflow per target.
  await transition({ status: 'rolling_out' });
  const approved = new Map((state.remainingPreview?.entries ?? []).map((e) => [e.instanceId, e]));
  const targetsAsActivities = patched('rollout-targets-as-activities');
  for (const batch of batchesFrom(input.targets, input.batchSize, state.rolloutIndex)) {
    const entries = batch.items.map((target) => approved.get(target.instanceId)!);
    const results = targetsAsActivities ? await applyBatch(batch.items, entries) : await syncBatchAsChildren(batch.items, entries);
    await transition({ rolloutIndex: batch.start + batch.items.length, rolloutResults: [...state.rolloutResults, ...results] });
  }
  const allClean = state.rolloutResults.every((r) => r.status === 'success');
  await transition({ status: allClean ? 'completed' : 'failed' }, { finished: true, ...(allClean ? {} : recorded(targetsFailedReason(state.rolloutResults))) });
  return settled(state);

  async function applyBatch(targets: RolloutTarget[], entries: EvidenceEntry[]): Promise<TargetResult[]> {
    const previewIds = entries.map((e) => e.previewId!);
    // Verified apply: each applied target is read back before its run is completed (rollouts
    // started before this change complete their targets unverified, as they did).
    const verifyTargets = patched('verify-after-apply');
    const applies = await bookkeeping.startRolloutApplies(input.rolloutId, workflowId, previewIds);
    const failures = await Promise.all(
      targets.map(async (target, i) => {
        const apply = proxyActivities<Activities>({
          startToCloseTimeout: '1 hour',
          heartbeatTimeout: applies.heartbeatTimeoutMs,
          // Timeouts and 5xx are retried with backoff; other 4xx fail at once (as in a sync workflow's apply).
          retry: { initialInterval: applies.retry.initialIntervalMs, backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: applies.retry.maximumAttempts, nonRetryableErrorTypes: ['AppError'] },
          summary: `Rollout ${input.rolloutId}: apply preview ${previewIds[i]} to ${target.instanceName}`,
        });
        try {
          const applied = await apply.applySyncPlan(previewIds[i], applies.runIds[i], { checkFreshness: true });
          const failure = applied.stale ? STALE : (applied.refused ?? null);
          if (!failure && verifyTargets) await verifyAppliedRun(apply, bookkeeping, previewIds[i], applies.runIds[i]);
          return failure;
        } catch (error) {
          return EXECUTION_FAILED(evidenceOf(error));
        }
      }),
    );
    const runs = await bookkeeping.finishRolloutApplies(applies.runIds.map((runId, i) => ({ runId, failure: failures[i] })));
    // The stored drift results of the instances written to no longer describe them: check again, in the background.
    for (const [i, run] of runs.entries()) {
      if (run.refreshDriftOf === null) continue;
      await startChild(driftCheckWorkflow, {
        workflowId: `${workflowId}-target-${targets[i].instanceId}-drift`,
        args: [run.refreshDriftOf],
        parentClosePolicy: ParentClosePolicy.ABANDON,
        workflowExecutionTimeout: '10 minutes',
        typedSearchAttributes: searchAttributes({ kind: 'drift-check', instanceIds: [run.refreshDriftOf] }),
      }).catch(() => undefined /* a refresh of this instance for this rollout already started */);
    }
    return targets.map((target, i) => {
      const outcome: SyncOutcome = { previewStatus: runs[i].failure ? 'failed' : 'applied', runStatus: runs[i].status, counts: entries[i].counts ?? NO_COUNTS, failure: runs[i].failure };
      return targetResult(target, outcome, { previewId: previewIds[i], runId: applies.runIds[i] });
    });
  }

  /** How rollouts started before targets became activities go on: a child sync workflow per target. */
  async function syncBatchAsChildren(targets: RolloutTarget[], entries: EvidenceEntry[]): Promise<TargetResult[]> {
    const childIds = targets.map((target) => `${workflowId}-target-${target.instanceId}`);
    const syncInputs = await bookkeeping.evidenceApplyInputs(
      input.rolloutId,
      targets.map((_, i) => ({ previewId: entries[i].previewId!, childWorkflowId: childIds[i], counts: entries[i].counts })),
    );
    return Promise.all(
      targets.map(async (target, i) => {
        const result = await runSync(input, childIds[i], syncInputs[i]);
        return targetResult(target, outcomeOf(result), { previewId: result.previewId, runId: result.runId });
      }),
    );
  }

  async function buildEvidence(): Promise<number[]> {
    evidenceRound++;
    const expiresAtMs = Date.now() + input.evidenceMaxAgeMs;
    const build = (target: RolloutTarget) =>
      evidence.buildEvidencePreview(input.rolloutId, target.instanceId, workflowId, evidenceRound, expiresAtMs, { instanceName: target.instanceName, arrType: input.arrType, sections: input.sections });
    let entries: EvidenceEntry[];
    if (patched('evidence-in-one-activity')) {
      // One activity for the round: an activity per target cost a workflow task per completion.
      // Its heartbeat carries the entries built so far (a retry builds only the rest) and shows the progress.
      const round = proxyActivities<Activities>({
        startToCloseTimeout: '1 hour',
        heartbeatTimeout: input.heartbeatTimeoutMs ?? DEFAULT_EVIDENCE_HEARTBEAT_TIMEOUT_MS,
        retry: { maximumAttempts: 3, nonRetryableErrorTypes: ['AppError'] },
        summary: `Rollout ${input.rolloutId}: evidence round ${evidenceRound}, ${input.targets.length} target previews`,
      });
      setCurrentDetails(details(input, state, `Building remaining-preview evidence for ${input.targets.length} targets (progress: the evidence activity's heartbeat)`));
      entries = await round.buildEvidencePreviews({
        rolloutId: input.rolloutId,
        ownerWorkflowId: workflowId,
        round: evidenceRound,
        expiresAtMs,
        concurrency: EVIDENCE_POOL,
        arrType: input.arrType,
        sections: input.sections,
        targets: input.targets,
      });
    } else if (patched('evidence-pool')) {
      // A pool: the evidence only has to be ready by the end of the canary's sync, and fewer
      // previews at once leave the canary's own reads and writes (the critical path) room.
      let built = 0;
      entries = await pooled(input.targets, EVIDENCE_POOL, async (target) => {
        const entry = await build(target);
        built++;
        setCurrentDetails(details(input, state, `Building remaining-preview evidence: ${built}/${input.targets.length}`));
        return entry;
      });
    } else {
      entries = [];
      for (let i = 0; i < input.targets.length; i += EVIDENCE_CONCURRENCY) {
        entries.push(...(await Promise.all(input.targets.slice(i, i + EVIDENCE_CONCURRENCY).map(build))));
        setCurrentDetails(details(input, state, `Building remaining-preview evidence: ${entries.length}/${input.targets.length}`));
      }
    }
    state.remainingPreview = assembleEvidence(entries, new Date(Date.now()));
    return entries.map((e) => e.previewId).filter((id): id is number => id !== null);
  }
}

/** Runs fn over items, at most `limit` at a time, starting the next as one finishes; results in item order. */
async function pooled<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}

async function runSync(input: CanaryRolloutInput, workflowId: string, syncInput: SyncWorkflowInput): Promise<SyncWorkflowResult> {
  return executeChild(syncWorkflow, {
    workflowId,
    args: [syncInput],
    staticSummary: `Canary rollout ${input.rolloutId}: sync of preview ${syncInput.previewId}`,
    typedSearchAttributes: [
      { key: SA.kind, value: 'sync' },
      { key: SA.arrType, value: input.arrType },
      { key: SA.trigger, value: 'canary' },
      { key: SA.syncStatus, value: 'generating' },
      { key: SA.instanceIds, value: [String(instanceOf(input, workflowId))] },
    ],
  });
}

function instanceOf(input: CanaryRolloutInput, childId: string): number {
  const match = /-(?:canary|target)-(\d+)$/.exec(childId);
  return match ? Number(match[1]) : input.canary.instanceId;
}

/** A reason as the rollout row stores it. */
function recorded(reason: StatusReason): Pick<RolloutPatch, 'statusReasonCode' | 'statusReason'> {
  return { statusReasonCode: reason.code, statusReason: reason.text };
}

function outcomeOf(result: SyncWorkflowResult): SyncOutcome {
  return { previewStatus: result.status, runStatus: result.runStatus, counts: result.counts, failure: result.failure };
}

/** Current details for the Temporal Web UI: stage and progress, in markdown. */
function details(input: CanaryRolloutInput, state: RolloutState, note?: string): string {
  const lines = [
    `**Stage:** ${state.status}`,
    `**Canary:** ${input.canary.instanceName} (${state.canaryStatus})`,
    `**Progress:** ${state.rolloutIndex}/${input.targets.length} targets rolled out`,
  ];
  const failed = state.rolloutResults.filter((r) => r.status !== 'success').length;
  if (state.rolloutResults.length) lines.push(`**Results:** ${state.rolloutResults.length - failed} synced, ${failed} failed`);
  if (state.remainingPreview) lines.push(`**Evidence:** ${state.remainingPreview.availability}`);
  if (state.warning) lines.push(`**Warning:** ${state.warning}`);
  if (note) lines.push(note);
  return lines.join('\n\n');
}
