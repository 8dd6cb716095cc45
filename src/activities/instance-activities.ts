import { ArrClient } from '../clients/arr-client';
import { AppRequestError } from '../clients/http';
import { APP_OF } from '../domain/arr-types';
import type { AppFailureCode } from '../domain/failure-evidence';
import { InstanceService } from '../services/instance-service';
import type { ActivityDeps } from './deps';

export type InstanceTestResult =
  | { reachable: true; appName: string; version: string; matchesArrType: boolean }
  | { reachable: false; reason: AppFailureCode };

export function instanceActivities(deps: ActivityDeps) {
  return {
    /** Calls the app's system/status with the stored key; failures come back as a sanitized reason. */
    async probeInstance(instanceId: number): Promise<InstanceTestResult> {
      const connection = await new InstanceService(deps.orm.em, deps.secretBox).connection(instanceId);
      const client = new ArrClient(connection.arrType, connection, deps.config.appRequestTimeoutMs);
      try {
        const status = await client.systemStatus();
        return {
          reachable: true,
          appName: status.appName,
          version: status.version,
          matchesArrType: status.appName.toLowerCase() === APP_OF[connection.arrType].app,
        };
      } catch (error) {
        if (!(error instanceof AppRequestError)) throw error;
        deps.logger.info({ instanceId, failure: error.failure, status: error.status }, 'instance probe failed');
        return { reachable: false, reason: error.failure };
      }
    },
  };
}
