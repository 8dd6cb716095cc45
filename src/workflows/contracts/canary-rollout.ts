import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { ArrType } from '../../domain/arr-types';
import type { CanaryStatus, PartialPolicy, RolloutStatus, StoredEvidence, TargetResult } from '../../domain/canary';
import type { StatusReasonCode } from '../../domain/canary/status-reason';
import { defineWorkflow } from './define';

export interface RolloutTarget {
  instanceId: number;
  instanceName: string;
}

export interface CanaryRolloutInput {
  rolloutId: number;
  arrType: ArrType;
  canary: RolloutTarget;
  targets: RolloutTarget[];
  sections: string[];
  partialPolicy: PartialPolicy;
  batchSize: number;
  evidenceMaxAgeMs: number;
  /** How long the evidence round's activity may stay silent before another worker takes it over (absent: 60 s). */
  heartbeatTimeoutMs?: number;
  /** The token issued when the rollout was recorded; every transition replaces it. */
  initialStateToken: string;
}

export interface RolloutState {
  status: RolloutStatus;
  canaryStatus: CanaryStatus;
  stateToken: string;
  warning: string | null;
  remainingPreview: StoredEvidence | null;
  rolloutIndex: number;
  rolloutResults: TargetResult[];
}

/** The fields of a rollout the workflow writes at a transition (recordRolloutState). */
export type RolloutPatch = Partial<RolloutState> & {
  canaryPreviewId?: number;
  canaryDiagnostics?: Record<string, unknown> | null;
  finished?: boolean;
  /** At an end in aborted or failed: why (src/domain/canary/status-reason.ts). */
  statusReasonCode?: StatusReasonCode;
  statusReason?: string;
};

/** A batch's applies as the rollout starts them: the recorded runs, and the apply activity's options. */
export interface RolloutApplies {
  runIds: number[];
  heartbeatTimeoutMs: number;
  retry: { initialIntervalMs: number; maximumAttempts: number };
}

export type GateAction = 'proceed' | 'abort' | 'refresh';
export interface GateRequest {
  action: GateAction;
  stateToken: string;
}

/** A canary rollout: canary sync, evidence, the gate, batched syncs: `canary-rollout-<id>`. */
export const canaryRolloutWorkflow = defineWorkflow<(input: CanaryRolloutInput) => Promise<RolloutState>>('canaryRolloutWorkflow');

/** The verification gate: proceed, abort, or rebuild the evidence; guarded by the state token. */
export const gateUpdate = defineUpdate<RolloutState, [GateRequest]>('gate');
export const rolloutStateQuery = defineQuery<RolloutState>('state');

/**
 * Why a gate request was refused (the ApplicationFailure type its validator throws):
 * invalid action, stale_token, wrong_state (not at the gate), evidence_unavailable (message: why).
 */
export const GATE_REFUSALS = {
  invalid: 'invalid',
  staleToken: 'stale_token',
  wrongState: 'wrong_state',
  evidenceUnavailable: 'evidence_unavailable',
} as const;
