import type { PendingChanges } from '../../domain/canary/precheck';
import type { RolloutTarget } from './canary-rollout';
import { defineWorkflow } from './define';

export interface CanaryPrecheckInput {
  canary: RolloutTarget;
  targets: RolloutTarget[];
  sections: string[];
  /** Targets read at once (they are read only when the canary has nothing to change). */
  concurrency: number;
}

export interface CanaryPrecheckResult {
  canary: PendingChanges;
  /** The targets as read, in request order; null when the canary has changes (they were not read). */
  targets: PendingChanges[] | null;
}

/**
 * Before a rollout starts: does its canary have anything to change, and if not, which targets do
 * (read-only; nothing is stored): `canary-precheck-<canaryId>-<uuid>`.
 */
export const canaryPrecheckWorkflow = defineWorkflow<(input: CanaryPrecheckInput) => Promise<CanaryPrecheckResult>>('canaryPrecheckWorkflow');
