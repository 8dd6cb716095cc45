import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { FailureEvidence } from '../../domain/failure-evidence';
import type { PreviewStatus, SyncRunStatus, VerificationSummary } from '../../domain/sync';
import { defineWorkflow } from './define';

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
  runStatus: Exclude<SyncRunStatus, 'running'> | null;
  counts: { create: number; update: number; delete: number; unchanged: number };
  failure: FailureEvidence | null;
  /** What reading the apply's writes back found (null: no apply, or one that did not complete; absent: started before verification). */
  verification?: VerificationSummary | null;
}

export interface ApplyResponse {
  status: PreviewStatus;
  /**
   * Set when the apply was refused after acceptance, before any write: stale (the app moved since
   * the preview), appMismatch (the app at the instance's URL is now of another type).
   */
  code?: 'stale' | 'appMismatch';
  /** With appMismatch: its evidence. */
  failure?: FailureEvidence;
}

/** One sync preview and its apply: `<tq>-sync-<previewId>`. */
export const syncWorkflow = defineWorkflow<(input: SyncWorkflowInput) => Promise<SyncWorkflowResult>>('syncWorkflow');

/** Applies a ready preview. */
export const applyPreviewUpdate = defineUpdate<ApplyResponse>('apply');
/** Answers once the preview has been generated, with its status then: ready, or failed (a wait for generation). */
export const previewGeneratedUpdate = defineUpdate<{ status: PreviewStatus }>('generated');
export const previewStatusQuery = defineQuery<{ status: PreviewStatus; expiresAtMs: number | null }>('status');

/**
 * Why the apply update was refused (the ApplicationFailure type its validator throws):
 * stale when the preview expired, not_ready (details: [status]) when it is not ready.
 */
export const APPLY_REFUSALS = { stale: 'stale', notReady: 'not_ready' } as const;
