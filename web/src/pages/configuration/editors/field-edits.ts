// The field edits of the profile editors: what turns a resolved payload into an editor's draft, as
// `{changes: [{path, value}]}` addressed in the API's path notation. Only what changed is sent, so
// each op's value guard covers only those fields. Pure (tested against the API's own applyFieldEdits).
// The generated types directly (not api/pcd, which needs the browser), so jest can load this module.
import type { components } from '../../../../../src/client';

type EntityEdit = components['schemas']['EntityEdit'];
export type FieldChange = EntityEdit extends infer E ? (E extends { changes: (infer C)[] } ? C : never) : never;

/**
 * A path in the API's notation (src/domain/diff/path.ts): segments joined by `.`; inside a segment
 * `\` is written `\\` and `.` is written `\.` (format names may hold dots: `customFormats.all.1\.0 Mono.score`).
 */
export function fieldPath(...segments: (string | number)[]): string {
  return segments.map((s) => String(s).replace(/\\/g, '\\\\').replace(/\./g, '\\.')).join('.');
}

/** Equal as the API would see them (JSON). */
export const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Edits of the listed fields of an object whose values differ (a whole value each). */
export function fieldChanges<T extends object>(original: T, draft: T, fields: readonly (keyof T & string)[], parent: string[] = []): FieldChange[] {
  return fields.filter((f) => !same(original[f], draft[f])).map((f) => ({ path: fieldPath(...parent, f), value: draft[f] }));
}

/**
 * Edits of a list whose items are keyed by `key` (the API's keyed arrays): a changed field of an
 * item, an added item (whole), a removed one (no value). With `ordered`, a new order (or a new
 * set of items) sends the whole list, since the position is what changed.
 */
export function keyedListChanges<T extends object>(path: string[], original: T[], draft: T[], key: keyof T & string, fields: readonly (keyof T & string)[], ordered = false): FieldChange[] {
  const keyOf = (item: T) => String(item[key]);
  if (ordered && !same(original.map(keyOf), draft.map(keyOf))) return [{ path: fieldPath(...path), value: draft }];
  const before = new Map(original.map((item) => [keyOf(item), item]));
  const after = new Map(draft.map((item) => [keyOf(item), item]));
  const changes: FieldChange[] = [];
  for (const [name, item] of after) {
    const was = before.get(name);
    if (!was) changes.push({ path: fieldPath(...path, name), value: item });
    else changes.push(...fieldChanges(was, item, fields, [...path, name]));
  }
  for (const name of before.keys()) if (!after.has(name)) changes.push({ path: fieldPath(...path, name) });
  return changes;
}
