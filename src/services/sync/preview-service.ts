import type { FilterQuery } from '@mikro-orm/core';
import type { PreviewStatus } from '../../domain/sync';
import { notFound } from '../../errors';
import { SyncPreview } from '../../persistence/entities';
import { toPreviewView } from './preview-view';
import { requestApply, startSync, waitForSync, type SyncRunnerDeps } from './sync-runner';

export type PreviewView = ReturnType<typeof toPreviewView>;

/** The use cases behind /sync/previews and /instances/{id}/sync; answers are preview views. */
export class SyncPreviewService {
  constructor(private readonly deps: SyncRunnerDeps) {}

  /** Records a preview and starts generating it; apply it later. */
  async create(request: { instanceId: number; sections?: string[]; ttlSeconds?: number }): Promise<PreviewView> {
    // The row as recorded: status generating (the workflow may have moved on; GET tells).
    return toPreviewView(await startSync(this.deps, { instanceId: request.instanceId, sections: request.sections, trigger: 'manual', autoApply: false, ttlSeconds: request.ttlSeconds }));
  }

  /** Preview then apply in one workflow; waits for it when asked. */
  async syncInstance(instanceId: number, sections: string[] | undefined, wait: boolean | undefined): Promise<PreviewView> {
    const preview = await startSync(this.deps, { instanceId, sections, trigger: 'manual', autoApply: true });
    return this.finish(preview, wait);
  }

  async list(filter: { instanceId?: number; status?: PreviewStatus; page: number; pageSize: number }): Promise<{ items: PreviewView[]; total: number }> {
    const where: FilterQuery<SyncPreview> = {};
    if (filter.instanceId) where.instanceId = filter.instanceId;
    if (filter.status) where.status = filter.status;
    const [rows, total] = await this.deps.orm.em.findAndCount(SyncPreview, where, {
      orderBy: { id: 'desc' },
      limit: filter.pageSize,
      offset: (filter.page - 1) * filter.pageSize,
      exclude: ['plan'],
    });
    return { items: rows.map(toPreviewView), total };
  }

  async get(id: number): Promise<PreviewView> {
    return toPreviewView(await this.load(id));
  }

  /** Sends the apply update (409 stale / not ready); waits for the apply when asked. */
  async apply(id: number, wait: boolean | undefined): Promise<PreviewView> {
    const preview = await this.load(id);
    await requestApply(this.deps, preview);
    return this.finish(preview, wait);
  }

  private async finish(preview: Omit<SyncPreview, 'plan'>, wait: boolean | undefined): Promise<PreviewView> {
    if (wait) await waitForSync(this.deps, preview.workflowId);
    return toPreviewView(await this.load(preview.id));
  }

  /** The preview as stored now (the workflow writes it), without its write plan, which no view shows. */
  private async load(id: number): Promise<Omit<SyncPreview, 'plan'>> {
    this.deps.orm.em.clear();
    const preview = await this.deps.orm.em.findOne(SyncPreview, { id }, { exclude: ['plan'] });
    if (!preview) throw notFound(`Preview ${id} not found`);
    return preview;
  }
}
