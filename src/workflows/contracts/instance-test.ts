import type { AppFailureCode } from '../../domain/failure-evidence';
import { defineWorkflow } from './define';

export type InstanceTestResult =
  | { reachable: true; appName: string; version: string; matchesArrType: boolean }
  | { reachable: false; reason: AppFailureCode };

/** system/status of one instance with its stored key: `instance-test-<id>-<uuid>`. */
export const instanceTestWorkflow = defineWorkflow<(instanceId: number) => Promise<InstanceTestResult>>('instanceTestWorkflow');
