import { EntitySchema } from '@mikro-orm/core';

/** One persisted health computation of an instance (scheduled run or recompute). */
export class HealthSnapshot {
  id!: number;
  instanceId!: number;
  generatedAt!: Date;
  engineVersion!: string;
  trigger!: string;
  band!: string;
  score: number | null = null;
  /** The HealthResult; null when its evidence exceeded the per-row budget (not recorded). */
  result: Record<string, unknown> | null = null;
  evidenceRecorded: boolean = true;
}

export const HealthSnapshotSchema = new EntitySchema<HealthSnapshot>({
  class: HealthSnapshot,
  tableName: 'health_snapshots',
  indexes: [{ name: 'health_snapshots_instance_generated_index', properties: ['instanceId', 'generatedAt'] }],
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    instanceId: { type: 'integer', fieldName: 'instance_id' },
    generatedAt: { type: 'Date', fieldName: 'generated_at' },
    engineVersion: { type: 'string', length: 40, fieldName: 'engine_version' },
    trigger: { type: 'string', length: 20 },
    band: { type: 'string', length: 20 },
    score: { type: 'integer', nullable: true },
    result: { type: 'json', nullable: true },
    evidenceRecorded: { type: 'boolean', fieldName: 'evidence_recorded', default: true },
  },
});
