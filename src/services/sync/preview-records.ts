import type { EntityManager } from '@mikro-orm/core';
import { appSections, selectedSections, SYNC_SECTIONS, type SyncSection } from '../../domain/sync';
import { AppError, notFound, validationError } from '../../errors';
import { Instance, PcdDatabase, SyncPreview, SERVABLE_CACHE_STATUSES } from '../../persistence/entities';
import type { PcdCacheManager } from '../pcd/cache-manager';
import { SyncConfigService } from './sync-config-service';

export interface PreviewRequest {
  instanceId: number;
  sections?: string[];
  trigger: 'manual' | 'canary' | 'schedule';
  autoApply: boolean;
}

/**
 * Checks that an instance can be previewed (enabled, configured, its database ready) and records a
 * preview in status generating. The caller starts the workflow and stores its id.
 */
export async function createPreviewRecord(em: EntityManager, caches: PcdCacheManager, request: PreviewRequest, field = 'body.instanceId'): Promise<SyncPreview> {
  const instance = await em.findOne(Instance, { id: request.instanceId });
  if (!instance) throw notFound(`Instance ${request.instanceId} not found`);
  if (!instance.enabled) throw validationError(`Invalid request: ${field} instance ${instance.id} is disabled`);
  const config = await new SyncConfigService(em, caches).find(instance.id);
  if (!config) throw validationError(`Invalid request: ${field} instance ${instance.id} has no sync configuration (PUT /api/v1/instances/${instance.id}/sync-config)`);
  const database = await em.findOne(PcdDatabase, { id: config.databaseId });
  if (!database || !SERVABLE_CACHE_STATUSES.includes(database.cacheStatus) || !database.enabled) {
    throw new AppError('not_ready', `Database ${config.databaseId} is not ready: pull it and wait for its cache`);
  }
  let sections: SyncSection[];
  if (request.sections && request.sections.length) {
    const available = appSections(instance.arrType);
    request.sections.forEach((s, i) => {
      if (!(SYNC_SECTIONS as readonly string[]).includes(s)) throw validationError(`Invalid request: body.sections.${i} must be one of ${SYNC_SECTIONS.join(', ')}`);
      if (!available.includes(s as SyncSection)) throw validationError(`Invalid request: body.sections.${i} ${s} is not a section of ${instance.arrType}`);
    });
    sections = [...new Set(request.sections as SyncSection[])];
  } else {
    sections = selectedSections(instance.arrType, config.selection);
    if (!sections.length) throw validationError(`Invalid request: ${field} the sync configuration of instance ${instance.id} selects nothing to sync`);
  }
  const preview = newPreviewRecord(em, {
    instanceId: instance.id,
    instanceName: instance.name,
    arrType: instance.arrType,
    sections,
    trigger: request.trigger,
    autoApply: request.autoApply,
    workflowId: 'pending',
  });
  await em.flush();
  return preview;
}

/** A preview row in status generating (not flushed). */
export function newPreviewRecord(
  em: EntityManager,
  fields: Pick<SyncPreview, 'instanceId' | 'instanceName' | 'arrType' | 'sections' | 'trigger' | 'autoApply' | 'workflowId'>,
): SyncPreview {
  return em.create(SyncPreview, {
    ...fields,
    status: 'generating',
    generatedAt: null,
    expiresAt: null,
    preview: null,
    plan: null,
    liveFingerprint: null,
    failure: null,
    runId: null,
    createdAt: new Date(),
    updatedAt: new Date(),
  });
}
