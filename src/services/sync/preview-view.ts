import type { SyncPreview } from '../../persistence/entities';

/** The API's view of a preview: the spec's per-instance preview shape plus arrgo's bookkeeping. */
export function toPreviewView(row: Omit<SyncPreview, 'plan'>) {
  const body = (row.preview ?? {}) as Record<string, unknown>;
  return {
    id: row.id,
    instanceId: row.instanceId,
    instanceName: row.instanceName,
    arrType: row.arrType,
    status: row.status,
    trigger: row.trigger,
    generatedAt: row.generatedAt ? row.generatedAt.getTime() : null,
    expiresAt: row.expiresAt ? row.expiresAt.toISOString() : null,
    sections: (body.sections as string[] | undefined) ?? row.sections,
    sectionOutcomes: (body.sectionOutcomes as unknown[] | undefined) ?? [],
    qualityProfiles: body.qualityProfiles ?? null,
    delayProfiles: body.delayProfiles ?? null,
    mediaManagement: body.mediaManagement ?? null,
    metadataProfiles: body.metadataProfiles ?? null,
    counts: (body.counts as Record<string, number> | undefined) ?? { create: 0, update: 0, delete: 0, unchanged: 0 },
    issues: (body.issues as unknown[] | undefined) ?? [],
    // Previews stored before the ledger have none.
    identity: (body.identity as Record<string, number> | undefined) ?? null,
    databases: (body.databases as unknown[] | undefined) ?? [],
    collisions: (body.collisions as unknown[] | undefined) ?? [],
    failure: row.failure,
    runId: row.runId,
    workflowId: row.workflowId,
    createdAt: row.createdAt.toISOString(),
  };
}

export type PreviewView = ReturnType<typeof toPreviewView>;
