// How the rollout page reads a rollout: its evidence per target, its batches, and what changed
// between two readings of it. Reads the API's fields only; the rules stay the API's.
// Types straight from the generated client (not through api/, which reaches the browser's
// document): test/unit/console loads this module in node.
import type { components } from '../../../../src/client';

type Schemas = components['schemas'];
type Rollout = Schemas['CanaryRollout'];
type RolloutStatus = Rollout['status'];

/**
 * The stages in words, for the console's labels. Typed by the generated status enum: a new status
 * does not compile until it has a label here (the vocabulary itself is the API's).
 */
export const ROLLOUT_STATUS_LABELS: Record<RolloutStatus, string> = {
  canary_running: 'Canary running',
  awaiting_confirmation: 'Awaiting confirmation',
  rolling_out: 'Rolling out',
  completed: 'Completed',
  aborted: 'Aborted',
  failed: 'Failed',
};

export const ROLLOUT_STATUS_OPTIONS = (Object.keys(ROLLOUT_STATUS_LABELS) as RolloutStatus[]).map((value) => ({ value, label: ROLLOUT_STATUS_LABELS[value] }));

export type Evidence = Schemas['CanaryEvidenceAvailable'] | Schemas['CanaryEvidenceUnavailable'];
export type EvidencePreview = Schemas['CanaryEvidencePreview'];
export type FailedPreview = Schemas['CanaryFailedEvidencePreview'];
export type Counts = EvidencePreview['counts'];
export type CanaryDiagnostics = Schemas['CanaryDiagnostics'];

// OpenAPI 3.0 writes a nullable union's null as an untyped member, so the generated field types are
// loose: these read them as the documented components they are.
export function evidenceOf(rollout: Rollout): Evidence | null {
  return rollout.remainingPreview as Evidence | null;
}

export function diagnosticsOf(rollout: Rollout): CanaryDiagnostics | null {
  return rollout.canary.diagnostics as CanaryDiagnostics | null;
}

/** One target's evidence: its preview, its failed preview, or none yet. */
export type TargetEvidence = { kind: 'ready'; preview: EvidencePreview } | { kind: 'failed'; preview: FailedPreview } | { kind: 'none' };

export function targetEvidence(rollout: Rollout, instanceId: number): TargetEvidence {
  const evidence = evidenceOf(rollout);
  if (!evidence) return { kind: 'none' };
  const ready = (evidence.availability === 'available' ? evidence.previews : evidence.diagnosticPreviews).find((p) => p.instanceId === instanceId);
  if (ready) return { kind: 'ready', preview: ready };
  const failed = evidence.availability === 'unavailable' ? evidence.failedPreviews.find((p) => p.instanceId === instanceId) : undefined;
  return failed ? { kind: 'failed', preview: failed } : { kind: 'none' };
}

/** When the evidence was built (available) or found unavailable. */
export function evidenceStamp(rollout: Rollout): string | null {
  const evidence = evidenceOf(rollout);
  if (!evidence) return null;
  return evidence.availability === 'available' ? evidence.generatedAt : evidence.recordedAt;
}

/** "6 to create, 5 to update" (or "nothing to change"). */
export function describeCounts(counts: Counts): string {
  const parts = [counts.create ? `${counts.create} to create` : null, counts.update ? `${counts.update} to update` : null, counts.delete ? `${counts.delete} to delete` : null].filter(Boolean);
  return parts.length ? parts.join(', ') : 'nothing to change';
}

export type TargetProgress = 'success' | 'partial' | 'failed' | 'applying' | 'waiting' | 'untouched';

export const TARGET_PROGRESS_LABELS: Record<TargetProgress, string> = {
  success: 'synced',
  partial: 'partly synced',
  failed: 'failed',
  applying: 'syncing',
  waiting: 'waiting',
  untouched: 'left untouched',
};

/** The targets in the batches the rollout applies them in (batchSize at a time, in order), each with where it stands. */
export function batches(rollout: Rollout) {
  const results = new Map(rollout.rolloutResults.map((r) => [r.instanceId, r]));
  const groups: { number: number; targets: { instanceId: number; instanceName: string; progress: TargetProgress; summary: string | null }[] }[] = [];
  rollout.targets.forEach((target, index) => {
    const result = results.get(target.instanceId);
    const inCurrentBatch = index >= rollout.rolloutIndex && index < rollout.rolloutIndex + rollout.batchSize;
    const progress: TargetProgress = result
      ? result.status
      : rollout.status === 'rolling_out' && inCurrentBatch
        ? 'applying'
        : rollout.finishedAt
          ? 'untouched'
          : 'waiting';
    const number = Math.floor(index / rollout.batchSize);
    (groups[number] ??= { number: number + 1, targets: [] }).targets.push({ ...target, progress, summary: result?.summary ?? null });
  });
  return groups;
}

const time = (iso: string) => new Date(iso).toLocaleTimeString();

/**
 * What changed between the state a decision was made on and the rollout's current state, in
 * words: the stage, the evidence (rebuilt, its availability, each target's changes) and the
 * results. Never empty: a new state token alone means someone else decided or refreshed.
 */
export function describeRolloutChanges(before: Rollout, after: Rollout): string[] {
  const changes: string[] = [];
  if (before.status !== after.status) {
    changes.push(`it moved from ${ROLLOUT_STATUS_LABELS[before.status].toLowerCase()} to ${ROLLOUT_STATUS_LABELS[after.status].toLowerCase()}${after.statusReason ? ` (${after.statusReason})` : ''}`);
  }
  const [was, now] = [evidenceStamp(before), evidenceStamp(after)];
  if (now && was !== now) {
    const availability = evidenceOf(after)?.availability;
    changes.push(`its evidence was rebuilt at ${time(now)}${availability !== evidenceOf(before)?.availability ? ` and is now ${availability}` : ''}`);
    for (const target of after.targets) {
      const [old, fresh] = [targetEvidence(before, target.instanceId), targetEvidence(after, target.instanceId)];
      const summary = (e: TargetEvidence) => (e.kind === 'ready' ? describeCounts(e.preview.counts) : e.kind === 'failed' ? 'no preview (it failed)' : 'no preview');
      if (summary(old) !== summary(fresh)) changes.push(`${target.instanceName} now has ${summary(fresh)} (was ${summary(old)})`);
    }
  }
  const synced = after.rolloutResults.length - before.rolloutResults.length;
  if (synced > 0) changes.push(`${synced} more ${synced === 1 ? 'target was' : 'targets were'} synced`);
  if (!changes.length) changes.push('another decision or an evidence refresh was made meanwhile');
  return changes;
}
