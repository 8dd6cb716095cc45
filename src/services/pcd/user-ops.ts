import type { EntityManager } from '@mikro-orm/core';
import type { PlannedUserOp } from '../../domain/pcd';
import { notFound } from '../../errors';
import { PcdDatabase, PcdOp } from '../../persistence/entities';
import { sha256 } from './op-store';

/** Serialises user-layer writes per database within this process (plan, store, verify). */
export class KeyedMutex {
  private readonly tails = new Map<number, Promise<unknown>>();

  async run<T>(key: number, fn: () => Promise<T>): Promise<T> {
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
