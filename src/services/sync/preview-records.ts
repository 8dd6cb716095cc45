import type { EntityManager } from '@mikro-orm/core';
import { appSections, selectedSections, SYNC_SECTIONS, type SyncSection } from '../../domain/sync';
import { AppError, notFound, validationError } from '../../errors';
import { SyncPreview } from '../../persistence/entities';
import { readPreviewTarget, storePreviewWorkflowId, unreadyDatabase } from './preview-target';

export interface PreviewRequest {
  instanceId: number;
  sections?: string[];
  trigger: 'manual' | 'canary' | 'schedule';
  autoApply: boolean;
}

/**
 * Checks that an instance can be previewed (enabled, configured, its database ready) and records a
 * preview in status generating, with the workflow id that `workflowIdOf(previewId)` gives it.
 * Native statements (one read, an insert and the workflow id): the caller gets the row as stored.
 */
export async function createPreviewRecord(em: EntityManager, request: PreviewRequest, workflowIdOf: (previewId: number) => string, field = 'body.instanceId'): Promise<SyncPreview> {
  const target = await readPreviewTarget(em, request.instanceId);
  const { instance, config } = target;
  if (!instance) throw notFound(`Instance ${request.instanceId} not found`);
  if (!instance.enabled) throw validationError(`Invalid request: ${field} instance ${instance.id} is disabled`);
  if (!config) throw validationError(`Invalid request: ${field} instance ${instance.id} has no sync configuration (PUT /api/v1/instances/${instance.id}/sync-config)`);
  const unready = unreadyDatabase(target, { enabled: true });
  if (unready) throw new AppError('not_ready', `Database ${unready.databaseId} is not ready: pull it and wait for its cache`);
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
  const preview = previewRecord({
    instanceId: instance.id,
    instanceName: instance.name,
    arrType: instance.arrType,
    sections,
    trigger: request.trigger,
    autoApply: request.autoApply,
    workflowId: 'pending',
  });
  // The workflow id contains the row's id, so it is known only after the insert.
  preview.id = (await em.insert(SyncPreview, preview)) as number;
  preview.workflowId = workflowIdOf(preview.id);
  await storePreviewWorkflowId(em, preview.id, preview.workflowId);
  return preview;
}

type PreviewRecordFields = Pick<SyncPreview, 'instanceId' | 'instanceName' | 'arrType' | 'sections' | 'trigger' | 'autoApply' | 'workflowId'>;

/** A preview row in status generating (not flushed). */
export function newPreviewRecord(em: EntityManager, fields: PreviewRecordFields): SyncPreview {
  return em.create(SyncPreview, previewRecord(fields));
}

/** Inserts a preview row in status generating (one statement, no unit of work); returns its id. */
export async function insertPreviewRecord(em: EntityManager, fields: PreviewRecordFields): Promise<number> {
  return (await em.insert(SyncPreview, previewRecord(fields))) as number;
}

function previewRecord(fields: PreviewRecordFields): SyncPreview {
  const now = new Date();
  return Object.assign(new SyncPreview(), {
    ...fields,
    status: 'generating',
    generatedAt: null,
    expiresAt: null,
    preview: null,
    plan: null,
    liveFingerprint: null,
    failure: null,
    runId: null,
    createdAt: now,
    updatedAt: now,
  });
}
