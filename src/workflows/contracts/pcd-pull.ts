import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { PullPhase } from '../../domain/pcd/pull-phases';
import type { SourceFailure } from '../../domain/pcd/source-failures';
import { defineWorkflow } from './define';

/** status ready: the pull ran; cacheStatus says whether the replay is complete (ready), incomplete (degraded) or unusable (failed). */
export type PullResult =
  | { status: 'ready'; commit: string | null; inserted: number; removed: number; totalOps: number; failed: number; conflicts: number; cacheStatus: 'ready' | 'degraded' | 'failed' }
  | { status: 'failed'; reason: SourceFailure };

/** Fetch, import and rebuild of one PCD database: `<tq>-pcd-pull-<databaseId>` (concurrent pulls join). */
export const pcdPullWorkflow = defineWorkflow<(databaseId: number) => Promise<PullResult>>('pcdPullWorkflow');

/** What the progress query answers: the step, and what the steps behind it found. */
export interface PullProgress {
  phase: PullPhase;
  /** The commit fetched (null for a local directory that is not a git work tree, or before the fetch). */
  commit: string | null;
  /** Ops the import added and removed (null before the import). */
  inserted: number | null;
  removed: number | null;
}

export const pcdPullProgressQuery = defineQuery<PullProgress>('pcdPullProgress');

/**
 * A pull was asked for (sent with every start or join): one asked for after the running pull began
 * fetching makes it fetch again before it completes, so its answer includes what was committed
 * before the request.
 */
export const pcdPullRequestedSignal = defineSignal('pcdPullRequested');
