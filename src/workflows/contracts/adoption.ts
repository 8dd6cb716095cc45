import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { FailureEvidence } from '../../domain/failure-evidence';
import { defineWorkflow } from './define';

export type { AdoptionStatus as AdoptionWorkflowStatus } from '../../domain/sync/adopt';
import type { AdoptionStatus as AdoptionWorkflowStatus } from '../../domain/sync/adopt';

export interface AdoptionWorkflowInput {
  adoptionId: number;
  /** How long a ready preview may wait for its apply. */
  ttlMs: number;
  /** How long an apply attempt may go without a heartbeat before another worker takes over. */
  heartbeatTimeoutMs: number;
}

export interface AdoptionWorkflowResult {
  adoptionId: number;
  status: AdoptionWorkflowStatus;
  failure: FailureEvidence | null;
}

export interface AdoptionApplyResponse {
  status: AdoptionWorkflowStatus;
  /** Set when the apply was refused after acceptance, before any write: the database moved since the preview. */
  code?: 'stale';
}

/** One adoption preview and its apply: `<tq>-adopt-<adoptionId>`. */
export const adoptionWorkflow = defineWorkflow<(input: AdoptionWorkflowInput) => Promise<AdoptionWorkflowResult>>('adoptionWorkflow');

export const applyAdoptionUpdate = defineUpdate<AdoptionApplyResponse>('applyAdoption');
export const discardAdoptionUpdate = defineUpdate<{ status: AdoptionWorkflowStatus }>('discardAdoption');
/** Answers once the preview has been generated (ready or failed). */
export const adoptionGeneratedUpdate = defineUpdate<{ status: AdoptionWorkflowStatus }>('adoptionGenerated');
export const adoptionStatusQuery = defineQuery<{ status: AdoptionWorkflowStatus; expiresAtMs: number | null }>('adoptionStatus');

/** Why the apply or discard update was refused (the ApplicationFailure type its validator throws). */
export const ADOPTION_REFUSALS = { expired: 'expired', notReady: 'not_ready' } as const;
