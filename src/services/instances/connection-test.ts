import { APP_OF, type ArrType } from '../../domain/arr-types';
import { appMismatchEvidence, failureEvidence, type AppFailureCode } from '../../domain/failure-evidence';
import { appMismatchRefusal, verificationOf } from '../../domain/instance-verification';
import { AppError } from '../../errors';
import { instanceTestWorkflow, searchAttributes, type CandidateConnection, type InstanceTestResult } from '../../workflows/contracts';
import type { ServiceDeps } from '../deps';
import { InstanceService, normalizeBaseUrl, type InstanceInput, type InstancePatch, type InstanceView } from './instance-service';
import { executeWorkflow } from '../workflow-runner';

type Deps = Pick<ServiceDeps, 'orm' | 'temporal' | 'secretBox'>;

/** A connection test's outcome as the API shows it: failures and a mismatch carry pre-authored text. */
export type ConnectionTestView =
  | { reachable: true; appName: string; version: string; matchesArrType: true; detectedArrType: ArrType }
  | { reachable: true; appName: string; version: string; matchesArrType: false; detectedArrType: ArrType | null; reason: 'appMismatch'; message: string; recoveryAction: string }
  | { reachable: false; reason: AppFailureCode; message: string; recoveryAction: string };

/** POST /instances/{id}/test: system/status with the stored key, in a workflow; the instance records what it found. */
export async function testInstanceConnection(deps: Deps, instanceId: number): Promise<ConnectionTestView> {
  const instances = InstanceService.of(deps);
  const instance = await instances.load(instanceId);
  const result = await runConnectionTest(deps, instance.id, { instanceId: instance.id, arrType: instance.arrType, name: instance.name });
  await instances.recordVerification(instance.id, verificationOf(result, new Date()));
  return connectionTestView(result, instance.arrType);
}

/**
 * POST /instances: tests the connection first. An app of another family is refused (400, code
 * appMismatch) and nothing is stored; an app that cannot be reached (or rejects the key) is
 * registered unverified, with the test's outcome.
 */
export async function registerInstance(deps: Deps, input: InstanceInput): Promise<InstanceView & { connectionTest: ConnectionTestView }> {
  const instances = InstanceService.of(deps);
  await instances.assertNameFree(input.name);
  const candidate: CandidateConnection = { arrType: input.arrType, baseUrl: normalizeBaseUrl(input.baseUrl), apiKeySealed: instances.seal(input.apiKey) };
  const result = await runConnectionTest(deps, candidate, { instanceId: null, arrType: input.arrType, name: input.name });
  refuseMismatch(result, 'arrType', input.arrType, 'stored');
  const view = await instances.create({ ...input, apiKeySealed: candidate.apiKeySealed }, verificationOf(result, new Date()));
  return { ...view, connectionTest: connectionTestView(result, input.arrType) };
}

/**
 * PATCH /instances/{id}: a change of the app (base URL, type or key) is tested first, as a
 * registration is; a mismatch is refused and the stored values stay. Other changes are stored as they are.
 */
export async function updateInstance(deps: Deps, id: number, patch: InstancePatch): Promise<InstanceView & { connectionTest?: ConnectionTestView }> {
  const instances = InstanceService.of(deps);
  const instance = await instances.load(id);
  const { apiKey, ...rest } = patch;
  const arrTypeChanges = patch.arrType !== undefined && patch.arrType !== instance.arrType;
  const baseUrlChanges = patch.baseUrl !== undefined && normalizeBaseUrl(patch.baseUrl) !== instance.baseUrl;
  if (!arrTypeChanges && !baseUrlChanges && apiKey === undefined) return instances.update(id, rest);
  if (patch.name !== undefined && patch.name !== instance.name) await instances.assertNameFree(patch.name);
  const candidate: CandidateConnection = {
    arrType: patch.arrType ?? instance.arrType,
    baseUrl: normalizeBaseUrl(patch.baseUrl ?? instance.baseUrl),
    apiKeySealed: apiKey !== undefined ? instances.seal(apiKey) : instance.apiKeySealed,
  };
  const result = await runConnectionTest(deps, candidate, { instanceId: id, arrType: candidate.arrType, name: instance.name });
  refuseMismatch(result, arrTypeChanges ? 'arrType' : baseUrlChanges ? 'baseUrl' : 'apiKey', candidate.arrType, 'changed');
  const view = await instances.update(id, rest, { apiKeySealed: candidate.apiKeySealed, verification: verificationOf(result, new Date()) });
  return { ...view, connectionTest: connectionTestView(result, candidate.arrType) };
}

/** The instance test workflow for a stored instance (its id) or a candidate connection. */
function runConnectionTest(deps: Deps, target: number | CandidateConnection, about: { instanceId: number | null; arrType: ArrType; name: string }): Promise<InstanceTestResult> {
  return executeWorkflow(deps.temporal, instanceTestWorkflow, {
    idPrefix: `instance-test-${about.instanceId ?? 'new'}`,
    args: [target],
    eager: true,
    executionTimeout: '2 minutes',
    staticSummary: `Connection test of ${APP_OF[about.arrType].label} instance "${about.name}"${typeof target === 'number' ? '' : ' (new connection values)'}`,
    searchAttributes: searchAttributes({ kind: 'instance-test', arrType: about.arrType, instanceIds: about.instanceId === null ? [] : [about.instanceId] }),
  });
}

function refuseMismatch(result: InstanceTestResult, field: 'arrType' | 'baseUrl' | 'apiKey', arrType: ArrType, change: 'stored' | 'changed'): void {
  if (result.reachable && !result.matchesArrType) throw new AppError('validation', appMismatchRefusal(field, arrType, result.detectedArrType, change), { code: 'appMismatch' });
}

function connectionTestView(result: InstanceTestResult, arrType: ArrType): ConnectionTestView {
  if (!result.reachable) {
    const evidence = failureEvidence(result.reason);
    return { reachable: false, reason: result.reason, message: evidence.message, recoveryAction: evidence.recoveryAction };
  }
  const { appName, version } = result;
  if (result.matchesArrType) return { reachable: true, appName, version, matchesArrType: true, detectedArrType: arrType };
  const evidence = appMismatchEvidence(arrType, result.detectedArrType);
  return { reachable: true, appName, version, matchesArrType: false, detectedArrType: result.detectedArrType, reason: 'appMismatch', message: evidence.message, recoveryAction: evidence.recoveryAction };
}
