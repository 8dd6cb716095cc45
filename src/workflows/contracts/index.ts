// Workflow contracts: what workflows, activities and services share about each workflow (inputs,
// results, updates, queries, refusal types, search attributes) and its typed definition for
// starters. Nothing here runs a workflow; src/workflows/index.ts exports the implementations.
import { adoptionWorkflow } from './adoption';
import { canaryPrecheckWorkflow } from './canary-precheck';
import { canaryRolloutWorkflow } from './canary-rollout';
import { compareEntityWorkflow } from './compare';
import { driftCheckWorkflow, driftPollWorkflow } from './drift';
import { instanceTestWorkflow } from './instance-test';
import { notificationDeliveryWorkflow } from './notifications';
import { pcdPullWorkflow } from './pcd-pull';
import { pcdRollbackWorkflow } from './rollback';
import { refGuideRefreshWorkflow, refGuideSyncWorkflow } from './ref-guide';
import { backupWorkflow, healthSnapshotWorkflow, syncHistoryRetentionWorkflow } from './scheduled';
import { syncWorkflow } from './sync';

export * from './adoption';
export * from './canary-precheck';
export * from './canary-rollout';
export * from './compare';
export * from './drift';
export * from './instance-test';
export * from './notifications';
export * from './pcd-pull';
export * from './rollback';
export * from './ref-guide';
export * from './scheduled';
export * from './search-attributes';
export * from './sync';

/** Every workflow the worker runs, by name; src/workflows/index.ts implements each one. */
export const WORKFLOW_DEFINITIONS = {
  instanceTestWorkflow,
  backupWorkflow,
  pcdPullWorkflow,
  syncHistoryRetentionWorkflow,
  syncWorkflow,
  canaryRolloutWorkflow,
  canaryPrecheckWorkflow,
  driftCheckWorkflow,
  driftPollWorkflow,
  healthSnapshotWorkflow,
  refGuideSyncWorkflow,
  refGuideRefreshWorkflow,
  pcdRollbackWorkflow,
  compareEntityWorkflow,
  notificationDeliveryWorkflow,
  adoptionWorkflow,
};
