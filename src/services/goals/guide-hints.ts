/**
 * Reference-guide hints for the goal categorizer: the custom-format groups of the enabled,
 * synced reference-guide sources of the app family that name the database as theirs.
 */
import { guideHintsFromGroups, type GuideCfGroup } from '../../domain/goals';
import { RefGuideEntity, RefGuideSource } from '../../persistence/entities';
import type { Orm } from '../../persistence/orm';
import type { GuideHintsProvider } from './goal-preview';

export function refGuideHints(orm: Orm): GuideHintsProvider {
  return async (databaseId, arrType) => {
    const em = orm.em.fork();
    const sources = (await em.find(RefGuideSource, { arrType, enabled: true }, { orderBy: { id: 'asc' } })).filter(
      (s) => s.lastSyncedAt !== null && (s.databaseIds ?? []).includes(databaseId),
    );
    if (sources.length === 0) return null;
    const groups = await em.find(RefGuideEntity, { sourceId: { $in: sources.map((s) => s.id) }, type: 'custom_format_group' }, { orderBy: { sourceId: 'asc', refId: 'asc' } });
    return {
      key: sources.map((s) => `${s.id}@${s.lastCommit ?? ''}@${s.lastSyncedAt!.toISOString()}`).join(','),
      hints: guideHintsFromGroups(groups.map((g) => g.entity as unknown as GuideCfGroup)),
    };
  };
}
