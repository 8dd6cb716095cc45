import type { EntityManager } from '@mikro-orm/core';
import type { ArrType } from '../../domain/arr-types';
import type { HealthInput } from '../../domain/health';
import { alignWithGuide } from '../../domain/ref-guide';
import type { SyncSource } from '../../domain/sync';
import { RefGuideEntity, RefGuideSource } from '../../persistence/entities';

/**
 * The reference source of a database for an app family: the lowest-id enabled source of that
 * family linked to the database (databaseIds) whose cache has been filled by a good sync.
 */
export async function linkedReferenceSource(em: EntityManager, databaseId: number, arrType: ArrType): Promise<RefGuideSource | null> {
  const sources = await em.find(RefGuideSource, { enabled: true, arrType, lastSyncedAt: { $ne: null } }, { orderBy: { id: 'asc' } });
  return sources.find((s) => (s.databaseIds ?? []).includes(databaseId)) ?? null;
}

/** Health's reference evidence for an instance fed by `databaseId`, or null when no source is linked. */
export async function referenceAlignment(em: EntityManager, databaseId: number, source: SyncSource): Promise<HealthInput['reference']> {
  const reference = await linkedReferenceSource(em, databaseId, source.arrType);
  if (!reference) return null;
  const formatNames = source.customFormats.map((f) => f.name);
  const profileNames = source.qualityProfiles.map((p) => p.name);
  const [formats, profiles] = await Promise.all([
    formatNames.length ? em.find(RefGuideEntity, { sourceId: reference.id, type: 'custom_format', name: { $in: formatNames } }) : Promise.resolve([]),
    profileNames.length ? em.find(RefGuideEntity, { sourceId: reference.id, type: 'quality_profile', name: { $in: profileNames } }) : Promise.resolve([]),
  ]);
  const alignment = alignWithGuide({
    arrType: source.arrType,
    formats: source.customFormats,
    patterns: source.regularExpressions,
    profiles: source.qualityProfiles,
    guideFormats: formats.map((f) => ({ refId: f.refId, name: f.name, entity: f.entity })),
    guideProfiles: profiles.map((p) => ({
      refId: p.refId,
      name: p.name,
      scoreSet: typeof p.entity.trash_score_set === 'string' ? p.entity.trash_score_set : 'default',
      scores: p.scores ?? {},
    })),
  });
  return {
    matched: alignment.matched,
    total: alignment.total,
    source: reference.name,
    differences: alignment.differences,
    perProfile: Object.fromEntries(Object.entries(alignment.perProfile).map(([name, counts]) => [name, { ...counts, source: reference.name }])),
  };
}
