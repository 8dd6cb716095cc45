// A custom format's draft and the field edits that save it (applied by the API's applyFieldEdits;
// test/unit/console/custom-format-edits.test.ts checks they give exactly the draft).
// The generated types directly (not api/types, which needs the browser), so jest can load this module.
import type { components } from '../../../../../../src/client';
import { fieldChanges, fieldPath, type FieldChange } from '../field-edits';

type ArrType = components['schemas']['ArrType'];

export type Condition = Record<string, unknown> & { name: string; type: string; arrType: ArrType | 'all'; negate: boolean; required: boolean };

export interface CustomFormat {
  name: string;
  description: string | null;
  includeInRename: boolean;
  tags: string[];
  conditions: Condition[];
  tests: { title: string; type: 'movie' | 'series' | 'album'; shouldMatch: boolean; description: string | null }[];
}

const FIELDS = ['description', 'includeInRename', 'tags'] as const;

/**
 * Conditions are keyed by name: a new one is sent whole, a removed one without a value, a changed
 * one field by field, or whole when its type (and so its fields) changed.
 */
function conditionChanges(original: Condition[], draft: Condition[]): FieldChange[] {
  const before = new Map(original.map((c) => [c.name, c]));
  const after = new Map(draft.map((c) => [c.name, c]));
  const changes: FieldChange[] = [];
  for (const [name, c] of after) {
    const was = before.get(name);
    if (!was || was.type !== c.type) changes.push({ path: fieldPath('conditions', name), value: c });
    else changes.push(...fieldChanges(was, c, Object.keys(c), ['conditions', name]));
  }
  for (const name of before.keys()) if (!after.has(name)) changes.push({ path: fieldPath('conditions', name) });
  return changes;
}

/** The edits that turn a custom format into the draft: its details, then its conditions. */
export function customFormatChanges(original: CustomFormat, draft: CustomFormat): FieldChange[] {
  return [...fieldChanges(original, draft, FIELDS), ...conditionChanges(original.conditions, draft.conditions)];
}
