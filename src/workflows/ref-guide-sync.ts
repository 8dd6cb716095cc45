import {
  executeChild,
  log,
  proxyActivities,
  proxyLocalActivities,
  setCurrentDetails,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { Activities } from '../activities';
import type { RefGuideFailure } from '../domain/ref-guide/failures';
import {
  refGuideSyncProgressQuery,
  refGuideSyncWorkflowId,
  type RefGuideRefreshResult,
  type RefGuideSyncInput,
  type RefGuideSyncProgress,
  type RefGuideSyncResult,
} from './contracts/ref-guide';
import { SA } from './search-attributes';

const fetching = proxyActivities<Activities>({
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '3 minutes',
  retry: { maximumAttempts: 3, initialInterval: '5 seconds', nonRetryableErrorTypes: ['AppError'] },
});
const caching = proxyActivities<Activities>({
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '1 minute',
  retry: { maximumAttempts: 3, initialInterval: '5 seconds', nonRetryableErrorTypes: ['AppError'] },
});
const bookkeeping = proxyLocalActivities<Activities>({ startToCloseTimeout: '1 minute', retry: { maximumAttempts: 5 } });

/** Sources refreshed at once by the schedule. */
export const REF_GUIDE_REFRESH_CONCURRENCY = 4;

/**
 * Sync of one reference-guide source: a shallow fetch, then the guide JSON is parsed and the cache
 * replaced in one transaction (unchanged entities are not rewritten). A failure at any step keeps
 * the last good cache and records a sanitized reason.
 */
export async function refGuideSyncWorkflow(input: RefGuideSyncInput): Promise<RefGuideSyncResult> {
  const { sourceId } = input;
  let progress: RefGuideSyncProgress = { phase: 'starting', done: 0, total: 0 };
  setHandler(refGuideSyncProgressQuery, () => progress);
  const fail = async (reason: RefGuideFailure): Promise<RefGuideSyncResult> => {
    progress = { ...progress, phase: 'failed' };
    if (reason !== 'source_deleted') await bookkeeping.refGuideRecordFailure(sourceId, reason);
    upsertSearchAttributes([{ key: SA.syncStatus, value: 'failed' }]);
    setCurrentDetails(`Sync failed (${reason}); the last good cache is kept`);
    return { status: 'failed', reason };
  };
  try {
    progress = { phase: 'fetching', done: 0, total: 1 };
    setCurrentDetails(`Fetching reference-guide source ${sourceId}`);
    const fetched = await fetching.refGuideFetch(sourceId);
    if (!fetched.ok) return await fail(fetched.reason);
    progress = { phase: 'writing', done: 0, total: 0 };
    setCurrentDetails(`Parsing the guide at ${fetched.commit ?? 'the local directory'} and replacing the cache`);
    const cached = await caching.refGuideReplaceCache(sourceId, fetched.commit);
    if (!cached.ok) return await fail(cached.reason);
    const { ok: _ok, ...summary } = cached;
    const total = Object.values(summary.counts).reduce((a, b) => a + b, 0);
    progress = { phase: 'done', done: total, total };
    upsertSearchAttributes([{ key: SA.syncStatus, value: 'success' }]);
    setCurrentDetails(`Ready: ${total} entities (${summary.inserted} new, ${summary.updated} changed, ${summary.removed} removed, ${summary.unchanged} unchanged)`);
    return { status: 'ready', ...summary };
  } catch {
    log.warn('reference-guide sync failed after retries', { sourceId });
    return fail('sync_failed');
  }
}

/**
 * Run by the refresh schedule: one child sync per enabled source, REF_GUIDE_REFRESH_CONCURRENCY at
 * a time. A child uses the source's sync id, so a manual sync already running is joined, not doubled.
 */
export async function refGuideRefreshWorkflow(): Promise<RefGuideRefreshResult> {
  const sources = await bookkeeping.refGuideListEnabled();
  const { taskQueue } = workflowInfo();
  const result: RefGuideRefreshResult = { sources: sources.length, ready: 0, failed: 0, joined: 0 };
  let next = 0;
  const worker = async () => {
    while (next < sources.length) {
      const source = sources[next++];
      try {
        const outcome = await executeChild(refGuideSyncWorkflow, {
          workflowId: refGuideSyncWorkflowId(taskQueue, source.id),
          args: [{ sourceId: source.id, trigger: 'schedule' }],
          workflowExecutionTimeout: '30 minutes',
          staticSummary: `Scheduled sync of reference-guide source ${source.id}`,
          typedSearchAttributes: [
            { key: SA.kind, value: 'ref-guide-sync' },
            { key: SA.sourceId, value: source.id },
            { key: SA.arrType, value: source.arrType },
            { key: SA.trigger, value: 'schedule' },
          ],
        });
        if (outcome.status === 'ready') result.ready++;
        else result.failed++;
      } catch (error) {
        if (error instanceof WorkflowExecutionAlreadyStartedError) result.joined++;
        else result.failed++;
      }
      setCurrentDetails(`Refreshing ${sources.length} sources: ${result.ready} ready, ${result.failed} failed, ${result.joined} already syncing`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(REF_GUIDE_REFRESH_CONCURRENCY, sources.length) }, worker));
  await bookkeeping.refGuideRecordRefresh({ sources: result.sources, failed: result.failed, joined: result.joined });
  return result;
}
