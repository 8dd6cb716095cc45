import { editEffects } from '../drift/drift-after-edit';
import { refGuideSyncOutboxEntry } from '../../domain/outbox';
import { enqueueOutbox, type OutboxKick } from '../outbox/outbox-store';
import type { Config } from '../../config';
import type { SecretBox } from '../../platform/crypto';
import type { RefEntityType } from '../../domain/ref-guide';
import type { TemporalGateway } from '../../platform/temporal-client';
import type { Orm } from '../../persistence/orm';
import type { PcdCacheManager } from '../pcd/cache-manager';
import { UserLayerWriter } from '../pcd/user-ops';
import { RefGuideCatalog } from './catalog-service';
import { refGuideCloneDirectory } from './guide-files';
import { RefGuideImporter, type ImportRequest } from './import-service';
import { refGuideSettingsView, updateRefGuideSettings, type RefGuideSettings } from './settings';
import { RefGuideSourceService, toRefGuideSourceView, type RefGuideSourceInput, type RefGuideSourcePatch } from './source-service';
import { refGuideSyncProgress, runRefGuideSync } from './sync-runner';

export interface RefGuideDeps {
  config: Config;
  orm: Orm;
  temporal: TemporalGateway;
  pcdCaches: PcdCacheManager;
  secretBox: SecretBox;
  outbox?: OutboxKick;
}

/** The reference-guide catalog's use cases, as the API calls them. */
export class RefGuideService {
  private readonly userLayer: UserLayerWriter;

  constructor(private readonly deps: RefGuideDeps) {
    this.userLayer = new UserLayerWriter(deps.orm, deps.pcdCaches, editEffects(deps));
  }

  private get sources() {
    return new RefGuideSourceService(this.deps.orm.em, this.deps.secretBox);
  }

  /**
   * Creates the source; its first sync (when enabled) is queued in the outbox with it (one
   * transaction) and started by the relay at once, or once Temporal answers.
   */
  async create(input: RefGuideSourceInput) {
    const source = await this.sources.create(input, async (tx, created) => {
      if (created.enabled) await enqueueOutbox(tx, [refGuideSyncOutboxEntry(created.id)]);
    });
    if (source.enabled) this.deps.outbox?.kick();
    return toRefGuideSourceView(source);
  }

  async list() {
    return (await this.sources.list()).map(toRefGuideSourceView);
  }

  async get(id: number) {
    const source = await this.sources.load(id);
    const progress = source.syncStatus === 'syncing' ? await refGuideSyncProgress(this.deps.temporal, id) : null;
    return { ...toRefGuideSourceView(source), progress };
  }

  async update(id: number, patch: RefGuideSourcePatch) {
    return toRefGuideSourceView(await this.sources.update(id, patch));
  }

  async delete(id: number) {
    const source = await this.sources.load(id);
    await this.sources.delete(id, source.originKind === 'git' ? refGuideCloneDirectory(this.deps.config.dataDir, id) : null);
  }

  /** Starts (or joins) the source's sync; waits at most `waitMs` for the run's result, and answers with it and the source after it. */
  async sync(id: number, waitMs: number) {
    const source = await this.sources.load(id);
    const started = await runRefGuideSync(this.deps.temporal, source, 'manual', waitMs);
    this.deps.orm.em.clear();
    const view = toRefGuideSourceView(await this.sources.load(id));
    const result = started.result;
    return {
      finished: result !== null,
      body: {
        workflowId: started.workflowId,
        status: result ? result.status : ('started' as const),
        ...(result?.status === 'failed' ? { reason: result.reason } : {}),
        ...(result?.status === 'ready'
          ? { changes: { inserted: result.inserted, updated: result.updated, removed: result.removed, unchanged: result.unchanged }, duplicates: result.duplicates }
          : {}),
        source: view,
      },
    };
  }

  entity(id: number, type: RefEntityType, refId: string) {
    return new RefGuideCatalog(this.deps.orm.em).get(id, type, refId);
  }

  entities(id: number, filter: { type?: RefEntityType; q?: string }, page: number, pageSize: number) {
    return new RefGuideCatalog(this.deps.orm.em).list(id, filter, page, pageSize);
  }

  import(id: number, refId: string, request: ImportRequest) {
    return new RefGuideImporter(this.deps.orm.em, this.deps.pcdCaches, this.userLayer).import(id, refId, request);
  }

  settings() {
    return refGuideSettingsView(this.deps.orm.em, this.deps.temporal);
  }

  updateSettings(settings: RefGuideSettings) {
    return updateRefGuideSettings(this.deps.orm.em, this.deps.temporal, settings);
  }
}
