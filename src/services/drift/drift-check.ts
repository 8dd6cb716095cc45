import type { EntityManager } from '@mikro-orm/core';
import { createArrClient } from '../../clients/arr-client';
import { backoffUntil, driftFailure, isFailedDrift, type DriftReason, type StoredDriftStatus } from '../../domain/drift';
import type { DriftState } from '../../domain/notifications';
import type { ArrType } from '../../domain/arr-types';
import { appSections, classifyDrift, liveNeeds, mergeSyncSources, planSync, scopeIdentities, type DatabaseSource, type MergedSource, type SyncChange, type SyncIssue } from '../../domain/sync';
import { notFound } from '../../errors';
import type { SecretBox } from '../../platform/crypto';
import type { Logger } from '../../platform/logger';
import { probe } from '../../platform/profiling';
import { DriftResult, Instance, PcdDatabase, SERVABLE_CACHE_STATUSES } from '../../persistence/entities';
import type { OutboxEntry } from '../../domain/outbox';
import { enqueueOutbox, type OutboxKick } from '../outbox/outbox-store';
import { checkAppIdentity } from '../instances/app-identity';
import { InstanceService } from '../instances/instance-service';
import type { PcdCache, PcdCacheManager } from '../pcd/cache-manager';
import { Slots } from '../slots';
import { wakeableDelay } from '../wakeable-delay';
import { readLiveState } from '../sync/live-state';
import { SyncConfigService, type InstanceSyncTarget } from '../sync/sync-config-service';
import { readDriftSettings } from './drift-settings';
import { cachedSyncSource } from '../sync/sync-source';
import { readLedgers } from '../sync/ledger-service';

export interface DriftDeps {
  em: EntityManager;
  secretBox: SecretBox;
  pcdCaches: PcdCacheManager;
  timeoutMs: number;
  logger: Logger;
  /** The event a stored check raises (its transition), written to the outbox in the transaction that stores the check. */
  eventOf?: (check: StoredDriftCheck) => OutboxEntry | null;
  /** Kicked after a write that queued events. */
  outbox?: OutboxKick;
}

export interface DriftOutcome {
  instanceId: number;
  status: StoredDriftStatus;
  reason: DriftReason | null;
}

type DriftContent = { drift: SyncChange[]; missing: SyncChange[]; unmanaged: SyncChange[]; managedTotal: number; issues: SyncIssue[] };

/** What one check found, before it is stored. */
interface DriftVerdict {
  instanceId: number;
  status: StoredDriftStatus;
  reason: DriftReason | null;
  /** When the check started (the stored checkedAt). */
  at: Date;
  /** The app's version when system/status answered (kept otherwise). */
  detectedVersion?: string;
  /** The comparison, when the app could be read (the last one is kept otherwise). */
  content?: DriftContent;
}

/** A stored check: its outcome, and the stored state it moved from and to (what a drift transition compares). */
export interface StoredDriftCheck {
  outcome: DriftOutcome;
  /** The stored status and counts before this check; null when the instance had no result yet. */
  previous: DriftState | null;
  /** The stored status and counts after it (counts are the last comparison's when the app could not be read). */
  stored: DriftState;
  /** When the check started (the stored checkedAt). */
  checkedAt: Date;
  instance: { name: string; arrType: string };
}

/** In a batch of checks, how long a result waits for others to share its write (a few ms of a check's hundreds). */
const WRITE_GATHER_MS = 15;

export interface DriftBatchOptions {
  /**
   * Instances with an app call in flight at once (each check makes two round trips: system
   * status, then its section reads in parallel); a slow instance holds one slot, never the others.
   */
  concurrency: number;
  /** Called once per instance when its result is stored (ok) or its check failed unexpectedly (error). */
  onChecked?: (instanceId: number, result: StoredDriftCheck | { error: unknown }) => void;
}

/**
 * Reads the instance's live state, compares desired against live with the sync diff engine, and
 * stores the result (one row per instance). Failures are stored as statuses with a sanitized
 * reason; the last content comparison is kept when the app cannot be read.
 */
export async function runDriftCheck(deps: DriftDeps, instanceId: number): Promise<StoredDriftCheck> {
  let result: StoredDriftCheck | { error: unknown } | undefined;
  await runDriftChecks(deps, [instanceId], { concurrency: 1, onChecked: (_, r) => (result = r) });
  if (!result) throw notFound(`Instance ${instanceId} not found`);
  if ('error' in result) throw result.error;
  return result;
}

/**
 * Drift checks of several instances, `concurrency` apps at a time. What the checks share is read once
 * (settings, instances, configurations, stored rows, databases and their PCD caches), and results
 * are written in coalesced flushes: whatever finished while one flush ran goes into the next.
 * Returns the stored outcomes in the order given (an instance whose check threw is left out and
 * reported through onChecked).
 */
export async function runDriftChecks(deps: DriftDeps, instanceIds: readonly number[], options: DriftBatchOptions): Promise<DriftOutcome[]> {
  const { em } = deps;
  if (!instanceIds.length) return [];
  const ids = [...instanceIds];
  const settings = await readDriftSettings(em);
  const instances = new Map((await em.find(Instance, { id: { $in: ids } })).map((i) => [i.id, i]));
  const storedRows = await em.fork().find(DriftResult, { instanceId: { $in: ids } }, { fields: ['instanceId', 'failureStreak', 'status', 'counts'] });
  const stored = new Map(storedRows.map((r): [number, StoredRowState] => [r.instanceId, { failureStreak: r.failureStreak, status: r.status, counts: r.counts }]));
  const configs = await new SyncConfigService(em, deps.pcdCaches).findMany(ids);
  const ledgers = await readLedgers(em, ids);
  const databaseIds = [...new Set([...configs.values()].flatMap((c) => c.databases.map((d) => d.databaseId)))];
  const databases = new Map((databaseIds.length ? await em.find(PcdDatabase, { id: { $in: databaseIds } }) : []).map((d) => [d.id, d]));
  const caches = new Map<number, Promise<PcdCache | null>>();
  const cacheOf = (databaseId: number) => {
    if (!caches.has(databaseId)) caches.set(databaseId, deps.pcdCaches.build(databaseId).catch(() => null));
    return caches.get(databaseId)!;
  };
  // Every database of the configuration, its cache built once per run; null when one is not ready.
  const sourceOf = async (arrType: ArrType, config: InstanceSyncTarget): Promise<MergedSource | null> => {
    const entries: DatabaseSource[] = [];
    for (const entry of config.databases) {
      const database = databases.get(entry.databaseId);
      if (!database || !SERVABLE_CACHE_STATUSES.includes(database.cacheStatus) || !database.enabled) return null;
      const cache = await cacheOf(database.id);
      if (!cache) return null;
      entries.push({ databaseId: database.id, databaseName: database.name, selection: entry.selection, source: scopeIdentities(cachedSyncSource(cache, arrType, entry.selection), database.id) });
    }
    return mergeSyncSources(entries);
  };
  const instanceService = new InstanceService(em, deps.secretBox);
  const instanceOf = (instanceId: number) => {
    const instance = instances.get(instanceId)!;
    return { name: instance.name, arrType: instance.arrType };
  };
  const writer = new DriftWriter(em, stored, settings.intervalMinutes * 60_000, deps.logger, ids.length > 1 ? WRITE_GATHER_MS : 0, { eventOf: deps.eventOf, outbox: deps.outbox, instanceOf });

  // App round trips wait for one of `concurrency` slots, first come first served: a check takes a
  // slot for its status call and again for its section reads, so while it parses one answer
  // another check's call goes out, and the run's last checks do not wait behind whole checks.
  const slots = new Slots(Math.max(1, options.concurrency));
  const check = async (instanceId: number): Promise<DriftVerdict> => {
    let at = new Date();
    const verdict = (status: StoredDriftStatus, reason: DriftReason | null, extra: Partial<DriftVerdict> = {}): DriftVerdict => ({ instanceId, status, reason, at, ...extra });
    const instance = instances.get(instanceId);
    if (!instance) throw notFound(`Instance ${instanceId} not found`);
    const config = configs.get(instanceId);
    if (!config) return verdict('error', 'not_configured');
    const merged = await sourceOf(instance.arrType, config);
    if (!merged) return verdict('error', 'cache_not_ready');
    const client = createArrClient(instanceService.connectionOf(instance), deps.timeoutMs);
    const identity = await slots.run(() => {
      at = new Date();
      return checkAppIdentity(client);
    });
    if (identity.status === 'failed') {
      const failed = driftFailure(identity.failure, identity.httpStatus);
      return verdict(failed.status, failed.reason);
    }
    // Another app's state is never compared as this instance's.
    if (identity.status === 'mismatch') return verdict('error', 'app_mismatch');
    const detectedVersion = identity.identity.version;
    const sections = appSections(instance.arrType);
    const { live, failures } = await slots.run(() => readLiveState(client, liveNeeds(instance.arrType, merged.selection, sections)));
    const firstFailure = Object.values(failures)[0];
    if (firstFailure) {
      const failed = driftFailure(firstFailure);
      return verdict(failed.status, failed.reason, { detectedVersion });
    }
    const ledger = ledgers.get(instanceId) ?? [];
    const planned = probe('transform', 'planSync', () => planSync({ arrType: instance.arrType, selection: merged.selection, source: merged.source, live, sections, ledger }));
    const classified = classifyDrift(planned.preview);
    const content = { ...classified, managedTotal: countManaged(planned.preview), issues: planned.preview.issues };
    return verdict(classified.inSync ? 'in-sync' : 'drifted', null, { detectedVersion, content });
  };

  const outcomes = new Map<number, DriftOutcome>();
  const failed = (instanceId: number, error: unknown) => options.onChecked?.(instanceId, { error });
  // Lanes bound the checks in progress (twice the slots, so that a check waiting for its second
  // round trip does not keep a slot idle); a result's write joins the writer's next batch and
  // its lane takes the next instance at once.
  const writes: Promise<void>[] = [];
  let next = 0;
  const lane = async () => {
    while (next < ids.length) {
      const instanceId = ids[next++];
      let verdict: DriftVerdict;
      try {
        verdict = await check(instanceId);
      } catch (error) {
        failed(instanceId, error);
        continue;
      }
      writes.push(
        writer.store(verdict).then(
          (check) => {
            outcomes.set(instanceId, check.outcome);
            options.onChecked?.(instanceId, check);
          },
          (error: unknown) => failed(instanceId, error),
        ),
      );
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(2 * options.concurrency, ids.length)) }, lane));
  writer.finish();
  await Promise.all(writes);
  return ids.flatMap((id) => outcomes.get(id) ?? []);
}

/** What the writer knows of an instance's stored row. */
interface StoredRowState extends DriftState {
  failureStreak: number;
}

/**
 * Stores verdicts: verdicts that arrive while one write runs (or, for a batch of checks, within
 * `gatherMs` of the first) are written together by the next, in one transaction. Writes are plain
 * updates and one multi-row insert (the failure streak, the one value a new row derives from the
 * stored one, is kept here), so a batch's cost does not grow with the number of entities the
 * activity's EntityManager manages.
 */
class DriftWriter {
  private readonly pending = new Map<number, DriftVerdict>();
  private scheduled: Promise<Map<number, StoredDriftCheck>> | null = null;
  private chain: Promise<unknown> = Promise.resolve();
  private gathering: (() => void) | null = null;
  private finished = false;

  constructor(
    private readonly em: EntityManager,
    /** The stored failure streak, status and counts per instance that has a row. */
    private readonly rows: Map<number, StoredRowState>,
    private readonly intervalMs: number,
    private readonly logger: Logger,
    /** How long a write waits for more verdicts to join it (0: none, a single check is not delayed). */
    private readonly gatherMs: number,
    private readonly events: { eventOf?: DriftDeps['eventOf']; outbox?: DriftDeps['outbox']; instanceOf: (instanceId: number) => StoredDriftCheck['instance'] },
  ) {}

  /** Stores the verdict; resolves with its outcome and the stored state before and after it. */
  async store(verdict: DriftVerdict): Promise<StoredDriftCheck> {
    this.pending.set(verdict.instanceId, verdict);
    if (!this.scheduled) {
      const gathered = this.gatherMs > 0 ? this.chain.then(() => this.gather()) : this.chain;
      this.scheduled = gathered.then(() => this.writePending());
      this.chain = this.scheduled.catch(() => undefined);
    }
    return (await this.scheduled).get(verdict.instanceId)!;
  }

  /** No more verdicts will come: a write waiting for others goes at once. */
  finish(): void {
    this.finished = true;
    this.gathering?.();
  }

  private async gather(): Promise<void> {
    if (this.finished) return;
    const delay = wakeableDelay(this.gatherMs);
    this.gathering = delay.wake;
    await delay.done;
    this.gathering = null;
  }

  private async writePending(): Promise<Map<number, StoredDriftCheck>> {
    this.scheduled = null;
    const batch = [...this.pending.values()].map((verdict) => ({ verdict, data: this.rowData(verdict) }));
    this.pending.clear();
    const inserts = batch.filter(({ verdict }) => !this.rows.has(verdict.instanceId)).map(({ verdict, data }) => ({ ...emptyRow(verdict.instanceId), ...data }));
    const written = new Map<number, StoredDriftCheck>();
    for (const { verdict, data } of batch) {
      const before = this.rows.get(verdict.instanceId);
      const counts = data.counts ?? before?.counts ?? emptyRow(verdict.instanceId).counts;
      written.set(verdict.instanceId, {
        outcome: { instanceId: verdict.instanceId, status: verdict.status, reason: verdict.reason },
        previous: before ? { status: before.status, counts: before.counts } : null,
        stored: { status: verdict.status, counts },
        checkedAt: verdict.at,
        instance: this.events.instanceOf(verdict.instanceId),
      });
    }
    const events = this.events.eventOf ? [...written.values()].flatMap((check) => this.events.eventOf!(check) ?? []) : [];
    await this.em.fork().transactional(async (tx) => {
      for (const { verdict, data } of batch) if (this.rows.has(verdict.instanceId)) await tx.nativeUpdate(DriftResult, { instanceId: verdict.instanceId }, data);
      if (inserts.length) await tx.insertMany(DriftResult, inserts);
      // The transitions' events commit with the results that raise them: never one without the other.
      if (events.length) await enqueueOutbox(tx, events);
    });
    if (events.length) this.events.outbox?.kick();
    for (const { verdict, data } of batch) {
      const { stored } = written.get(verdict.instanceId)!;
      this.rows.set(verdict.instanceId, { failureStreak: data.failureStreak!, status: verdict.status, counts: stored.counts });
      this.logger.info({ instanceId: verdict.instanceId, status: verdict.status, reason: verdict.reason, counts: data.counts }, 'drift check stored');
    }
    return written;
  }

  /** The columns a verdict sets; the others (the last comparison when the app could not be read) stay. */
  private rowData(verdict: DriftVerdict): Partial<DriftResult> {
    const { status, reason, at, content } = verdict;
    const failureStreak = isFailedDrift(status) ? (this.rows.get(verdict.instanceId)?.failureStreak ?? 0) + 1 : 0;
    return {
      status,
      reason,
      checkedAt: at,
      ...(verdict.detectedVersion !== undefined ? { detectedVersion: verdict.detectedVersion } : {}),
      ...(content
        ? {
            contentCheckedAt: at,
            drift: content.drift as unknown as Record<string, unknown>[],
            missing: content.missing as unknown as Record<string, unknown>[],
            unmanaged: content.unmanaged as unknown as Record<string, unknown>[],
            counts: { drifted: content.drift.length, missing: content.missing.length, unmanaged: content.unmanaged.length },
            managedTotal: content.managedTotal,
            issues: content.issues as unknown as Record<string, unknown>[],
          }
        : {}),
      failureStreak,
      backoffUntil: backoffUntil(failureStreak, this.intervalMs, at),
    };
  }
}

function countManaged(preview: ReturnType<typeof planSync>['preview']): number {
  const changes: SyncChange[] = [
    ...(preview.qualityProfiles ? [...preview.qualityProfiles.customFormats, ...preview.qualityProfiles.qualityProfiles] : []),
    ...(preview.delayProfiles ? [preview.delayProfiles.profile] : []),
    ...(preview.mediaManagement ? [preview.mediaManagement.naming, preview.mediaManagement.mediaSettings, ...preview.mediaManagement.qualityDefinitions].filter((c): c is SyncChange => c !== null) : []),
    ...(preview.metadataProfiles ? [preview.metadataProfiles.profile] : []),
  ];
  return changes.filter((c) => c.category !== 'unmanaged').length;
}

function emptyRow(instanceId: number): DriftResult {
  return {
    instanceId,
    status: 'error',
    reason: null,
    detectedVersion: null,
    checkedAt: new Date(),
    contentCheckedAt: null,
    counts: { drifted: 0, missing: 0, unmanaged: 0 },
    drift: [],
    missing: [],
    unmanaged: [],
    managedTotal: 0,
    issues: [],
    failureStreak: 0,
    backoffUntil: null,
  };
}
