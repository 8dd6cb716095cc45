/**
 * Canary rollout rules, pure and deterministic (used inside the rollout workflow): how a canary
 * outcome is judged, what remaining-preview evidence authorizes promotion, and the human-readable
 * summaries of per-instance results. Imports nothing with side effects.
 */
import type { FailureEvidence } from '../failure-evidence';
import { VERIFICATION_FAILURE_CODES } from '../sync/verify';

export const ROLLOUT_STATUSES = ['canary_running', 'awaiting_confirmation', 'rolling_out', 'completed', 'aborted', 'failed'] as const;
export type RolloutStatus = (typeof ROLLOUT_STATUSES)[number];
export const TERMINAL_ROLLOUT_STATUSES: readonly RolloutStatus[] = ['completed', 'aborted', 'failed'];

export type CanaryStatus = 'pending' | 'running' | 'success' | 'partial' | 'failed' | 'skipped';
export type PartialPolicy = 'gate' | 'abort';
export type RunStatus = 'success' | 'partial' | 'failed';

export const EVIDENCE_VERSION = 1;

export interface Counts {
  create: number;
  update: number;
  delete: number;
  unchanged: number;
}

/** What a sync (preview, then apply) of one instance ended with. */
export interface SyncOutcome {
  previewStatus: 'generating' | 'ready' | 'applying' | 'applied' | 'failed' | 'expired';
  runStatus: RunStatus | null;
  counts: Counts;
  failure: FailureEvidence | null;
}

/**
 * The canary's outcome: skipped when it had nothing to change (it then proves nothing), success
 * when every write landed, partial when the run applied some writes and failed others, failed
 * otherwise (generation failed, stale, or nothing applied).
 */
export function judgeCanary(outcome: SyncOutcome): Exclude<CanaryStatus, 'pending' | 'running'> {
  if (outcome.previewStatus === 'applied' && outcome.runStatus === 'success') {
    return changesOf(outcome.counts) === 0 ? 'skipped' : 'success';
  }
  if (outcome.runStatus === 'partial') return 'partial';
  return 'failed';
}

/** Whether the rollout goes on to the gate after the canary. */
export function canaryPasses(status: CanaryStatus, policy: PartialPolicy): boolean {
  return status === 'success' || (status === 'partial' && policy === 'gate');
}

export function changesOf(counts: Counts): number {
  return counts.create + counts.update + counts.delete;
}

/** "3 created, 1 updated, 12 unchanged" (or "no changes"). */
export function summarizeCounts(counts: Counts): string {
  const parts = [
    counts.create ? `${counts.create} created` : null,
    counts.update ? `${counts.update} updated` : null,
    counts.delete ? `${counts.delete} deleted` : null,
  ].filter(Boolean);
  return parts.length ? `${parts.join(', ')}, ${counts.unchanged} unchanged` : `no changes (${counts.unchanged} unchanged)`;
}

export function runStatusOf(outcome: SyncOutcome): RunStatus {
  if (outcome.previewStatus === 'applied' && outcome.runStatus === 'success') return 'success';
  if (outcome.runStatus === 'partial') return 'partial';
  return 'failed';
}

/** One target's result in the rollout. */
export interface TargetResult {
  instanceId: number;
  instanceName: string;
  status: RunStatus;
  summary: string;
  /** On failure: the pre-authored failure evidence. */
  diagnostics: { failure: FailureEvidence | null } | null;
  previewId: number | null;
  runId: number | null;
}

export function targetResult(target: { instanceId: number; instanceName: string }, outcome: SyncOutcome, ids: { previewId: number | null; runId: number | null }): TargetResult {
  const status = runStatusOf(outcome);
  const summary =
    status === 'success'
      ? `Synced: ${summarizeCounts(outcome.counts)}`
      : status === 'partial' && outcome.failure && VERIFICATION_FAILURE_CODES.includes(outcome.failure.code)
        ? `Applied but not verified: ${outcome.failure.message}`
        : status === 'partial'
        ? `Partly synced before a failure: ${outcome.failure?.message ?? 'the apply did not complete'}`
        : `Not synced: ${outcome.failure?.message ?? 'the sync failed'}`;
  return { ...target, status, summary, diagnostics: status === 'success' ? null : { failure: outcome.failure }, ...ids };
}

// ------------------------------------------------------------------ remaining-preview evidence

export interface EvidenceEntry {
  instanceId: number;
  instanceName: string;
  previewId: number | null;
  status: 'ready' | 'failed';
  counts: Counts | null;
  failure: FailureEvidence | null;
}

/** Stored evidence: compact, with the previews referenced by id. */
export type StoredEvidence =
  | { version: number; availability: 'available'; generatedAt: string; entries: EvidenceEntry[] }
  | { version: number; availability: 'unavailable'; recordedAt: string; failure: FailureEvidence; entries: EvidenceEntry[] };

const SECTION_ERRORS: FailureEvidence = {
  code: 'sectionErrors',
  message: 'One or more sections failed to generate.',
  recoveryAction: 'Review each section outcome, fix the cause, then generate a new preview.',
};

/**
 * Evidence from one preview per remaining target. Any failure makes it unavailable (the
 * successful previews stay as diagnostics); an empty mutation summary is a valid result.
 */
export function assembleEvidence(entries: EvidenceEntry[], now: Date): StoredEvidence {
  const failed = entries.find((e) => e.status !== 'ready');
  if (failed) {
    return { version: EVIDENCE_VERSION, availability: 'unavailable', recordedAt: now.toISOString(), failure: failed.failure ?? SECTION_ERRORS, entries };
  }
  return { version: EVIDENCE_VERSION, availability: 'available', generatedAt: now.toISOString(), entries };
}

const INCOMPLETE: FailureEvidence = {
  code: 'internalError',
  message: 'The remaining-preview evidence is incomplete or does not match the rollout targets.',
  recoveryAction: 'Refresh the evidence before proceeding.',
};

/**
 * Evidence as it may be shown and trusted: legacy (other version), corrupt, partial or
 * target-mismatched evidence is unavailable. Unavailable evidence keeps its ready and failed entries.
 */
export function normalizeEvidence(stored: unknown, targets: readonly { instanceId: number }[], now: Date): StoredEvidence {
  const evidence = stored as Partial<StoredEvidence> | null;
  const entries = Array.isArray(evidence?.entries) ? (evidence!.entries as EvidenceEntry[]) : [];
  const recordedAt = typeof (evidence as { recordedAt?: unknown })?.recordedAt === 'string' ? (evidence as { recordedAt: string }).recordedAt : now.toISOString();
  const unavailable = (failure: FailureEvidence): StoredEvidence => ({ version: EVIDENCE_VERSION, availability: 'unavailable', recordedAt, failure, entries: entries.filter((e) => e?.status === 'ready') });
  if (!evidence || evidence.version !== EVIDENCE_VERSION) return unavailable(INCOMPLETE);
  // Failed entries stay: they say which targets have no evidence and why.
  if (evidence.availability === 'unavailable') return { ...(evidence as StoredEvidence & { availability: 'unavailable' }), entries: entries.filter((e) => e?.status === 'ready' || e?.status === 'failed') };
  if (evidence.availability !== 'available' || typeof (evidence as { generatedAt?: unknown }).generatedAt !== 'string') return unavailable(INCOMPLETE);
  const wanted = targets.map((t) => t.instanceId).sort((a, b) => a - b);
  const have = entries.map((e) => e?.instanceId).sort((a, b) => a - b);
  const complete = entries.every((e) => e && e.status === 'ready' && typeof e.previewId === 'number');
  if (!complete || wanted.length !== have.length || wanted.some((id, i) => id !== have[i])) return unavailable(INCOMPLETE);
  return evidence as StoredEvidence;
}

/** Why proceeding is not allowed with this evidence, or null. */
export function proceedBlocker(evidence: StoredEvidence | null, targets: readonly { instanceId: number }[], nowMs: number, maxAgeMs: number): string | null {
  if (!evidence) return 'the remaining-preview evidence has not been built';
  const normalized = normalizeEvidence(evidence, targets, new Date(nowMs));
  if (normalized.availability !== 'available') return 'the remaining-preview evidence is unavailable';
  if (nowMs - Date.parse(normalized.generatedAt) > maxAgeMs) return 'the remaining-preview evidence is older than its staleness limit; refresh it';
  return null;
}

/** Targets in batches of `size`, starting at the index already reached. */
export function batchesFrom<T>(targets: readonly T[], size: number, startIndex: number): { start: number; items: T[] }[] {
  const batches: { start: number; items: T[] }[] = [];
  for (let start = startIndex; start < targets.length; start += size) batches.push({ start, items: targets.slice(start, start + size) });
  return batches;
}
