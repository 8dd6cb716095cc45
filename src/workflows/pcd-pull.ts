import { ContinueAsNew, continueAsNew, log, proxyActivities, setCurrentDetails, setHandler } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { SourceFailure } from '../domain/pcd/source-failures';
import { pcdPullProgressQuery, pcdPullRequestedSignal, type PullProgress, type PullResult } from './contracts';

// Fetch and import heartbeat on a timer: a step whose worker died is retried within 30 s, not
// after its 10-minute bound (the chaos soak saw a pull, and every request joining it, held that long).
const io = proxyActivities<Activities>({
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '30 seconds',
  retry: { maximumAttempts: 3, initialInterval: '5 seconds', nonRetryableErrorTypes: ['AppError'] },
});
const record = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 5, initialInterval: '2 seconds', nonRetryableErrorTypes: ['AppError'] },
});

// Requests that keep arriving while the pull runs go round again; past this many rounds the pull
// carries on as a new run, so its history stays small (waiting requests follow the new run).
const ROUNDS_PER_RUN = 10;

const build = proxyActivities<Activities>({
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '2 minutes',
  retry: { maximumAttempts: 3, initialInterval: '5 seconds', nonRetryableErrorTypes: ['AppError'] },
});

/**
 * Pull of one PCD database: fetch the source, import new base and tweak ops into the application
 * database, rebuild the cache. Every step is idempotent, so a retried or re-run pull is safe.
 */
export async function pcdPullWorkflow(databaseId: number): Promise<PullResult> {
  let progress: PullProgress = { phase: 'fetching', commit: null, inserted: null, removed: null };
  setHandler(pcdPullProgressQuery, () => progress);
  const fail = async (reason: SourceFailure): Promise<PullResult> => {
    progress = { ...progress, phase: 'failed' };
    await record.pcdRecordFailure(databaseId, reason);
    setCurrentDetails(`Pull failed: ${reason}`);
    return { status: 'failed', reason };
  };
  // A request that joins after the fetch began may follow a commit the fetch did not see: the pull
  // goes round again. Histories without the signal run the loop once, as before.
  let fetchBegan = false;
  let askedAgain = false;
  setHandler(pcdPullRequestedSignal, () => {
    if (fetchBegan) askedAgain = true;
  });
  try {
    for (let round = 1; ; round++) {
      askedAgain = false;
      fetchBegan = true;
      progress = { ...progress, phase: 'fetching' };
      setCurrentDetails('Fetching the source');
      const fetched = await io.pcdFetchSource(databaseId);
      if (!fetched.ok) return await fail(fetched.reason);
      progress = { ...progress, phase: 'importing', commit: fetched.commit };
      setCurrentDetails(`Importing ops at ${fetched.commit ?? 'the local directory'}`);
      const imported = await io.pcdImportOps(databaseId);
      if (!imported.ok) return await fail(imported.reason);
      progress = { ...progress, phase: 'replaying', inserted: imported.inserted, removed: imported.removed };
      setCurrentDetails(`Replaying (${imported.inserted} new ops, ${imported.removed} removed)`);
      const built = await build.pcdRebuildCache(databaseId);
      if (askedAgain && round >= ROUNDS_PER_RUN) return await continueAsNew<typeof pcdPullWorkflow>(databaseId);
      if (askedAgain) continue;
      progress = { ...progress, phase: 'done' };
      setCurrentDetails(`Cache ${built.cacheStatus}: ${built.totalOps} ops, ${built.failed} failed, ${built.conflicts} conflicts`);
      return { status: 'ready', commit: fetched.commit, inserted: imported.inserted, removed: imported.removed, ...built };
    }
  } catch (error) {
    if (error instanceof ContinueAsNew) throw error;
    log.warn('pcd pull failed after retries', { databaseId });
    return fail('build_failed');
  }
}
