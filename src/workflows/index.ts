// Every workflow the worker runs. This module and everything it imports is bundled for the
// Temporal workflow sandbox: no Node APIs, no I/O, only deterministic code. Starters use the
// definitions in ./contracts, which carry the same names and signatures.
import type { WORKFLOW_DEFINITIONS } from './contracts';
import { backupWorkflow } from './backup';
import { canaryRolloutWorkflow } from './canary-rollout';
import { driftCheckWorkflow, driftPollWorkflow } from './drift';
import { healthSnapshotWorkflow } from './health-snapshots';
import { instanceTestWorkflow } from './instance-test';
import { pcdPullWorkflow } from './pcd-pull';
import { syncWorkflow } from './sync';
import { syncHistoryRetentionWorkflow } from './sync-history-retention';

export {
  backupWorkflow,
  canaryRolloutWorkflow,
  driftCheckWorkflow,
  driftPollWorkflow,
  healthSnapshotWorkflow,
  instanceTestWorkflow,
  pcdPullWorkflow,
  syncHistoryRetentionWorkflow,
  syncWorkflow,
};

/** Each contract has its implementation, with the contract's signature (checked at compile time). */
const implemented: { [Name in keyof typeof WORKFLOW_DEFINITIONS]: (typeof WORKFLOW_DEFINITIONS)[Name] } = {
  backupWorkflow,
  canaryRolloutWorkflow,
  driftCheckWorkflow,
  driftPollWorkflow,
  healthSnapshotWorkflow,
  instanceTestWorkflow,
  pcdPullWorkflow,
  syncHistoryRetentionWorkflow,
  syncWorkflow,
};
void implemented;
