import { EntitySchema } from '@mikro-orm/core';
import type { ArrType } from '../../domain/arr-types';
import { createdAtColumn, updatedAtColumn } from './timestamps';

import type { AdoptionStatus } from '../../domain/sync/adopt';

export type { AdoptionStatus };

/** One adoption of an instance's configuration into a database (POST /instances/{id}/adopt). The workflow owns the status. */
export class Adoption {
  id!: number;
  instanceId!: number;
  instanceName!: string;
  arrType!: ArrType;
  databaseId!: number;
  sections!: string[];
  /** After the apply, set the instance's sync configuration to the database and the adopted entities. */
  selectAdopted: boolean = true;
  status: AdoptionStatus = 'generating';
  workflowId!: string;
  /** The database state the preview was planned against; an apply on another state is refused. */
  databaseVersion: string | null = null;
  /** creates, overrides, skipped, unchanged, counts, selection. */
  preview: Record<string, unknown> | null = null;
  /** The planned user ops ({kind, sql, target, summary}), in order. */
  ops: Record<string, unknown>[] | null = null;
  /** The stored user ops (revertible through DELETE /pcd/{databaseId}/user-ops/{opId}). */
  appliedOpIds: number[] | null = null;
  /** The snapshot of the database taken before the ops. */
  snapshotId: number | null = null;
  failure: Record<string, unknown> | null = null;
  expiresAt: Date | null = null;
  appliedAt: Date | null = null;
  createdAt: Date = new Date();
  updatedAt: Date = new Date();
}

export const AdoptionSchema = new EntitySchema<Adoption>({
  class: Adoption,
  tableName: 'adoptions',
  indexes: [{ name: 'adoptions_instance_index', properties: ['instanceId'] }],
  uniques: [{ name: 'adoptions_workflow_id_unique', properties: ['workflowId'] }],
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    instanceId: { type: 'integer', fieldName: 'instance_id' },
    instanceName: { type: 'string', length: 100, fieldName: 'instance_name' },
    arrType: { type: 'string', length: 20, fieldName: 'arr_type' },
    databaseId: { type: 'integer', fieldName: 'database_id' },
    sections: { type: 'json' },
    selectAdopted: { type: 'boolean', fieldName: 'select_adopted', default: true },
    status: { type: 'string', length: 20, default: 'generating' },
    workflowId: { type: 'string', length: 200, fieldName: 'workflow_id' },
    databaseVersion: { type: 'string', length: 100, nullable: true, fieldName: 'database_version' },
    preview: { type: 'json', nullable: true },
    ops: { type: 'json', nullable: true },
    appliedOpIds: { type: 'json', nullable: true, fieldName: 'applied_op_ids' },
    snapshotId: { type: 'integer', nullable: true, fieldName: 'snapshot_id' },
    failure: { type: 'json', nullable: true },
    expiresAt: { type: 'Date', nullable: true, fieldName: 'expires_at' },
    appliedAt: { type: 'Date', nullable: true, fieldName: 'applied_at' },
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
});
