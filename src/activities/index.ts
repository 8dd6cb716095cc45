import { adoptionActivities } from './adoption-activities';
import { backupActivities } from './backup-activities';
import { canaryActivities } from './canary-activities';
import { compareActivities } from './compare-activities';
import { driftActivities } from './drift-activities';
import { healthActivities } from './health-activities';
import type { ActivityDeps } from './deps';
import { historyActivities } from './history-activities';
import { instanceActivities } from './instance-activities';
import { notificationActivities } from './notification-activities';
import { pcdActivities } from './pcd-activities';
import { rollbackActivities } from './rollback-activities';
import { refGuideActivities } from './ref-guide-activities';
import { syncActivities } from './sync-activities';

export type { ActivityDeps } from './deps';
export type { InstanceTestResult } from './instance-activities';

export function createActivities(deps: ActivityDeps) {
  return {
    ...instanceActivities(deps),
    ...backupActivities(deps),
    ...pcdActivities(deps),
    ...rollbackActivities(deps),
    ...historyActivities(deps),
    ...syncActivities(deps),
    ...canaryActivities(deps),
    ...driftActivities(deps),
    ...healthActivities(deps),
    ...refGuideActivities(deps),
    ...compareActivities(deps),
    ...notificationActivities(deps),
    ...adoptionActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
