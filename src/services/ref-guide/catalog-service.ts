import type { EntityManager, FilterQuery } from '@mikro-orm/core';
import type { RefEntityType, RefGuideArrType, RefGuideType } from '../../domain/ref-guide';
import { AppError, notFound } from '../../errors';
import { RefGuideEntity, RefGuideSource } from '../../persistence/entities';
import { containsText } from '../../persistence/orm';

export interface RefGuideEntityView {
  source: { type: RefGuideType; id: number; name: string; arrType: RefGuideArrType };
  refId: string;
  type: RefEntityType;
  name: string;
  filePath: string;
  fetchedAt: string;
  entity: Record<string, unknown>;
  scores?: Record<string, number>;
  group?: number;
}

export type RefGuideEntitySummary = Omit<RefGuideEntityView, 'entity' | 'source'>;

/** The cache has not been filled by a good sync yet: a 409, distinct from a missing source or entity. */
export function cacheNotReady(source: RefGuideSource): AppError {
  const why = source.syncStatus === 'failed' ? 'its syncs have failed so far' : source.syncStatus === 'syncing' ? 'its first sync is running' : 'it has not been synced yet';
  return new AppError('conflict', `Reference-guide source ${source.id} has no cache: ${why}`, { code: 'cache_not_ready' });
}

/** Reads of the cached catalog of a source. fetchedAt is the time of the last good sync (the entity's content is as of that fetch). */
export class RefGuideCatalog {
  constructor(private readonly em: EntityManager) {}

  private async readySource(sourceId: number): Promise<RefGuideSource> {
    const source = await this.em.findOne(RefGuideSource, { id: sourceId });
    if (!source) throw notFound(`Reference-guide source ${sourceId} not found`);
    if (!source.lastSyncedAt) throw cacheNotReady(source);
    return source;
  }

  private view(source: RefGuideSource, row: RefGuideEntity): RefGuideEntityView {
    return {
      source: { type: source.type, id: source.id, name: source.name, arrType: source.arrType as RefGuideArrType },
      refId: row.refId,
      type: row.type as RefEntityType,
      name: row.name,
      filePath: row.filePath,
      fetchedAt: source.lastSyncedAt!.toISOString(),
      entity: row.entity,
      ...(row.scores ? { scores: row.scores } : {}),
      ...(row.groupNumber !== null ? { group: row.groupNumber } : {}),
    };
  }

  async get(sourceId: number, type: RefEntityType, refId: string): Promise<RefGuideEntityView> {
    const source = await this.readySource(sourceId);
    const row = await this.em.findOne(RefGuideEntity, { sourceId, type, refId });
    if (!row) throw notFound(`No ${type} with refId ${refId} in reference-guide source ${sourceId}`);
    return this.view(source, row);
  }

  /** Entities of a source, by name then refId; `q` matches names case-insensitively. */
  async list(sourceId: number, filter: { type?: RefEntityType; q?: string }, page: number, pageSize: number) {
    const source = await this.readySource(sourceId);
    const where: FilterQuery<RefGuideEntity> = { sourceId };
    if (filter.type) where.type = filter.type;
    if (filter.q) Object.assign(where, containsText(this.em, 'name', filter.q));
    const [rows, total] = await this.em.findAndCount(RefGuideEntity, where, {
      orderBy: { type: 'asc', name: 'asc', refId: 'asc' },
      limit: pageSize,
      offset: (page - 1) * pageSize,
    });
    return {
      source: { type: source.type, id: source.id, name: source.name, arrType: source.arrType as RefGuideArrType },
      total,
      items: rows.map((row): RefGuideEntitySummary => {
        const { entity: _entity, source: _source, ...summary } = this.view(source, row);
        return summary;
      }),
    };
  }

  /** The first cached row with this refId among `types` (in that order), with its source; 404 when none has it. */
  async row<T extends RefEntityType>(sourceId: number, types: readonly T[], refId: string): Promise<{ source: RefGuideSource; row: RefGuideEntity; type: T }> {
    const source = await this.readySource(sourceId);
    for (const type of types) {
      const row = await this.em.findOne(RefGuideEntity, { sourceId, type, refId });
      if (row) return { source, row, type };
    }
    throw notFound(`No ${types.join(' or ')} with refId ${refId} in reference-guide source ${sourceId}`);
  }
}
