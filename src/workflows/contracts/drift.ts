import type { DriftReason, StoredDriftStatus } from '../../domain/drift';
import { defineWorkflow } from './define';

export interface DriftOutcome {
  instanceId: number;
  status: StoredDriftStatus;
  reason: DriftReason | null;
}

export interface DriftPollResult {
  checked: number;
  failed: number;
  backingOff: number;
  errorCount: number;
}

/** One drift check of one instance, stored: `<tq>-drift-check-<instanceId>` or `<sync id>-drift` after an apply. */
export const driftCheckWorkflow = defineWorkflow<(instanceId: number) => Promise<DriftOutcome>>('driftCheckWorkflow');
/** Run by the drift polling schedule: the due instances' checks in one activity (a pool of 16). */
export const driftPollWorkflow = defineWorkflow<() => Promise<DriftPollResult>>('driftPollWorkflow');
