import type { EntityManager } from '@mikro-orm/core';
import { exportEntity, requireModel, type PlannedUserOp, type PortableType } from '../../domain/pcd';
import { AppError, conflict, notFound, notReady, validationError } from '../../errors';
import type { Orm } from '../../persistence/orm';
import type { PcdCache, PcdCacheManager } from './cache-manager';
import { PcdDatabase, PcdOp, PcdRollback } from '../../persistence/entities';
import { sha256 } from './op-store';
import { SnapshotService } from '../snapshots/snapshot-service';
import { queueDriftChecksAfterEdit, type EditEffects } from '../drift/drift-after-edit';

/** Serialises user-layer writes per database within this process (plan, store, verify). */
export class KeyedMutex<K = number> {
  private readonly tails = new Map<K, Promise<unknown>>();

  async run<T>(key: K, fn: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const next = previous.then(fn, fn);
    const tail = next.catch(() => undefined);
    this.tails.set(key, tail);
    try {
      return await next;
    } finally {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}

export interface StoredUserOp {
  id: number;
  seq: number;
  kind: string | null;
  target: { portableType: string | null; name: string | null };
  summary: string | null;
  sql: string;
  createdAt: string;
}

/** Stores a planned user op at the end of the user layer and bumps the database's userVersion. */
export async function appendUserOp(em: EntityManager, databaseId: number, planned: PlannedUserOp, kind: 'create' | 'update' | 'delete', effects?: EditEffects): Promise<PcdOp> {
  return (await appendUserOps(em, databaseId, [{ op: planned, kind }], effects))[0];
}

/**
 * Stores planned user ops, in order, at the end of the user layer in one transaction (one
 * userVersion bump), with the edit's effects (`effects`: drift checks queued in the outbox).
 */
export async function appendUserOps(em: EntityManager, databaseId: number, planned: { op: PlannedUserOp; kind: 'create' | 'update' | 'delete' }[], effects?: EditEffects): Promise<PcdOp[]> {
  let queued = false;
  const ops = await em.transactional(async (tx) => {
    const database = await tx.findOneOrFail(PcdDatabase, { id: databaseId });
    const last = await tx.findOne(PcdOp, { databaseId, layer: 'user' }, { orderBy: { seq: 'desc' } });
    let seq = last?.seq ?? 0;
    const ops = planned.map(({ op: p, kind }) => {
      seq += 1;
      return tx.create(PcdOp, {
        databaseId,
        layer: 'user',
        file: null,
        seq,
        position: seq,
        markerId: null,
        label: p.summary.slice(0, 500),
        sql: p.sql,
        sha256: sha256(p.sql),
        targetType: p.target.portableType,
        targetName: p.target.name,
        kind,
        createdAt: new Date(),
      });
    });
    database.userVersion += 1;
    database.updatedAt = new Date();
    await tx.flush();
    if (await queueDriftChecksAfterEdit(tx, databaseId, effects)) queued = true;
    return ops;
  });
  if (queued) effects?.outbox?.kick();
  return ops;
}

/** Removes ops this process just appended (a refused batch), in one transaction. */
async function removeUserOps(em: EntityManager, databaseId: number, opIds: number[]): Promise<void> {
  await em.transactional(async (tx) => {
    await tx.nativeDelete(PcdOp, { id: { $in: opIds }, databaseId, layer: 'user' });
    const database = await tx.findOneOrFail(PcdDatabase, { id: databaseId });
    database.userVersion += 1;
    database.updatedAt = new Date();
  });
}

export async function removeUserOp(em: EntityManager, databaseId: number, opId: number, effects?: EditEffects): Promise<void> {
  const queued = await em.transactional(async (tx) => {
    const op = await tx.findOne(PcdOp, { id: opId, databaseId, layer: 'user', supersededBy: null });
    if (!op) throw notFound(`User op ${opId} not found in database ${databaseId}`);
    tx.remove(op);
    const database = await tx.findOneOrFail(PcdDatabase, { id: databaseId });
    database.userVersion += 1;
    database.updatedAt = new Date();
    await tx.flush();
    return queueDriftChecksAfterEdit(tx, databaseId, effects);
  });
  if (queued) effects?.outbox?.kick();
}

export async function listUserOps(em: EntityManager, databaseId: number): Promise<StoredUserOp[]> {
  const ops = await em.find(PcdOp, { databaseId, layer: 'user', supersededBy: null }, { orderBy: { seq: 'asc' } });
  return ops.map((op) => ({
    id: op.id,
    seq: op.seq,
    kind: op.kind,
    target: { portableType: op.targetType, name: op.targetName },
    summary: op.label,
    sql: op.sql,
    createdAt: op.createdAt.toISOString(),
  }));
}

/**
 * Writes the user layer of databases: plans an op against the current resolved state, stores it,
 * and verifies it replays; an op that would not apply (a concurrent edit got there first) is
 * removed again and refused. Writes to one database are serialised in this process.
 */
/** One mutex for every writer in the process: user-layer writes to a database never interleave. */
const USER_LAYER_MUTEX = new KeyedMutex();

export class UserLayerWriter {
  private readonly mutex = USER_LAYER_MUTEX;

  constructor(
    private readonly orm: Orm,
    private readonly caches: PcdCacheManager,
    /** What a stored edit sets off (drift checks of the instances syncing from the database). */
    private readonly effects: EditEffects,
    /** Takes the snapshot before each change (import, edit, revert). */
    private readonly snapshots: SnapshotService = new SnapshotService(orm, caches),
  ) {}

  /** Returns false when the plan was empty (nothing to change). A snapshot precedes every stored op. */
  async write(databaseId: number, kind: 'create' | 'update' | 'delete', plan: (cache: PcdCache) => PlannedUserOp | null): Promise<boolean> {
    return (await this.store(databaseId, kind, plan)) !== null;
  }

  /**
   * Like write, returning the stored op's id (null when the plan was empty), so a caller can revert
   * it. `snapshotAs` names the change in the snapshot taken before it (default import or edit).
   */
  store(
    databaseId: number,
    kind: 'create' | 'update' | 'delete',
    plan: (cache: PcdCache) => PlannedUserOp | null,
    snapshotAs: 'import' | 'edit' | 'goal' = kind === 'create' ? 'import' : 'edit',
  ): Promise<number | null> {
    return this.mutex.run(databaseId, async () => {
      await this.assertNoRollbackRunning(databaseId);
      const planned = plan(await this.caches.get(databaseId));
      if (!planned) return null;
      await this.snapshots.takeSnapshot(databaseId, snapshotAs);
      const op = await appendUserOp(this.orm.em.fork(), databaseId, planned, kind, this.effects);
      const after = await this.cacheAfterAppend(databaseId, [op.id]);
      const outcome = after.outcomes.find((o) => o.layer === 'user' && o.id === op.id);
      if (outcome?.status === 'failed') {
        await removeUserOp(this.orm.em.fork(), databaseId, op.id);
        throw validationError(
          outcome.reason === 'duplicate_key'
            ? `Invalid request: ${planned.target.portableType} "${planned.target.name}" already exists`
            : `Invalid request: the edit does not apply to the current state of ${planned.target.portableType} "${planned.target.name}" (${outcome.reason ?? 'invalid'})`,
        );
      }
      return op.id;
    });
  }

  /**
   * Stores ops planned one after the other (each against the state the previous ones leave) at the
   * end of the user layer, and verifies them with one replay: if any does not apply, all of them
   * are removed again and the write is refused. Returns the op ids in order.
   */
  storeAll(databaseId: number, planned: { op: PlannedUserOp; kind: 'create' | 'update' | 'delete' }[]): Promise<number[]> {
    return this.mutex.run(databaseId, async () => {
      if (planned.length === 0) return [];
      await this.assertNoRollbackRunning(databaseId);
      await this.snapshots.takeSnapshot(databaseId, 'import');
      return this.appendVerified(databaseId, planned);
    });
  }

  /**
   * storeAll for ops planned against one state of the database: refused ('stale', nothing written)
   * when the cache is no longer at `version` (see databaseVersionOf). `snapshot` is called first
   * with the snapshot to take before the ops (a caller that took it on an earlier attempt skips it).
   */
  storePlanned(
    databaseId: number,
    planned: { op: PlannedUserOp; kind: 'create' | 'update' | 'delete' }[],
    options: { version: (cache: PcdCache) => boolean; snapshot: (take: () => Promise<number | null>) => Promise<void> },
  ): Promise<number[] | 'stale'> {
    return this.mutex.run(databaseId, async () => {
      await this.assertNoRollbackRunning(databaseId);
      if (!options.version(await this.caches.get(databaseId))) return 'stale';
      if (planned.length === 0) return [];
      await options.snapshot(async () => (await this.snapshots.takeSnapshot(databaseId, 'import'))?.id ?? null);
      return this.appendVerified(databaseId, planned);
    });
  }

  /** Appends ops and verifies them with one replay; removes all of them and refuses when one does not apply. */
  private async appendVerified(databaseId: number, planned: { op: PlannedUserOp; kind: 'create' | 'update' | 'delete' }[]): Promise<number[]> {
    const ids = (await appendUserOps(this.orm.em.fork(), databaseId, planned, this.effects)).map((op) => op.id);
    const after = await this.cacheAfterAppend(databaseId, ids);
    const failedAt = ids.findIndex((id) => after.outcomes.find((o) => o.layer === 'user' && o.id === id)?.status === 'failed');
    if (failedAt >= 0) {
      await removeUserOps(this.orm.em.fork(), databaseId, ids);
      const target = planned[failedAt].op.target;
      const reason = after.outcomes.find((o) => o.id === ids[failedAt])?.reason;
      throw validationError(
        reason === 'duplicate_key'
          ? `Invalid request: ${target.portableType} "${target.name}" already exists`
          : `Invalid request: the edit does not apply to the current state of ${target.portableType} "${target.name}" (${reason ?? 'invalid'})`,
      );
    }
    return ids;
  }

  /**
   * The cache that verifies just-appended ops. A rebuild that started meanwhile (a pull committed new
   * content) is waited for rather than refused: the ops are stored, so refusing would report as not
   * done an edit that is. When no cache can be had, the ops are removed again before the refusal,
   * so a refused write leaves nothing behind.
   */
  private async cacheAfterAppend(databaseId: number, opIds: number[]): Promise<PcdCache> {
    try {
      return await this.caches.build(databaseId);
    } catch (error) {
      await removeUserOps(this.orm.em.fork(), databaseId, opIds);
      if (error instanceof AppError) throw error;
      throw notReady(`Database ${databaseId} is not ready: its cache could not be built, so the edit was not stored`);
    }
  }

  /** An edit during a rollback would be lost or half-restored: refused (409) until it finishes. */
  private async assertNoRollbackRunning(databaseId: number): Promise<void> {
    if (await this.orm.em.fork().count(PcdRollback, { databaseId, status: 'running' })) {
      throw conflict(`A rollback of database ${databaseId} is running; edit once it has finished`, 'rollback_in_progress');
    }
  }

  revert(databaseId: number, opId: number): Promise<void> {
    return this.mutex.run(databaseId, async () => {
      await this.assertNoRollbackRunning(databaseId);
      const op = await this.orm.em.fork().findOne(PcdOp, { id: opId, databaseId, layer: 'user', supersededBy: null });
      if (!op) throw notFound(`User op ${opId} not found in database ${databaseId}`);
      await this.snapshots.takeSnapshot(databaseId, 'revert');
      await removeUserOp(this.orm.em.fork(), databaseId, opId, this.effects);
    });
  }
}

/** Not found (404) when the entity is absent from the resolved state. */
export function assertEntityExists(cache: PcdCache, type: PortableType, name: string): void {
  requireModel(type);
  try {
    exportEntity(cache.resolved, type, name);
  } catch (error) {
    if (error instanceof AppError && error.kind === 'not_found') throw notFound(`${type} "${name}" not found in database ${cache.databaseId}`);
    throw error;
  }
}
