import { randomUUID } from 'node:crypto';
import { ServiceError, WorkflowFailedError, type WorkflowHandle } from '@temporalio/client';
import type { Duration, SearchAttributePair, WorkflowIdConflictPolicy } from '@temporalio/common';
import { TypedSearchAttributes } from '@temporalio/common';
import { AppError } from '../errors';
import type { TemporalGateway } from '../platform/temporal-client';
import { appErrorFromFailure } from '../platform/temporal-errors';

export interface WorkflowStart {
  workflowId?: string;
  /** What to do when a workflow with this id is running (default: fail). */
  conflictPolicy?: WorkflowIdConflictPolicy;
  idPrefix?: string;
  args: unknown[];
  searchAttributes?: SearchAttributePair[];
  staticSummary?: string;
  staticDetails?: string;
  executionTimeout?: Duration;
}

/**
 * The one way the API and services start workflows: standard task queue, ids, search attributes,
 * and Temporal failures translated into AppErrors (never raw text).
 */
export async function startWorkflow(gateway: TemporalGateway, workflowType: string, start: WorkflowStart): Promise<WorkflowHandle> {
  try {
    return await gateway.client.workflow.start(workflowType, {
      taskQueue: gateway.taskQueue,
      workflowId: start.workflowId ?? `${start.idPrefix ?? workflowType}-${randomUUID()}`,
      args: start.args,
      typedSearchAttributes: start.searchAttributes ? new TypedSearchAttributes(start.searchAttributes) : undefined,
      staticSummary: start.staticSummary,
      staticDetails: start.staticDetails,
      workflowExecutionTimeout: start.executionTimeout,
      workflowIdConflictPolicy: start.conflictPolicy,
    });
  } catch (error) {
    throw translateTemporalError(error);
  }
}

export async function executeWorkflow<T>(gateway: TemporalGateway, workflowType: string, start: WorkflowStart): Promise<T> {
  const handle = await startWorkflow(gateway, workflowType, start);
  try {
    return (await handle.result()) as T;
  } catch (error) {
    throw translateTemporalError(error);
  }
}

export function translateTemporalError(error: unknown): Error {
  const appError = appErrorFromFailure(error);
  if (appError) return appError;
  if (error instanceof ServiceError || isGrpcError(error)) {
    return new AppError('unavailable', 'The workflow service is unavailable; try again shortly');
  }
  if (error instanceof WorkflowFailedError) return new AppError('internal', 'The workflow failed');
  return error instanceof Error ? error : new Error('unknown workflow error');
}

function isGrpcError(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'number' && (error as { details?: unknown }).details !== undefined && (error as Error).name !== 'AppError';
}
