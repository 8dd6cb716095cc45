import { EntitySchema, type Opt } from '@mikro-orm/core';
import type { ArrType } from '../../domain/arr-types';
import type { VerificationReason, VerificationStatus } from '../../domain/instance-verification';
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
  /** What the last connection test found (src/domain/instance-verification.ts). */
  verificationStatus: Opt<VerificationStatus> = 'never-verified';
  verificationCheckedAt: Date | null = null;
  verificationAppName: string | null = null;
  verificationAppVersion: string | null = null;
  verificationReason: VerificationReason | null = null;
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
    verificationStatus: { type: 'string', length: 20, fieldName: 'verification_status', default: 'never-verified' },
    verificationCheckedAt: { type: 'Date', nullable: true, fieldName: 'verification_checked_at' },
    verificationAppName: { type: 'string', length: 100, nullable: true, fieldName: 'verification_app_name' },
    verificationAppVersion: { type: 'string', length: 50, nullable: true, fieldName: 'verification_app_version' },
    verificationReason: { type: 'string', length: 30, nullable: true, fieldName: 'verification_reason' },
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
});
