import { EntitySchema } from '@mikro-orm/core';
import type { LedgerEntityType } from '../../domain/sync/ledger';
import { updatedAtColumn } from './timestamps';

/**
 * One app entity arrgo manages on an instance: its app id, bound to the stable identity of the PCD
 * entity it stands for (docs/sync.md, "Identity and the ledger"). Unique per (instance, entity
 * type, app id); removed with the instance.
 */
export class SyncLedgerEntry {
  id!: number;
  instanceId!: number;
  entityType!: LedgerEntityType;
  appId!: number;
  /** `<databaseId>:<the PCD entity's name before its first rename>`. */
  identity!: string;
  /** The app name arrgo last wrote. */
  name!: string;
  databaseId!: number;
  createdByArrgo: boolean = false;
  updatedAt: Date = new Date();
}

export const SyncLedgerEntrySchema = new EntitySchema<SyncLedgerEntry>({
  class: SyncLedgerEntry,
  tableName: 'sync_ledger',
  uniques: [{ properties: ['instanceId', 'entityType', 'appId'], name: 'sync_ledger_instance_entity_unique' }],
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    instanceId: { type: 'integer', fieldName: 'instance_id' },
    entityType: { type: 'string', length: 20, fieldName: 'entity_type' },
    appId: { type: 'integer', fieldName: 'app_id' },
    identity: { type: 'string', length: 200 },
    name: { type: 'string', length: 200 },
    databaseId: { type: 'integer', fieldName: 'database_id' },
    createdByArrgo: { type: 'boolean', fieldName: 'created_by_arrgo', default: false },
    updatedAt: updatedAtColumn(),
  },
});
