import type { EntityManager } from '@mikro-orm/core';
import { isArrType } from '../../domain/arr-types';
import { validationError } from '../../errors';
import { DriftResult } from '../../persistence/entities';
import { loadInstance } from '../instances/instance-service';

/** GET /drift/{instanceId}: the stored result, or never-checked for an instance with no row. */
export async function driftDetail(em: EntityManager, instanceId: number) {
  const instance = await loadInstance(em, instanceId);
  if (!isArrType(instance.arrType)) throw validationError(`Invalid request: params.instanceId instance ${instanceId} has an unsupported type`);
  const row = await em.findOne(DriftResult, { instanceId });
  const base = { instanceId, instanceName: instance.name, arrType: instance.arrType };
  if (!row) {
    return {
      ...base,
      status: 'never-checked' as const,
      reason: null,
      detectedVersion: null,
      checkedAt: null,
      contentCheckedAt: null,
      counts: { drifted: 0, missing: 0, unmanaged: 0 },
      drift: [],
      missing: [],
      unmanaged: [],
    };
  }
  return {
    ...base,
    status: row.status,
    reason: row.reason,
    detectedVersion: row.detectedVersion,
    checkedAt: row.checkedAt.toISOString(),
    contentCheckedAt: row.contentCheckedAt?.toISOString() ?? null,
    counts: row.counts,
    drift: row.drift,
    missing: row.missing,
    unmanaged: row.unmanaged,
  };
}
