import { APP_OF, type ArrType } from '../../domain/arr-types';
import { precheckRefusal, type PrecheckRefusal } from '../../domain/canary/precheck';
import { isAppError } from '../../errors';
import { canaryPrecheckWorkflow, searchAttributes, type RolloutTarget } from '../../workflows/contracts';
import type { ServiceDeps } from '../deps';
import { startWorkflow, workflowResultWithin } from '../workflow-runner';

/** Targets read at once when the canary has nothing to change (as many as an evidence round's previews). */
export const PRECHECK_CONCURRENCY = 5;

/**
 * The check before a rollout starts, in a read-only workflow (`canary-precheck-<canaryId>-<uuid>`):
 * the refusal when the canary has nothing to change, null to start. When the check cannot answer
 * (the canary unreadable, the check failing, or no answer within `CANARY_PRECHECK_WAIT_MS`: a worker
 * lost, a slow app) the rollout starts as it would without it, and its canary sync then fails with
 * evidence: the user's request is never held for the check's own bounds. Only an unreachable
 * Temporal is an error (the start would be).
 */
export async function precheckRollout(
  deps: Pick<ServiceDeps, 'temporal' | 'logger' | 'config'>,
  rollout: { arrType: ArrType; canary: RolloutTarget; targets: RolloutTarget[]; sections: string[] },
): Promise<PrecheckRefusal | null> {
  try {
    const handle = await startWorkflow(deps.temporal, canaryPrecheckWorkflow, {
      idPrefix: `canary-precheck-${rollout.canary.instanceId}`,
      args: [{ canary: rollout.canary, targets: rollout.targets, sections: rollout.sections, concurrency: PRECHECK_CONCURRENCY }],
      executionTimeout: '2 minutes',
      staticSummary: `Pre-check of a canary rollout to ${rollout.targets.length} ${APP_OF[rollout.arrType].label} instance${rollout.targets.length === 1 ? '' : 's'}: does canary "${rollout.canary.instanceName}" have anything to change?`,
      searchAttributes: searchAttributes({ kind: 'canary-precheck', arrType: rollout.arrType, instanceIds: [rollout.canary.instanceId, ...rollout.targets.map((t) => t.instanceId)] }),
    });
    const waitMs = deps.config.canaryPrecheckWaitMs;
    const answered = await workflowResultWithin(handle, waitMs);
    if (!answered.finished) {
      deps.logger.warn({ canaryInstanceId: rollout.canary.instanceId, waitedMs: waitMs }, 'rollout pre-check did not answer in time; the rollout starts without it');
      return null;
    }
    return precheckRefusal(answered.value.canary, answered.value.targets ?? []);
  } catch (error) {
    if (isAppError(error) && error.kind === 'unavailable') throw error;
    deps.logger.warn({ canaryInstanceId: rollout.canary.instanceId, errorClass: error instanceof Error ? error.name : typeof error }, 'rollout pre-check did not complete; the rollout starts without it');
    return null;
  }
}
