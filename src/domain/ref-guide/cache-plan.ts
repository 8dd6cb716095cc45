/**
 * How a sync turns the cached rows of a source into the freshly parsed entities: rows whose
 * content hash is unchanged are left alone, changed ones are rewritten, new ones inserted and
 * vanished ones removed.
 */
import type { GuideEntity, RefEntityType } from './types';

export interface CachedRow {
  id: number;
  type: string;
  refId: string;
  contentHash: string;
}

export interface CachePlan {
  insert: GuideEntity[];
  update: { id: number; entity: GuideEntity }[];
  remove: number[];
  unchanged: number;
}

const key = (type: RefEntityType | string, refId: string) => `${type}\u0000${refId}`;

export function planCacheReplacement(cached: CachedRow[], incoming: GuideEntity[]): CachePlan {
  const rows = new Map(cached.map((r) => [key(r.type, r.refId), r]));
  const plan: CachePlan = { insert: [], update: [], remove: [], unchanged: 0 };
  const kept = new Set<string>();
  for (const entity of incoming) {
    const k = key(entity.type, entity.refId);
    kept.add(k);
    const row = rows.get(k);
    if (!row) plan.insert.push(entity);
    else if (row.contentHash !== entity.hash) plan.update.push({ id: row.id, entity });
    else plan.unchanged++;
  }
  for (const [k, row] of rows) if (!kept.has(k)) plan.remove.push(row.id);
  return plan;
}
