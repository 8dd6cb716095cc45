/**
 * Reading the TRaSH Guides JSON (docs/json/<app>/) into cache entities.
 *
 * - custom_format (cf/): refId trash_id, scores = trash_scores.
 * - custom_format_group (cf-groups/): refId trash_id.
 * - quality_profile (quality-profiles/): refId trash_id, group, and scores = every formatItems
 *   custom format's score in the profile's score set (trash_score_set, else default; a format
 *   without that set falls back to its default score, then 0), keyed by custom format name.
 * - quality_size (quality-size/): refId trash_id, named by its `type`.
 * - naming (naming/): the guide gives no trash_id; the refId is derived (derivedRefId) from the
 *   entity type and the file path, so it is stable for as long as the file keeps its path.
 * Hashing is a port (Digests): the domain stays free of node: modules.
 */
import { toPcdArrType } from '../arr-types';
import { REF_ID_PATTERN, type GuideEntity, type GuideFile, type RefEntityType, type RefGuideArrType } from './types';

export const TRASH_ENTITY_DIRS: Readonly<Record<RefEntityType, string>> = {
  custom_format: 'cf',
  custom_format_group: 'cf-groups',
  quality_profile: 'quality-profiles',
  quality_size: 'quality-size',
  naming: 'naming',
};

/** docs/json/radarr or docs/json/sonarr. */
export function trashAppDir(arrType: RefGuideArrType): string {
  return `docs/json/${toPcdArrType(arrType)}`;
}

/** Hex digests of UTF-8 text, supplied by the caller. */
export interface Digests {
  md5(text: string): string;
  sha256(text: string): string;
}

/** The 32-hex id of an entity the guide gives no trash_id: md5 of "arrgo-ref-guide:<type>:<file path>". */
export function derivedRefId(type: RefEntityType, filePath: string, digests: Pick<Digests, 'md5'>): string {
  return digests.md5(`arrgo-ref-guide:${type}:${filePath}`);
}

/** JSON with object keys sorted, so the hash does not depend on key order. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value as Record<string, unknown>)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export type GuideParseResult = { ok: true; entities: GuideEntity[]; duplicates: string[] } | { ok: false; reason: 'guide_missing' | 'guide_invalid'; file: string | null };

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function numberRecord(value: unknown): Record<string, number> {
  const out: Record<string, number> = {};
  if (!isObject(value)) return out;
  for (const [k, v] of Object.entries(value)) if (typeof v === 'number' && Number.isFinite(v)) out[k] = v;
  return out;
}

/** The score a custom format has in a score set (its default when it has none for that set, then 0). */
export function scoreInSet(trashScores: Record<string, number> | null, scoreSet: string): number {
  if (!trashScores) return 0;
  return trashScores[scoreSet] ?? trashScores.default ?? 0;
}

function nameOf(type: RefEntityType, json: Record<string, unknown>, filePath: string): string {
  if (type === 'quality_size' && typeof json.type === 'string') return json.type;
  if (type === 'naming') return filePath.replace(/^.*\//, '').replace(/\.json$/, '');
  return typeof json.name === 'string' && json.name.trim() ? json.name : filePath.replace(/^.*\//, '').replace(/\.json$/, '');
}

/**
 * Parses the guide files of one app family. Files outside docs/json/<app>/<entity dir>/ are
 * ignored. A file that is not a JSON object fails the whole parse (the cache keeps the last good
 * sync). Two files with the same refId of a type: the first by path is kept, the other reported.
 */
export function parseTrashGuides(arrType: RefGuideArrType, files: GuideFile[], digests: Digests): GuideParseResult {
  const appDir = trashAppDir(arrType);
  const byType = new Map<RefEntityType, { file: GuideFile; json: Record<string, unknown> }[]>();
  let seen = 0;
  for (const file of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    const type = (Object.keys(TRASH_ENTITY_DIRS) as RefEntityType[]).find((t) => new RegExp(`^${appDir}/${TRASH_ENTITY_DIRS[t]}/[^/]+\\.json$`).test(file.path));
    if (!type) continue;
    seen++;
    let json: unknown;
    try {
      json = JSON.parse(file.text);
    } catch {
      return { ok: false, reason: 'guide_invalid', file: file.path };
    }
    if (!isObject(json)) return { ok: false, reason: 'guide_invalid', file: file.path };
    byType.set(type, [...(byType.get(type) ?? []), { file, json }]);
  }
  if (seen === 0) return { ok: false, reason: 'guide_missing', file: null };

  const formatScores = new Map<string, Record<string, number>>();
  for (const { json } of byType.get('custom_format') ?? []) {
    if (typeof json.trash_id === 'string') formatScores.set(json.trash_id, numberRecord(json.trash_scores));
  }

  const entities: GuideEntity[] = [];
  const duplicates: string[] = [];
  for (const [type, items] of byType) {
    const refIds = new Set<string>();
    for (const { file, json } of items) {
      const refId = typeof json.trash_id === 'string' && REF_ID_PATTERN.test(json.trash_id) ? json.trash_id : derivedRefId(type, file.path, digests);
      if (refIds.has(refId)) {
        duplicates.push(file.path);
        continue;
      }
      refIds.add(refId);
      let scores: Record<string, number> | null = null;
      if (type === 'custom_format') scores = numberRecord(json.trash_scores);
      if (type === 'quality_profile') {
        const scoreSet = typeof json.trash_score_set === 'string' ? json.trash_score_set : 'default';
        scores = {};
        for (const [formatName, trashId] of Object.entries(isObject(json.formatItems) ? json.formatItems : {})) {
          if (typeof trashId === 'string') scores[formatName] = scoreInSet(formatScores.get(trashId) ?? null, scoreSet);
        }
      }
      const group = type === 'quality_profile' && typeof json.group === 'number' && Number.isInteger(json.group) ? json.group : null;
      const name = nameOf(type, json, file.path).slice(0, 300);
      const content = { type, refId, name, filePath: file.path, entity: json, scores, group };
      entities.push({ ...content, hash: digests.sha256(stableJson(content)) });
    }
  }
  return { ok: true, entities, duplicates };
}

/** Entities per type. */
export function countByType(entities: { type: RefEntityType }[]): Record<RefEntityType, number> {
  const counts: Record<RefEntityType, number> = { custom_format: 0, custom_format_group: 0, quality_profile: 0, quality_size: 0, naming: 0 };
  for (const e of entities) counts[e.type]++;
  return counts;
}
