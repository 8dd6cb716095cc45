import { randomUUID } from 'node:crypto';
import { ServiceError, WorkflowFailedError, type WorkflowClient, type WorkflowHandle, type WorkflowHandleWithSignaledRunId, type WorkflowHandleWithStartDetails, type WorkflowStartOptions } from '@temporalio/client';
import type { Duration, SearchAttributePair, SignalDefinition, Workflow, WorkflowIdConflictPolicy, WorkflowIdReusePolicy, WorkflowResultType } from '@temporalio/common';
import { TypedSearchAttributes } from '@temporalio/common';
import { AppError } from '../errors';
import type { TemporalGateway } from '../platform/temporal-client';
import { appErrorFromFailure } from '../platform/temporal-errors';

export interface WorkflowStart<W extends Workflow> {
  workflowId?: string;
  /** What to do when a workflow with this id is running (default: fail). */
  conflictPolicy?: WorkflowIdConflictPolicy;
  /** Whether a closed workflow's id may start again (default: allow duplicate). */
  reusePolicy?: WorkflowIdReusePolicy;
  idPrefix?: string;
  args: Parameters<W>;
  searchAttributes?: SearchAttributePair[];
  staticSummary?: string;
  staticDetails?: string;
  executionTimeout?: Duration;
  /**
   * Ask for eager execution when a worker runs in this process (TemporalGateway.localWorkerClient):
   * its first workflow task skips the task queue. Elsewhere the start is the usual one.
   */
  eager?: boolean;
}

/**
 * The one way services start workflows: a typed definition from src/workflows/contracts, the
 * standard task queue, ids, search attributes, and Temporal failures translated into AppErrors
 * (never raw text).
 */
export async function startWorkflow<W extends Workflow>(gateway: Pick<TemporalGateway, 'client' | 'taskQueue' | 'localWorkerClient'>, workflow: W, start: WorkflowStart<W>): Promise<WorkflowHandleWithStartDetails<W>> {
  const eagerClient = start.eager ? gateway.localWorkerClient : undefined;
  const options = {
    taskQueue: gateway.taskQueue,
    workflowId: start.workflowId ?? `${start.idPrefix ?? workflow.name}-${randomUUID()}`,
    args: start.args,
    typedSearchAttributes: start.searchAttributes ? new TypedSearchAttributes(start.searchAttributes) : undefined,
    staticSummary: start.staticSummary,
    staticDetails: start.staticDetails,
    workflowExecutionTimeout: start.executionTimeout,
    workflowIdConflictPolicy: start.conflictPolicy,
    workflowIdReusePolicy: start.reusePolicy,
    requestEagerStart: eagerClient ? true : undefined,
  } satisfies WorkflowStartOptions<Workflow>;
  try {
    // TypeScript cannot resolve the SDK's conditional args type for a generic W; start.args is Parameters<W>.
    return await (eagerClient ?? gateway.client).workflow.start<W>(workflow, options as unknown as WorkflowStartOptions<W>);
  } catch (error) {
    throw translateTemporalError(error);
  }
}

/**
 * Sends `signal` to the running workflow with the start's id, or starts it and then sends it
 * (Temporal's signal-with-start, one call): for requests that join a running workflow and must
 * tell it they came.
 */
export async function signalWithStartWorkflow<W extends Workflow>(
  gateway: Pick<TemporalGateway, 'client' | 'taskQueue'>,
  workflow: W,
  start: Omit<WorkflowStart<W>, 'conflictPolicy' | 'eager'> & { workflowId: string },
  signal: SignalDefinition<[]>,
): Promise<WorkflowHandleWithSignaledRunId<W>> {
  try {
    return await gateway.client.workflow.signalWithStart<W, []>(workflow, {
      taskQueue: gateway.taskQueue,
      workflowId: start.workflowId,
      args: start.args,
      typedSearchAttributes: start.searchAttributes ? new TypedSearchAttributes(start.searchAttributes) : undefined,
      staticSummary: start.staticSummary,
      staticDetails: start.staticDetails,
      workflowExecutionTimeout: start.executionTimeout,
      workflowIdReusePolicy: start.reusePolicy,
      signal,
    } as never);
  } catch (error) {
    throw translateTemporalError(error);
  }
}

/**
 * Runs a workflow start that follows a write the user waits on (a preview, a rollout, an
 * adoption): when Temporal refuses or cannot be reached, `undo` removes what the write stored, so
 * a refused request leaves nothing behind, and the start's failure is thrown.
 */
export async function unlessStarted<T>(undo: () => Promise<unknown>, start: () => Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (error) {
    await undo();
    throw error;
  }
}

/** Starts a workflow and waits for its result. */
export async function executeWorkflow<W extends Workflow>(gateway: TemporalGateway, workflow: W, start: WorkflowStart<W>): Promise<WorkflowResultType<W>> {
  return workflowResult(await startWorkflow(gateway, workflow, start));
}

/** The result of a started workflow, its failures translated. */
export async function workflowResult<W extends Workflow>(handle: WorkflowHandle<W>): Promise<WorkflowResultType<W>> {
  try {
    return await handle.result();
  } catch (error) {
    throw translateTemporalError(error);
  }
}

/**
 * What a bounded wait gives: the value when the awaited call answered in time, `finished: false`
 * when the bound passed first (the workflow goes on).
 */
export type BoundedWait<T> = { finished: true; value: T } | { finished: false };

/**
 * The one bounded wait on a workflow: runs a client call (its result, an update that answers at a
 * stage) for at most `withinMs`, then cancels the call's requests; 0 does not wait. Failures are
 * translated like every other workflow call.
 */
export async function waitWithin<T>(client: Pick<WorkflowClient, 'withAbortSignal'>, withinMs: number, call: () => Promise<T>): Promise<BoundedWait<T>> {
  if (withinMs <= 0) return { finished: false };
  const bound = new AbortController();
  const timer = setTimeout(() => bound.abort(), withinMs);
  try {
    return { finished: true, value: await client.withAbortSignal(bound.signal, call) };
  } catch (error) {
    if (bound.signal.aborted) return { finished: false };
    throw translateTemporalError(error);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A use case's answer after an optional bounded wait (the API's `wait=true`): the state as stored
 * after the wait, and whether what it waited for happened in time.
 */
export interface WaitedAnswer<T> {
  finished: boolean;
  body: T;
}

/** The result of a started workflow if it finishes within `withinMs`. */
export function workflowResultWithin<W extends Workflow>(handle: WorkflowHandle<W>, withinMs: number): Promise<BoundedWait<WorkflowResultType<W>>> {
  return waitWithin(handle.client, withinMs, () => handle.result());
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
