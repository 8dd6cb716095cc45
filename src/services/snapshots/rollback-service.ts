import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/client';
import { WorkflowIdConflictPolicy } from '@temporalio/common';
import type { EntityManager } from '@mikro-orm/core';
import type { Config } from '../../config';
import { conflict, notFound } from '../../errors';
import type { TemporalGateway } from '../../platform/temporal-client';
import { deploymentScopedId } from '../schedules';
import { InstanceSyncDatabase, PcdDatabase, PcdOp, PcdRollback, PcdSnapshot } from '../../persistence/entities';
import type { Orm } from '../../persistence/orm';
import { pcdRollbackWorkflow, rollbackWorkflowId, type RollbackInput } from '../../workflows/contracts/rollback';
import { searchAttributes } from '../../workflows/contracts';
import { replaceFileLayerOps } from '../pcd/op-store';
import { startWorkflow, translateTemporalError, workflowResultWithin, type WaitedAnswer } from '../workflow-runner';
import { toDomainLayers, type SnapshotContent } from './snapshot-service';
import type { ServiceDeps } from '../deps';

/** What started a rollback: a request for a snapshot (manual) or the undo of an earlier rollback. */
export const ROLLBACK_TRIGGERS = ['manual', 'undo'] as const;
export type RollbackTrigger = (typeof ROLLBACK_TRIGGERS)[number];

export interface RollbackView {
  id: number;
  databaseId: number;
  databaseName: string;
  snapshotId: number;
  preSnapshotId: number | null;
  status: PcdRollback['status'];
  step: string | null;
  trigger: string;
  opsUndone: number[];
  opsReactivated: number[];
  error: string | null;
  workflowId: string;
  startedAt: string;
  finishedAt: string | null;
  /** Instances fed by the database: preview a sync for them (POST /sync/previews) to see what the rollback means for the apps. */
  instancesFed: number[];
}

export function toRollbackView(r: PcdRollback, instancesFed: number[] = []): RollbackView {
  return {
    id: r.id,
    databaseId: r.databaseId,
    databaseName: r.databaseName,
    snapshotId: r.snapshotId,
    preSnapshotId: r.preSnapshotId,
    status: r.status,
    step: r.step,
    trigger: r.trigger,
    opsUndone: r.opsUndone,
    opsReactivated: r.opsReactivated,
    error: r.error,
    workflowId: r.workflowId,
    startedAt: r.startedAt.toISOString(),
    finishedAt: r.finishedAt?.toISOString() ?? null,
    instancesFed,
  };
}

/**
 * Makes the stored ops of a database equal to a snapshot's, in one transaction: file layers are
 * replaced, user ops absent from the snapshot are superseded (marked with `supersededBy`, never
 * deleted), and the snapshot's user ops are active again (reactivated, or re-inserted with their
 * id when a revert had removed them). The database is pinned to `pin` and its versions bumped.
 */
export async function restoreOpSet(em: EntityManager, databaseId: number, supersededBy: number, target: SnapshotContent, pin: number | null): Promise<{ opsUndone: number[]; opsReactivated: number[] }> {
  return em.transactional(async (tx) => {
    await replaceFileLayerOps(tx, databaseId, toDomainLayers(target.fileOps));
    const wanted = new Map(target.userOps.map((op) => [op.id, op]));
    const opsUndone: number[] = [];
    const opsReactivated: number[] = [];
    for (const op of await tx.find(PcdOp, { databaseId, layer: 'user', supersededBy: null })) {
      if (!wanted.has(op.id)) {
        op.supersededBy = supersededBy;
        opsUndone.push(op.id);
      }
    }
    const existing = new Map((await tx.find(PcdOp, { databaseId, layer: 'user', id: { $in: [...wanted.keys(), 0] } })).map((op) => [op.id, op]));
    for (const op of target.userOps) {
      const row = existing.get(op.id);
      if (row) {
        if (row.supersededBy !== null) {
          row.supersededBy = null;
          opsReactivated.push(row.id);
        }
        continue;
      }
      tx.create(PcdOp, {
        id: op.id,
        databaseId,
        layer: 'user',
        file: null,
        seq: op.seq,
        position: op.seq,
        markerId: null,
        label: op.label,
        sql: op.sql,
        sha256: op.sha256,
        targetType: op.targetType,
        targetName: op.targetName,
        kind: op.kind,
        supersededBy: null,
        createdAt: new Date(op.createdAt),
      });
      opsReactivated.push(op.id);
    }
    const database = await tx.findOneOrFail(PcdDatabase, { id: databaseId });
    database.pinnedSnapshotId = pin;
    database.commitSha = target.snapshot.baseCommit;
    database.userVersion += 1;
    database.updatedAt = new Date();
    await tx.flush();
    return { opsUndone: opsUndone.sort((a, b) => a - b), opsReactivated: opsReactivated.sort((a, b) => a - b) };
  });
}

/** Starts rollbacks (a Temporal workflow per rollback) and reads their records. */
export class RollbackService {
  static of(deps: Pick<ServiceDeps, 'orm' | 'temporal' | 'config'>): RollbackService {
    return new RollbackService(deps.orm, deps.temporal, deps.config);
  }

  constructor(
    private readonly orm: Orm,
    private readonly temporal: TemporalGateway,
    private readonly config: Config,
  ) {}

  /**
   * Records the rollback and starts its workflow. 409 when a pull or another rollback of the
   * database is running. Waits at most `waitMs` for the workflow to finish.
   */
  async start(databaseId: number, snapshotId: number, waitMs: number, trigger: RollbackTrigger = 'manual'): Promise<WaitedAnswer<RollbackView>> {
    const em = this.orm.em.fork();
    const database = await em.findOne(PcdDatabase, { id: databaseId });
    if (!database) throw notFound(`Database ${databaseId} not found`);
    const snapshot = await em.findOne(PcdSnapshot, { id: snapshotId, databaseId }, { fields: ['id'] });
    if (!snapshot) throw notFound(`Snapshot ${snapshotId} not found in database ${databaseId}`);
    if (await this.isRunning(pullWorkflowId(this.temporal.taskQueue, databaseId))) {
      throw conflict(`Database ${databaseId} is being pulled; roll back once the pull has finished`, 'pull_in_progress');
    }
    const workflowId = rollbackWorkflowId(this.temporal.taskQueue, databaseId);
    const rollback = em.create(PcdRollback, {
      databaseId,
      databaseName: database.name,
      snapshotId,
      status: 'running',
      step: 'pending',
      trigger,
      opsUndone: [],
      opsReactivated: [],
      workflowId,
      startedAt: new Date(),
    });
    await em.flush();
    const input: RollbackInput = { rollbackId: rollback.id, databaseId, snapshotId, heartbeatTimeoutMs: this.config.syncHeartbeatTimeoutSeconds * 1000 };
    let handle;
    try {
      handle = await startWorkflow(this.temporal, pcdRollbackWorkflow, {
        workflowId,
        args: [input],
        conflictPolicy: WorkflowIdConflictPolicy.FAIL,
        staticSummary: `${trigger === 'undo' ? 'Undo of a rollback' : 'Rollback'} of PCD database "${database.name}" (${databaseId}) to snapshot ${snapshotId}`,
        staticDetails: `Rollback record ${rollback.id}. Steps: verify the snapshot, pre-rollback snapshot, restore ops, rebuild the cache, verify the state hash.`,
        searchAttributes: searchAttributes({ kind: 'pcd-rollback', databaseId, trigger }),
      });
    } catch (error) {
      await em.nativeDelete(PcdRollback, { id: rollback.id });
      if (error instanceof WorkflowExecutionAlreadyStartedError) {
        throw conflict(`A rollback of database ${databaseId} is already running`, 'rollback_in_progress');
      }
      throw translateTemporalError(error);
    }
    const { finished } = await workflowResultWithin(handle, waitMs);
    return { finished, body: await this.get(databaseId, rollback.id) };
  }

  /**
   * Undoes a finished rollback: rolls the database back to the snapshot taken just before it,
   * through the same workflow (trigger undo). 409 while it runs, when it failed (it changed
   * nothing) or when its pre-rollback snapshot is gone.
   */
  async undo(databaseId: number, rollbackId: number, waitMs: number): Promise<WaitedAnswer<RollbackView>> {
    const em = this.orm.em.fork();
    const rollback = await em.findOne(PcdRollback, { id: rollbackId, databaseId });
    if (!rollback) throw notFound(`Rollback ${rollbackId} not found in database ${databaseId}`);
    if (rollback.status === 'running') throw conflict(`Rollback ${rollbackId} is still running; undo it once it has finished`, 'rollback_in_progress');
    if (rollback.status === 'failed' || rollback.preSnapshotId === null) {
      throw conflict(`Rollback ${rollbackId} failed and left the database as it was: there is nothing to undo`, 'rollback_not_undoable');
    }
    if (!(await em.count(PcdSnapshot, { id: rollback.preSnapshotId, databaseId }))) {
      throw conflict(`Rollback ${rollbackId} cannot be undone: its pre-rollback snapshot ${rollback.preSnapshotId} was pruned`, 'rollback_not_undoable');
    }
    return this.start(databaseId, rollback.preSnapshotId, waitMs, 'undo');
  }

  /** 409 when a rollback of the database is running (a pull waits for it). */
  async assertNoRollbackRunning(databaseId: number): Promise<void> {
    if (await this.isRunning(rollbackWorkflowId(this.temporal.taskQueue, databaseId))) {
      throw conflict(`A rollback of database ${databaseId} is running; pull once it has finished`, 'rollback_in_progress');
    }
  }

  async list(databaseId: number, page: number, pageSize: number): Promise<{ items: RollbackView[]; total: number }> {
    const em = this.orm.em.fork();
    if (!(await em.count(PcdDatabase, { id: databaseId }))) throw notFound(`Database ${databaseId} not found`);
    const [rows, total] = await em.findAndCount(PcdRollback, { databaseId }, { orderBy: { startedAt: 'desc', id: 'desc' }, limit: pageSize, offset: (page - 1) * pageSize });
    return { items: rows.map((row) => toRollbackView(row)), total };
  }

  async get(databaseId: number, rollbackId: number): Promise<RollbackView> {
    const em = this.orm.em.fork();
    const row = await em.findOne(PcdRollback, { id: rollbackId, databaseId });
    if (!row) throw notFound(`Rollback ${rollbackId} not found in database ${databaseId}`);
    const fed = await em.find(InstanceSyncDatabase, { databaseId }, { fields: ['instanceId'], orderBy: { instanceId: 'asc' } });
    return toRollbackView(row, fed.map((c) => c.instanceId));
  }

  private async isRunning(workflowId: string): Promise<boolean> {
    try {
      const description = await this.temporal.client.workflow.getHandle(workflowId).describe();
      return description.status.name === 'RUNNING';
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) return false;
      throw translateTemporalError(error);
    }
  }
}

export function pullWorkflowId(taskQueue: string, databaseId: number): string {
  return deploymentScopedId(taskQueue, `pcd-pull-${databaseId}`);
}

