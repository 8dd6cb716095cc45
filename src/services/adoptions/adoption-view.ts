import type { PortableType } from '../../domain/pcd';
import type { AdoptionPlan } from '../../domain/sync/adopt';
import type { Adoption } from '../../persistence/entities';

/** A planned op as the adoption row keeps it. */
export interface StoredAdoptionOp {
  kind: 'create' | 'update';
  sql: string;
  target: { portableType: PortableType; name: string };
  summary: string;
}

/** The label every op of an adoption starts with (how a resumed apply finds the ops it stored). */
export function adoptionOpLabel(adoptionId: number): string {
  return `adoption #${adoptionId}:`;
}

/** The stored preview of a plan (the ops are kept beside it). */
export function adoptionPreviewBody(plan: AdoptionPlan): Record<string, unknown> {
  return {
    counts: { create: plan.creates.length, override: plan.overrides.length, skipped: plan.skipped.length, unchanged: plan.unchanged.length },
    creates: plan.creates,
    overrides: plan.overrides,
    skipped: plan.skipped,
    unchanged: plan.unchanged,
    selection: plan.selection,
  };
}

const EMPTY = { counts: { create: 0, override: 0, skipped: 0, unchanged: 0 }, creates: [], overrides: [], skipped: [], unchanged: [], selection: null };

export function toAdoptionView(adoption: Omit<Adoption, 'ops'>) {
  const preview = { ...EMPTY, ...(adoption.preview ?? {}) } as typeof EMPTY & Record<string, unknown>;
  return {
    id: adoption.id,
    instanceId: adoption.instanceId,
    instanceName: adoption.instanceName,
    arrType: adoption.arrType,
    databaseId: adoption.databaseId,
    sections: adoption.sections,
    select: adoption.selectAdopted,
    status: adoption.status,
    counts: preview.counts,
    creates: preview.creates,
    overrides: preview.overrides,
    skipped: preview.skipped,
    unchanged: preview.unchanged,
    selection: preview.selection,
    appliedOpIds: adoption.appliedOpIds ?? [],
    snapshotId: adoption.snapshotId,
    failure: adoption.failure,
    createdAt: adoption.createdAt.toISOString(),
    expiresAt: adoption.expiresAt?.toISOString() ?? null,
    appliedAt: adoption.appliedAt?.toISOString() ?? null,
  };
}

export type AdoptionView = ReturnType<typeof toAdoptionView>;
