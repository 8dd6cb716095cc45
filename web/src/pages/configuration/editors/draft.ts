// What the profile editors share: a draft of the resolved payload, saved as the field edits that
// turn the payload into it (field-edits.ts).
import { useState } from 'react';
import { useEditEntity } from '../../../api/pcd';
import { same, type FieldChange } from './field-edits';
import type { EditorProps } from './types';

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
