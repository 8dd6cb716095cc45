import { Client, Connection } from '@temporalio/client';

export interface TemporalGateway {
  client: Client;
  connection: Connection;
  /**
   * A client on the native connection of a worker running in this process, while it runs. Starts
   * through it may ask for eager execution: the server hands the first workflow task to that worker
   * in its answer, with no trip through the task queue. Absent when no local worker polls.
   */
  localWorkerClient?: Client;
  namespace: string;
  taskQueue: string;
  address: string;
  close(): Promise<void>;
}

/**
 * A lazy connection: the API starts even when Temporal is down, and health reports it.
 */
export function connectTemporal(address: string, namespace: string, taskQueue: string): TemporalGateway {
  const connection = Connection.lazy({ address, connectTimeout: '5 seconds' });
  const client = new Client({ connection, namespace });
  return {
    client,
    connection,
    namespace,
    taskQueue,
    address,
    close: () => connection.close(),
  };
}

/** Waits until a Temporal frontend answers, or throws after the timeout. */
export async function waitForTemporal(address: string, timeoutMs: number, isAlive: () => boolean = () => true): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (!isAlive()) throw new Error('Temporal dev server exited during start');
    try {
      const connection = await Connection.connect({ address, connectTimeout: '1 second' });
      try {
        await connection.withDeadline(Date.now() + 2000, () => connection.workflowService.getSystemInfo({}));
        return;
      } finally {
        await connection.close();
      }
    } catch (error) {
      lastError = error;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  throw new Error(`Temporal at ${address} did not become ready within ${timeoutMs} ms${lastError ? '' : ''}`);
}
