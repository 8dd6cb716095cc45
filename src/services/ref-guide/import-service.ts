import type { EntityManager } from '@mikro-orm/core';
import type Database from 'better-sqlite3';
import { copyDatabase, entityExists, planImport, planUpdate, readEntity, type CustomFormatData, type PlannedUserOp, type PortableType } from '../../domain/pcd';
import { unevaluablePatternWarning } from '../../domain/evaluation';
import { guideFormatToPcd, guideProfileToPcd, guideQualitySizeToPcd, mergeFamilyFormat, REF_GUIDE_IMPORTABLE_TYPES, scoreInSet, type ExistingFormatAction, type PatternNeed, type RefGuideArrType, type RefGuideImportableType } from '../../domain/ref-guide';
import { validationError } from '../../errors';
import { RefGuideEntity, type RefGuideSource } from '../../persistence/entities';
import type { PcdCacheManager } from '../pcd/cache-manager';
import type { UserLayerWriter } from '../pcd/user-ops';
import { RefGuideCatalog } from './catalog-service';

export const IMPORTABLE_TYPES = REF_GUIDE_IMPORTABLE_TYPES;
export type ImportableType = RefGuideImportableType;

export interface ImportRequest {
  databaseId: number;
  type?: ImportableType;
  scoreSet?: string;
  /** quality_size only: each preferred size this far (0..1) between its min and max, instead of the guide's. */
  preferredRatio?: number;
  /** keep (the default) or merge (EXISTING_FORMAT_ACTIONS). */
  existingFormats?: ExistingFormatAction;
  /** Plan only: answer what would be created and skipped, store nothing. */
  dryRun?: boolean;
}

export interface ImportOutcome {
  databaseId: number;
  source: { id: number; name: string; arrType: RefGuideArrType };
  refId: string;
  type: ImportableType;
  scoreSet: string | null;
  dryRun: boolean;
  /** User ops written, in order (opId null on a dry run: what would be written); each can be reverted with DELETE /pcd/{databaseId}/user-ops/{opId}. */
  created: { entityType: PortableType; name: string; opId: number | null }[];
  /** Custom formats the database had, merged with the guide's definition for the source's app family (existingFormats merge). */
  updated: { entityType: PortableType; name: string; opId: number | null }[];
  /** What was left alone, and why (existing names are never overwritten). */
  skipped: { entityType: PortableType; name: string; reason: string }[];
  /** Regular expressions created whose pattern custom-format evaluation refuses, the construct named (absent when none). */
  warnings?: string[];
}

/**
 * Imports guide entities into a PCD database's user layer through the import planner (the same
 * path as POST /pcd/import): a custom format with the regular expressions it needs, or a quality
 * profile with its custom formats and their scores from a score set. Existing names are reported,
 * never overwritten. The ops are planned on a scratch copy and stored all or nothing.
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
    const cache = await this.caches.get(request.databaseId);
    const outcome: ImportOutcome = {
      databaseId: request.databaseId,
      source: { id: source.id, name: source.name, arrType },
      refId,
      type: found.type,
      scoreSet: null,
      dryRun: request.dryRun === true,
      created: [],
      updated: [],
      skipped: [],
    };
    // Every op is planned against a scratch copy of the resolved state that the previous ones were
    // applied to; then all are stored and verified with one replay (all or nothing).
    const scratch = copyDatabase(cache.resolved).db;
    const planned: PlannedImportOp[] = [];
    try {
      const plan = new ImportPlan(scratch, planned, outcome, request.existingFormats ?? 'keep');
      if (request.scoreSet !== undefined && found.type !== 'quality_profile') throw validationError('Invalid request: body.scoreSet applies to quality profiles only');
      if (request.preferredRatio !== undefined && found.type !== 'quality_size') throw validationError('Invalid request: body.preferredRatio applies to quality sizes only');
      if (found.type === 'custom_format') {
        plan.format(arrType, row.entity);
      } else if (found.type === 'quality_size') {
        this.planQualitySize(plan, arrType, row, request.preferredRatio);
      } else {
        await this.planProfile(plan, source, row, request.scoreSet);
      }
    } finally {
      scratch.close();
    }
    const ids = outcome.dryRun ? planned.map(() => null) : await this.userLayer.storeAll(request.databaseId, planned.map((p) => ({ op: p.op, kind: p.kind })));
    planned.forEach((p, i) => (p.kind === 'create' ? outcome.created : outcome.updated).push({ entityType: p.entityType, name: p.name, opId: ids[i] }));
    return outcome;
  }

  private locate(catalog: RefGuideCatalog, sourceId: number, refId: string, type: ImportableType | undefined) {
    return catalog.row(sourceId, type ? [type] : IMPORTABLE_TYPES, refId);
  }

  /** A quality size becomes the family's quality definitions, named as the guide names it ("movie", with the ratio when one is given). */
  private planQualitySize(plan: ImportPlan, arrType: RefGuideArrType, row: RefGuideEntity, preferredRatio: number | undefined): void {
    const name = preferredRatio === undefined ? row.name : `${row.name} (preferred ${preferredRatio})`;
    const type: PortableType = `${arrType}_quality_definitions`;
    if (entityExists(plan.db, type, name)) {
      plan.outcome.skipped.push({ entityType: type, name, reason: 'quality definitions with this name exist; they are kept as they are' });
      return;
    }
    const converted = guideQualitySizeToPcd(row.entity, arrType, name, preferredRatio);
    if (!converted.ok) throw validationError(`Invalid request: the guide quality size cannot be imported: ${converted.reason}`);
    plan.create(type, converted.definitions as unknown as Record<string, unknown>);
  }

  private async planProfile(plan: ImportPlan, source: RefGuideSource, row: RefGuideEntity, requestedSet: string | undefined): Promise<void> {
    const arrType = source.arrType as RefGuideArrType;
    const guide = row.entity;
    const name = typeof guide.name === 'string' ? guide.name.trim() : '';
    const scoreSet = requestedSet ?? (typeof guide.trash_score_set === 'string' ? guide.trash_score_set : 'default');
    plan.outcome.scoreSet = scoreSet;
    const formatItems = Object.entries(guide.formatItems && typeof guide.formatItems === 'object' ? (guide.formatItems as Record<string, unknown>) : {});
    const formats = await this.em.find(RefGuideEntity, { sourceId: source.id, type: 'custom_format', refId: { $in: formatItems.map(([, id]) => String(id)) } });
    const byRefId = new Map(formats.map((f) => [f.refId, f]));
    const knownSets = new Set(['default', ...formats.flatMap((f) => Object.keys(f.scores ?? {}))]);
    if (!knownSets.has(scoreSet)) {
      throw validationError(`Invalid request: body.scoreSet "${scoreSet}" is not a score set of this profile's custom formats (known: ${[...knownSets].sort().join(', ')})`);
    }
    if (name && entityExists(plan.db, 'quality_profile', name)) {
      plan.outcome.skipped.push({ entityType: 'quality_profile', name, reason: 'a quality profile with this name exists; it is kept as it is' });
      return;
    }
    const scores: Record<string, number> = {};
    for (const [formatName, refId] of formatItems) {
      const format = byRefId.get(String(refId));
      if (!format) {
        plan.outcome.skipped.push({ entityType: 'custom_format', name: formatName, reason: 'the guide has no custom format with this trash_id; the profile does not score it' });
        continue;
      }
      const stored = plan.format(arrType, format.entity);
      if (stored !== null) scores[stored] = scoreInSet(format.scores, scoreSet);
    }
    const converted = guideProfileToPcd(guide, arrType, scores);
    if (!converted.ok) throw validationError(`Invalid request: the guide profile cannot be imported: ${converted.reason}`);
    plan.create('quality_profile', converted.profile as unknown as Record<string, unknown>);
  }
}

interface PlannedImportOp {
  entityType: PortableType;
  name: string;
  op: PlannedUserOp;
  kind: 'create' | 'update';
}

/** Plans the ops of one import against a scratch database, applying each as it goes. */
class ImportPlan {
  constructor(
    readonly db: Database.Database,
    private readonly planned: PlannedImportOp[],
    readonly outcome: ImportOutcome,
    private readonly existingFormats: ExistingFormatAction,
  ) {}

  create(entityType: PortableType, data: Record<string, unknown>): void {
    const op = planImport(this.db, { entityType, data });
    this.db.exec(op.sql);
    this.planned.push({ entityType, name: String(data.name), op, kind: 'create' });
  }

  /** Plans one guide format (see existingFormats); returns the name the database has it under, or null when it cannot. */
  format(arrType: RefGuideArrType, guide: Record<string, unknown>): string | null {
    const name = typeof guide.name === 'string' ? guide.name.trim() : '';
    const exists = name !== '' && entityExists(this.db, 'custom_format', name);
    if (exists && this.existingFormats === 'keep') {
      this.outcome.skipped.push({ entityType: 'custom_format', name, reason: 'a custom format with this name exists; it is kept as it is' });
      return name;
    }
    const reused: string[] = [];
    const planned = new Map<string, string>();
    const converted = guideFormatToPcd(guide, arrType, (need) => regexNameFor(this.db, need, name, reused, planned));
    if (!converted.ok) {
      this.outcome.skipped.push({ entityType: 'custom_format', name: name || '(unnamed)', reason: converted.reason });
      return null;
    }
    if (exists) {
      const pattern = (regex: string) => converted.patterns.find((p) => p.name === regex)?.pattern ?? (readEntity(this.db, 'regular_expression', regex)?.data.pattern as string | undefined);
      const merge = mergeFamilyFormat(readEntity(this.db, 'custom_format', name)!.data as CustomFormatData, converted.format, arrType, pattern);
      if (merge.matches) {
        this.outcome.skipped.push({ entityType: 'custom_format', name, reason: `a custom format with this name exists and gives ${arrType} the guide's definition already` });
        return name;
      }
      this.regularExpressions(converted.patterns, reused);
      const op = planUpdate(this.db, 'custom_format', name, merge.format);
      if (op) {
        this.db.exec(op.sql);
        this.planned.push({ entityType: 'custom_format', name, op, kind: 'update' });
      }
      return name;
    }
    this.regularExpressions(converted.patterns, reused);
    this.create('custom_format', converted.format as unknown as Record<string, unknown>);
    return converted.format.name;
  }

  /** Plans the regular expressions a converted format needs that the database lacks (reused ones are listed as skipped). */
  private regularExpressions(patterns: { name: string; pattern: string }[], reused: string[]): void {
    for (const regex of reused) {
      if (!this.outcome.skipped.some((s) => s.entityType === 'regular_expression' && s.name === regex)) {
        this.outcome.skipped.push({ entityType: 'regular_expression', name: regex, reason: 'a regular expression with this name and the same pattern exists; the format uses it' });
      }
    }
    for (const pattern of patterns) {
      if (reused.includes(pattern.name)) continue;
      this.create('regular_expression', { name: pattern.name, pattern: pattern.pattern, regex101Id: null, description: null, tags: [] });
      const warning = unevaluablePatternWarning(pattern.name, pattern.pattern);
      if (warning !== null) (this.outcome.warnings ??= []).push(warning);
    }
  }
}

/**
 * The regular expression name for a guide pattern: the specification's name when the database
 * lacks it or has it with the same pattern (reused), else "<spec name> (<format name>)" on the same
 * terms; null when both names hold other patterns.
 */
function regexNameFor(db: Database.Database, need: PatternNeed, formatName: string, reused: string[], planned: Map<string, string>): string | null {
  for (const candidate of [need.specName, `${need.specName} (${formatName})`]) {
    const plannedPattern = planned.get(candidate);
    if (plannedPattern !== undefined) {
      if (plannedPattern === need.pattern) return candidate;
      continue;
    }
    const existing = readEntity(db, 'regular_expression', candidate);
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
