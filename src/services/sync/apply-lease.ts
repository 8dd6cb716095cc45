import type { EntityManager } from '@mikro-orm/core';
import { SyncPreview, SyncRun } from '../../persistence/entities';

/**
 * One apply at a time per instance, whichever worker or process runs it: a run writes to an
 * instance only while it holds the instance's row of `apply_leases`. Two previews computed
 * against the same state of an app could otherwise both pass their freshness check before
 * either writes, and both write. Under the lease the second one checks after the first wrote,
 * and is refused as stale.
 *
 * The lease expires unless renewed (a killed worker's lease frees itself); the run that holds
 * it takes it again at once (its retried attempt), keeping the generation, while a takeover by
 * another run increments it, so an attempt can tell whether anyone wrote since it checked.
 */
export const APPLY_LEASE_TTL_MS = 60_000;
/** How often the holder renews the lease: well inside its TTL. */
export const APPLY_LEASE_RENEW_MS = 15_000;

/**
 * Takes (or renews) the instance's lease for the run: its generation, or null while another
 * run holds it. One statement, atomic on both engines (the conflict's update re-checks the row).
 */
export async function takeApplyLease(em: EntityManager, instanceId: number, runId: number, now = Date.now()): Promise<number | null> {
  const rows: { generation: number | string }[] = await em.getConnection().execute(
    'insert into apply_leases (instance_id, holder_run_id, generation, expires_at) values (?, ?, 1, ?)' +
      ' on conflict (instance_id) do update set' +
      ' generation = case when apply_leases.holder_run_id = excluded.holder_run_id then apply_leases.generation else apply_leases.generation + 1 end,' +
      ' holder_run_id = excluded.holder_run_id, expires_at = excluded.expires_at' +
      ' where apply_leases.holder_run_id = excluded.holder_run_id or apply_leases.expires_at <= ?' +
      ' returning generation',
    [instanceId, runId, now + APPLY_LEASE_TTL_MS, now],
    'all',
  );
  return rows.length ? Number(rows[0].generation) : null;
}

/**
 * Takes the instance's lease for the run (as takeApplyLease), and tells whether another run held it
 * since this run last did: the row read just before taking it names another holder, or the
 * generation moved (another run took it and let it go in between). Null while another run holds it.
 */
export async function takeApplyLeaseNotingOthers(em: EntityManager, instanceId: number, runId: number, now = Date.now()): Promise<{ generation: number; othersHeldItSince: boolean } | null> {
  const rows: { holder_run_id: number | string; generation: number | string }[] = await em
    .getConnection()
    .execute('select holder_run_id, generation from apply_leases where instance_id = ?', [instanceId]);
  const generation = await takeApplyLease(em, instanceId, runId, now);
  if (generation === null) return null;
  const last = rows[0];
  return { generation, othersHeldItSince: last !== undefined && (Number(last.holder_run_id) !== runId || Number(last.generation) !== generation) };
}

/** The run holding the instance's lease now, or null when it is free. */
export async function applyLeaseHolder(em: EntityManager, instanceId: number, now = Date.now()): Promise<number | null> {
  const rows: { holder_run_id: number | string }[] = await em
    .getConnection()
    .execute('select holder_run_id from apply_leases where instance_id = ? and expires_at > ?', [instanceId, now]);
  return rows.length ? Number(rows[0].holder_run_id) : null;
}

/** Frees the lease if the run still holds it (the row stays: its generation keeps counting). */
export async function releaseApplyLease(em: EntityManager, instanceId: number, runId: number): Promise<void> {
  await em.getConnection().execute('update apply_leases set expires_at = 0 where instance_id = ? and holder_run_id = ?', [instanceId, runId]);
}

// Run and preview times come from different processes' clocks: a run is counted as writing after
// a preview when it finished up to this long before the preview's record says it was created.
const CLOCK_SKEW_MARGIN_MS = 5_000;

/**
 * Whether another run of the instance may have written since the preview read the app: one
 * unfinished, or finished after the preview was created. False means only the app's own users
 * could have moved it since (which an automatic apply does not check for).
 */
export async function othersAppliedSince(em: EntityManager, instanceId: number, previewId: number, runId: number): Promise<boolean> {
  const fork = em.fork();
  const preview = await fork.findOne(SyncPreview, { id: previewId }, { fields: ['createdAt'] });
  if (!preview) return true;
  const since = new Date(preview.createdAt.getTime() - CLOCK_SKEW_MARGIN_MS);
  const others = await fork.count(SyncRun, { instanceId, id: { $ne: runId }, $or: [{ finishedAt: null }, { finishedAt: { $gt: since } }] });
  return others > 0;
}
