import type { SourceFailure } from '../../domain/pcd/source-failures';
import { defineWorkflow } from './define';

export type PullResult =
  | { status: 'ready'; commit: string | null; inserted: number; removed: number; totalOps: number; failed: number; conflicts: number }
  | { status: 'failed'; reason: SourceFailure };

/** Fetch, import and rebuild of one PCD database: `<tq>-pcd-pull-<databaseId>` (concurrent pulls join). */
export const pcdPullWorkflow = defineWorkflow<(databaseId: number) => Promise<PullResult>>('pcdPullWorkflow');
