import { ActionIcon, Group, Select, SimpleGrid, Stack, Switch, TagsInput, Text, Textarea } from '@mantine/core';
import { Disclosure } from '../../../components/Disclosure';
import { EditorFrame } from '../../../components/EditorFrame';
import { useEntityDraft } from './draft';
import { NumberField } from './NumberField';
import { profileChanges, type QualityProfile } from './quality-profile/model';
import { QualityLadder } from './quality-profile/QualityLadder';
import { ScoreTable } from './quality-profile/ScoreTable';
import type { EditorProps } from './types';

const LANGUAGE_TYPES = [
  { value: 'simple', label: 'Preferred (simple)' },
  { value: 'must', label: 'Must include' },
  { value: 'only', label: 'Only' },
  { value: 'not', label: 'Must not include' },
];

/**
 * A quality profile: its quality ladder and upgrade-until quality, the custom-format scores with
 * their thresholds, and (advanced) the description, languages and tags.
 */
export function QualityProfileEditor(props: EditorProps) {
  const { draft, setDraft, frame } = useEntityDraft<QualityProfile>(props, profileChanges);
  const set = (change: Partial<QualityProfile>) => setDraft({ ...draft, ...change });
  return (
    <EditorFrame {...frame}>
      <Disclosure
        sectionKey="configuration:quality-profile:qualities"
        title="Qualities"
        description="Drag a quality or group (or use its Move buttons) to reorder: the most preferred is first. The upgrade-until quality is where upgrades stop."
      >
        <Switch label="Upgrades allowed" checked={draft.upgradesAllowed} onChange={(event) => set({ upgradesAllowed: event.currentTarget.checked })} />
        <QualityLadder profileName={props.name} items={draft.qualities} onChange={(qualities) => set({ qualities })} />
      </Disclosure>

      <Disclosure
        sectionKey="configuration:quality-profile:scores"
        title="Custom format scores"
        description="What each custom format adds to a release's score, and the scores the profile needs. Advanced: the upgrade increment."
      >
        {(advanced) => (
          <Stack gap="md">
            <SimpleGrid cols={{ base: 1, sm: advanced ? 3 : 2 }} maw={advanced ? 640 : 440}>
              <NumberField label="Minimum score" allowDecimal={false} value={draft.minimumCustomFormatScore} onValue={(v) => set({ minimumCustomFormatScore: v })} />
              <NumberField label="Upgrade until score" allowDecimal={false} value={draft.upgradeUntilScore} onValue={(v) => set({ upgradeUntilScore: v })} />
              {advanced ? (
                <NumberField
                  label="Upgrade score increment"
                  description="The least score gain that counts as an upgrade."
                  min={1}
                  allowDecimal={false}
                  value={draft.upgradeScoreIncrement}
                  onValue={(v) => set({ upgradeScoreIncrement: v })}
                />
              ) : null}
            </SimpleGrid>
            <ScoreTable databaseId={props.databaseId} profile={draft} onChange={(customFormats) => set({ customFormats })} />
          </Stack>
        )}
      </Disclosure>

      <Disclosure
        sectionKey="configuration:quality-profile:details"
        title="Details"
        description="Advanced: the description, languages and tags."
        advanced={
          <Stack gap="md" maw={560}>
            <Textarea
              label="Description"
              autosize
              minRows={2}
              value={draft.description ?? ''}
              onChange={(event) => set({ description: event.currentTarget.value === '' ? null : event.currentTarget.value })}
            />
            <TagsInput label="Tags" value={draft.tags} onChange={(tags) => set({ tags: [...tags].sort() })} />
            <Stack gap={4}>
              <Text size="sm" fw={500}>
                Languages
              </Text>
              {draft.languages.length === 0 ? (
                <Text size="sm" c="dimmed">
                  No language rule.
                </Text>
              ) : null}
              {draft.languages.map((language) => (
                <Group key={language.name} gap="sm" wrap="nowrap">
                  <Text size="sm" w={140} truncate>
                    {language.name}
                  </Text>
                  <Select
                    aria-label={`Rule for ${language.name}`}
                    data={LANGUAGE_TYPES}
                    value={language.type}
                    allowDeselect={false}
                    onChange={(type) => type && set({ languages: draft.languages.map((l) => (l.name === language.name ? { ...l, type: type as typeof l.type } : l)) })}
                    w={200}
                  />
                  <ActionIcon variant="subtle" color="red" aria-label={`Remove the rule for ${language.name}`} onClick={() => set({ languages: draft.languages.filter((l) => l.name !== language.name) })}>
                    <Text aria-hidden>×</Text>
                  </ActionIcon>
                </Group>
              ))}
            </Stack>
          </Stack>
        }
      >
        {null}
      </Disclosure>
    </EditorFrame>
  );
}
