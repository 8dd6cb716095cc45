import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { notFound } from '../errors';
import { createArrClient } from '../clients/arr-client';
import { AppRequestError } from '../clients/http';
import { evidenceForAppFailure, failureEvidence, isAppCallFailure, type AppCallFailure, type FailureEvidence } from '../domain/failure-evidence';
import {
  annotateOrigins,
  applyPlan,
  AppMovedDuringApply,
  completeRun,
  ledgerWrites,
  liveNeeds,
  planSync,
  summarizeVerification,
  unreadableVerification,
  verificationNeeds,
  verifyPlan,
  writtenSteps,
  type ApplyVerification,
  type StepOutcome,
  type SyncSection,
  type VerificationSummary,
  type WritePlan,
} from '../domain/sync';
import { SyncPreview, SyncRun, type PreviewStatus } from '../persistence/entities';
import { InstanceService } from '../services/instances/instance-service';
import { checkAppIdentity } from '../services/instances/app-identity';
import { fingerprint, readLiveState, unreadLiveState, type LivePart } from '../services/sync/live-state';
import { readApplySubject, readPreviewSubject, storeGeneratedPreview, unreadyDatabase, type ApplySubject, type GeneratedRow, type PreviewTarget } from '../services/sync/preview-target';
import { readRunsToFinish, storeFinishedRuns, storeRunOutcomes, storeRunVerification } from '../services/sync/run-rows';
import type { ActivityDeps } from './deps';
import { notificationEntry } from './notify';
import { progressHeartbeat } from './heartbeat';
import { syncRunEvent } from '../domain/notifications';
import { syncApplyDuration, syncRunsTotal } from '../platform/metrics';
import { probe } from '../platform/profiling';
import { configuredSyncSource } from '../services/sync/sync-source';
import { readLedger, writeLedger } from '../services/sync/ledger-service';
import { APPLY_LEASE_RENEW_MS, applyLeaseHolder, othersAppliedSince, releaseApplyLease, takeApplyLease, takeApplyLeaseNotingOthers } from '../services/sync/apply-lease';
import { logFailure } from '../platform/logger';

/** App failures worth retrying (with backoff); the rest (rejected, unauthorized, notFound) are final. */
const RETRYABLE: ReadonlySet<AppCallFailure> = new Set(['timeout', 'serverError', 'unreachable', 'invalidResponse']);
export const APP_FAILURE_PREFIX = 'app:';
/** How often an apply waiting for another apply of its instance asks for the lease again. */
const APPLY_LEASE_POLL_MS = 1_000;
/**
 * How long a preview waits for a database in the middle of a pull (its cache `building`, from the
 * fetch to the end of the rebuild, usually well under a second) before failing: a sync nobody is
 * watching (a canary, a one-step or scheduled sync) would otherwise fail on a pull that ends at once.
 */
const CACHE_BUILD_WAIT_MS = 30_000;
const CACHE_BUILD_POLL_MS = 250;

/** What an apply attempt heartbeats: where a retry resumes, and the freshness decision it may reuse. */
interface ApplyHeartbeat {
  next?: number;
  total?: number;
  /** Freshness was decided under the lease of this generation. */
  checked?: boolean;
  generation?: number;
  /** The run holding the instance's lease while this one waits for it. */
  waitingForRun?: number | null;
}

export interface GeneratedPreview {
  status: 'ready' | 'failed';
  counts: { create: number; update: number; delete: number; unchanged: number };
  failure: FailureEvidence | null;
}

export interface ApplySummary {
  steps: number;
  written: number;
  /** The app moved since the preview (or, for a resumed run, since its last step): nothing (more) was written. */
  stale?: boolean;
  /** The app at the instance's URL is of another type (appMismatch): nothing (more) was written. */
  refused?: FailureEvidence;
}

export interface SyncRunResult {
  status: 'success' | 'partial' | 'failed';
  failure: FailureEvidence | null;
  /** The instance whose stored drift result the writes made out of date (null: none to refresh). */
  refreshDriftOf: number | null;
}

/** A run record for an apply of `preview` that starts now. */
export function newRunRecord(preview: Omit<SyncPreview, 'plan'>, run: { trigger: string; rolloutId: number | null; workflowId: string }) {
  const body = (preview.preview ?? {}) as { sections?: string[]; counts?: { create: number; update: number; delete: number } };
  const sections = body.sections ?? preview.sections;
  const counts = body.counts ?? { create: 0, update: 0, delete: 0 };
  return {
    instanceId: preview.instanceId,
    instanceName: preview.instanceName,
    arrType: preview.arrType,
    trigger: run.trigger,
    sectionsAttempted: sections,
    sectionsKey: `,${sections.join(',')},`,
    status: 'running' as const,
    sectionsRun: 0,
    itemsSynced: 0,
    failureCount: 0,
    entityChangeCount: counts.create + counts.update + counts.delete,
    entityOutcomeCount: 0,
    error: null,
    outcomes: [],
    verification: null,
    previewId: preview.id,
    rolloutId: run.rolloutId,
    workflowId: run.workflowId,
    startedAt: new Date(),
    finishedAt: null,
    createdAt: new Date(),
  };
}

/** A preview computed from its instance's target, before (or without) being stored. */
export type ComputedPreview =
  | { status: 'failed'; failure: FailureEvidence; body: Record<string, unknown> | null; failedSections: SyncSection[] }
  | { status: 'ready'; body: Record<string, unknown>; plan: WritePlan; liveFingerprint: string; counts: GeneratedPreview['counts']; liveMs: number };

/**
 * Reads the instance's live state and computes desired against live: the preview body (groups,
 * counts, section outcomes with failure evidence) and, when every section could be read, its
 * write plan and the fingerprint of the live state it was computed against. Stores nothing: a
 * sync preview stores it, a rollout's pre-check only counts.
 */
export async function computePreview(deps: ActivityDeps, target: PreviewTarget, preview: { instanceId: number; instanceName: string; sections: string[] }): Promise<ComputedPreview> {
  const { config } = target;
  if (!config || unreadyDatabase(target, { pulled: true })) {
    return { status: 'failed', failure: failureEvidence('internalError'), body: null, failedSections: [] };
  }
  if (!target.instance) throw notFound(`Instance ${preview.instanceId} not found`);
  const connection = new InstanceService(deps.orm.em, deps.secretBox).connectionOf(target.instance);
  const arrType = connection.arrType;
  const sections = preview.sections as SyncSection[];
  // Instances syncing the same selection from the same state share each database's source (pure data).
  const merged = await configuredSyncSource(
    deps.pcdCaches,
    arrType,
    config.databases.map((entry, i) => {
      const stored = target.databases[i]!;
      return { databaseId: entry.databaseId, databaseName: stored.name, selection: entry.selection, stored };
    }),
  );
  const ledger = await readLedger(deps.orm.em, preview.instanceId);
  const client = createArrClient(connection, deps.config.appRequestTimeoutMs);
  const liveStarted = performance.now();
  // Who answers first: another app's state is never read as this instance's.
  const identity = await checkAppIdentity(client);
  if (identity.status === 'mismatch') {
    deps.logger.info({ instanceId: preview.instanceId, detectedArrType: identity.identity.arrType }, 'sync preview refused: the app is of another type');
    return { status: 'failed', failure: identity.evidence, body: null, failedSections: [] };
  }
  const needs = liveNeeds(arrType, config.selection, sections);
  const { live, failures } = identity.status === 'failed' ? unreadLiveState(needs, identity.failure) : await readLiveState(client, needs);
  const liveMs = performance.now() - liveStarted;
  const failedSections = new Map<SyncSection, FailureEvidence>();
  for (const section of sections) {
    const failed = liveNeeds(arrType, config.selection, [section]).find((part: LivePart) => failures[part]);
    if (failed) failedSections.set(section, evidenceForAppFailure(failures[failed]!));
  }
  const okSections = sections.filter((s) => !failedSections.has(s));
  const planned = probe('transform', 'planSync', () => planSync({ arrType, selection: merged.selection, source: merged.source, live, sections: okSections, ledger }));
  annotateOrigins(planned.preview, merged.origins);
  const sectionOutcomes = sections.map((section) => {
    const evidence = failedSections.get(section);
    if (evidence) return { section, skipped: false, failure: evidence };
    const outcome = planned.preview.sectionOutcomes.find((o) => o.section === section);
    return { section, skipped: outcome?.skipped ?? true, failure: null };
  });
  const body = {
    instanceId: preview.instanceId,
    instanceName: preview.instanceName,
    arrType,
    sections: sections.filter((s) => !sectionOutcomes.find((o) => o.section === s)?.skipped),
    sectionOutcomes,
    qualityProfiles: planned.preview.qualityProfiles,
    delayProfiles: planned.preview.delayProfiles,
    mediaManagement: planned.preview.mediaManagement,
    metadataProfiles: planned.preview.metadataProfiles,
    counts: planned.preview.counts,
    issues: planned.preview.issues,
    identity: planned.identity,
    databases: merged.databases,
    collisions: merged.collisions,
  };
  if (failedSections.size > 0) {
    // The first failed section's app failure is the cause, so that a summary can say what went wrong.
    const cause = [...failedSections.values()][0].code;
    return { status: 'failed', failure: { ...failureEvidence('sectionErrors'), cause: isAppCallFailure(cause) ? cause : null }, body, failedSections: [...failedSections.keys()] };
  }
  return { status: 'ready', body, plan: planned.plan, liveFingerprint: fingerprint(live), counts: planned.preview.counts, liveMs };
}

export function syncActivities(deps: ActivityDeps) {
  const em = () => deps.orm.em;

  return {
    /**
     * Reads the instance's live state, computes desired against live, and stores the preview
     * (groups, counts, section outcomes with failure evidence) and its write plan.
     */
    async generateSyncPreview(previewId: number): Promise<GeneratedPreview> {
      const started = performance.now();
      // The preview, its instance, sync configuration and database in one statement; the outcome is
      // stored with one statement (the preview and plan are large JSON, never read back here).
      const subject = await readOnceBuilt(() => readPreviewSubject(em(), previewId));
      if (!subject) throw new Error(`Preview ${previewId} not found`);
      const computed = await computePreview(deps, subject, subject.preview);
      const store = (row: GeneratedRow) => storeGeneratedPreview(em(), previewId, row);
      if (computed.status === 'failed') {
        if (computed.failedSections.length) deps.logger.info({ previewId, failed: computed.failedSections }, 'sync preview sections failed');
        await store({ failure: { ...computed.failure }, preview: computed.body, generatedAt: new Date() });
        return { status: 'failed', counts: { create: 0, update: 0, delete: 0, unchanged: 0 }, failure: computed.failure };
      }
      await store({ preview: computed.body, plan: computed.plan as unknown as Record<string, unknown>, liveFingerprint: computed.liveFingerprint, generatedAt: new Date(), failure: null });
      deps.logger.info(
        { previewId, instanceId: subject.preview.instanceId, counts: computed.counts, steps: computed.plan.steps.length, liveMs: Math.round(computed.liveMs), totalMs: Math.round(performance.now() - started) },
        'sync preview generated',
      );
      return { status: 'ready', counts: computed.counts, failure: null };
    },

    /** Persists a status transition (reads work from the application database at any time). */
    async recordPreviewStatus(previewId: number, status: PreviewStatus, extra: { expiresAtMs?: number; failure?: FailureEvidence | null; runId?: number } = {}): Promise<void> {
      if ((status === 'expired' || status === 'failed') && extra.failure) {
        // A refused apply whose workflow had recorded its run before (an accepted apply whose workflow
        // task was lost with its worker: the run is stored, the apply never ran, and the retried apply
        // found the preview stale) ends that run with the refusal instead of leaving it running.
        const workflowId = Context.current().info.workflowExecution?.workflowId;
        const orphan = workflowId ? await em().fork().findOne(SyncRun, { workflowId, finishedAt: null }, { fields: ['id'] }) : null;
        if (orphan) await finishSyncRuns([{ runId: orphan.id, failure: extra.failure }]);
      }
      // A targeted update: the stored preview and plan are large and need not be read.
      const changes: Partial<SyncPreview> = { status, updatedAt: new Date() };
      if (extra.expiresAtMs !== undefined) changes.expiresAt = new Date(extra.expiresAtMs);
      if (extra.failure !== undefined) changes.failure = extra.failure ? { ...extra.failure } : null;
      if (extra.runId !== undefined) changes.runId = extra.runId;
      await em().nativeUpdate(SyncPreview, { id: previewId }, changes);
    },

    async previewCounts(previewId: number): Promise<GeneratedPreview['counts']> {
      const preview = await em().findOneOrFail(SyncPreview, { id: previewId }, { fields: ['preview'] });
      return ((preview.preview ?? {}) as { counts?: GeneratedPreview['counts'] }).counts ?? { create: 0, update: 0, delete: 0, unchanged: 0 };
    },

    /**
     * True when the app still holds what the preview was computed against; the appMismatch
     * evidence when the app at the instance's URL is now of another type.
     */
    checkPreviewFresh: (previewId: number): Promise<boolean | FailureEvidence> => isFresh(previewId),

    /** Records the run once per workflow; a resumed workflow finds it again. */
    async startSyncRun(previewId: number, workflowId: string, trigger: string, rolloutId: number | null): Promise<number> {
      const existing = await em().findOne(SyncRun, { workflowId });
      if (existing) {
        await em().nativeUpdate(SyncPreview, { id: previewId }, { status: 'applying', runId: existing.id, updatedAt: new Date() });
        return existing.id;
      }
      // Read through a fork: the preview is not changed here, and a managed copy would be compared
      // (large JSON included) and rewritten by the flush below.
      const preview = await em().fork().findOneOrFail(SyncPreview, { id: previewId }, { exclude: ['plan'] });
      const run = em().create(SyncRun, newRunRecord(preview, { trigger, rolloutId, workflowId }));
      await em().flush();
      await em().nativeUpdate(SyncPreview, { id: previewId }, { status: 'applying', runId: run.id, updatedAt: new Date() });
      return run.id;
    },

    /**
     * Executes the preview's write plan in dependency order, resumably: each confirmed step is
     * recorded on the run (durably, before the heartbeat that reports it), and a retried attempt
     * (another worker after a crash) starts after the last confirmed step. Heartbeats are throttled
     * by the SDK, so the run record, not the last heartbeat that reached the server, says where
     * to resume. Only the step that was in flight runs again, and it finds its target on the app
     * by name (a create that did happen becomes an update, never a second entity).
     */
    async applySyncPlan(previewId: number, runId: number, options: { checkFreshness?: boolean } = {}): Promise<ApplySummary> {
      const ctx = Context.current();
      const heartbeat = ctx.info.heartbeatDetails as ApplyHeartbeat | undefined;
      // The plan, the instance and the outcomes recorded so far (by earlier attempts) in one read:
      // this attempt adds to the outcomes step by step.
      const subject = await readApplySubject(em(), previewId, runId);
      if (!subject) throw new Error(`applySyncPlan: preview ${previewId} or run ${runId} is gone`);
      const recorded = subject.outcomes as unknown as StepOutcome[];
      const confirmed = confirmedSteps(recorded);
      const resumeAt = Math.max(heartbeat?.next ?? 0, confirmed);
      if (!subject.instance) throw notFound(`Instance ${subject.preview.instanceId} not found`);
      const instanceId = subject.preview.instanceId;
      const { generation, othersHeldItSince } = await waitForApplyLease(ctx, instanceId, runId, heartbeat);
      const lease = keepApplyLease(instanceId, runId);
      try {
        const connection = new InstanceService(em(), deps.secretBox).connectionOf(subject.instance);
        const client = createArrClient(connection, deps.config.appRequestTimeoutMs);
        // The app may have been replaced since the preview: every attempt asks it who it is before writing.
        const identity = await checkAppIdentity(client);
        if (identity.status === 'failed') throw appFailure(identity.failure, 'asking the app who it is before applying');
        if (identity.status === 'mismatch') {
          deps.logger.info({ previewId, runId, detectedArrType: identity.identity.arrType }, 'sync apply refused: the app is of another type');
          return { steps: 0, written: recorded.filter((o) => o.outcome !== 'skipped').length, refused: identity.evidence };
        }
        // Freshness is decided under the lease, so no other apply of the instance writes between the
        // check and these writes. An approved preview applied as it is (canary targets) always reads
        // the app again; any other is read again only when another run may have written since it
        // was computed. The heartbeat records the decision so a retry holding the same lease does
        // not repeat it, and once a step is confirmed the app has moved by our own writes: no check.
        if (resumeAt === 0 && !(heartbeat?.checked && heartbeat.generation === generation)) {
          const reread = options.checkFreshness || (await othersAppliedSince(em(), instanceId, previewId, runId));
          if (reread && !(await liveStillMatches(client, subject))) {
            deps.logger.info({ previewId, runId, instanceId }, 'sync apply refused: the app moved since the preview');
            return { steps: 0, written: 0, stale: true };
          }
          ctx.heartbeat({ next: 0, checked: true, generation });
        }
        const plan = subject.preview.plan as unknown as WritePlan;
        const startAt = Math.min(resumeAt, plan.steps.length);
        if (startAt > 0) deps.logger.info({ previewId, runId, startAt, confirmed, attempt: ctx.info.attempt }, 'sync apply resuming');
        // The ledger gets what the plan bound and the confirmed steps created, renamed or deleted
        // (all of them, across attempts: a retry after the last step writes the rest, nothing twice).
        const bindLedger = () => writeLedger(em(), instanceId, ledgerWrites(plan.bindings ?? [], recorded, plan.steps.filter((s) => s.op === 'delete')));
        try {
          await applyPlan(plan, client, {
            startAt,
            verifyFirst: startAt > 0 || ctx.info.attempt > 1,
            // Another run held the lease since this run's last confirmed step (this one was interrupted
            // and the other applied meanwhile): write nothing the app already holds, and nothing over
            // what the other run wrote (the chaos soak saw a resumed run send the other's writes again).
            recheckRemaining: startAt > 0 && othersHeldItSince,
            onStep: async (outcome: StepOutcome, total: number) => {
              await recordOutcome(runId, recorded, outcome);
              ctx.heartbeat({ next: outcome.index + 1, total, checked: true, generation });
              deps.logger.debug({ previewId, step: outcome.index + 1, total, stepId: outcome.stepId, outcome: outcome.outcome }, 'sync apply progress');
              // Another run took the lease (this process stalled past its expiry): stop before the next
              // write; the retry waits for the lease and resumes after this step.
              if (lease.lost()) throw new Error(`the apply lease of instance ${instanceId} was taken over`);
            },
          });
        } catch (error) {
          await bindLedger().catch((ledgerError: unknown) => logFailure(deps.logger, 'warn', { previewId, runId }, ledgerError, 'sync ledger not written after a failed apply'));
          if (error instanceof AppMovedDuringApply) {
            deps.logger.info({ previewId, runId, instanceId, step: error.index + 1 }, 'sync apply stopped: another apply of the instance changed the app while this one was interrupted');
            return { steps: plan.steps.length, written: recorded.filter((o) => o.outcome !== 'skipped').length, stale: true };
          }
          if (error instanceof AppRequestError) throw appFailure(error.failure, 'applying the plan');
          throw error;
        }
        await bindLedger();
        return { steps: plan.steps.length, written: recorded.filter((o) => o.outcome !== 'skipped').length };
      } finally {
        await lease.release();
      }
    },

    /**
     * Verified apply: reads back what the run wrote (one list per resource the plan touched) and
     * compares it with what each step meant to write (verifyPlan), then stores the verification on
     * the run, where completing the run finds it. Read-only, so a retried attempt simply reads again;
     * a run already verified (an attempt that stored it before the worker stopped) is not read twice.
     * An app that cannot be read back leaves the run unverified (never a success).
     */
    async verifySyncRun(previewId: number, runId: number): Promise<VerificationSummary> {
      const subject = await readApplySubject(em(), previewId, runId);
      if (!subject) throw new Error(`verifySyncRun: preview ${previewId} or run ${runId} is gone`);
      if (subject.verification) return summarizeVerification(subject.verification as unknown as ApplyVerification);
      const plan = subject.preview.plan as unknown as WritePlan;
      const outcomes = subject.outcomes as unknown as StepOutcome[];
      const store = async (verification: ApplyVerification) => {
        await storeRunVerification(em(), runId, verification);
        deps.logger.info({ previewId, runId, status: verification.status, checked: verification.checked, mismatches: verification.mismatches.length, unreadable: verification.unreadable }, 'sync apply verified');
        return summarizeVerification(verification);
      };
      const steps = writtenSteps(plan, outcomes).map((w) => w.step);
      if (steps.length === 0) return store(verifyPlan(plan, outcomes, {}, new Date()));
      if (!subject.instance) return store(unreadableVerification('notFound', new Date()));
      const client = createArrClient(new InstanceService(em(), deps.secretBox).connectionOf(subject.instance), deps.config.appRequestTimeoutMs);
      const heartbeat = progressHeartbeat(Context.current(), () => ({ reading: verificationNeeds(steps) }));
      try {
        // Who answers is asked beside the reads (one round trip, not two): another app's answers are
        // discarded, never compared.
        const [identity, { live, failures }] = await Promise.all([checkAppIdentity(client), readLiveState(client, verificationNeeds(steps))]);
        if (identity.status === 'failed') return store(unreadableVerification(identity.failure, new Date()));
        if (identity.status === 'mismatch') return store(unreadableVerification('appMismatch', new Date()));
        const failed = Object.values(failures)[0];
        if (failed) return store(unreadableVerification(failed, new Date()));
        return store(verifyPlan(plan, outcomes, live, new Date()));
      } finally {
        heartbeat.stop();
      }
    },

    /** Records that a run's verification could not complete (its activity failed): the run is unverified. */
    async recordVerificationFailed(runId: number): Promise<void> {
      await storeRunVerification(em(), runId, unreadableVerification('internalError', new Date()));
    },

    /** Completes the run record from the stored outcomes, and the preview's status with it. */
    async finishSyncRun(runId: number, failure: FailureEvidence | null): Promise<SyncRunResult> {
      return (await finishSyncRuns([{ runId, failure }]))[0];
    },

    finishSyncRuns,
  };

  /**
   * Completes runs from their stored outcomes (completeRun; one read and one transaction for all
   * of them), then counts and notifies each.
   */
  async function finishSyncRuns(items: readonly { runId: number; failure: FailureEvidence | null }[]): Promise<SyncRunResult[]> {
    const stored = await readRunsToFinish(em(), items.map((item) => item.runId));
    const finishedAt = new Date();
    const finished = items.map(({ runId, failure: given }) => {
      const run = stored.get(runId);
      if (!run) throw new Error(`finishSyncRuns: run ${runId} is gone`);
      const verification = run.verification as unknown as ApplyVerification | null;
      const { status, failure, written, sectionsRun } = completeRun({ steps: run.plan?.steps ?? [], outcomes: run.outcomes as unknown as StepOutcome[], sectionsAttempted: run.sectionsAttempted }, given, verification);
      return {
        run,
        written,
        failure,
        row: {
          id: runId,
          previewId: run.previewId,
          status,
          sectionsRun,
          itemsSynced: (run.preview?.counts?.unchanged ?? 0) + written,
          failureCount: failure ? 1 : 0,
          error: failure ? failure.message.slice(0, 500) : null,
          finishedAt,
          // The preview failed when its apply did. An apply that completed but did not verify is
          // applied, yet carries the run's evidence: a one-step sync must not read as a success.
          previewStatus: given ? ('failed' as const) : ('applied' as const),
          previewFailure: failure ? { ...failure } : null,
        },
      };
    });
    const events = finished.flatMap(({ run, row }) => {
      if (row.status === 'success') return [];
      const status = row.status;
      const entry = notificationEntry(
        deps,
        (links) =>
          syncRunEvent(links, { runId: run.id, previewId: run.previewId, status, instanceId: run.instanceId, instanceName: run.instanceName, arrType: run.arrType, trigger: run.trigger, error: row.error, workflowId: run.workflowId, at: finishedAt }),
        `instance:${run.instanceId ?? 'deleted'}`,
      );
      return entry ? [entry] : [];
    });
    // A run's end and its event commit together: a retried finish neither loses nor repeats it.
    await storeFinishedRuns(em(), finished.map((f) => f.row), events);
    if (events.length) deps.outbox?.kick();
    const results: SyncRunResult[] = [];
    for (const { run, row, written, failure } of finished) {
      syncRunsTotal.inc({ status: row.status, trigger: run.trigger });
      syncApplyDuration.observe({ status: row.status }, (finishedAt.getTime() - run.startedAt.getTime()) / 1000);
      results.push({ status: row.status, failure, refreshDriftOf: written > 0 && run.instanceId !== null && run.hasDriftResult ? run.instanceId : null });
    }
    return results;
  }

  /**
   * Takes the instance's apply lease for the run, waiting (heartbeating which run holds it) while
   * another run writes to the instance: its generation, and whether another run held it since this
   * run last did.
   */
  async function waitForApplyLease(ctx: Context, instanceId: number, runId: number, details: ApplyHeartbeat | undefined): Promise<{ generation: number; othersHeldItSince: boolean }> {
    for (let waited = 0; ; waited += APPLY_LEASE_POLL_MS) {
      const taken = await takeApplyLeaseNotingOthers(em(), instanceId, runId);
      if (taken) {
        if (waited > 0) deps.logger.info({ instanceId, runId, waitedMs: waited }, 'sync apply waited for another apply of the instance');
        return taken;
      }
      ctx.heartbeat({ ...details, waitingForRun: await applyLeaseHolder(em(), instanceId) });
      await ctx.sleep(APPLY_LEASE_POLL_MS);
    }
  }

  /** Renews a taken lease until released; `lost()` once another run has taken it. */
  function keepApplyLease(instanceId: number, runId: number): { lost: () => boolean; release: () => Promise<void> } {
    let lost = false;
    const timer = setInterval(() => {
      takeApplyLease(em(), instanceId, runId).then(
        (generation) => {
          if (generation === null) lost = true;
        },
        // A renewal that fails (the database briefly down) is tried again on the next tick.
        () => undefined,
      );
    }, APPLY_LEASE_RENEW_MS);
    return {
      lost: () => lost,
      release: async () => {
        clearInterval(timer);
        await releaseApplyLease(em(), instanceId, runId).catch((error: unknown) =>
          // Not released: it expires within APPLY_LEASE_TTL_MS, and the next apply waits that long.
          logFailure(deps.logger, 'warn', { instanceId, runId }, error, 'sync apply lease not released'),
        );
      },
    };
  }

  /** What `read` returns once none of its databases is being built by a pull, or after CACHE_BUILD_WAIT_MS. */
  async function readOnceBuilt<T extends Pick<PreviewTarget, 'databases'>>(read: () => Promise<T | null>): Promise<T | null> {
    const deadline = Date.now() + CACHE_BUILD_WAIT_MS;
    for (;;) {
      const subject = await read();
      if (!subject?.databases.some((d) => d?.cacheStatus === 'building') || Date.now() >= deadline) return subject;
      await new Promise((resolve) => setTimeout(resolve, CACHE_BUILD_POLL_MS));
    }
  }

  async function isFresh(previewId: number): Promise<boolean | FailureEvidence> {
    const subject = await readPreviewSubject(em(), previewId);
    if (!subject?.instance) return false;
    const client = createArrClient(new InstanceService(em(), deps.secretBox).connectionOf(subject.instance), deps.config.appRequestTimeoutMs);
    const identity = await checkAppIdentity(client);
    if (identity.status === 'failed') throw appFailure(identity.failure, 'asking the app who it is before applying');
    if (identity.status === 'mismatch') return identity.evidence;
    return liveStillMatches(client, subject);
  }

  /** Reads the app again: true when it still holds what the preview was computed against. */
  async function liveStillMatches(client: ReturnType<typeof createArrClient>, subject: Pick<ApplySubject, 'config' | 'instance'> & { preview: { sections: string[]; liveFingerprint: string | null } }): Promise<boolean> {
    if (!subject.config || !subject.instance || !subject.preview.liveFingerprint) return false;
    const { live, failures } = await readLiveState(client, liveNeeds(subject.instance.arrType, subject.config.selection, subject.preview.sections as SyncSection[]));
    const failed = Object.values(failures)[0];
    if (failed) throw appFailure(failed, 'reading the live state before apply');
    return fingerprint(live) === subject.preview.liveFingerprint;
  }

  /** How many leading plan steps the run has confirmed (the index to resume at). */
  function confirmedSteps(outcomes: readonly StepOutcome[]): number {
    const done = new Set(outcomes.map((o) => o.index));
    let next = 0;
    while (done.has(next)) next++;
    return next;
  }

  /**
   * Records one confirmed step on the run (one UPDATE, committed before the heartbeat that
   * reports it). `outcomes` holds what the run had when this attempt started plus this attempt's
   * steps: only one attempt of a run applies at a time, so the list need not be read again per step.
   */
  async function recordOutcome(runId: number, outcomes: StepOutcome[], outcome: StepOutcome): Promise<void> {
    const at = outcomes.findIndex((o) => o.index === outcome.index);
    if (at >= 0) outcomes.splice(at, 1);
    outcomes.push(outcome);
    outcomes.sort((a, b) => a.index - b.index);
    await storeRunOutcomes(deps.orm.em, runId, outcomes);
  }
}

/** A typed Temporal failure for an app call: retryable for transient codes, final otherwise. */
function appFailure(failure: AppCallFailure, during: string): ApplicationFailure {
  const evidence = evidenceForAppFailure(failure);
  return ApplicationFailure.create({
    type: `${APP_FAILURE_PREFIX}${failure}`,
    message: `${evidence.message} (${during})`,
    nonRetryable: !RETRYABLE.has(failure),
    details: [{ evidence }],
  });
}
