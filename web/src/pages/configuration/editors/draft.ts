// What the profile editors share: a draft of the resolved payload, and the field edits
// (`{changes: [{path, value}]}`) that turn the payload into the draft, addressed in the API's path
// notation. Saving sends only what changed, so each op's value guard covers only those fields.
import { useState } from 'react';
import { useEditEntity, type EntityEdit } from '../../../api/pcd';
import type { EditorProps } from './types';

export type FieldChange = EntityEdit extends infer E ? (E extends { changes: (infer C)[] } ? C : never) : never;

/**
 * A path in the API's notation (src/domain/diff/path.ts): segments joined by `.`; inside a segment
 * `\` is written `\\` and `.` is written `\.` (format names may hold dots: `customFormats.all.1\.0 Mono.score`).
 */
export function fieldPath(...segments: (string | number)[]): string {
  return segments.map((s) => String(s).replace(/\\/g, '\\\\').replace(/\./g, '\\.')).join('.');
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

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

/**
 * The editing state of one entity: the draft, whether it differs from the resolved payload, and
 * the frame's Save (the edits `toChanges` computes) and Discard. A new resolved payload (after a
 * save, a pull or a revert elsewhere) replaces a draft that has no unsaved change.
 */
export function useEntityDraft<T extends object>({ databaseId, portableType, name, entity }: EditorProps, toChanges: (original: T, draft: T) => FieldChange[]) {
  const original = entity as T;
  const [seen, setSeen] = useState<T>(original);
  const [base, setBase] = useState<T>(original);
  const [draft, setDraft] = useState<T>(original);
  const edit = useEditEntity(databaseId, portableType, name);
  if (!same(seen, original)) {
    // The resolved payload changed under the editor: unsaved changes stay (now measured against
    // the new payload); without any, the draft follows it.
    setSeen(original);
    setBase(original);
    if (same(base, draft)) setDraft(original);
  }
  const changes = toChanges(base, draft);
  const dirty = changes.length > 0;
  return {
    draft,
    setDraft,
    changes,
    frame: {
      name,
      dirty,
      saving: edit.isPending,
      error: edit.error,
      onSave: () => {
        if (!dirty) return;
        const saved = draft;
        edit.mutate({ changes }, { onSuccess: () => setBase(saved) });
      },
      onDiscard: () => {
        edit.reset();
        setDraft(base);
      },
    },
  };
}
