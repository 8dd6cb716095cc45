import { Select, SimpleGrid, Stack, Switch } from '@mantine/core';
import { Disclosure } from '../../../components/Disclosure';
import { EditorFrame } from '../../../components/EditorFrame';
import { useEntityDraft } from './draft';
import { fieldChanges } from './field-edits';
import { NumberField } from './NumberField';
import type { EditorProps } from './types';

type Protocol = 'prefer_usenet' | 'prefer_torrent' | 'only_usenet' | 'only_torrent';

interface DelayProfile {
  name: string;
  preferredProtocol: Protocol;
  usenetDelay: number | null;
  torrentDelay: number | null;
  bypassIfHighestQuality: boolean;
  bypassIfAboveCustomFormatScore: boolean;
  minimumCustomFormatScore: number | null;
}

const PROTOCOLS: { value: Protocol; label: string }[] = [
  { value: 'prefer_usenet', label: 'Prefer Usenet' },
  { value: 'prefer_torrent', label: 'Prefer torrent' },
  { value: 'only_usenet', label: 'Only Usenet' },
  { value: 'only_torrent', label: 'Only torrent' },
];

const FIELDS = ['preferredProtocol', 'usenetDelay', 'torrentDelay', 'bypassIfHighestQuality', 'bypassIfAboveCustomFormatScore', 'minimumCustomFormatScore'] as const;

/**
 * A delay profile. As in the apps' form, a protocol the profile never uses has no delay (the API
 * requires null there), and the minimum score exists only while its bypass is on.
 */
export function DelayProfileEditor(props: EditorProps) {
  const { draft, setDraft, frame } = useEntityDraft<DelayProfile>(props, (original, next) => fieldChanges(original, next, FIELDS));
  const setProtocol = (protocol: Protocol) =>
    setDraft({
      ...draft,
      preferredProtocol: protocol,
      usenetDelay: protocol === 'only_torrent' ? null : (draft.usenetDelay ?? 0),
      torrentDelay: protocol === 'only_usenet' ? null : (draft.torrentDelay ?? 0),
    });
  return (
    <EditorFrame {...frame}>
      <Disclosure
        sectionKey="configuration:delay-profile:delays"
        title="Delays"
        description="How long the app waits for a better release before grabbing one; advanced: when it grabs at once."
        advanced={
          <Stack gap="sm">
            <Switch
              label="Bypass if highest quality"
              description="Grab at once when the release is the profile's highest enabled quality."
              checked={draft.bypassIfHighestQuality}
              onChange={(event) => setDraft({ ...draft, bypassIfHighestQuality: event.currentTarget.checked })}
            />
            <Switch
              label="Bypass if above custom format score"
              description="Grab at once when the release scores at least the minimum below."
              checked={draft.bypassIfAboveCustomFormatScore}
              onChange={(event) => {
                const on = event.currentTarget.checked;
                setDraft({ ...draft, bypassIfAboveCustomFormatScore: on, minimumCustomFormatScore: on ? (draft.minimumCustomFormatScore ?? 0) : null });
              }}
            />
            {draft.bypassIfAboveCustomFormatScore ? (
              <NumberField
                label="Minimum custom format score"
                allowDecimal={false}
                value={draft.minimumCustomFormatScore ?? 0}
                onValue={(value) => setDraft({ ...draft, minimumCustomFormatScore: value })}
                maw={240}
              />
            ) : null}
          </Stack>
        }
      >
        <Select
          label="Preferred protocol"
          data={PROTOCOLS}
          value={draft.preferredProtocol}
          allowDeselect={false}
          onChange={(value) => value && setProtocol(value as Protocol)}
          maw={360}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }} maw={520}>
          {draft.usenetDelay !== null ? (
            <NumberField label="Usenet delay (minutes)" min={0} allowDecimal={false} value={draft.usenetDelay} onValue={(value) => setDraft({ ...draft, usenetDelay: value })} />
          ) : null}
          {draft.torrentDelay !== null ? (
            <NumberField label="Torrent delay (minutes)" min={0} allowDecimal={false} value={draft.torrentDelay} onValue={(value) => setDraft({ ...draft, torrentDelay: value })} />
          ) : null}
        </SimpleGrid>
      </Disclosure>
    </EditorFrame>
  );
}
