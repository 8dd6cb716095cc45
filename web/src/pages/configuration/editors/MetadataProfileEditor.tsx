import { Checkbox, Group, Stack, Textarea } from '@mantine/core';
import { Disclosure } from '../../../components/Disclosure';
import { EditorFrame } from '../../../components/EditorFrame';
import { useEntityDraft } from './draft';
import { fieldChanges, keyedListChanges } from './field-edits';
import type { EditorProps } from './types';

interface Allowed {
  name: string;
  allowed: boolean;
}

interface MetadataProfile {
  name: string;
  description: string | null;
  primaryAlbumTypes: Allowed[];
  secondaryAlbumTypes: Allowed[];
  releaseStatuses: Allowed[];
}

type ListField = 'primaryAlbumTypes' | 'secondaryAlbumTypes' | 'releaseStatuses';

const LISTS: { field: ListField; label: string }[] = [
  { field: 'primaryAlbumTypes', label: 'Primary album types' },
  { field: 'secondaryAlbumTypes', label: 'Secondary album types' },
  { field: 'releaseStatuses', label: 'Release statuses' },
];

/** A Lidarr metadata profile: which album types and release statuses it allows (Lidarr lists every value once). */
export function MetadataProfileEditor(props: EditorProps) {
  const { draft, setDraft, frame } = useEntityDraft<MetadataProfile>(props, (original, next) => [
    ...fieldChanges(original, next, ['description']),
    ...LISTS.flatMap((l) => keyedListChanges([l.field], original[l.field], next[l.field], 'name', ['allowed'])),
  ]);
  const list = ({ field, label }: (typeof LISTS)[number]) => (
    <Checkbox.Group
      key={field}
      label={label}
      value={draft[field].filter((t) => t.allowed).map((t) => t.name)}
      onChange={(allowed) => setDraft({ ...draft, [field]: draft[field].map((t) => ({ ...t, allowed: allowed.includes(t.name) })) })}
    >
      <Group mt="xs" gap="md">
        {draft[field].map((t) => (
          <Checkbox key={t.name} value={t.name} label={t.name} />
        ))}
      </Group>
    </Checkbox.Group>
  );
  return (
    <EditorFrame {...frame}>
      <Disclosure
        sectionKey="configuration:metadata-profile:types"
        title="Albums"
        description="Which releases Lidarr adds for an artist; advanced: secondary types, release statuses and the description."
        advanced={
          <Stack gap="md">
            {LISTS.slice(1).map(list)}
            <Textarea
              label="Description"
              autosize
              minRows={2}
              value={draft.description ?? ''}
              onChange={(event) => setDraft({ ...draft, description: event.currentTarget.value === '' ? null : event.currentTarget.value })}
              maw={520}
            />
          </Stack>
        }
      >
        {list(LISTS[0])}
      </Disclosure>
    </EditorFrame>
  );
}
