import { createArrClient } from '../clients/arr-client';
import { checkAppIdentity } from '../services/instances/app-identity';
import { InstanceService } from '../services/instances/instance-service';
import type { CandidateConnection, InstanceTestResult } from '../workflows/contracts';
import type { ActivityDeps } from './deps';

export type { InstanceTestResult } from '../workflows/contracts';

export function instanceActivities(deps: ActivityDeps) {
  return {
    /**
     * Asks the app who it is (system/status) with the stored key, or a candidate connection's;
     * failures come back as a sanitized reason.
     */
    async probeInstance(target: number | CandidateConnection): Promise<InstanceTestResult> {
      const instances = new InstanceService(deps.orm.em, deps.secretBox);
      const connection = typeof target === 'number' ? await instances.connection(target) : instances.connectionOf({ id: 0, name: 'candidate', enabled: true, ...target });
      const checked = await checkAppIdentity(createArrClient(connection, deps.config.appRequestTimeoutMs));
      const instanceId = typeof target === 'number' ? target : null;
      if (checked.status === 'failed') {
        deps.logger.info({ instanceId, arrType: connection.arrType, failure: checked.failure, status: checked.httpStatus }, 'instance probe failed');
        return { reachable: false, reason: checked.failure };
      }
      const { appName, version, arrType } = checked.identity;
      if (checked.status === 'mismatch') deps.logger.info({ instanceId, arrType: connection.arrType, detectedArrType: arrType }, 'instance probe found another app');
      return { reachable: true, appName, version, matchesArrType: checked.status === 'matches', detectedArrType: arrType };
    },
  };
}
