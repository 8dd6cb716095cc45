import { WorkflowIdConflictPolicy } from '@temporalio/common';
import { pcdPullWorkflow, searchAttributes, type PullResult } from '../../workflows/contracts';
import type { ServiceDeps } from '../deps';
import { deploymentScopedId } from '../schedules';
import { startWorkflow, workflowResultWithin, type WaitedAnswer } from '../workflow-runner';
import { PcdDatabaseService, toDatabaseView, type DatabaseInput, type DatabasePatch, type DatabaseView } from './database-service';
import { RollbackService } from '../snapshots/rollback-service';
import { cloneDirectory } from './source-files';

export type PcdDatabaseDeps = Pick<ServiceDeps, 'config' | 'orm' | 'temporal' | 'pcdCaches'>;

export interface PullOutcome {
  workflowId: string;
  status: 'started' | PullResult['status'];
  reason?: Extract<PullResult, { status: 'failed' }>['reason'];
  /** With a finished pull: whether the replay is complete (ready), incomplete (degraded) or unusable (failed). */
  cacheStatus?: Extract<PullResult, { status: 'ready' }>['cacheStatus'];
  database: DatabaseView;
}

/** Linking, pulling and unlinking PCD databases: the use cases behind /databases. */
export class PcdDatabaseLifecycle {
  constructor(private readonly deps: PcdDatabaseDeps) {}

  private get databases(): PcdDatabaseService {
    return new PcdDatabaseService(this.deps.orm.em);
  }

  async list(): Promise<DatabaseView[]> {
    return (await this.databases.list()).map(toDatabaseView);
  }

  async get(id: number): Promise<DatabaseView> {
    return toDatabaseView(await this.databases.load(id));
  }

  /** Links a database and starts its first pull in the background. */
  async link(input: DatabaseInput): Promise<DatabaseView> {
    const created = await this.databases.create(input);
    return (await this.pull(created.id, 0)).body.database;
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

  private async pull(id: number, waitMs: number): Promise<WaitedAnswer<PullOutcome>> {
    const workflowId = deploymentScopedId(this.deps.temporal.taskQueue, `pcd-pull-${id}`);
    const handle = await startWorkflow(this.deps.temporal, pcdPullWorkflow, {
      workflowId,
      args: [id],
      conflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
      staticSummary: `Pull of PCD database ${id}`,
      searchAttributes: searchAttributes({ kind: 'pcd-pull', databaseId: id }),
    });
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
