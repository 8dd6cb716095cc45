import type { Constructor } from '@mikro-orm/core';
import type { Migration } from '@mikro-orm/migrations';
import { Migration0001Foundation } from './0001-foundation';
import { Migration0002PcdDatabases } from './0002-pcd-databases';
import { Migration0003Sync } from './0003-sync';
import { Migration0004CanaryRollouts } from './0004-canary-rollouts';
import { Migration0005DriftAndHealth } from './0005-drift-and-health';
import { Migration0006RefGuide } from './0006-ref-guide';
import { Migration0007SnapshotsAndTimeline } from './0007-snapshots-and-timeline';
import { Migration0008UiPreferences } from './0008-ui-preferences';
import { Migration0009Notifications } from './0009-notifications';
import { Migration0010RolloutTargetRuns } from './0010-rollout-target-runs';
import { Migration0011RolloutStatusReason } from './0011-rollout-status-reason';
import { Migration0012InstanceVerification } from './0012-instance-verification';
import { Migration0013UsersAndSessions } from './0013-users-and-sessions';
import { Migration0014SyncIdentityLedger } from './0014-sync-identity-ledger';
import { Migration0015SyncRunVerification } from './0015-sync-run-verification';
import { Migration0016SyncConfigDatabases } from './0016-sync-config-databases';
import { Migration0017Adoptions } from './0017-adoptions';
import { Migration0018GitCredentials } from './0018-git-credentials';
import { Migration0019SharedLimits } from './0019-shared-limits';
import { Migration0020Outbox } from './0020-outbox';
import { Migration0021ApplyLeases } from './0021-apply-leases';

/** Ordered list; the number in each name is the migration version /health reports. */
export const MIGRATIONS: { name: string; class: Constructor<Migration> }[] = [
  { name: 'Migration0001Foundation', class: Migration0001Foundation },
  { name: 'Migration0002PcdDatabases', class: Migration0002PcdDatabases },
  { name: 'Migration0003Sync', class: Migration0003Sync },
  { name: 'Migration0004CanaryRollouts', class: Migration0004CanaryRollouts },
  { name: 'Migration0005DriftAndHealth', class: Migration0005DriftAndHealth },
  { name: 'Migration0006RefGuide', class: Migration0006RefGuide },
  { name: 'Migration0007SnapshotsAndTimeline', class: Migration0007SnapshotsAndTimeline },
  { name: 'Migration0008UiPreferences', class: Migration0008UiPreferences },
  { name: 'Migration0009Notifications', class: Migration0009Notifications },
  { name: 'Migration0010RolloutTargetRuns', class: Migration0010RolloutTargetRuns },
  { name: 'Migration0011RolloutStatusReason', class: Migration0011RolloutStatusReason },
  { name: 'Migration0012InstanceVerification', class: Migration0012InstanceVerification },
  { name: 'Migration0013UsersAndSessions', class: Migration0013UsersAndSessions },
  { name: 'Migration0014SyncIdentityLedger', class: Migration0014SyncIdentityLedger },
  { name: 'Migration0015SyncRunVerification', class: Migration0015SyncRunVerification },
  { name: 'Migration0016SyncConfigDatabases', class: Migration0016SyncConfigDatabases },
  { name: 'Migration0017Adoptions', class: Migration0017Adoptions },
  { name: 'Migration0018GitCredentials', class: Migration0018GitCredentials },
  { name: 'Migration0019SharedLimits', class: Migration0019SharedLimits },
  { name: 'Migration0020Outbox', class: Migration0020Outbox },
  { name: 'Migration0021ApplyLeases', class: Migration0021ApplyLeases },
];

export function migrationNumber(name: string): number {
  const match = /^Migration(\d+)/.exec(name);
  return match ? Number(match[1]) : 0;
}
