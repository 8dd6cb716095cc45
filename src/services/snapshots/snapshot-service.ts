import { gunzipSync, gzipSync } from 'node:zlib';
import { UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/core';
import { z } from 'zod';
import type Database from 'better-sqlite3';
import { isPortableType, replayPcd, replayUserLayer, resolvedStateChanges, type EntityStateChange, type EntityStateChangeKind, type PcdOp as DomainOp } from '../../domain/pcd';
import { conflict, notFound } from '../../errors';
import { PcdDatabase, PcdOp, PcdRollback, PcdSnapshot, PcdSnapshotBase, type SnapshotSubtype, type SnapshotUserOp } from '../../persistence/entities';

/** Why a snapshot was taken (the API's SnapshotSubtype enum). */
export { SNAPSHOT_SUBTYPES } from '../../persistence/entities';
import type { Orm } from '../../persistence/orm';
import type { PcdCacheManager } from '../pcd/cache-manager';
import { loadStoredLayers, sha256 } from '../pcd/op-store';
import { SettingsStore } from '../settings-store';
import { canonicalJson, cacheStateHash } from './state-hash';
import type { ServiceDeps } from '../deps';

/** A file-layer op as a snapshot base stores it. */
export interface SnapshotFileOp {
  layer: 'base' | 'tweaks';
  file: string | null;
  position: number;
  markerId: string | null;
  sql: string;
  targetType: string | null;
  targetName: string | null;
  kind: string | null;
}

export const SNAPSHOT_SETTINGS_KEY = 'pcd-snapshots';
export const SnapshotSettingsSchema = z.object({
  /** Newest snapshots kept per database (older ones are pruned after each new snapshot). */
  maxPerDatabase: z.number().int().min(1).max(1000),
  /** Snapshots older than this are pruned; 0 disables age-based pruning. */
  retentionDays: z.number().int().min(0).max(3650),
});
export type SnapshotSettings = z.infer<typeof SnapshotSettingsSchema>;
export const SNAPSHOT_SETTINGS_DEFAULTS: SnapshotSettings = { maxPerDatabase: 50, retentionDays: 0 };

export interface SnapshotView {
  id: number;
  databaseId: number;
  databaseName: string;
  subtype: SnapshotSubtype;
  note: string | null;
  baseCommit: string | null;
  opCounts: { base: number; tweaks: number; user: number };
  stateHash: string | null;
  checksum: string;
  createdAt: string;
}

/** What differs between a snapshot and the database now (GET /databases/{id}/snapshots/{snapshotId}/changes). */
export interface SnapshotChanges {
  databaseId: number;
  snapshotId: number;
  snapshotCreatedAt: string;
  /** Whether the base and tweak op sets are the same as the snapshot's (only user ops differ). */
  sameFileLayers: boolean;
  baseCommit: { snapshot: string | null; now: string | null };
  userOps: { onlyInSnapshot: number[]; onlyNow: number[] };
  counts: Record<EntityStateChangeKind, number>;
  total: number;
  truncated: boolean;
  changes: EntityStateChange[];
}

export interface SnapshotDetail extends SnapshotView {
  userOps: { id: number; seq: number; kind: string | null; target: { portableType: string | null; name: string | null }; summary: string | null; createdAt: string }[];
}

/** The ops a snapshot restores: file layers in replay order, and the user layer. */
export interface SnapshotContent {
  snapshot: PcdSnapshot;
  fileOps: SnapshotFileOp[];
  userOps: SnapshotUserOp[];
}

/** The database's active ops as a snapshot records them: file layers in replay order, and the user layer. */
async function currentOpSet(em: EntityManager, databaseId: number): Promise<{ fileOps: SnapshotFileOp[]; userOps: SnapshotUserOp[] }> {
  const rows = await em.find(PcdOp, { databaseId, supersededBy: null }, { orderBy: { layer: 'asc', seq: 'asc' } });
  const fileOps: SnapshotFileOp[] = [];
  const userOps: SnapshotUserOp[] = [];
  for (const layer of ['base', 'tweaks'] as const) {
    for (const row of rows.filter((r) => r.layer === layer)) {
      fileOps.push({ layer, file: row.file, position: row.position, markerId: row.markerId, sql: row.sql, targetType: row.targetType, targetName: row.targetName, kind: row.kind });
    }
  }
  for (const row of rows.filter((r) => r.layer === 'user')) {
    userOps.push({ id: row.id, seq: row.seq, sql: row.sql, sha256: row.sha256, label: row.label, targetType: row.targetType, targetName: row.targetName, kind: row.kind, createdAt: row.createdAt.toISOString() });
  }
  return { fileOps, userOps };
}

function baseDigest(ops: SnapshotFileOp[]): string {
  return sha256(ops.map((op) => [op.layer, op.file, op.position, op.markerId, sha256(op.sql), op.targetType, op.targetName, op.kind].join('\u0000')).join('\n'));
}

export function snapshotChecksum(s: { baseDigest: string; baseCommit: string | null; userOps: SnapshotUserOp[]; baseOpCount: number; tweakOpCount: number; userOpCount: number; stateHash: string | null }): string {
  return sha256(canonicalJson(s));
}

export function toSnapshotView(s: PcdSnapshot): SnapshotView {
  return {
    id: s.id,
    databaseId: s.databaseId,
    databaseName: s.databaseName,
    subtype: s.subtype,
    note: s.note,
    baseCommit: s.baseCommit,
    opCounts: { base: s.baseOpCount, tweaks: s.tweakOpCount, user: s.userOpCount },
    stateHash: s.stateHash,
    checksum: s.checksum,
    createdAt: s.createdAt.toISOString(),
  };
}

/**
 * Snapshots of PCD databases: taken before every change of state (pull bringing new ops, import,
 * edit, revert, goal apply, rollback) and on demand. File-layer op sets are stored once per
 * distinct set (pcd_snapshot_bases) and shared by the snapshots that saw them.
 */
export class SnapshotService {
  static of(deps: Pick<ServiceDeps, 'orm' | 'pcdCaches'>): SnapshotService {
    return new SnapshotService(deps.orm, deps.pcdCaches);
  }

  constructor(
    private readonly orm: Orm,
    private readonly caches: PcdCacheManager,
  ) {}

  /**
   * The base row of an op set, stored once per database and digest. Two snapshots of the same op set
   * taken at once (an edit's and a pull's) may both find none: the one whose insert loses reads the
   * winner's (the chaos soak saw the loser's edit answered 500).
   */
  private async storedBase(databaseId: number, digest: string, fileOps: SnapshotFileOp[]): Promise<PcdSnapshotBase> {
    const em = this.orm.em.fork();
    const existing = await em.findOne(PcdSnapshotBase, { databaseId, digest });
    if (existing) return existing;
    const base = em.create(PcdSnapshotBase, { databaseId, digest, opCount: fileOps.length, payload: gzipSync(JSON.stringify(fileOps)), createdAt: new Date() });
    try {
      await em.flush();
      return base;
    } catch (error) {
      if (!(error instanceof UniqueConstraintViolationException)) throw error;
      return this.orm.em.fork().findOneOrFail(PcdSnapshotBase, { databaseId, digest });
    }
  }

  /**
   * Records the database's current op set and resolved-state hash. Returns null when the database
   * has never been pulled (there is no state to restore).
   */
  async takeSnapshot(databaseId: number, subtype: SnapshotSubtype, note: string | null = null): Promise<PcdSnapshot | null> {
    const em = this.orm.em.fork();
    const database = await em.findOne(PcdDatabase, { id: databaseId });
    if (!database) throw notFound(`Database ${databaseId} not found`);
    if (!database.lastPulledAt) return null;
    let stateHash: string | null = null;
    try {
      stateHash = cacheStateHash(await this.caches.build(databaseId));
    } catch {
      stateHash = null;
    }
    const { fileOps, userOps } = await currentOpSet(em, databaseId);
    const digest = baseDigest(fileOps);
    const base = await this.storedBase(databaseId, digest, fileOps);
    const counts = {
      baseOpCount: fileOps.filter((o) => o.layer === 'base').length,
      tweakOpCount: fileOps.filter((o) => o.layer === 'tweaks').length,
      userOpCount: userOps.length,
    };
    const snapshot = em.create(PcdSnapshot, {
      databaseId,
      databaseName: database.name,
      subtype,
      note,
      baseCommit: database.commitSha,
      baseId: base.id,
      userOps,
      ...counts,
      stateHash,
      checksum: snapshotChecksum({ baseDigest: digest, baseCommit: database.commitSha, userOps, ...counts, stateHash }),
      createdAt: new Date(),
    });
    await em.flush();
    await this.prune(em, databaseId);
    return snapshot;
  }

  /** Loads a snapshot with its op sets and checks them against the recorded digest and checksum. */
  async loadVerified(databaseId: number, snapshotId: number): Promise<SnapshotContent> {
    const em = this.orm.em.fork();
    const snapshot = await em.findOne(PcdSnapshot, { id: snapshotId, databaseId }, { populate: ['userOps'] });
    if (!snapshot) throw notFound(`Snapshot ${snapshotId} not found in database ${databaseId}`);
    const base = await em.findOne(PcdSnapshotBase, { id: snapshot.baseId, databaseId }, { populate: ['payload'] });
    const damaged = () => conflict(`Snapshot ${snapshotId} failed its integrity check and cannot be restored`, 'snapshot_corrupt');
    if (!base) throw damaged();
    let fileOps: SnapshotFileOp[];
    try {
      fileOps = JSON.parse(gunzipSync(base.payload).toString('utf8')) as SnapshotFileOp[];
    } catch {
      throw damaged();
    }
    const userOps = snapshot.userOps;
    const digest = baseDigest(fileOps);
    const counts = {
      baseOpCount: fileOps.filter((o) => o.layer === 'base').length,
      tweakOpCount: fileOps.filter((o) => o.layer === 'tweaks').length,
      userOpCount: userOps.length,
    };
    const expected = snapshotChecksum({ baseDigest: digest, baseCommit: snapshot.baseCommit, userOps, ...counts, stateHash: snapshot.stateHash });
    if (digest !== base.digest || expected !== snapshot.checksum || userOps.some((op) => sha256(op.sql) !== op.sha256)) throw damaged();
    return { snapshot, fileOps, userOps };
  }

  async list(databaseId: number, page: number, pageSize: number): Promise<{ items: SnapshotView[]; total: number }> {
    const em = this.orm.em.fork();
    await this.requireDatabase(em, databaseId);
    const [rows, total] = await em.findAndCount(PcdSnapshot, { databaseId }, { orderBy: { createdAt: 'desc', id: 'desc' }, limit: pageSize, offset: (page - 1) * pageSize });
    return { items: rows.map(toSnapshotView), total };
  }

  async get(databaseId: number, snapshotId: number): Promise<SnapshotDetail> {
    const em = this.orm.em.fork();
    await this.requireDatabase(em, databaseId);
    const snapshot = await em.findOne(PcdSnapshot, { id: snapshotId, databaseId }, { populate: ['userOps'] });
    if (!snapshot) throw notFound(`Snapshot ${snapshotId} not found in database ${databaseId}`);
    return {
      ...toSnapshotView(snapshot),
      userOps: snapshot.userOps.map((op) => ({ id: op.id, seq: op.seq, kind: op.kind, target: { portableType: op.targetType, name: op.targetName }, summary: op.label, createdAt: op.createdAt })),
    };
  }

  /**
   * What differs between a snapshot and the database now, by entity: the snapshot's op set is
   * replayed (on the current base when the file layers are the same, else from the schema up) and
   * its resolved state compared with the current cache's. Also the user ops only one side has.
   */
  async changes(databaseId: number, snapshotId: number, limit: number): Promise<SnapshotChanges> {
    const target = await this.loadVerified(databaseId, snapshotId);
    const cache = await this.caches.get(databaseId);
    const em = this.orm.em.fork();
    const now = await currentOpSet(em, databaseId);
    const sameFileLayers = baseDigest(now.fileOps) === baseDigest(target.fileOps);
    const userOps = target.userOps.flatMap((op) => (op.targetType && isPortableType(op.targetType) && op.targetName ? [{ id: op.id, sql: op.sql, target: { portableType: op.targetType, name: op.targetName } }] : []));
    const schema = sameFileLayers ? [] : (await loadStoredLayers(em, databaseId)).schema;
    // A snapshot never changes: its comparison holds as long as the current state does (on trash-pcd
    // about 1 s on the current base, 3 s from the schema up).
    const changes = cache.memo(`snapshot-changes:${snapshotId}`, () => {
      let then: Database.Database;
      let close: () => void;
      if (sameFileLayers) {
        then = replayUserLayer(cache.base, userOps).resolved;
        close = () => then.close();
      } else {
        const layers = toDomainLayers(target.fileOps);
        const replayed = replayPcd({ schema, base: layers.base, tweaks: layers.tweaks, user: userOps });
        then = replayed.resolved;
        close = () => {
          replayed.resolved.close();
          replayed.base.close();
        };
      }
      try {
        return resolvedStateChanges(then, cache.resolved);
      } finally {
        close();
      }
    });
    const thenIds = new Set(target.userOps.map((op) => op.id));
    const nowIds = new Set(now.userOps.map((op) => op.id));
    const counts = { added: 0, removed: 0, changed: 0 };
    for (const change of changes) counts[change.change]++;
    return {
      databaseId,
      snapshotId,
      snapshotCreatedAt: target.snapshot.createdAt.toISOString(),
      sameFileLayers,
      baseCommit: { snapshot: target.snapshot.baseCommit, now: (await em.findOneOrFail(PcdDatabase, { id: databaseId }, { fields: ['commitSha'] })).commitSha },
      userOps: { onlyInSnapshot: [...thenIds].filter((id) => !nowIds.has(id)).sort((a, b) => a - b), onlyNow: [...nowIds].filter((id) => !thenIds.has(id)).sort((a, b) => a - b) },
      counts,
      total: changes.length,
      truncated: changes.length > limit,
      changes: changes.slice(0, limit),
    };
  }

  async settings(): Promise<SnapshotSettings> {
    return new SettingsStore(this.orm.em.fork()).get(SNAPSHOT_SETTINGS_KEY, SnapshotSettingsSchema, SNAPSHOT_SETTINGS_DEFAULTS);
  }

  async updateSettings(patch: Partial<SnapshotSettings>): Promise<SnapshotSettings> {
    const next = { ...(await this.settings()), ...patch };
    return new SettingsStore(this.orm.em.fork()).put(SNAPSHOT_SETTINGS_KEY, next);
  }

  /**
   * Retention: keeps the newest maxPerDatabase snapshots younger than retentionDays, plus any
   * snapshot a rollback still refers to (the pinned one, and both ends of a running rollback).
   * Bases no snapshot refers to any more are removed.
   */
  async prune(em: EntityManager, databaseId: number): Promise<number> {
    const settings = await this.settings();
    const rows = await em.find(PcdSnapshot, { databaseId }, { orderBy: { createdAt: 'desc', id: 'desc' }, fields: ['id', 'createdAt', 'baseId'] });
    const database = await em.findOne(PcdDatabase, { id: databaseId }, { fields: ['pinnedSnapshotId'] });
    const running = await em.find(PcdRollback, { databaseId, status: 'running' }, { fields: ['snapshotId', 'preSnapshotId'] });
    const protectedIds = new Set<number>([database?.pinnedSnapshotId ?? 0, ...running.flatMap((r) => [r.snapshotId, r.preSnapshotId ?? 0])]);
    const cutoff = settings.retentionDays > 0 ? Date.now() - settings.retentionDays * 86_400_000 : null;
    const doomed = rows.filter((row, index) => !protectedIds.has(row.id) && (index >= settings.maxPerDatabase || (cutoff !== null && row.createdAt.getTime() < cutoff))).map((r) => r.id);
    if (!doomed.length) return 0;
    await em.nativeDelete(PcdSnapshot, { id: { $in: doomed } });
    const usedBases = new Set((await em.find(PcdSnapshot, { databaseId }, { fields: ['baseId'] })).map((s) => s.baseId));
    await em.nativeDelete(PcdSnapshotBase, { databaseId, id: { $nin: [...usedBases, 0] } });
    return doomed.length;
  }

  private async requireDatabase(em: EntityManager, databaseId: number): Promise<PcdDatabase> {
    const database = await em.findOne(PcdDatabase, { id: databaseId });
    if (!database) throw notFound(`Database ${databaseId} not found`);
    return database;
  }
}

/** File-layer ops of a snapshot as the import expects them. */
export function toDomainLayers(fileOps: SnapshotFileOp[]): { base: DomainOp[]; tweaks: DomainOp[] } {
  const convert = (op: SnapshotFileOp): DomainOp => ({
    layer: op.layer,
    id: null,
    file: op.file,
    position: op.position,
    markerId: op.markerId,
    target: op.targetType && op.targetName ? { entityType: op.targetType, name: op.targetName, verb: op.kind } : null,
    sql: op.sql,
  });
  return { base: fileOps.filter((o) => o.layer === 'base').map(convert), tweaks: fileOps.filter((o) => o.layer === 'tweaks').map(convert) };
}
