import { backupActivities } from './backup-activities';
import type { ActivityDeps } from './deps';
import { instanceActivities } from './instance-activities';

export type { ActivityDeps } from './deps';
export type { InstanceTestResult } from './instance-activities';

export function createActivities(deps: ActivityDeps) {
  return {
    ...instanceActivities(deps),
    ...backupActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
