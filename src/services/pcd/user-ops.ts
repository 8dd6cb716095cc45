import type { EntityManager } from '@mikro-orm/core';
import { exportEntity, requireModel, type PlannedUserOp, type PortableType } from '../../domain/pcd';
import { AppError, notFound, validationError } from '../../errors';
import type { Orm } from '../../persistence/orm';
import type { PcdCache, PcdCacheManager } from './cache-manager';
import { PcdDatabase, PcdOp } from '../../persistence/entities';
import { sha256 } from './op-store';

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
export async function appendUserOp(em: EntityManager, databaseId: number, planned: PlannedUserOp, kind: 'create' | 'update' | 'delete'): Promise<PcdOp> {
  return em.transactional(async (tx) => {
    const database = await tx.findOneOrFail(PcdDatabase, { id: databaseId });
    const last = await tx.findOne(PcdOp, { databaseId, layer: 'user' }, { orderBy: { seq: 'desc' } });
    const seq = (last?.seq ?? 0) + 1;
    const op = tx.create(PcdOp, {
      databaseId,
      layer: 'user',
      file: null,
      seq,
      position: seq,
      markerId: null,
      label: planned.summary.slice(0, 500),
      sql: planned.sql,
      sha256: sha256(planned.sql),
      targetType: planned.target.portableType,
      targetName: planned.target.name,
      kind,
      createdAt: new Date(),
    });
    database.userVersion += 1;
    database.updatedAt = new Date();
    return op;
  });
}

export async function removeUserOp(em: EntityManager, databaseId: number, opId: number): Promise<void> {
  await em.transactional(async (tx) => {
    const op = await tx.findOne(PcdOp, { id: opId, databaseId, layer: 'user' });
    if (!op) throw notFound(`User op ${opId} not found in database ${databaseId}`);
    tx.remove(op);
    const database = await tx.findOneOrFail(PcdDatabase, { id: databaseId });
    database.userVersion += 1;
    database.updatedAt = new Date();
  });
}

export async function listUserOps(em: EntityManager, databaseId: number): Promise<StoredUserOp[]> {
  const ops = await em.find(PcdOp, { databaseId, layer: 'user' }, { orderBy: { seq: 'asc' } });
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
export class UserLayerWriter {
  private readonly mutex = new KeyedMutex();

  constructor(
    private readonly orm: Orm,
    private readonly caches: PcdCacheManager,
  ) {}

  /** Returns false when the plan was empty (nothing to change). */
  write(databaseId: number, kind: 'create' | 'update' | 'delete', plan: (cache: PcdCache) => PlannedUserOp | null): Promise<boolean> {
    return this.mutex.run(databaseId, async () => {
      const planned = plan(await this.caches.get(databaseId));
      if (!planned) return false;
      const op = await appendUserOp(this.orm.em.fork(), databaseId, planned, kind);
      const after = await this.caches.get(databaseId);
      const outcome = after.outcomes.find((o) => o.layer === 'user' && o.id === op.id);
      if (outcome?.status === 'failed') {
        await removeUserOp(this.orm.em.fork(), databaseId, op.id);
        throw validationError(
          outcome.reason === 'duplicate_key'
            ? `Invalid request: ${planned.target.portableType} "${planned.target.name}" already exists`
            : `Invalid request: the edit does not apply to the current state of ${planned.target.portableType} "${planned.target.name}" (${outcome.reason ?? 'invalid'})`,
        );
      }
      return true;
    });
  }

  revert(databaseId: number, opId: number): Promise<void> {
    return this.mutex.run(databaseId, () => removeUserOp(this.orm.em.fork(), databaseId, opId));
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
