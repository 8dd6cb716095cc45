import type { Workflow } from '@temporalio/common';

/**
 * A workflow's typed definition: a function named like the workflow, never called here (the worker
 * runs the implementation of the same name, exported by src/workflows/index.ts). Starters pass it
 * wherever Temporal takes a workflow function (`client.workflow.start`, `executeChild`, schedule
 * actions), so arguments and results are checked and no call site spells the workflow's name.
 */
export function defineWorkflow<W extends Workflow>(name: string): W {
  const definition = {
    [name]: (): never => {
      throw new Error(`${name} runs in a Temporal worker; start it through a client`);
    },
  }[name];
  // The one cast: the definition carries W's signature for the SDK's typed start.
  return definition as unknown as W;
}
