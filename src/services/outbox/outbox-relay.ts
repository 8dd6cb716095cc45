import type { Config } from '../../config';
import { outboxRetryDelayMs, type OutboxKind, type OutboxPayloads } from '../../domain/outbox';
import { AppError } from '../../errors';
import type { Logger } from '../../platform/logger';
import type { TemporalGateway } from '../../platform/temporal-client';
import { Instance, PcdDatabase, RefGuideSource } from '../../persistence/entities';
import type { Orm } from '../../persistence/orm';
import { startDriftCheck } from '../drift/drift-service';
import { publishNotifications } from '../notifications/publisher';
import { startPull } from '../pcd/database-lifecycle';
import { runRefGuideSync } from '../ref-guide/sync-runner';
import { wakeableDelay } from '../wakeable-delay';

export interface OutboxRelayDeps {
  orm: Orm;
  temporal: Pick<TemporalGateway, 'client' | 'connection' | 'taskQueue' | 'localWorkerClient'>;
  config: Config;
  logger: Logger;
}

interface ClaimedRow<K extends OutboxKind = OutboxKind> {
  id: string;
  kind: K;
  payload: OutboxPayloads[K];
  attempts: number;
  /** The lease this relay holds on the row (its next_attempt_at while publishing). */
  lease: number;
}

/** How often the relay looks for due rows when nobody kicks it. */
const POLL_MS = 1000;
/** Rows claimed per round. */
const BATCH = 100;
/** A publish's Temporal calls give up after this (the client would otherwise retry an unreachable server for long). */
const PUBLISH_TIMEOUT_MS = 5000;
/** The code of a publish that failed because Temporal did not answer. */
const TEMPORAL_UNAVAILABLE = 'app:unavailable';
/** A claimed row is left to this relay for this long; a relay that died mid-publish loses it then. */
const LEASE_MS = 60_000;

/**
 * Publishes the outbox (domain/outbox.ts) to Temporal: due rows are claimed (a lease written by
 * compare-and-set, so relays of several processes do not publish one row at once), published,
 * and deleted; a failed publish puts the row back with a doubling delay. Every effect is
 * idempotent by the row's id (the event id or the workflow id), so a row published again after a
 * crash has no second effect. Every process with a Temporal client runs one; writers kick it.
 */
export class OutboxRelay {
  private stopped = true;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private kicked = false;

  constructor(private readonly deps: OutboxRelayDeps) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.loop = this.run();
  }

  /** Publishes what is due now rather than at the next poll (a writer just committed rows). */
  kick(): void {
    this.kicked = true;
    this.wake?.();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      this.kicked = false;
      try {
        // A full batch means more rows are due: go on at once.
        while ((await this.publishDue()) === BATCH && !this.stopped);
      } catch (error) {
        this.deps.logger.warn({ errorClass: errorCode(error) }, 'outbox could not be read');
      }
      if (this.kicked || this.stopped) continue;
      const delay = wakeableDelay(POLL_MS);
      this.wake = delay.wake;
      await delay.done;
      this.wake = null;
    }
  }

  /**
   * One round: claims up to BATCH due rows and publishes them; returns how many it claimed. Once
   * Temporal proves unreachable, the rest of the round waits its backoff untried (each try would
   * only wait out the deadline).
   */
  async publishDue(now = Date.now()): Promise<number> {
    const claimed = await this.claimDue(now);
    let unreachable: string | null = null;
    const run = async (rows: readonly ClaimedRow[], publish: () => Promise<unknown>) => {
      if (unreachable) return this.putBack(rows, unreachable);
      const failure = await this.settle(rows, publish);
      if (failure === TEMPORAL_UNAVAILABLE) unreachable = failure;
    };
    const notifications = claimed.filter((r): r is ClaimedRow<'notification'> => r.kind === 'notification');
    const publishDeps = { em: this.deps.orm.em, temporal: this.deps.temporal, config: this.deps.config, logger: this.deps.logger };
    // Events go in one batch (one read of what is stored and of the channels); when the batch
    // fails, one at a time, so that one event does not cost the others theirs.
    if (notifications.length) {
      const batchFailure =
        notifications.length > 1 ? await this.settle(notifications, () => publishNotifications(publishDeps, notifications.map((r) => r.payload)), { keepOnFailure: true }) : 'one';
      if (batchFailure === TEMPORAL_UNAVAILABLE) unreachable = batchFailure;
      if (batchFailure !== null) for (const row of notifications) await run([row], () => publishNotifications(publishDeps, [row.payload]));
    }
    for (const row of claimed) {
      switch (row.kind) {
        case 'notification':
          break;
        case 'drift-check': {
          const { instanceId } = (row as ClaimedRow<'drift-check'>).payload;
          await run([row], async () => {
            const instance = await this.deps.orm.em.fork().findOne(Instance, { id: instanceId }, { fields: ['id', 'name', 'arrType', 'enabled'] });
            // An instance removed or disabled since the edit has nothing to check.
            if (instance?.enabled) await startDriftCheck(this.deps.temporal, instance, 'edit');
          });
          break;
        }
        case 'pcd-pull': {
          const { databaseId } = (row as ClaimedRow<'pcd-pull'>).payload;
          await run([row], async () => {
            // A database unlinked since has nothing to pull.
            if (await this.deps.orm.em.fork().count(PcdDatabase, { id: databaseId })) await startPull(this.deps.temporal, databaseId);
          });
          break;
        }
        case 'ref-guide-sync': {
          const { sourceId } = (row as ClaimedRow<'ref-guide-sync'>).payload;
          await run([row], async () => {
            const source = await this.deps.orm.em.fork().findOne(RefGuideSource, { id: sourceId });
            if (source?.enabled) await runRefGuideSync(this.deps.temporal, source, 'created', 0);
          });
          break;
        }
        default:
          // Written by a newer arrgo (a downgrade): kept for it, retried with backoff.
          await this.putBack([row], 'unknown_kind');
      }
    }
    return claimed.length;
  }

  private withinDeadline<T>(publish: () => Promise<T>): Promise<T> {
    return this.deps.temporal.connection.withDeadline(Date.now() + PUBLISH_TIMEOUT_MS, publish);
  }

  private async claimDue(now: number): Promise<ClaimedRow[]> {
    const connection = this.deps.orm.em.getConnection();
    const due: { id: string; kind: OutboxKind; payload: unknown; attempts: number | string; next_attempt_at: number | string }[] = await connection.execute(
      'select id, kind, payload, attempts, next_attempt_at from outbox where next_attempt_at <= ? order by next_attempt_at, id limit ?',
      [now, BATCH],
    );
    const claimed: ClaimedRow[] = [];
    for (const row of due) {
      const lease = now + LEASE_MS;
      const result = await connection.execute('update outbox set next_attempt_at = ? where id = ? and next_attempt_at = ?', [lease, row.id, Number(row.next_attempt_at)], 'run');
      if (((result as { affectedRows?: number }).affectedRows ?? 0) !== 1) continue;
      const payload = typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload;
      claimed.push({ id: row.id, kind: row.kind, payload, attempts: Number(row.attempts), lease } as ClaimedRow);
    }
    return claimed;
  }


  /**
   * Runs the publish of claimed rows: on success they are deleted (unless written again
   * meanwhile, which made them due again) and null is returned; on failure they wait their backoff
   * (unless `keepOnFailure`: the caller tries them again otherwise) and the failure's code is returned.
   */
  private async settle(rows: readonly ClaimedRow[], publish: () => Promise<unknown>, options: { keepOnFailure?: boolean } = {}): Promise<string | null> {
    try {
      await this.withinDeadline(publish);
    } catch (error) {
      const code = errorCode(error);
      if (!options.keepOnFailure) await this.putBack(rows, code);
      return code;
    }
    await this.remove(rows);
    return null;
  }

  /** Rows not published this round: each waits its doubling delay. */
  private async putBack(rows: readonly ClaimedRow[], code: string): Promise<void> {
    const connection = this.deps.orm.em.getConnection();
    for (const row of rows) {
      const attempts = row.attempts + 1;
      await connection.execute('update outbox set attempts = ?, next_attempt_at = ?, last_error = ? where id = ? and next_attempt_at = ?', [
        attempts,
        Date.now() + outboxRetryDelayMs(attempts),
        code,
        row.id,
        row.lease,
      ]);
    }
    this.deps.logger.warn({ kind: rows[0].kind, rows: rows.length, attempts: rows[0].attempts + 1, errorClass: code }, 'outbox publish failed; retrying with backoff');
  }

  private async remove(rows: readonly ClaimedRow[]): Promise<void> {
    const connection = this.deps.orm.em.getConnection();
    for (const row of rows) await connection.execute('delete from outbox where id = ? and next_attempt_at = ?', [row.id, row.lease]);
    this.deps.logger.debug({ kind: rows[0].kind, rows: rows.length }, 'outbox published');
  }
}

/** A failure's class for the log and the row: an AppError's kind, else the error's name. */
function errorCode(error: unknown): string {
  if (error instanceof AppError) return `app:${error.kind}`.slice(0, 80);
  return String((error as Error)?.name ?? 'unknown').slice(0, 80);
}
