/**
 * A guide custom format merged into the database's format of the same name, for one app family:
 * the format's conditions for that family become the guide's, its conditions for the other
 * families stay as they are. One format can so carry the guide's Radarr and Sonarr definitions
 * (BR-DISK, LQ, ...), as the TRaSH PCD does.
 */
import { ARR_TYPES, type ArrType } from '../arr-types';
import { CONDITION_TYPES, familyScopedConditionName, specificationNames, type CustomFormatCondition, type CustomFormatData } from '../pcd';

/** What a guide import does with a custom format whose name the database has: keep it as it is, or merge the guide's definition for the source's app family into it. */
export const EXISTING_FORMAT_ACTIONS = ['keep', 'merge'] as const;
export type ExistingFormatAction = (typeof EXISTING_FORMAT_ACTIONS)[number];

export type FormatMerge = { matches: true } | { matches: false; format: CustomFormatData };

/**
 * `existing` seen by `arrType` against `guide` (conditions all scoped to `arrType`); `patternOf`
 * gives the pattern of a regular expression name (conditions are compared by pattern, not name).
 * - matches: the app of that family would receive the guide's format already;
 * - else the merged format: the existing conditions of other families kept; an existing condition
 *   for every family ('all') kept shared when the guide has the same one under its name, else
 *   scoped to each other family that supports its type; the guide's conditions scoped to
 *   `arrType`, named "<name> (<App>)" where another condition holds the plain name (the app still
 *   receives the plain name, see familyScopedConditionName). Description, tags and tests are kept;
 *   includeInRename, which every family shares, becomes the guide's.
 */
export function mergeFamilyFormat(existing: CustomFormatData, guide: CustomFormatData, arrType: ArrType, patternOf: (regex: string) => string | undefined): FormatMerge {
  const content = (c: CustomFormatCondition) => conditionContent(c, patternOf);
  const received = specificationNames(existing.conditions, arrType);
  const seen = new Map(existing.conditions.filter((c) => received.has(c.name)).map((c) => [received.get(c.name)!, content(c)]));
  const wanted = new Map(guide.conditions.map((c) => [c.name, content(c)]));
  if (existing.includeInRename === guide.includeInRename && seen.size === wanted.size && [...wanted].every(([name, key]) => seen.get(name) === key)) return { matches: true };

  const guideNames = new Set(guide.conditions.map((c) => c.name));
  const kept: CustomFormatCondition[] = existing.conditions.filter((c) => c.arrType !== 'all' && c.arrType !== arrType);
  const shared = new Set<string>();
  const displaced: CustomFormatCondition[] = [];
  for (const condition of existing.conditions.filter((c) => c.arrType === 'all')) {
    if (wanted.get(condition.name) === content(condition)) {
      kept.push(condition);
      shared.add(condition.name);
      continue;
    }
    for (const other of ARR_TYPES) if (other !== arrType && CONDITION_TYPES[condition.type].apps.includes(other)) displaced.push({ ...condition, arrType: other });
  }
  const taken = new Set(kept.map((c) => c.name));
  const place = (condition: CustomFormatCondition, plainFree: boolean) => {
    const name = plainFree && !taken.has(condition.name) ? condition.name : familyScopedConditionName(condition.name, condition.arrType as ArrType);
    taken.add(name);
    return { ...condition, name };
  };
  const merged = guide.conditions.filter((c) => !shared.has(c.name)).map((c) => place(c, true));
  const others = displaced.map((c) => place(c, !guideNames.has(c.name)));
  return { matches: false, format: { ...existing, includeInRename: guide.includeInRename, conditions: [...kept, ...others, ...merged] } };
}

/** What a condition matches, without its name and scope; a pattern condition by its pattern. */
function conditionContent(condition: CustomFormatCondition, patternOf: (regex: string) => string | undefined): string {
  const { name: _name, arrType: _arrType, ...rest } = condition;
  const values: Record<string, unknown> = { ...rest };
  if ('regularExpression' in rest) values.regularExpression = patternOf(rest.regularExpression) ?? `(missing ${rest.regularExpression})`;
  return JSON.stringify(Object.keys(values).sort().map((k) => [k, values[k]]));
}
