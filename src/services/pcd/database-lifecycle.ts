import { WorkflowNotFoundError, type WorkflowExecutionDescription } from '@temporalio/client';
import { pcdPullProgressQuery, pcdPullRequestedSignal, pcdPullWorkflow, searchAttributes, type PullProgress, type PullResult } from '../../workflows/contracts';
import type { ServiceDeps } from '../deps';
import { signalWithStartWorkflow, translateTemporalError, workflowResultWithin, type WaitedAnswer } from '../workflow-runner';
import { PcdDatabaseService, toDatabaseView, type DatabaseInput, type DatabasePatch, type DatabaseView } from './database-service';
import { pullWorkflowId, RollbackService } from '../snapshots/rollback-service';
import { cloneDirectory } from './source-files';
import { pcdPullOutboxEntry } from '../../domain/outbox';
import { enqueueOutbox } from '../outbox/outbox-store';

export type PcdDatabaseDeps = Pick<ServiceDeps, 'config' | 'orm' | 'temporal' | 'pcdCaches' | 'secretBox' | 'outbox'>;

export interface PullOutcome {
  workflowId: string;
  status: 'started' | PullResult['status'];
  reason?: Extract<PullResult, { status: 'failed' }>['reason'];
  /** With a finished pull: whether the replay is complete (ready), incomplete (degraded) or unusable (failed). */
  cacheStatus?: Extract<PullResult, { status: 'ready' }>['cacheStatus'];
  database: DatabaseView;
}

/** The database's pull workflow as it is now: running or not, its step, and what the steps behind it found. */
export interface PullStateView {
  workflowId: string;
  running: boolean;
  /** null: never pulled, or pulled before the progress query existed. */
  phase: PullProgress['phase'] | null;
  commit: string | null;
  inserted: number | null;
  removed: number | null;
  startedAt: string | null;
  closedAt: string | null;
}

/**
 * Starts the pull workflow of a database, or joins the one running and tells it so: a pull already
 * fetching fetches again before it completes, so what was committed before this request is in
 * the answer.
 */
export function startPull(gateway: Pick<ServiceDeps['temporal'], 'client' | 'taskQueue'>, databaseId: number) {
  return signalWithStartWorkflow(gateway, pcdPullWorkflow, {
    workflowId: pullWorkflowId(gateway.taskQueue, databaseId),
    args: [databaseId],
    staticSummary: `Pull of PCD database ${databaseId}`,
    searchAttributes: searchAttributes({ kind: 'pcd-pull', databaseId }),
  }, pcdPullRequestedSignal);
}

/** Linking, pulling and unlinking PCD databases: the use cases behind /databases. */
export class PcdDatabaseLifecycle {
  constructor(private readonly deps: PcdDatabaseDeps) {}

  private get databases(): PcdDatabaseService {
    return new PcdDatabaseService(this.deps.orm.em, this.deps.secretBox);
  }

  async list(): Promise<DatabaseView[]> {
    return (await this.databases.list()).map(toDatabaseView);
  }

  async get(id: number): Promise<DatabaseView> {
    return toDatabaseView(await this.databases.load(id));
  }

  /**
   * Links a database; its first pull is queued in the outbox with it (one transaction) and started
   * by the relay at once, or once Temporal answers.
   */
  async link(input: DatabaseInput): Promise<DatabaseView> {
    const created = await this.databases.create(input, (tx, database) => enqueueOutbox(tx, [pcdPullOutboxEntry(database.id)]));
    this.deps.outbox?.kick();
    return toDatabaseView(created);
  }

  async update(id: number, patch: DatabasePatch): Promise<DatabaseView> {
    const database = await this.databases.update(id, patch);
    if (patch.enabled === false) this.deps.pcdCaches.evict(id);
    return toDatabaseView(database);
  }

  /** Unlinks a database: its clone, imported ops, user edits and cache go. */
  async unlink(id: number): Promise<void> {
    const database = await this.databases.load(id);
    await this.databases.delete(id, database.sourceKind === 'git' ? cloneDirectory(this.deps.config.dataDir, id) : null);
    this.deps.pcdCaches.evict(id);
  }

  /** Starts (or joins) the pull workflow of an existing database; waits at most `waitMs` for it. */
  async pullExisting(id: number, waitMs: number): Promise<WaitedAnswer<PullOutcome>> {
    await this.databases.load(id);
    await RollbackService.of(this.deps).assertNoRollbackRunning(id);
    return this.pull(id, waitMs);
  }

  /** The pull of a database, running or last run. */
  async pullState(id: number): Promise<PullStateView> {
    await this.databases.load(id);
    const workflowId = pullWorkflowId(this.deps.temporal.taskQueue, id);
    const handle = this.deps.temporal.client.workflow.getHandle(workflowId);
    let description: WorkflowExecutionDescription;
    try {
      description = await handle.describe();
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) return { workflowId, running: false, phase: null, commit: null, inserted: null, removed: null, startedAt: null, closedAt: null };
      throw translateTemporalError(error);
    }
    // A pull started before the query existed answers none: its phase is unknown.
    const progress = await handle.query(pcdPullProgressQuery).catch(() => null);
    return {
      workflowId,
      running: description.status.name === 'RUNNING',
      phase: progress?.phase ?? null,
      commit: progress?.commit ?? null,
      inserted: progress?.inserted ?? null,
      removed: progress?.removed ?? null,
      startedAt: description.startTime.toISOString(),
      closedAt: description.closeTime?.toISOString() ?? null,
    };
  }

  private async pull(id: number, waitMs: number): Promise<WaitedAnswer<PullOutcome>> {
    const workflowId = pullWorkflowId(this.deps.temporal.taskQueue, id);
    const handle = await startPull(this.deps.temporal, id);
    const waited = await workflowResultWithin(handle, waitMs);
    const result = waited.finished ? waited.value : null;
    return {
      finished: waited.finished,
      body: {
        workflowId,
        status: result ? result.status : 'started',
        ...(result?.status === 'failed' ? { reason: result.reason } : {}),
        ...(result?.status === 'ready' ? { cacheStatus: result.cacheStatus } : {}),
        database: await this.fresh(id),
      },
    };
  }

  /** The database as stored now (a workflow may have written it meanwhile). */
  private async fresh(id: number): Promise<DatabaseView> {
    this.deps.orm.em.clear();
    return toDatabaseView(await this.databases.load(id));
  }
}
