import { EntitySchema } from '@mikro-orm/core';

export type PcdSourceKind = 'git' | 'local';
export type PcdCacheStatus = 'pending' | 'building' | 'ready' | 'failed';
export type PcdSchemaSource = 'dependency' | 'bundled';

export interface PcdManifestRecord {
  name: string;
  version: string;
  description: string | null;
  /** App families in the API vocabulary (movie_app, series_app, music_app). */
  arrTypes: string[];
  dependencies: Record<string, string>;
}

export interface PcdCacheStats {
  totalOps: number;
  applied: number;
  failed: number;
  conflicts: number;
  failedByReason: Record<string, number>;
  builtAt: string;
  durationMs: number;
}

/** A linked PCD database: where it comes from, what it is at, and how its cache build went. */
export class PcdDatabase {
  id!: number;
  name!: string;
  sourceKind!: PcdSourceKind;
  /** Git URL, or an absolute local directory. */
  sourceLocation!: string;
  branch: string | null = null;
  enabled: boolean = true;
  manifest: PcdManifestRecord | null = null;
  commitSha: string | null = null;
  cacheStatus: PcdCacheStatus = 'pending';
  /** Sanitized reason code when the last pull or build failed. */
  cacheReason: string | null = null;
  cacheStats: PcdCacheStats | null = null;
  schemaSource: PcdSchemaSource | null = null;
  schemaNote: string | null = null;
  /** Bumped when the file-layer ops change (pull); caches rebuild their base. */
  contentVersion: number = 0;
  /** Bumped when user ops change; caches replay only the user layer. */
  userVersion: number = 0;
  lastPulledAt: Date | null = null;
  /** Set by a rollback: the database stays on that snapshot's base until the next pull. */
  pinnedSnapshotId: number | null = null;
  createdAt: Date = new Date();
  updatedAt: Date = new Date();
}

export const PcdDatabaseSchema = new EntitySchema<PcdDatabase>({
  class: PcdDatabase,
  tableName: 'pcd_databases',
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    name: { type: 'string', length: 100, unique: true },
    sourceKind: { type: 'string', length: 10, fieldName: 'source_kind' },
    sourceLocation: { type: 'string', length: 1000, fieldName: 'source_location' },
    branch: { type: 'string', length: 200, nullable: true },
    enabled: { type: 'boolean', default: true },
    manifest: { type: 'json', nullable: true },
    commitSha: { type: 'string', length: 64, nullable: true, fieldName: 'commit_sha' },
    cacheStatus: { type: 'string', length: 20, fieldName: 'cache_status' },
    cacheReason: { type: 'string', length: 100, nullable: true, fieldName: 'cache_reason' },
    cacheStats: { type: 'json', nullable: true, fieldName: 'cache_stats' },
    schemaSource: { type: 'string', length: 20, nullable: true, fieldName: 'schema_source' },
    schemaNote: { type: 'string', length: 500, nullable: true, fieldName: 'schema_note' },
    contentVersion: { type: 'integer', fieldName: 'content_version', default: 0 },
    userVersion: { type: 'integer', fieldName: 'user_version', default: 0 },
    lastPulledAt: { type: 'datetime', nullable: true, fieldName: 'last_pulled_at' },
    pinnedSnapshotId: { type: 'integer', nullable: true, fieldName: 'pinned_snapshot_id' },
    createdAt: { type: 'datetime', fieldName: 'created_at', onCreate: () => new Date() },
    updatedAt: { type: 'datetime', fieldName: 'updated_at', onCreate: () => new Date(), onUpdate: () => new Date() },
  },
});
