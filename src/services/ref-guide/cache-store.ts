import type { EntityManager } from '@mikro-orm/core';
import { countByType, planCacheReplacement, type GuideEntity } from '../../domain/ref-guide';
import { RefGuideEntity, RefGuideSource } from '../../persistence/entities';
import type { RefGuideCacheSummary } from '../../workflows/contracts/ref-guide';

const WRITE_BATCH = 100;

function fill(row: RefGuideEntity, entity: GuideEntity, now: Date): void {
  row.name = entity.name;
  row.filePath = entity.filePath;
  row.contentHash = entity.hash;
  row.entity = entity.entity;
  row.scores = entity.scores;
  row.groupNumber = entity.group;
  row.writtenAt = now;
}

/**
 * Replaces the cached entities of a source with a parsed guide in one transaction, together with
 * the source's last-sync record: readers see the previous sync or this one, never a mix. Rows
 * whose content hash is unchanged are not written.
 */
export async function replaceGuideCache(
  em: EntityManager,
  sourceId: number,
  parsed: { entities: GuideEntity[]; duplicates: string[] },
  commit: string | null,
  onProgress: (done: number, total: number) => void,
): Promise<RefGuideCacheSummary | null> {
  return em.transactional(async (tx) => {
    const source = await tx.findOne(RefGuideSource, { id: sourceId });
    if (!source) return null;
    const cached = await tx.find(RefGuideEntity, { sourceId }, { fields: ['id', 'type', 'refId', 'contentHash'], disableIdentityMap: true });
    const plan = planCacheReplacement(cached, parsed.entities);
    const now = new Date();
    const total = plan.insert.length + plan.update.length + plan.remove.length;
    let done = 0;
    if (plan.remove.length) await tx.nativeDelete(RefGuideEntity, { id: { $in: plan.remove } });
    done += plan.remove.length;
    for (let i = 0; i < plan.update.length; i += WRITE_BATCH) {
      const batch = plan.update.slice(i, i + WRITE_BATCH);
      const rows = new Map((await tx.find(RefGuideEntity, { id: { $in: batch.map((u) => u.id) } })).map((r) => [r.id, r]));
      for (const { id, entity } of batch) {
        const row = rows.get(id)!;
        fill(row, entity, now);
        row.version += 1;
      }
      await tx.flush();
      done += batch.length;
      onProgress(done, total);
    }
    for (let i = 0; i < plan.insert.length; i += WRITE_BATCH) {
      for (const entity of plan.insert.slice(i, i + WRITE_BATCH)) {
        const row = tx.create(RefGuideEntity, { sourceId, type: entity.type, refId: entity.refId, version: 1 } as RefGuideEntity);
        fill(row, entity, now);
      }
      await tx.flush();
      done += Math.min(WRITE_BATCH, plan.insert.length - i);
      onProgress(done, total);
    }
    const counts = countByType(parsed.entities);
    source.lastCommit = commit;
    source.lastSyncedAt = now;
    source.syncStatus = 'ready';
    source.syncReason = null;
    source.entityCounts = counts;
    await tx.flush();
    onProgress(total, total);
    return { commit, counts, inserted: plan.insert.length, updated: plan.update.length, removed: plan.remove.length, unchanged: plan.unchanged, duplicates: parsed.duplicates };
  });
}
