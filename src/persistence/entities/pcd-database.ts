import { EntitySchema } from '@mikro-orm/core';
import type { FailedOpRef, SkippedWriteRef } from '../../domain/pcd/replay-health';
import { createdAtColumn, updatedAtColumn } from './timestamps';

export type PcdSourceKind = 'git' | 'local';
/**
 * ready: every op ran; degraded: some ops failed (the state is served, marked incomplete);
 * failed: the pull failed, or the replay produced no entity from a non-empty repository.
 */
export type PcdCacheStatus = 'pending' | 'building' | 'ready' | 'degraded' | 'failed';

/** Cache statuses whose resolved state is served to readers, previews and drift checks. */
export const SERVABLE_CACHE_STATUSES: readonly PcdCacheStatus[] = ['ready', 'degraded'];

/** A failed op named for people (layer, op id or file position, marker target, reason code). */
export type PcdFailedOpRecord = FailedOpRef;
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
  /** Ops that changed rows. */
  applied: number;
  /** File-layer ops that ran but changed nothing (Profilarr's "skipped"). */
  skipped?: number;
  /** Writes (statements) of file-layer ops that changed no row. */
  skippedWrites?: number;
  /** The first few of them, with their op and statement. */
  firstSkippedWrites?: SkippedWriteRef[];
  /** Every failed op, pending user-op conflicts included. */
  failed: number;
  conflicts: number;
  failedByReason: Record<string, number>;
  /** Failed ops that make the database degraded (user-op conflicts excluded), by reason. */
  failedOps?: number;
  failedOpsByReason?: Record<string, number>;
  /** The first few of them, in replay order. */
  firstFailed?: PcdFailedOpRecord[];
  /** Entities in the base state. */
  entities?: number;
  /** Columns arrgo reads that the schema dependency lacks (`table.column`), first 20. */
  schemaGaps?: string[];
  /** Regular expressions custom-format evaluation refuses (no faithful translation of a .NET construct). */
  unevaluablePatterns?: number;
  /** The first 20 of them by name, with the reason naming the construct. */
  firstUnevaluablePatterns?: { name: string; reason: string }[];
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
  /** AES-256-GCM sealed git credential (SecretBox, JSON {username, token}); write-only in the API. */
  gitCredentialSealed: string | null = null;
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
    gitCredentialSealed: { type: 'text', nullable: true, fieldName: 'git_credential_sealed' },
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
    lastPulledAt: { type: 'Date', nullable: true, fieldName: 'last_pulled_at' },
    pinnedSnapshotId: { type: 'integer', nullable: true, fieldName: 'pinned_snapshot_id' },
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
});
