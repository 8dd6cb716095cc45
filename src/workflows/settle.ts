import { allHandlersFinished, condition } from '@temporalio/workflow';

/** Returns the workflow's result once every update handler has answered: no caller is left without a response. */
export async function settled<T>(result: T): Promise<T> {
  await condition(allHandlersFinished);
  return result;
}
