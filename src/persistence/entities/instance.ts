import { EntitySchema } from '@mikro-orm/core';
import type { ArrType } from '../../domain/arr-types';
import { createdAtColumn, updatedAtColumn } from './timestamps';

export class Instance {
  id!: number;
  name!: string;
  arrType!: ArrType;
  baseUrl!: string;
  /** AES-256-GCM sealed API key (SecretBox); never leaves the service in clear. */
  apiKeySealed!: string;
  enabled: boolean = true;
  tags: string[] = [];
  createdAt: Date = new Date();
  updatedAt: Date = new Date();
}

export const InstanceSchema = new EntitySchema<Instance>({
  class: Instance,
  tableName: 'instances',
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    name: { type: 'string', length: 100, unique: true },
    arrType: { type: 'string', length: 20, fieldName: 'arr_type' },
    baseUrl: { type: 'string', length: 500, fieldName: 'base_url' },
    apiKeySealed: { type: 'text', fieldName: 'api_key_sealed' },
    enabled: { type: 'boolean', default: true },
    tags: { type: 'json' },
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
});
