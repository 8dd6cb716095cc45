import type { SourceFailure } from '../../domain/pcd/source-failures';
import { defineWorkflow } from './define';

/** status ready: the pull ran; cacheStatus says whether the replay is complete (ready), incomplete (degraded) or unusable (failed). */
export type PullResult =
  | { status: 'ready'; commit: string | null; inserted: number; removed: number; totalOps: number; failed: number; conflicts: number; cacheStatus: 'ready' | 'degraded' | 'failed' }
  | { status: 'failed'; reason: SourceFailure };

/** Fetch, import and rebuild of one PCD database: `<tq>-pcd-pull-<databaseId>` (concurrent pulls join). */
export const pcdPullWorkflow = defineWorkflow<(databaseId: number) => Promise<PullResult>>('pcdPullWorkflow');
