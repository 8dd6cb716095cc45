import type { EntityManager } from '@mikro-orm/core';
import { entityExists, planImport, readEntity, type PortableType } from '../../domain/pcd';
import { guideFormatToPcd, guideProfileToPcd, scoreInSet, type PatternNeed, type RefGuideArrType } from '../../domain/ref-guide';
import { isAppError, validationError } from '../../errors';
import { RefGuideEntity, type RefGuideSource } from '../../persistence/entities';
import type { PcdCache, PcdCacheManager } from '../pcd/cache-manager';
import type { UserLayerWriter } from '../pcd/user-ops';
import { RefGuideCatalog } from './catalog-service';

export const IMPORTABLE_TYPES = ['custom_format', 'quality_profile'] as const;
export type ImportableType = (typeof IMPORTABLE_TYPES)[number];

export interface ImportRequest {
  databaseId: number;
  type?: ImportableType;
  scoreSet?: string;
}

export interface ImportOutcome {
  databaseId: number;
  source: { id: number; name: string; arrType: RefGuideArrType };
  refId: string;
  type: ImportableType;
  scoreSet: string | null;
  /** User ops written, in order; each can be reverted with DELETE /pcd/{databaseId}/user-ops/{opId}. */
  created: { entityType: PortableType; name: string; opId: number }[];
  /** What was left alone, and why (existing names are never overwritten). */
  skipped: { entityType: PortableType; name: string; reason: string }[];
}

/**
 * Imports guide entities into a PCD database's user layer through the import planner (the same
 * path as POST /pcd/import): a custom format with the regular expressions it needs, or a quality
 * profile with its custom formats and their scores from a score set. Existing names are reported,
 * never overwritten; if a later step fails, the ops this import wrote are reverted.
 */
export class RefGuideImporter {
  constructor(
    private readonly em: EntityManager,
    private readonly caches: PcdCacheManager,
    private readonly userLayer: UserLayerWriter,
  ) {}

  async import(sourceId: number, refId: string, request: ImportRequest): Promise<ImportOutcome> {
    const catalog = new RefGuideCatalog(this.em);
    const found = await this.locate(catalog, sourceId, refId, request.type);
    const { source, row } = found;
    const arrType = source.arrType as RefGuideArrType;
    await this.caches.get(request.databaseId); // 404 / 503 before anything is planned
    const outcome: ImportOutcome = {
      databaseId: request.databaseId,
      source: { id: source.id, name: source.name, arrType },
      refId,
      type: found.type,
      scoreSet: null,
      created: [],
      skipped: [],
    };
    try {
      if (found.type === 'custom_format') {
        if (request.scoreSet !== undefined) throw validationError('Invalid request: body.scoreSet applies to quality profiles only');
        await this.importFormat(request.databaseId, arrType, row.entity, outcome);
      } else {
        await this.importProfile(request.databaseId, source, row, request.scoreSet, outcome);
      }
    } catch (error) {
      for (const op of [...outcome.created].reverse()) await this.userLayer.revert(request.databaseId, op.opId).catch(() => undefined);
      throw error;
    }
    return outcome;
  }

  private async locate(catalog: RefGuideCatalog, sourceId: number, refId: string, type: ImportableType | undefined) {
    if (type) return { type, ...(await catalog.row(sourceId, type, refId)) };
    try {
      return { type: 'custom_format' as const, ...(await catalog.row(sourceId, 'custom_format', refId)) };
    } catch (error) {
      if (!isAppError(error) || error.kind !== 'not_found' || error.publicMessage.startsWith('Reference-guide source')) throw error;
    }
    return { type: 'quality_profile' as const, ...(await catalog.row(sourceId, 'quality_profile', refId)) };
  }

  private async write(databaseId: number, entityType: PortableType, data: Record<string, unknown>, outcome: ImportOutcome): Promise<void> {
    const opId = await this.userLayer.store(databaseId, 'create', (cache) => planImport(cache.resolved, { entityType, data }));
    if (opId !== null) outcome.created.push({ entityType, name: String(data.name), opId });
  }

  /** Imports one guide format unless its name exists; returns the name the database now has it under, or null when it could not. */
  private async importFormat(databaseId: number, arrType: RefGuideArrType, guide: Record<string, unknown>, outcome: ImportOutcome): Promise<string | null> {
    const cache = await this.caches.get(databaseId);
    const name = typeof guide.name === 'string' ? guide.name.trim() : '';
    if (name && entityExists(cache.resolved, 'custom_format', name)) {
      outcome.skipped.push({ entityType: 'custom_format', name, reason: 'a custom format with this name exists; it is kept as it is' });
      return name;
    }
    const reused: string[] = [];
    const planned = new Map<string, string>();
    const converted = guideFormatToPcd(guide, arrType, (need) => regexNameFor(cache, need, name, reused, planned));
    if (!converted.ok) {
      outcome.skipped.push({ entityType: 'custom_format', name: name || '(unnamed)', reason: converted.reason });
      return null;
    }
    for (const regex of reused) {
      if (!outcome.skipped.some((s) => s.entityType === 'regular_expression' && s.name === regex)) {
        outcome.skipped.push({ entityType: 'regular_expression', name: regex, reason: 'a regular expression with this name and the same pattern exists; the format uses it' });
      }
    }
    for (const pattern of converted.patterns) {
      if (reused.includes(pattern.name) || outcome.created.some((c) => c.entityType === 'regular_expression' && c.name === pattern.name)) continue;
      await this.write(databaseId, 'regular_expression', { name: pattern.name, pattern: pattern.pattern, regex101Id: null, description: null, tags: [] }, outcome);
    }
    await this.write(databaseId, 'custom_format', converted.format as unknown as Record<string, unknown>, outcome);
    return converted.format.name;
  }

  private async importProfile(databaseId: number, source: RefGuideSource, row: RefGuideEntity, requestedSet: string | undefined, outcome: ImportOutcome): Promise<void> {
    const arrType = source.arrType as RefGuideArrType;
    const guide = row.entity;
    const name = typeof guide.name === 'string' ? guide.name.trim() : '';
    const scoreSet = requestedSet ?? (typeof guide.trash_score_set === 'string' ? guide.trash_score_set : 'default');
    outcome.scoreSet = scoreSet;
    const formatItems = Object.entries(guide.formatItems && typeof guide.formatItems === 'object' ? (guide.formatItems as Record<string, unknown>) : {});
    const formats = await this.em.find(RefGuideEntity, { sourceId: source.id, type: 'custom_format', refId: { $in: formatItems.map(([, id]) => String(id)) } });
    const byRefId = new Map(formats.map((f) => [f.refId, f]));
    const knownSets = new Set(['default', ...formats.flatMap((f) => Object.keys(f.scores ?? {}))]);
    if (!knownSets.has(scoreSet)) {
      throw validationError(`Invalid request: body.scoreSet "${scoreSet}" is not a score set of this profile's custom formats (known: ${[...knownSets].sort().join(', ')})`);
    }
    if (name && entityExists((await this.caches.get(databaseId)).resolved, 'quality_profile', name)) {
      outcome.skipped.push({ entityType: 'quality_profile', name, reason: 'a quality profile with this name exists; it is kept as it is' });
      return;
    }
    const scores: Record<string, number> = {};
    for (const [formatName, refId] of formatItems) {
      const format = byRefId.get(String(refId));
      if (!format) {
        outcome.skipped.push({ entityType: 'custom_format', name: formatName, reason: 'the guide has no custom format with this trash_id; the profile does not score it' });
        continue;
      }
      const stored = await this.importFormat(databaseId, arrType, format.entity, outcome);
      if (stored !== null) scores[stored] = scoreInSet(format.scores, scoreSet);
    }
    const converted = guideProfileToPcd(guide, arrType, scores);
    if (!converted.ok) throw validationError(`Invalid request: the guide profile cannot be imported: ${converted.reason}`);
    await this.write(databaseId, 'quality_profile', converted.profile as unknown as Record<string, unknown>, outcome);
  }
}

/**
 * The regular expression name for a guide pattern: the specification's name when the database
 * lacks it or has it with the same pattern (reused), else "<spec name> (<format name>)" on the same
 * terms; null when both names hold other patterns.
 */
function regexNameFor(cache: PcdCache, need: PatternNeed, formatName: string, reused: string[], planned: Map<string, string>): string | null {
  for (const candidate of [need.specName, `${need.specName} (${formatName})`]) {
    const plannedPattern = planned.get(candidate);
    if (plannedPattern !== undefined) {
      if (plannedPattern === need.pattern) return candidate;
      continue;
    }
    const existing = readEntity(cache.resolved, 'regular_expression', candidate);
    if (!existing) {
      planned.set(candidate, need.pattern);
      return candidate;
    }
    if (existing.data.pattern === need.pattern) {
      if (!reused.includes(candidate)) reused.push(candidate);
      planned.set(candidate, need.pattern);
      return candidate;
    }
  }
  return null;
}
