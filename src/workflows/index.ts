// Every workflow the worker runs. This module and everything it imports is bundled for the
// Temporal workflow sandbox: no Node APIs, no I/O, only deterministic code. Starters use the
// definitions in ./contracts, which carry the same names and signatures (./implements-contracts.ts
// checks that at compile time).
export { instanceTestWorkflow } from './instance-test';
export { backupWorkflow } from './backup';
export { pcdPullWorkflow } from './pcd-pull';
export { syncHistoryRetentionWorkflow } from './sync-history-retention';
export { syncWorkflow } from './sync';
export { canaryRolloutWorkflow } from './canary-rollout';
export { canaryPrecheckWorkflow } from './canary-precheck';
export { driftCheckWorkflow, driftPollWorkflow } from './drift';
export { healthSnapshotWorkflow } from './health-snapshots';
export { pcdRollbackWorkflow } from './rollback';
export { refGuideSyncWorkflow, refGuideRefreshWorkflow } from './ref-guide-sync';
export { compareEntityWorkflow } from './compare';
export { notificationDeliveryWorkflow } from './notification-delivery';
export { adoptionWorkflow } from './adoption';
