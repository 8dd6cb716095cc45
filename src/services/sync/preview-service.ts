import type { FilterQuery } from '@mikro-orm/core';
import type { PreviewStatus } from '../../domain/sync';
import { notFound } from '../../errors';
import { SyncPreview } from '../../persistence/entities';
import { toPreviewView } from './preview-view';
import type { WaitedAnswer } from '../workflow-runner';
import { requestApply, startSync, waitForPreviewGenerated, waitForSync, type SyncRunnerDeps } from './sync-runner';

export type PreviewView = ReturnType<typeof toPreviewView>;

/** The use cases behind /sync/previews and /instances/{id}/sync; answers are preview views. */
export class SyncPreviewService {
  constructor(private readonly deps: SyncRunnerDeps) {}

  /** Records a preview and starts generating it (apply it later); waits at most `waitMs` for the preview to be generated. */
  async create(request: { instanceId: number; sections?: string[]; ttlSeconds?: number }, waitMs = 0): Promise<WaitedAnswer<PreviewView>> {
    const preview = await startSync(this.deps, { instanceId: request.instanceId, sections: request.sections, trigger: 'manual', autoApply: false, ttlSeconds: request.ttlSeconds });
    // Not waited for: the row as recorded, status generating (the workflow may have moved on; GET tells).
    if (waitMs <= 0) return { finished: false, body: toPreviewView(preview) };
    const generated = await waitForPreviewGenerated(this.deps, preview.workflowId, waitMs);
    return { finished: generated.finished, body: toPreviewView(await this.load(preview.id)) };
  }

  /** Preview then apply in one workflow; waits at most `waitMs` for it. */
  async syncInstance(instanceId: number, sections: string[] | undefined, waitMs = 0): Promise<WaitedAnswer<PreviewView>> {
    const preview = await startSync(this.deps, { instanceId, sections, trigger: 'manual', autoApply: true });
    return this.finish(preview, waitMs);
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

  /** Sends the apply update (409 stale / not ready); waits at most `waitMs` for the apply. */
  async apply(id: number, waitMs = 0): Promise<WaitedAnswer<PreviewView>> {
    const preview = await this.load(id);
    await requestApply(this.deps, preview);
    return this.finish(preview, waitMs);
  }

  private async finish(preview: Omit<SyncPreview, 'plan'>, waitMs: number): Promise<WaitedAnswer<PreviewView>> {
    const { finished } = await waitForSync(this.deps, preview.workflowId, waitMs);
    return { finished, body: toPreviewView(await this.load(preview.id)) };
  }

  /** The preview as stored now (the workflow writes it), without its write plan, which no view shows. */
  private async load(id: number): Promise<Omit<SyncPreview, 'plan'>> {
    this.deps.orm.em.clear();
    const preview = await this.deps.orm.em.findOne(SyncPreview, { id }, { exclude: ['plan'] });
    if (!preview) throw notFound(`Preview ${id} not found`);
    return preview;
  }
}
