import { WorkflowIdConflictPolicy } from '@temporalio/common';
import type { TemporalGateway } from '../../platform/temporal-client';
import type { RefGuideSource } from '../../persistence/entities';
import {
  refGuideSyncWorkflow,
  refGuideSyncProgressQuery,
  refGuideSyncWorkflowId,
  type RefGuideSyncInput,
  type RefGuideSyncProgress,
  type RefGuideSyncResult,
  type RefGuideSyncTrigger,
} from '../../workflows/contracts/ref-guide';
import { searchAttributes } from '../../workflows/contracts';
import { startWorkflow, workflowResultWithin } from '../workflow-runner';

export interface StartedRefGuideSync {
  workflowId: string;
  /** The run's result when it finished within the wait. */
  result: RefGuideSyncResult | null;
}

/** Starts the sync workflow of a source, or joins the one running; waits at most `waitMs` for its result. */
export async function runRefGuideSync(gateway: Pick<TemporalGateway, 'client' | 'taskQueue' | 'localWorkerClient'>, source: RefGuideSource, trigger: RefGuideSyncTrigger, waitMs: number): Promise<StartedRefGuideSync> {
  const workflowId = refGuideSyncWorkflowId(gateway.taskQueue, source.id);
  const input: RefGuideSyncInput = { sourceId: source.id, trigger };
  const handle = await startWorkflow(gateway, refGuideSyncWorkflow, {
    workflowId,
    args: [input],
    conflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
    staticSummary: `Sync of reference-guide source "${source.name}" (${source.type}, ${source.arrType})`,
    staticDetails: `Shallow fetch of the ${source.originKind} origin, parse of the guide JSON, atomic cache replacement. Trigger: ${trigger}.`,
    searchAttributes: searchAttributes({ kind: 'ref-guide-sync', sourceId: source.id, arrType: source.arrType, trigger }),
  });
  const waited = await workflowResultWithin(handle, waitMs);
  return { workflowId, result: waited.finished ? waited.value : null };
}

/** Progress of the source's sync run (the last one when none is running), or null when it never ran. */
export async function refGuideSyncProgress(gateway: TemporalGateway, sourceId: number): Promise<RefGuideSyncProgress | null> {
  try {
    return await gateway.client.workflow.getHandle<typeof refGuideSyncWorkflow>(refGuideSyncWorkflowId(gateway.taskQueue, sourceId)).query(refGuideSyncProgressQuery);
  } catch {
    return null;
  }
}
