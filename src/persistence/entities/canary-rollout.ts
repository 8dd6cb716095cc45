import { EntitySchema } from '@mikro-orm/core';
import type { ArrType } from '../../domain/arr-types';
import type { StatusReasonCode } from '../../domain/canary/status-reason';
import { createdAtColumn, updatedAtColumn } from './timestamps';

export type RolloutStatus = 'canary_running' | 'awaiting_confirmation' | 'rolling_out' | 'completed' | 'aborted' | 'failed';
export type CanaryStatus = 'pending' | 'running' | 'success' | 'partial' | 'failed' | 'skipped';

/**
 * A canary rollout as of its last transition. The workflow owns it and writes it at every
 * transition, so reads keep working after Temporal's retention.
 */
export class CanaryRollout {
  id!: number;
  arrType!: ArrType;
  canaryInstanceId!: number;
  canaryInstanceName!: string;
  /** Targets captured at start: [{instanceId, instanceName}]. */
  targets!: { instanceId: number; instanceName: string }[];
  sections!: string[];
  partialPolicy!: 'gate' | 'abort';
  batchSize!: number;
  evidenceMaxAgeSeconds!: number;
  status: RolloutStatus = 'canary_running';
  canaryStatus: CanaryStatus = 'pending';
  /** The canary's sync preview (and run) for diagnostics. */
  canaryPreviewId: number | null = null;
  canaryDiagnostics: Record<string, unknown> | null = null;
  /** Warning shown when a partial canary passed the gate (partialPolicy gate). */
  warning: string | null = null;
  /** Why the rollout ended aborted or failed (null otherwise): code and pre-authored text (src/domain/canary/status-reason.ts). */
  statusReasonCode: StatusReasonCode | null = null;
  statusReason: string | null = null;
  remainingPreview: Record<string, unknown> | null = null;
  /** Index into targets that the rollout job has reached (resumable). */
  rolloutIndex: number = 0;
  rolloutResults: Record<string, unknown>[] = [];
  trigger: string = 'manual';
  stateToken!: string;
  workflowId!: string;
  createdAt: Date = new Date();
  updatedAt: Date = new Date();
  finishedAt: Date | null = null;
}

export const CanaryRolloutSchema = new EntitySchema<CanaryRollout>({
  class: CanaryRollout,
  tableName: 'canary_rollouts',
  indexes: [
    { name: 'canary_rollouts_status_index', properties: ['status'] },
    { name: 'canary_rollouts_created_id_index', properties: ['createdAt', 'id'] },
    { name: 'canary_rollouts_instance_created_index', properties: ['canaryInstanceId', 'createdAt', 'id'] },
    { name: 'canary_rollouts_arr_type_created_index', properties: ['arrType', 'createdAt', 'id'] },
  ],
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    arrType: { type: 'string', length: 20, fieldName: 'arr_type' },
    canaryInstanceId: { type: 'integer', fieldName: 'canary_instance_id' },
    canaryInstanceName: { type: 'string', length: 100, fieldName: 'canary_instance_name' },
    targets: { type: 'json' },
    sections: { type: 'json' },
    partialPolicy: { type: 'string', length: 10, fieldName: 'partial_policy' },
    batchSize: { type: 'integer', fieldName: 'batch_size' },
    evidenceMaxAgeSeconds: { type: 'integer', fieldName: 'evidence_max_age_seconds' },
    status: { type: 'string', length: 30, default: 'canary_running' },
    canaryStatus: { type: 'string', length: 20, fieldName: 'canary_status', default: 'pending' },
    canaryPreviewId: { type: 'integer', nullable: true, fieldName: 'canary_preview_id' },
    canaryDiagnostics: { type: 'json', nullable: true, fieldName: 'canary_diagnostics' },
    warning: { type: 'string', length: 500, nullable: true },
    statusReasonCode: { type: 'string', length: 30, nullable: true, fieldName: 'status_reason_code' },
    statusReason: { type: 'text', nullable: true, fieldName: 'status_reason' },
    remainingPreview: { type: 'json', nullable: true, fieldName: 'remaining_preview' },
    rolloutIndex: { type: 'integer', fieldName: 'rollout_index', default: 0 },
    rolloutResults: { type: 'json', fieldName: 'rollout_results' },
    trigger: { type: 'string', length: 20, default: 'manual' },
    stateToken: { type: 'string', length: 64, fieldName: 'state_token' },
    workflowId: { type: 'string', length: 200, fieldName: 'workflow_id' },
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
    finishedAt: { type: 'Date', nullable: true, fieldName: 'finished_at' },
  },
});
