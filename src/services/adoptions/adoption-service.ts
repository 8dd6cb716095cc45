/**
 * Adoption use cases: preview the adoption of an instance's own configuration into a database
 * (a workflow reads the app and plans it), apply it (one snapshot, then user ops, each revertible
 * through DELETE /pcd/{databaseId}/user-ops/{opId}), discard it, read them.
 */
import { WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { APP_OF } from '../../domain/arr-types';
import { appSections, type SyncSection } from '../../domain/sync';
import { AppError, conflict, notFound, validationError } from '../../errors';
import { Adoption, PcdDatabase, SERVABLE_CACHE_STATUSES } from '../../persistence/entities';
import {
  ADOPTION_REFUSALS,
  adoptionGeneratedUpdate,
  adoptionWorkflow,
  applyAdoptionUpdate,
  discardAdoptionUpdate,
  searchAttributes,
  type AdoptionApplyResponse,
} from '../../workflows/contracts';
import { loadInstance } from '../instances/instance-service';
import { deploymentScopedId } from '../schedules';
import type { SyncRunnerDeps } from '../sync/sync-runner';
import { startWorkflow, translateTemporalError, unlessStarted, waitWithin, workflowResultWithin, type WaitedAnswer } from '../workflow-runner';
import { toAdoptionView, type AdoptionView } from './adoption-view';

export interface AdoptionRequest {
  databaseId: number;
  sections?: SyncSection[];
  /** Select the adopted entities in the instance's sync configuration after the apply (default true). */
  select?: boolean;
}


export class AdoptionService {
  constructor(private readonly deps: SyncRunnerDeps) {}

  /** Records an adoption and starts its workflow; waits at most `waitMs` for the preview. */
  async start(instanceId: number, request: AdoptionRequest, waitMs = 0): Promise<WaitedAnswer<AdoptionView>> {
    const em = this.deps.orm.em.fork();
    const instance = await loadInstance(em, instanceId);
    const database = await em.findOne(PcdDatabase, { id: request.databaseId });
    if (!database) throw notFound(`Database ${request.databaseId} not found`);
    if (!database.lastPulledAt || !SERVABLE_CACHE_STATUSES.includes(database.cacheStatus)) {
      throw conflict(`Database ${request.databaseId} is not ready (${database.lastPulledAt ? database.cacheStatus : 'not pulled yet'}); adopt once its pull has finished`, 'database_not_ready');
    }
    const available = appSections(instance.arrType);
    const sections = request.sections ?? available;
    sections.forEach((section, i) => {
      if (!available.includes(section)) throw validationError(`Invalid request: body.sections.${i} ${section} is not a section of ${instance.arrType} instances`);
    });
    const busy = await em.findOne(Adoption, { instanceId, status: 'applying' });
    if (busy) throw conflict(`Adoption ${busy.id} of instance ${instanceId} is being applied; start another once it has finished`, 'adoption_in_progress');

    const adoption = em.create(Adoption, {
      instanceId,
      instanceName: instance.name,
      arrType: instance.arrType,
      databaseId: database.id,
      sections: [...new Set(sections)],
      selectAdopted: request.select ?? true,
      status: 'generating',
      workflowId: `pending-${Date.now()}-${Math.random()}`,
      preview: null,
      failure: null,
      createdAt: new Date(),
      updatedAt: new Date(),
    });
    await em.flush();
    adoption.workflowId = deploymentScopedId(this.deps.temporal.taskQueue, `adopt-${adoption.id}`);
    await em.flush();
    // An adoption whose workflow never started would show as generating forever: it goes with the refused start.
    await unlessStarted(() => em.nativeDelete(Adoption, { id: adoption.id }), () => startWorkflow(this.deps.temporal, adoptionWorkflow, {
      workflowId: adoption.workflowId,
      args: [{ adoptionId: adoption.id, ttlMs: this.deps.config.previewTtlMinutes * 60_000, heartbeatTimeoutMs: this.deps.config.syncHeartbeatTimeoutSeconds * 1000 }],
      staticSummary: `Adopt ${APP_OF[instance.arrType].label} instance "${instance.name}" into database "${database.name}"`,
      staticDetails: `Adoption ${adoption.id}; sections ${adoption.sections.join(', ')}; select ${adoption.selectAdopted}`,
      searchAttributes: searchAttributes({ kind: 'adoption', arrType: instance.arrType, instanceIds: [instanceId], databaseId: database.id, syncStatus: 'generating' }),
    }));
    if (waitMs <= 0) return { finished: false, body: toAdoptionView(adoption) };
    const handle = this.deps.temporal.client.workflow.getHandle<typeof adoptionWorkflow>(adoption.workflowId);
    const generated = await waitWithin(handle.client, waitMs, async () => {
      try {
        return await handle.executeUpdate(adoptionGeneratedUpdate);
      } catch (error) {
        if (error instanceof WorkflowNotFoundError) return null;
        throw error;
      }
    });
    return { finished: generated.finished, body: await this.get(adoption.id) };
  }

  async get(id: number): Promise<AdoptionView> {
    return toAdoptionView(await this.load(id));
  }

  async listForInstance(instanceId: number): Promise<AdoptionView[]> {
    const em = this.deps.orm.em.fork();
    await loadInstance(em, instanceId);
    const rows = await em.find(Adoption, { instanceId }, { orderBy: { id: 'desc' }, limit: 100, exclude: ['ops'] });
    return rows.map(toAdoptionView);
  }

  /**
   * Applies a ready adoption: 409 when it is not ready (code not_ready), already applied (code
   * applied), expired (code stale), or when the database moved since the preview (code stale).
   */
  async apply(id: number, waitMs = 0): Promise<WaitedAnswer<AdoptionView>> {
    const adoption = await this.load(id);
    this.assertReady(adoption);
    // The workflow checks the database's version before it writes (stale: refused here with 409).
    const response = await this.update(adoption, applyAdoptionUpdate);
    if ((response as AdoptionApplyResponse).code === 'stale') throw this.staleDatabase(adoption);
    const handle = this.deps.temporal.client.workflow.getHandle<typeof adoptionWorkflow>(adoption.workflowId);
    const { finished } = await workflowResultWithin(handle, waitMs);
    return { finished, body: await this.get(id) };
  }

  /** Discards a ready adoption (nothing is written). */
  async discard(id: number): Promise<AdoptionView> {
    const adoption = await this.load(id);
    this.assertReady(adoption);
    await this.update(adoption, discardAdoptionUpdate);
    return this.get(id);
  }

  private staleDatabase(adoption: Pick<Adoption, 'id' | 'databaseId'>): AppError {
    return new AppError('conflict', `Adoption ${adoption.id} is stale: database ${adoption.databaseId} changed since the preview; start a new adoption`, { code: 'stale' });
  }

  private refusal(adoption: Pick<Adoption, 'id'>, status: string): AppError {
    switch (status) {
      case 'applied':
        return new AppError('conflict', `Adoption ${adoption.id} is already applied`, { code: 'applied' });
      case 'expired':
        return new AppError('conflict', `Adoption ${adoption.id} is stale: it expired before it was applied; start a new adoption`, { code: 'stale' });
      default:
        return new AppError('conflict', `Adoption ${adoption.id} is ${status}: only a ready adoption can be applied or discarded`, { code: 'not_ready' });
    }
  }

  private assertReady(adoption: Adoption): void {
    if (adoption.status !== 'ready') throw this.refusal(adoption, adoption.status);
  }

  private async update<R>(adoption: Adoption, update: typeof applyAdoptionUpdate | typeof discardAdoptionUpdate): Promise<R> {
    try {
      return (await this.deps.temporal.client.workflow.getHandle<typeof adoptionWorkflow>(adoption.workflowId).executeUpdate(update)) as R;
    } catch (error) {
      if (error instanceof WorkflowUpdateFailedError) {
        const refusal = error.cause instanceof ApplicationFailure ? error.cause : null;
        throw this.refusal(adoption, refusal?.type === ADOPTION_REFUSALS.expired ? 'expired' : String(refusal?.details?.[0] ?? 'not ready'));
      }
      const current = await this.load(adoption.id);
      if (current.status !== 'ready') throw this.refusal(adoption, current.status);
      throw translateTemporalError(error);
    }
  }

  private async load(id: number): Promise<Adoption> {
    const adoption = await this.deps.orm.em.fork().findOne(Adoption, { id }, { exclude: ['ops'] });
    if (!adoption) throw notFound(`Adoption ${id} not found`);
    return adoption as Adoption;
  }
}

