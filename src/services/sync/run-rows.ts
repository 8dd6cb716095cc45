import type { OutboxEntry } from '../../domain/outbox';
import { enqueueOutbox } from '../outbox/outbox-store';
import type { EntityManager } from '@mikro-orm/core';
import { jsonColumn as json } from './preview-target';

/**
 * Sync run rows read and written with plain statements where an apply spends its bookkeeping: a
 * confirmed step per statement, and the completion of a batch of runs. The ORM's unit of work
 * would hydrate, snapshot and compare the runs' and previews' JSON for each of them.
 */

/** Records a run's confirmed step outcomes (the resume point of its apply): one statement. */
export async function storeRunOutcomes(em: EntityManager, runId: number, outcomes: readonly { outcome: string }[]): Promise<void> {
  await em.getConnection().execute('update sync_runs set outcomes = ?, entity_outcome_count = ? where id = ?', [JSON.stringify(outcomes), outcomes.filter((o) => o.outcome !== 'skipped').length, runId], 'run');
}

/** Stores what reading a run's writes back found: one statement. */
export async function storeRunVerification(em: EntityManager, runId: number, verification: object): Promise<void> {
  await em.getConnection().execute('update sync_runs set verification = ? where id = ?', [JSON.stringify(verification), runId], 'run');
}

/** What completing a run reads: the run, its preview's plan and counts, and whether its instance has a stored drift result. */
export interface RunToFinish {
  id: number;
  instanceId: number | null;
  instanceName: string;
  arrType: string;
  trigger: string;
  workflowId: string;
  previewId: number | null;
  sectionsAttempted: string[];
  outcomes: Record<string, unknown>[];
  verification: Record<string, unknown> | null;
  startedAt: Date;
  plan: { steps: { section: string }[] } | null;
  preview: { counts?: { unchanged: number } } | null;
  hasDriftResult: boolean;
}

export async function readRunsToFinish(em: EntityManager, runIds: readonly number[]): Promise<Map<number, RunToFinish>> {
  if (!runIds.length) return new Map();
  const rows: Record<string, unknown>[] = await em.getConnection().execute(
    `select r.id, r.instance_id, r.instance_name, r.arr_type, r.trigger, r.workflow_id, r.preview_id, r.sections_attempted, r.outcomes, r.verification, r.started_at,
       p.plan, p.preview, case when exists (select 1 from drift_results d where d.instance_id = r.instance_id) then 1 else 0 end as has_drift_result
     from sync_runs r left join sync_previews p on p.id = r.preview_id
     where r.id in (${runIds.map(() => '?').join(', ')})`,
    [...runIds],
  );
  return new Map(
    rows.map((row) => [
      Number(row.id),
      {
        id: Number(row.id),
        instanceId: row.instance_id === null ? null : Number(row.instance_id),
        instanceName: String(row.instance_name),
        arrType: String(row.arr_type),
        trigger: String(row.trigger),
        workflowId: String(row.workflow_id),
        previewId: row.preview_id === null ? null : Number(row.preview_id),
        sectionsAttempted: json(row.sections_attempted) as string[],
        outcomes: (json(row.outcomes) as Record<string, unknown>[] | null) ?? [],
        verification: (json(row.verification) as Record<string, unknown> | null) ?? null,
        startedAt: dateOf(row.started_at),
        plan: json(row.plan) as RunToFinish['plan'],
        preview: json(row.preview) as RunToFinish['preview'],
        hasDriftResult: Number(row.has_drift_result) === 1,
      },
    ]),
  );
}

/** A run's completion, and its preview's status with it (applied, or failed, with the evidence). */
export interface FinishedRun {
  id: number;
  previewId: number | null;
  status: 'success' | 'partial' | 'failed';
  sectionsRun: number;
  itemsSynced: number;
  failureCount: number;
  error: string | null;
  finishedAt: Date;
  /** failed when the apply did not complete; applied otherwise (with the evidence of a run that did not verify). */
  previewStatus: 'applied' | 'failed';
  previewFailure: Record<string, unknown> | null;
}

/** Stores finished runs, and the events they raise in the same transaction (outbox entries). */
export async function storeFinishedRuns(em: EntityManager, runs: readonly FinishedRun[], events: readonly OutboxEntry[] = []): Promise<void> {
  if (!runs.length) return;
  const date = (value: Date) => em.getPlatform().processDateProperty(value);
  await em.transactional(async (tx) => {
    const connection = tx.getConnection();
    const ctx = tx.getTransactionContext();
    for (const run of runs) {
      await connection.execute(
        'update sync_runs set status = ?, sections_run = ?, items_synced = ?, failure_count = ?, error = ?, finished_at = ? where id = ?',
        [run.status, run.sectionsRun, run.itemsSynced, run.failureCount, run.error, date(run.finishedAt), run.id],
        'run',
        ctx,
      );
      if (run.previewId !== null) {
        await connection.execute(
          'update sync_previews set status = ?, failure = ?, updated_at = ? where id = ?',
          [run.previewStatus, run.previewFailure ? JSON.stringify(run.previewFailure) : null, date(run.finishedAt), run.previewId],
          'run',
          ctx,
        );
      }
    }
    if (events.length) await enqueueOutbox(tx, events);
  });
}

/** A datetime column: epoch milliseconds on SQLite, a Date (or text) on PostgreSQL. */
function dateOf(value: unknown): Date {
  return value instanceof Date ? value : new Date(typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : (value as string | number));
}
