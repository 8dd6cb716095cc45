import type { ArrType } from '../../domain/arr-types';
import type { ConnectionTestResult } from '../../domain/instance-verification';
import { defineWorkflow } from './define';

export type InstanceTestResult = ConnectionTestResult;

/**
 * A connection not stored yet (a registration, or a change of an instance's URL, type or key):
 * the key travels sealed (SecretBox), never in clear, and the activity unseals it.
 */
export interface CandidateConnection {
  arrType: ArrType;
  baseUrl: string;
  apiKeySealed: string;
}

/**
 * system/status of one instance with its stored key (its id), or of a candidate connection:
 * `instance-test-<id>-<uuid>` (`instance-test-new-<uuid>` for a registration).
 */
export const instanceTestWorkflow = defineWorkflow<(target: number | CandidateConnection) => Promise<InstanceTestResult>>('instanceTestWorkflow');
