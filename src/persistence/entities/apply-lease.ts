import { BigIntType, EntitySchema } from '@mikro-orm/core';

/**
 * Which sync run may write to an instance (`services/sync/apply-lease.ts`): one apply at a time
 * per instance, whichever worker runs it. Written only by that module's atomic upsert.
 */
export class ApplyLease {
  instanceId!: number;
  /** The run that holds the lease, or held it last. */
  holderRunId!: number;
  /** Counts the runs that took the lease in turn: unchanged while one run takes it again. */
  generation!: number;
  /** Epoch milliseconds after which another run may take it. */
  expiresAt!: number;
}

export const ApplyLeaseSchema = new EntitySchema<ApplyLease>({
  class: ApplyLease,
  tableName: 'apply_leases',
  properties: {
    instanceId: { type: 'integer', primary: true, autoincrement: false, fieldName: 'instance_id' },
    holderRunId: { type: 'integer', fieldName: 'holder_run_id' },
    generation: { type: 'integer' },
    expiresAt: { type: new BigIntType('number'), fieldName: 'expires_at' },
  },
});
