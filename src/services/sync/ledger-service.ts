import type { EntityManager } from '@mikro-orm/core';
import type { LedgerEntry, LedgerWrite, LedgerEntityType } from '../../domain/sync';
import { SyncLedgerEntry } from '../../persistence/entities';

/**
 * The sync ledger of instances (docs/sync.md, "Identity and the ledger"): read before a preview
 * or drift check plans, written by the apply from the plan's bindings and the steps' outcomes.
 */

const toEntry = (row: SyncLedgerEntry): LedgerEntry => ({
  entityType: row.entityType,
  appId: row.appId,
  identity: row.identity,
  name: row.name,
  createdByArrgo: row.createdByArrgo,
});

/** The ledgers of several instances, in one statement (instances without rows get an empty list). */
export async function readLedgers(em: EntityManager, instanceIds: readonly number[]): Promise<Map<number, LedgerEntry[]>> {
  const out = new Map<number, LedgerEntry[]>(instanceIds.map((id) => [id, []]));
  if (instanceIds.length === 0) return out;
  const rows = await em.fork().find(SyncLedgerEntry, { instanceId: { $in: [...instanceIds] } }, { orderBy: { id: 'asc' } });
  for (const row of rows) out.get(row.instanceId)?.push(toEntry(row));
  return out;
}

export async function readLedger(em: EntityManager, instanceId: number): Promise<LedgerEntry[]> {
  return (await readLedgers(em, [instanceId])).get(instanceId) ?? [];
}

/**
 * Writes what an apply bound, in one transaction, touching only rows that differ: a row per
 * (entity type, app id), rebinding the identity's other rows of the instance (an entity recreated
 * under a new id, or bound to another by name) away, and removing deleted entities' rows. Written
 * again with the same input (a retried apply), it changes nothing. `created` is kept once true.
 */
export async function writeLedger(
  em: EntityManager,
  instanceId: number,
  writes: { upserts: readonly LedgerWrite[]; deletes: readonly { entityType: LedgerEntityType; appId: number }[] },
): Promise<{ written: number; removed: number }> {
  if (writes.upserts.length === 0 && writes.deletes.length === 0) return { written: 0, removed: 0 };
  return em.fork().transactional(async (tx) => {
    const rows = await tx.find(SyncLedgerEntry, { instanceId });
    const key = (entityType: string, appId: number) => `${entityType}:${appId}`;
    const byKey = new Map(rows.map((r) => [key(r.entityType, r.appId), r]));
    const removed = new Set<SyncLedgerEntry>();
    for (const d of writes.deletes) {
      const row = byKey.get(key(d.entityType, d.appId));
      if (row) removed.add(row);
    }
    let written = 0;
    for (const w of writes.upserts) {
      for (const other of rows) {
        if (other.entityType === w.entityType && other.identity === w.identity && other.appId !== w.appId) removed.add(other);
      }
      const row = byKey.get(key(w.entityType, w.appId));
      const databaseId = w.databaseId;
      const createdByArrgo = (row?.createdByArrgo ?? false) || w.created;
      if (!row) {
        tx.create(SyncLedgerEntry, { instanceId, entityType: w.entityType, appId: w.appId, identity: w.identity, name: w.name, databaseId, createdByArrgo, updatedAt: new Date() });
        written++;
        continue;
      }
      removed.delete(row);
      if (row.identity === w.identity && row.name === w.name && row.databaseId === databaseId && row.createdByArrgo === createdByArrgo) continue;
      Object.assign(row, { identity: w.identity, name: w.name, databaseId, createdByArrgo });
      written++;
    }
    for (const row of removed) tx.remove(row);
    return { written, removed: removed.size };
  });
}

/** Removes rows of an instance (instance deletion; tests of a lost ledger). */
export async function clearLedger(em: EntityManager, instanceId: number): Promise<void> {
  await em.nativeDelete(SyncLedgerEntry, { instanceId });
}
