/**
 * Contracts of the reference-guide workflows: names, ids, inputs, results, progress and queries.
 * Shared by the workflows (sandboxed), the activities and the service that starts them; no runtime
 * dependencies beyond @temporalio/workflow's defineQuery.
 */
import { defineQuery } from '@temporalio/workflow';
import type { RefEntityType, RefGuideFailure } from '../../domain/ref-guide';

export const REF_GUIDE_SYNC_WORKFLOW = 'refGuideSyncWorkflow';
export const REF_GUIDE_REFRESH_WORKFLOW = 'refGuideRefreshWorkflow';

export type RefGuideSyncTrigger = 'manual' | 'created' | 'schedule';

/** One id per source: concurrent syncs of a source join one run. */
export function refGuideSyncWorkflowId(taskQueue: string, sourceId: number): string {
  return `${taskQueue}-ref-guide-sync-${sourceId}`;
}

export interface RefGuideSyncInput {
  sourceId: number;
  trigger: RefGuideSyncTrigger;
}

export interface RefGuideCacheSummary {
  commit: string | null;
  counts: Record<RefEntityType, number>;
  inserted: number;
  updated: number;
  removed: number;
  unchanged: number;
  /** Files skipped because another file of the same type has their refId. */
  duplicates: string[];
}

export type RefGuideSyncResult = ({ status: 'ready' } & RefGuideCacheSummary) | { status: 'failed'; reason: RefGuideFailure };

/** Heartbeat details of the cache activity, and what the progress query answers. */
export interface RefGuideSyncProgress {
  phase: 'starting' | 'fetching' | 'reading' | 'writing' | 'done' | 'failed';
  done: number;
  total: number;
}

export const refGuideSyncProgressQuery = defineQuery<RefGuideSyncProgress>('refGuideSyncProgress');

export interface RefGuideRefreshResult {
  sources: number;
  ready: number;
  failed: number;
  /** Sources whose sync was already running (a manual sync): the refresh did not start another. */
  joined: number;
}
