import { Button, Code, Group, Select, SimpleGrid, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useRef, useState } from 'react';
import { useNamingPreview, type NamingPreview, type NamingPreviewRequest } from '../../../api/naming';
import type { ArrType } from '../../../api/types';
import { DataTable } from '../../../components/DataTable';
import { Disclosure } from '../../../components/Disclosure';
import { EditorFrame } from '../../../components/EditorFrame';
import { ErrorDisplay } from '../../../components/ErrorDisplay';
import { useEntityDraft } from './draft';
import { fieldChanges } from './field-edits';
import type { EditorProps } from './types';

type Naming = Record<string, unknown> & { name: string; rename: boolean; replaceIllegalCharacters: boolean; colonReplacementFormat: string | number };

/** Each family's format fields (the naming payload's keys) and their labels, as the apps' settings name them. */
const FORMATS: Record<ArrType, { field: string; label: string }[]> = {
  movie_app: [
    { field: 'movieFormat', label: 'Standard movie format' },
    { field: 'movieFolderFormat', label: 'Movie folder format' },
  ],
  series_app: [
    { field: 'standardEpisodeFormat', label: 'Standard episode format' },
    { field: 'dailyEpisodeFormat', label: 'Daily episode format' },
    { field: 'animeEpisodeFormat', label: 'Anime episode format' },
    { field: 'seriesFolderFormat', label: 'Series folder format' },
    { field: 'seasonFolderFormat', label: 'Season folder format' },
  ],
  music_app: [
    { field: 'standardTrackFormat', label: 'Standard track format' },
    { field: 'multiDiscTrackFormat', label: 'Multi-disc track format' },
    { field: 'artistFolderFormat', label: 'Artist folder format' },
  ],
};

const OTHER_FIELDS: Record<ArrType, string[]> = {
  movie_app: ['rename', 'replaceIllegalCharacters', 'colonReplacementFormat'],
  series_app: ['rename', 'replaceIllegalCharacters', 'colonReplacementFormat', 'customColonReplacementFormat', 'multiEpisodeStyle'],
  music_app: ['rename', 'replaceIllegalCharacters', 'colonReplacementFormat'],
};

/** The API's bound of a format (NAMING_LIMITS.formatLength): longer drafts are not previewed. */
const MAX_FORMAT = 500;

function previewRequest(arrType: ArrType, draft: Naming): NamingPreviewRequest | null {
  if (FORMATS[arrType].some(({ field }) => typeof draft[field] !== 'string' || draft[field] === '' || (draft[field] as string).length > MAX_FORMAT)) return null;
  return { arrType, naming: draft } as unknown as NamingPreviewRequest;
}

function Previews({ preview, labels }: { preview: NamingPreview; labels: Record<string, string> }) {
  return (
    <DataTable
      label="Rendered names"
      minWidth={640}
      striped={false}
      rows={preview.previews}
      rowKey={(p) => `${p.field}:${p.sample}`}
      columns={[
        { label: 'Format', cell: (p) => labels[p.field] ?? p.field },
        { label: 'Sample', cell: (p) => p.sample },
        {
          label: 'Rendered name',
          cell: (p) => (
            <>
              <Code style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>{p.name}</Code>
              {p.unknownTokens.length > 0 ? (
                <Text size="xs" c="orange">
                  Unknown to the app, kept as text: {p.unknownTokens.join(' ')}
                </Text>
              ) : null}
            </>
          ),
        },
      ]}
    />
  );
}

/**
 * An app's naming: its formats with a live preview of the names they render for sample movies,
 * episodes or tracks, and the family's tokens (a click inserts one where the cursor was).
 */
export function NamingEditor(props: EditorProps) {
  const arrType = props.arrType ?? 'movie_app';
  const formats = FORMATS[arrType];
  const fields = [...formats.map((f) => f.field), ...OTHER_FIELDS[arrType]];
  const { draft, setDraft, frame } = useEntityDraft<Naming>(props, (original, next) => fieldChanges(original, next, fields));
  const [request] = useDebouncedValue(previewRequest(arrType, draft), 300);
  const preview = useNamingPreview(request);
  const [target, setTarget] = useState(formats[0].field);
  const cursor = useRef<number | null>(null);
  const labels = Object.fromEntries(formats.map((f) => [f.field, f.label]));
  const choices = preview.data?.choices;

  const insert = (token: string) => {
    const current = String(draft[target] ?? '');
    const at = cursor.current ?? current.length;
    setDraft({ ...draft, [target]: `${current.slice(0, at)}${token}${current.slice(at)}` });
    cursor.current = at + token.length;
  };

  return (
    <EditorFrame {...frame}>
      <Switch label="Rename files" description="Off: the app keeps the names files arrive with" checked={draft.rename} onChange={(event) => setDraft({ ...draft, rename: event.currentTarget.checked })} />
      <Stack gap="sm">
        {formats.map(({ field, label }) => (
          <TextInput
            key={field}
            label={label}
            value={String(draft[field] ?? '')}
            onChange={(event) => {
              cursor.current = event.currentTarget.selectionStart;
              setDraft({ ...draft, [field]: event.currentTarget.value });
            }}
            onFocus={() => setTarget(field)}
            onSelect={(event) => {
              setTarget(field);
              cursor.current = event.currentTarget.selectionStart;
            }}
            error={draft[field] === '' ? 'must not be empty' : String(draft[field] ?? '').length > MAX_FORMAT ? `at most ${MAX_FORMAT} characters` : undefined}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          />
        ))}
      </Stack>
      <Stack gap="xs">
        <Title order={3} size="h4">
          Preview
        </Title>
        {preview.isError ? <ErrorDisplay error={preview.error} title="No preview" /> : null}
        {request === null ? <Text size="sm">Every format needs a value of at most {MAX_FORMAT} characters to be previewed.</Text> : null}
        {preview.data ? <Previews preview={preview.data} labels={labels} /> : null}
      </Stack>
      <Disclosure
        sectionKey="configuration:naming:characters"
        order={3}
        title="Characters"
        description="How colons and characters no file name may hold are written; advanced: multi-episode files and a custom colon."
        advanced={
          arrType === 'series_app' ? (
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
              <Select
                label="Multi-episode style"
                data={(choices?.multiEpisodeStyle ?? []).map((c) => ({ value: String(c.value), label: c.label }))}
                value={String(draft.multiEpisodeStyle ?? 0)}
                onChange={(value) => value !== null && setDraft({ ...draft, multiEpisodeStyle: Number(value) })}
                allowDeselect={false}
              />
              <TextInput
                label="Custom colon replacement"
                description="Used when colon replacement is Custom"
                value={String(draft.customColonReplacementFormat ?? '')}
                maxLength={10}
                onChange={(event) => setDraft({ ...draft, customColonReplacementFormat: event.currentTarget.value || null })}
              />
            </SimpleGrid>
          ) : null
        }
      >
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <Switch
            label="Replace illegal characters"
            description="Off: they are removed"
            checked={draft.replaceIllegalCharacters}
            onChange={(event) => setDraft({ ...draft, replaceIllegalCharacters: event.currentTarget.checked })}
          />
          <Select
            label="Colon replacement"
            data={(choices?.colonReplacementFormat ?? []).map((c) => ({ value: String(c.value), label: c.label }))}
            value={String(draft.colonReplacementFormat)}
            onChange={(value) => value !== null && setDraft({ ...draft, colonReplacementFormat: arrType === 'movie_app' ? value : Number(value) })}
            allowDeselect={false}
          />
        </SimpleGrid>
      </Disclosure>
      <Stack gap="xs" component="section" aria-label="Tokens">
        <Title order={3} size="h4">
          Tokens
        </Title>
        <Text size="sm" c="dimmed">
          A click inserts the token into {labels[target] ?? 'the format'} where the cursor was. Text inside the braces, as in {'{-Release Group}'}, shows only when the token has a value; a token written with dots ({'{Movie.CleanTitle}'}) or in capitals changes the value the same way.
        </Text>
        {(preview.data?.tokens ?? []).map((group) => (
          <Stack key={group.group} gap={4}>
            <Text size="sm" fw={600}>
              {group.group}
            </Text>
            <Group gap={6}>
              {group.tokens.map((t) => (
                <Button key={t.token} size="compact-xs" variant="default" onClick={() => insert(t.token)} title={`Sample: ${t.description}`} aria-label={`Insert ${t.token}`}>
                  {t.token}
                </Button>
              ))}
            </Group>
          </Stack>
        ))}
      </Stack>
    </EditorFrame>
  );
}
