import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { CompareInstanceInput, CompareInstanceRead } from '../domain/compare/entity-compare';

const { readCompareInstance } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  // Each read reports app failures as a reason; only a crashed worker retries it.
  retry: { maximumAttempts: 2, nonRetryableErrorTypes: ['AppError'] },
});

/** Reads every instance of a compare in parallel (app I/O runs in activities). */
export async function compareEntityWorkflow(inputs: CompareInstanceInput[]): Promise<CompareInstanceRead[]> {
  return Promise.all(inputs.map((input) => readCompareInstance(input)));
}
