import { ApplicationFailure, condition, proxyActivities, proxyLocalActivities, setCurrentDetails, setHandler, upsertSearchAttributes } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { failureEvidence, type FailureEvidence } from '../domain/failure-evidence';
import { EXECUTION_FAILED, evidenceOf, STALE } from './apply-failures';
import { settled } from './settle';
import {
  ADOPTION_REFUSALS,
  adoptionGeneratedUpdate,
  adoptionStatusQuery,
  applyAdoptionUpdate,
  discardAdoptionUpdate,
  SA,
  type AdoptionApplyResponse,
  type AdoptionWorkflowInput,
  type AdoptionWorkflowResult,
  type AdoptionWorkflowStatus,
} from './contracts';

const quick = proxyLocalActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumAttempts: 5, nonRetryableErrorTypes: ['AppError'] },
});

/**
 * One adoption: generating -> ready (-> applying -> applied | failed), expired when nobody applies
 * it within the TTL (or the database moved since the preview), discarded on request. The apply
 * activity is idempotent: a retried or resumed attempt finds the ops it stored and stores none twice.
 */
export async function adoptionWorkflow(input: AdoptionWorkflowInput): Promise<AdoptionWorkflowResult> {
  const slow = proxyActivities<Activities>({
    startToCloseTimeout: '30 minutes',
    heartbeatTimeout: input.heartbeatTimeoutMs,
    retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 10, nonRetryableErrorTypes: ['AppError'] },
  });
  let status: AdoptionWorkflowStatus = 'generating';
  let persisted: AdoptionWorkflowStatus = 'generating';
  let expiresAtMs: number | null = null;
  let requested: 'apply' | 'discard' | null = null;
  let refusal: AdoptionApplyResponse['code'] | undefined;
  const result: AdoptionWorkflowResult = { adoptionId: input.adoptionId, status, failure: null };

  const transition = async (next: AdoptionWorkflowStatus, extra: { expiresAtMs?: number; failure?: FailureEvidence | null } = {}) => {
    status = next;
    result.status = next;
    upsertSearchAttributes([{ key: SA.syncStatus, value: next }]);
    setCurrentDetails(`Adoption ${input.adoptionId}: ${next}`);
    await quick.recordAdoptionStatus(input.adoptionId, next, extra);
    persisted = next;
  };
  const refuseUnlessReady = () => {
    const expired = status === 'expired' || (status === 'ready' && expiresAtMs !== null && Date.now() >= expiresAtMs);
    if (expired) throw ApplicationFailure.create({ type: ADOPTION_REFUSALS.expired, message: 'the adoption preview expired', nonRetryable: true });
    if (status !== 'ready') throw ApplicationFailure.create({ type: ADOPTION_REFUSALS.notReady, message: `the adoption is ${status}`, details: [status], nonRetryable: true });
  };

  setHandler(adoptionStatusQuery, () => ({ status, expiresAtMs }));
  setHandler(adoptionGeneratedUpdate, async () => {
    await condition(() => persisted !== 'generating');
    return { status: persisted };
  });
  setHandler(
    applyAdoptionUpdate,
    async (): Promise<AdoptionApplyResponse> => {
      requested = 'apply';
      await condition(() => persisted !== 'ready' && persisted === status);
      return refusal ? { status, code: refusal } : { status };
    },
    { validator: refuseUnlessReady },
  );
  setHandler(
    discardAdoptionUpdate,
    async () => {
      requested = 'discard';
      await condition(() => persisted !== 'ready' && persisted === status);
      return { status };
    },
    { validator: refuseUnlessReady },
  );

  setCurrentDetails(`Adoption ${input.adoptionId}: generating`);
  let generated: Awaited<ReturnType<typeof quick.generateAdoption>>;
  try {
    generated = await quick.generateAdoption(input.adoptionId);
  } catch (error) {
    // The instance or database went away, or the plan could not be made: the adoption fails, said so.
    generated = { status: 'failed', failure: evidenceOf(error) ?? failureEvidence('internalError') };
  }
  if (generated.status === 'failed') {
    result.failure = generated.failure;
    await transition('failed', { failure: generated.failure });
    return settled(result);
  }
  expiresAtMs = Date.now() + input.ttlMs;
  await transition('ready', { expiresAtMs });

  if (!(await condition(() => requested !== null, input.ttlMs))) {
    result.failure = STALE;
    await transition('expired', { failure: STALE });
    return settled(result);
  }
  if (requested === 'discard') {
    await transition('discarded');
    return settled(result);
  }

  // Checked before the update answers, so a database that moved since the preview is a 409 (stale).
  if (!(await quick.checkAdoptionFresh(input.adoptionId))) {
    refusal = 'stale';
    result.failure = STALE;
    await transition('expired', { failure: STALE });
    return settled(result);
  }
  await transition('applying');
  let failure: FailureEvidence | null = null;
  try {
    const applied = await slow.applyAdoption(input.adoptionId);
    if (applied.stale) {
      refusal = 'stale';
      result.failure = STALE;
      await transition('expired', { failure: STALE });
      return settled(result);
    }
  } catch (error) {
    failure = EXECUTION_FAILED(evidenceOf(error));
  }
  result.failure = failure;
  await transition(failure ? 'failed' : 'applied', { failure });
  return settled(result);
}
