import { RequestContext, type EntityManager } from '@mikro-orm/core';
import { Context } from '@temporalio/activity';
import type { Counts, EvidenceEntry } from '../domain/canary';
import { rolloutEvent, type RolloutEventStatus } from '../domain/notifications';
import { CanaryRollout, SyncPreview, SyncRun } from '../persistence/entities';
import { insertPreviewRecord } from '../services/sync/preview-records';
import { syncWorkflowInput } from '../services/sync/sync-runner';
import type { RolloutApplies, RolloutPatch, RolloutTarget, SyncWorkflowInput } from '../workflows/contracts';
import type { ActivityDeps } from './deps';
import { computePreview, newRunRecord, syncActivities, type SyncRunResult } from './sync-activities';
import type { FailureEvidence } from '../domain/failure-evidence';
import type { PendingChanges } from '../domain/canary/precheck';
import { readPreviewTarget } from '../services/sync/preview-target';
import { progressHeartbeat, withHeartbeat } from './heartbeat';
import { notify } from './notify';
import { Slots } from '../services/slots';
import { logFailure } from '../platform/logger';

const NOTIFIED_ROLLOUT_STATUSES: ReadonlySet<string> = new Set<RolloutEventStatus>(['awaiting_confirmation', 'completed', 'failed', 'aborted']);

/** What a rollout's workflow holds about a target, for its evidence preview's row. */
export interface EvidenceTarget {
  instanceName: string;
  arrType: SyncPreview['arrType'];
  sections: string[];
}

/** One evidence round of a rollout: every remaining target's preview, `concurrency` at a time. */
export interface EvidenceRound {
  rolloutId: number;
  ownerWorkflowId: string;
  round: number;
  expiresAtMs: number;
  concurrency: number;
  arrType: SyncPreview['arrType'];
  sections: string[];
  targets: { instanceId: number; instanceName: string }[];
}

/** What the evidence round heartbeats: the entries built so far, so a retried attempt builds only the rest. */
interface EvidenceProgress {
  built: EvidenceEntry[];
  total: number;
}

export function canaryActivities(deps: ActivityDeps) {
  const sync = syncActivities(deps);
  const em = () => deps.orm.em;

  /**
   * A sync preview owned by a rollout, for one instance (idempotent per workflow id). `known`: what
   * the rollout's workflow already holds about the target (read from the rollout otherwise).
   */
  async function rolloutPreview(rolloutId: number, instanceId: number, workflowId: string, autoApply: boolean, known?: EvidenceTarget): Promise<{ id: number; instanceName: string }> {
    const existing = await em().findOne(SyncPreview, { workflowId, instanceId }, { fields: ['id', 'instanceName'] });
    if (existing) return existing;
    const target = known ?? (await targetOf(rolloutId, instanceId));
    const id = await insertPreviewRecord(em(), { instanceId, instanceName: target.instanceName, arrType: target.arrType, sections: target.sections, trigger: 'canary', autoApply, workflowId });
    return { id, instanceName: target.instanceName };
  }

  async function targetOf(rolloutId: number, instanceId: number): Promise<EvidenceTarget> {
    const rollout = await em().findOneOrFail(CanaryRollout, { id: rolloutId }, { exclude: ['remainingPreview', 'rolloutResults'] });
    const instanceName = instanceId === rollout.canaryInstanceId ? rollout.canaryInstanceName : (rollout.targets.find((t) => t.instanceId === instanceId)?.instanceName ?? `instance ${instanceId}`);
    return { instanceName, arrType: rollout.arrType, sections: rollout.sections };
  }

  /** At the gate (once per rollout: the event id is the rollout's) and at its end. */
  async function notifyRollout(rolloutId: number, status: RolloutEventStatus, tx: EntityManager): Promise<void> {
    const rollout = await tx.findOne(CanaryRollout, { id: rolloutId }, { fields: ['arrType', 'canaryInstanceName', 'targets', 'workflowId', 'warning', 'statusReasonCode', 'statusReason'] });
    if (!rollout) return;
    await notify(
      deps,
      (links) =>
        rolloutEvent(links, {
          rolloutId,
          status,
          arrType: rollout.arrType,
          canaryInstanceName: rollout.canaryInstanceName,
          targetCount: rollout.targets.length,
          workflowId: rollout.workflowId,
          at: new Date(),
          warning: rollout.warning,
          statusReason: rollout.statusReasonCode && rollout.statusReason ? { code: rollout.statusReasonCode, text: rollout.statusReason } : null,
        }),
      `rollout:${rolloutId}`,
      tx,
    );
  }

  /** Generates one target's evidence preview (kept, with its plan, for the rollout to apply). */
  async function buildEvidencePreview(rolloutId: number, instanceId: number, ownerWorkflowId: string, round: number, expiresAtMs: number, target?: EvidenceTarget): Promise<EvidenceEntry> {
    const preview = await rolloutPreview(rolloutId, instanceId, `${ownerWorkflowId}#evidence-${round}`, false, target);
    const generated = await sync.generateSyncPreview(preview.id);
    await sync.recordPreviewStatus(preview.id, generated.status, { expiresAtMs });
    return {
      instanceId,
      instanceName: preview.instanceName,
      previewId: preview.id,
      status: generated.status,
      counts: generated.status === 'ready' ? generated.counts : null,
      failure: generated.failure,
    };
  }

  return {
    async recordRolloutState(rolloutId: number, patch: RolloutPatch): Promise<void> {
      const { finished, ...changes } = patch;
      const notified = changes.status && NOTIFIED_ROLLOUT_STATUSES.has(changes.status) ? (changes.status as RolloutEventStatus) : null;
      // The state and its event commit together: a retried record neither loses nor repeats it.
      await em()
        .fork()
        .transactional(async (tx) => {
          await tx.nativeUpdate(CanaryRollout, { id: rolloutId }, { ...changes, updatedAt: new Date(), ...(finished ? { finishedAt: new Date() } : {}) });
          if (notified) await notifyRollout(rolloutId, notified, tx);
        });
      if (notified) deps.outbox?.kick();
    },

    /** Records the preview a child sync workflow will generate and apply; returns its workflow input. */
    async prepareRolloutSync(rolloutId: number, instanceId: number, childWorkflowId: string): Promise<SyncWorkflowInput> {
      const preview = await rolloutPreview(rolloutId, instanceId, childWorkflowId, true);
      return syncWorkflowInput(deps.config, preview.id, { autoApply: true, trigger: 'canary', rolloutId });
    },

    buildEvidencePreview,

    /**
     * A rollout's pre-check: what a sync of each instance would change, `concurrency` at a time,
     * computed as a preview is but stored nowhere. An instance that cannot be read (app failure,
     * database not ready, anything unexpected) is reported as unreadable, never thrown.
     */
    async readPendingChanges(input: { instances: RolloutTarget[]; sections: string[]; concurrency: number }): Promise<PendingChanges[]> {
      const slots = new Slots(input.concurrency);
      return withHeartbeat(() => ({ instances: input.instances.length }), () => Promise.all(
        input.instances.map((instance) =>
          slots.run(() =>
            RequestContext.create(deps.orm.em, async (): Promise<PendingChanges> => {
              try {
                const computed = await computePreview(deps, await readPreviewTarget(em(), instance.instanceId), { ...instance, sections: input.sections });
                if (computed.status === 'ready') return { ...instance, readable: true, counts: computed.counts };
                return { ...instance, readable: false, failure: computed.failure.cause ?? computed.failure.code };
              } catch (error) {
                logFailure(deps.logger, 'warn', { instanceId: instance.instanceId }, error, 'rollout pre-check read failed');
                return { ...instance, readable: false, failure: 'internalError' };
              }
            }),
          ),
        ),
      ));
    },

    /**
     * Builds a whole evidence round in one activity (one activity per target cost a workflow task
     * per completion): the entries come back in target order. Each built entry is heartbeated, so
     * a retried attempt (worker lost) builds only the rest; the heartbeat also shows the progress.
     */
    async buildEvidencePreviews(round: EvidenceRound): Promise<EvidenceEntry[]> {
      const ctx = Context.current();
      const resumed = ctx.info.heartbeatDetails as EvidenceProgress | undefined;
      const built = new Map((resumed?.built ?? []).map((entry) => [entry.instanceId, entry]));
      const { beat, stop } = progressHeartbeat(ctx, () => ({ built: [...built.values()], total: round.targets.length }) satisfies EvidenceProgress);
      const slots = new Slots(round.concurrency);
      try {
        await Promise.all(
          round.targets
            .filter((target) => !built.has(target.instanceId))
            .map((target) =>
              slots.run(async () => {
                // Each preview in a unit of work of its own, as it had in an activity of its own.
                const entry = await RequestContext.create(deps.orm.em, () =>
                  buildEvidencePreview(round.rolloutId, target.instanceId, round.ownerWorkflowId, round.round, round.expiresAtMs, { instanceName: target.instanceName, arrType: round.arrType, sections: round.sections }),
                );
                built.set(target.instanceId, entry);
                beat();
              }),
            ),
        );
      } finally {
        stop();
      }
      return round.targets.map((target) => built.get(target.instanceId)!);
    },

    /** Evidence previews that will never be applied (gate declined, evidence refreshed) expire. */
    async expireEvidencePreviews(previewIds: number[]): Promise<void> {
      if (!previewIds.length) return;
      await em().nativeUpdate(SyncPreview, { id: { $in: previewIds }, status: 'ready' }, { status: 'expired', updatedAt: new Date() });
    },

    /**
     * Starts the applies of a batch of approved evidence previews, which the rollout applies itself
     * (one activity per target, no child workflow): in one transaction each preview moves to
     * applying with its run recorded against the rollout's workflow. Idempotent: a preview that
     * already has a run (a rollout resumed after this step) keeps it.
     */
    async startRolloutApplies(rolloutId: number, workflowId: string, previewIds: number[]): Promise<RolloutApplies> {
      const runIds = await em().transactional(async (tx) => {
        const previews = await tx.find(SyncPreview, { id: { $in: previewIds } }, { exclude: ['plan'] });
        const byId = new Map(previews.map((p) => [p.id, p]));
        const runs = previewIds.map((id) => {
          const preview = byId.get(id);
          if (!preview) throw new Error(`evidence preview ${id} is gone`);
          return preview.runId ?? tx.create(SyncRun, newRunRecord(preview, { trigger: 'canary', rolloutId, workflowId }));
        });
        await tx.flush();
        const ids = runs.map((run) => (typeof run === 'number' ? run : run.id));
        for (const [i, previewId] of previewIds.entries()) {
          await tx.nativeUpdate(SyncPreview, { id: previewId }, { status: 'applying', runId: ids[i], autoApply: true, workflowId, updatedAt: new Date() });
        }
        return ids;
      });
      const { heartbeatTimeoutMs, retry } = syncWorkflowInput(deps.config, previewIds[0], { autoApply: true, trigger: 'canary', rolloutId });
      return { runIds, heartbeatTimeoutMs, retry };
    },

    /** Completes a batch's runs (and their previews) from their recorded outcomes, in order. */
    async finishRolloutApplies(items: { runId: number; failure: FailureEvidence | null }[]): Promise<SyncRunResult[]> {
      return sync.finishSyncRuns(items);
    },

    /**
     * The inputs of a batch's child sync workflows, each applying an approved evidence preview as
     * it is: the previews pass to their child workflows in one transaction for the whole batch.
     * Counts come from the evidence when it has them (read from the preview otherwise).
     */
    async evidenceApplyInputs(rolloutId: number, items: { previewId: number; childWorkflowId: string; counts: Counts | null }[]): Promise<SyncWorkflowInput[]> {
      await em().transactional(async (tx) => {
        for (const item of items) await tx.nativeUpdate(SyncPreview, { id: item.previewId }, { workflowId: item.childWorkflowId, autoApply: true, updatedAt: new Date() });
      });
      const inputs: SyncWorkflowInput[] = [];
      for (const item of items) {
        const counts = item.counts ?? (await sync.previewCounts(item.previewId));
        inputs.push({ ...syncWorkflowInput(deps.config, item.previewId, { autoApply: true, trigger: 'canary', rolloutId }), generate: false, counts });
      }
      return inputs;
    },
  };
}
