import { APP_OF } from '../../domain/arr-types';
import { failureEvidence } from '../../domain/failure-evidence';
import { instanceTestWorkflow, searchAttributes } from '../../workflows/contracts';
import type { ServiceDeps } from '../deps';
import { loadInstance } from './instance-service';
import { executeWorkflow } from '../workflow-runner';

/** POST /instances/{id}/test: system/status with the stored key, in a workflow; failures carry pre-authored text. */
export async function testInstanceConnection(deps: Pick<ServiceDeps, 'orm' | 'temporal'>, instanceId: number) {
  const instance = await loadInstance(deps.orm.em, instanceId);
  const result = await executeWorkflow(deps.temporal, instanceTestWorkflow, {
    idPrefix: `instance-test-${instance.id}`,
    args: [instance.id],
    executionTimeout: '2 minutes',
    staticSummary: `Connection test of ${APP_OF[instance.arrType].label} instance "${instance.name}"`,
    searchAttributes: searchAttributes({ kind: 'instance-test', arrType: instance.arrType, instanceIds: [instance.id] }),
  });
  if (result.reachable) return result;
  const evidence = failureEvidence(result.reason);
  return { reachable: false as const, reason: result.reason, message: evidence.message, recoveryAction: evidence.recoveryAction };
}
