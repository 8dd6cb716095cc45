import type { EntityManager } from '@mikro-orm/core';
import type { Config } from '../../config';
import { driftCheckOutboxEntry } from '../../domain/outbox';
import { Instance, InstanceSyncDatabase } from '../../persistence/entities';
import { enqueueOutbox, type OutboxKick } from '../outbox/outbox-store';
import { readDriftSettings } from './drift-settings';

/** What an edit of a database's desired configuration sets off besides itself. */
export interface EditEffects {
  /** DRIFT_CHECK_AFTER_EDIT: re-check the drift of the instances that sync from the database. */
  driftCheckAfterEdit: boolean;
  outbox?: OutboxKick;
}

export function editEffects(deps: { config: Pick<Config, 'driftCheckAfterEdit'>; outbox?: OutboxKick }): EditEffects {
  return { driftCheckAfterEdit: deps.config.driftCheckAfterEdit, outbox: deps.outbox };
}

/**
 * In the edit's transaction: a drift check of every enabled instance whose sync configuration
 * uses the database, through the outbox (so the check is not lost when Temporal is down, and
 * edits made while one waits share it). Nothing when drift detection is off. Returns how many
 * were queued; the caller kicks the relay once the transaction committed.
 */
export async function queueDriftChecksAfterEdit(tx: EntityManager, databaseId: number, effects: EditEffects | undefined): Promise<number> {
  if (!effects?.driftCheckAfterEdit || !(await readDriftSettings(tx)).enabled) return 0;
  const syncing = await tx.find(InstanceSyncDatabase, { databaseId }, { fields: ['instanceId'] });
  if (!syncing.length) return 0;
  const instances = await tx.find(Instance, { id: { $in: [...new Set(syncing.map((s) => s.instanceId))] }, enabled: true }, { fields: ['id'], orderBy: { id: 'asc' } });
  await enqueueOutbox(
    tx,
    instances.map((i) => driftCheckOutboxEntry(i.id, databaseId)),
  );
  return instances.length;
}
