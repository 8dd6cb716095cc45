import { EntitySchema } from '@mikro-orm/core';

export type RefGuideSourceType = 'trash-guides';
export type RefGuideOriginKind = 'git' | 'local';
export type RefGuideSyncStatus = 'pending' | 'syncing' | 'ready' | 'failed';

/** Entities per type as of the last good sync. */
export type RefGuideEntityCounts = Record<string, number>;

/**
 * A reference-guide source (TRaSH Guides for one app family): where it comes from, the last good
 * sync (commit, time, counts) and how the last attempt went. The cached entities are
 * ref_guide_entities rows; a failed attempt leaves them as the last good sync wrote them.
 */
export class RefGuideSource {
  id!: number;
  name!: string;
  type: RefGuideSourceType = 'trash-guides';
  originKind!: RefGuideOriginKind;
  /** Git URL, or an absolute local directory. */
  originLocation!: string;
  /** AES-256-GCM sealed git credential (SecretBox, JSON {username, token}); write-only in the API. */
  gitCredentialSealed: string | null = null;
  branch: string | null = null;
  /** API vocabulary: movie_app or series_app. */
  arrType!: string;
  enabled: boolean = true;
  /** PCD databases this source is the reference of (health's ref_alignment). */
  databaseIds: number[] = [];
  syncStatus: RefGuideSyncStatus = 'pending';
  /** Sanitized reason code of the last failed attempt (null after a good sync). */
  syncReason: string | null = null;
  lastCommit: string | null = null;
  lastSyncedAt: Date | null = null;
  lastAttemptAt: Date | null = null;
  entityCounts: RefGuideEntityCounts | null = null;
  createdAt: Date = new Date();
  updatedAt: Date = new Date();
}

/**
 * One cached guide entity. content_hash covers everything served; a sync rewrites a row (and bumps
 * its version) only when the hash changes.
 */
export class RefGuideEntity {
  id!: number;
  sourceId!: number;
  type!: string;
  refId!: string;
  name!: string;
  filePath!: string;
  contentHash!: string;
  entity!: Record<string, unknown>;
  scores: Record<string, number> | null = null;
  groupNumber: number | null = null;
  /** 1 when first cached; +1 at every rewrite. */
  version: number = 1;
  /** When this content was written (first seen or last changed). */
  writtenAt: Date = new Date();
}

export const RefGuideSourceSchema = new EntitySchema<RefGuideSource>({
  class: RefGuideSource,
  tableName: 'ref_guide_sources',
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    name: { type: 'string', length: 100, unique: true },
    type: { type: 'string', length: 30 },
    originKind: { type: 'string', length: 10, fieldName: 'origin_kind' },
    originLocation: { type: 'string', length: 1000, fieldName: 'origin_location' },
    gitCredentialSealed: { type: 'text', nullable: true, fieldName: 'git_credential_sealed' },
    branch: { type: 'string', length: 200, nullable: true },
    arrType: { type: 'string', length: 20, fieldName: 'arr_type' },
    enabled: { type: 'boolean', default: true },
    databaseIds: { type: 'json', fieldName: 'database_ids' },
    syncStatus: { type: 'string', length: 20, fieldName: 'sync_status' },
    syncReason: { type: 'string', length: 60, nullable: true, fieldName: 'sync_reason' },
    lastCommit: { type: 'string', length: 64, nullable: true, fieldName: 'last_commit' },
    lastSyncedAt: { type: 'Date', nullable: true, fieldName: 'last_synced_at' },
    lastAttemptAt: { type: 'Date', nullable: true, fieldName: 'last_attempt_at' },
    entityCounts: { type: 'json', nullable: true, fieldName: 'entity_counts' },
    createdAt: { type: 'Date', fieldName: 'created_at', onCreate: () => new Date() },
    updatedAt: { type: 'Date', fieldName: 'updated_at', onCreate: () => new Date(), onUpdate: () => new Date() },
  },
});

export const RefGuideEntitySchema = new EntitySchema<RefGuideEntity>({
  class: RefGuideEntity,
  tableName: 'ref_guide_entities',
  uniques: [{ name: 'ref_guide_entities_source_type_ref_unique', properties: ['sourceId', 'type', 'refId'] }],
  indexes: [{ name: 'ref_guide_entities_source_type_name_index', properties: ['sourceId', 'type', 'name'] }],
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    sourceId: { type: 'integer', fieldName: 'source_id' },
    type: { type: 'string', length: 40 },
    refId: { type: 'string', length: 32, fieldName: 'ref_id' },
    name: { type: 'string', length: 300 },
    filePath: { type: 'string', length: 500, fieldName: 'file_path' },
    contentHash: { type: 'string', length: 64, fieldName: 'content_hash' },
    entity: { type: 'json' },
    scores: { type: 'json', nullable: true },
    groupNumber: { type: 'integer', nullable: true, fieldName: 'group_number' },
    version: { type: 'integer', default: 1 },
    writtenAt: { type: 'Date', fieldName: 'written_at' },
  },
});
