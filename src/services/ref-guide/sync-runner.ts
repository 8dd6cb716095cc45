import { WorkflowIdConflictPolicy } from '@temporalio/common';
import type { TemporalGateway } from '../../platform/temporal-client';
import type { RefGuideSource } from '../../persistence/entities';
import {
  REF_GUIDE_SYNC_WORKFLOW,
  refGuideSyncProgressQuery,
  refGuideSyncWorkflowId,
  type RefGuideSyncInput,
  type RefGuideSyncProgress,
  type RefGuideSyncResult,
  type RefGuideSyncTrigger,
} from '../../workflows/contracts/ref-guide';
import { SA } from '../../workflows/search-attributes';
import { startWorkflow, translateTemporalError } from '../workflow-runner';

export interface StartedRefGuideSync {
  workflowId: string;
  /** The run's result when waited for. */
  result: RefGuideSyncResult | null;
}

/** Starts the sync workflow of a source, or joins the one running; waits for its result when asked. */
export async function runRefGuideSync(gateway: TemporalGateway, source: RefGuideSource, trigger: RefGuideSyncTrigger, wait: boolean): Promise<StartedRefGuideSync> {
  const workflowId = refGuideSyncWorkflowId(gateway.taskQueue, source.id);
  const input: RefGuideSyncInput = { sourceId: source.id, trigger };
  const handle = await startWorkflow(gateway, REF_GUIDE_SYNC_WORKFLOW, {
    workflowId,
    args: [input],
    conflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
    staticSummary: `Sync of reference-guide source "${source.name}" (${source.type}, ${source.arrType})`,
    staticDetails: `Shallow fetch of the ${source.originKind} origin, parse of the guide JSON, atomic cache replacement. Trigger: ${trigger}.`,
    searchAttributes: [
      { key: SA.kind, value: 'ref-guide-sync' },
      { key: SA.sourceId, value: source.id },
      { key: SA.arrType, value: source.arrType },
      { key: SA.trigger, value: trigger },
    ],
  });
  if (!wait) return { workflowId, result: null };
  try {
    return { workflowId, result: (await handle.result()) as RefGuideSyncResult };
  } catch (error) {
    throw translateTemporalError(error);
  }
}

/** Progress of the source's sync run (the last one when none is running), or null when it never ran. */
export async function refGuideSyncProgress(gateway: TemporalGateway, sourceId: number): Promise<RefGuideSyncProgress | null> {
  try {
    return await gateway.client.workflow.getHandle(refGuideSyncWorkflowId(gateway.taskQueue, sourceId)).query(refGuideSyncProgressQuery);
  } catch {
    return null;
  }
}
