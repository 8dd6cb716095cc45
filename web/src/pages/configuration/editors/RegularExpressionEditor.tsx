import { Alert, Badge, Code, Group, Stack, TagsInput, Text, Textarea, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useRegexTest, type RegexTestResponse } from '../../../api/entity-testing';
import { DataTable } from '../../../components/DataTable';
import { Disclosure } from '../../../components/Disclosure';
import { EditorFrame } from '../../../components/EditorFrame';
import { ErrorDisplay } from '../../../components/ErrorDisplay';
import { useEntityDraft } from './draft';
import { fieldChanges } from './field-edits';
import type { EditorProps } from './types';

interface RegularExpression {
  name: string;
  pattern: string;
  regex101Id: string | null;
  description: string | null;
  tags: string[];
}

const FIELDS = ['pattern', 'description', 'regex101Id', 'tags'] as const;

/** The API's bounds of POST /entity-testing/regex (REGEX_TEST_LIMITS): the box tests what it may send. */
const MAX_TEST_STRINGS = 100;
const MAX_LENGTH = 1000;

const OUTCOME: Record<'match' | 'noMatch' | 'timedOut', { label: string; color: string }> = {
  match: { label: 'matches', color: 'green' },
  noMatch: { label: 'no match', color: 'gray' },
  timedOut: { label: 'stopped (deadline)', color: 'orange' },
};

function Outcome({ value, none }: { value: RegexTestResponse['results'][number]['dotnet']; none: string }) {
  if (value === null) return <Text size="sm" c="dimmed">{none}</Text>;
  return (
    <Badge variant="light" color={OUTCOME[value].color} size="sm">
      {OUTCOME[value].label}
    </Badge>
  );
}

/** The pattern as the apps (.NET) and JavaScript read it: refusal, differences, and the test strings' answers. */
export function RegexTestResults({ result }: { result: RegexTestResponse }) {
  return (
    <Stack gap="sm">
      {!result.valid ? (
        <Alert color="red" variant="light" title="The apps cannot use this pattern as arrgo evaluates it" role="alert">
          {result.reason}
          {result.offset !== null ? ` (at character ${result.offset + 1})` : ''}
        </Alert>
      ) : null}
      {result.differences.length > 0 || !result.javascriptCompiles ? (
        <Alert color="yellow" variant="light" title=".NET and JavaScript read this pattern differently" role="note">
          <Stack gap="xs">
            <Text size="sm">
              The apps run patterns with .NET; tools built on JavaScript (and regex testers set to JavaScript) may answer otherwise.
              {!result.javascriptCompiles ? ' JavaScript cannot compile this pattern at all.' : ''}
            </Text>
            {result.differences.length > 0 ? (
              <DataTable
                label="Constructs read differently"
                minWidth={560}
                striped={false}
                rows={result.differences}
                rowKey={(d) => d.construct}
                columns={[
                  { label: 'Construct', cell: (d) => <Code>{d.syntax}</Code> },
                  { label: '.NET (the apps)', cell: (d) => d.dotnet },
                  { label: 'JavaScript', cell: (d) => d.javascript },
                ]}
              />
            ) : null}
          </Stack>
        </Alert>
      ) : null}
      {result.results.length > 0 ? (
        <DataTable
          label="Test string results"
          minWidth={520}
          striped={false}
          rows={result.results.map((r, i) => ({ ...r, key: `${i}:${r.text}` }))}
          rowKey={(r) => r.key}
          columns={[
            {
              label: 'Test string',
              cell: (r) => (
                <Text size="sm" style={{ wordBreak: 'break-all' }}>
                  {r.text}
                  {r.differs ? (
                    <Text span size="xs" c="orange" fw={700}>
                      {' '}
                      · differs
                    </Text>
                  ) : null}
                </Text>
              ),
            },
            { label: '.NET (the apps)', cell: (r) => <Outcome value={r.dotnet} none="not evaluable" /> },
            { label: 'JavaScript', cell: (r) => <Outcome value={r.javascript} none="does not compile" /> },
          ]}
        />
      ) : null}
    </Stack>
  );
}

/**
 * A regular expression: its pattern with test strings matched as the apps match them (.NET,
 * case-insensitive) and as JavaScript would, with a warning where the two read it differently.
 */
export function RegularExpressionEditor(props: EditorProps) {
  const { draft, setDraft, frame } = useEntityDraft<RegularExpression>(props, (original, next) => fieldChanges(original, next, FIELDS));
  const [samples, setSamples] = useState('');
  const strings = samples.split('\n').filter((line) => line.trim() !== '');
  const tooMany = strings.length > MAX_TEST_STRINGS || strings.some((s) => s.length > MAX_LENGTH);
  const [pattern] = useDebouncedValue(draft.pattern.length <= MAX_LENGTH ? draft.pattern : '', 300);
  const [tested] = useDebouncedValue(tooMany ? [] : strings, 300);
  const test = useRegexTest(pattern, tested);
  return (
    <EditorFrame {...frame}>
      <TextInput
        label="Pattern"
        description="A .NET regular expression; the apps match it case-insensitively"
        value={draft.pattern}
        onChange={(event) => setDraft({ ...draft, pattern: event.currentTarget.value })}
        error={draft.pattern === '' ? 'must not be empty' : undefined}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
      />
      <Textarea
        label="Test strings"
        description={`One a line, up to ${MAX_TEST_STRINGS}; not saved`}
        placeholder="Movie.2019.2160p.UHD.BluRay.x265-GROUP"
        value={samples}
        onChange={(event) => setSamples(event.currentTarget.value)}
        autosize
        minRows={3}
        maxRows={10}
        error={tooMany ? `At most ${MAX_TEST_STRINGS} strings of ${MAX_LENGTH} characters are tested` : undefined}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
      />
      <Stack gap="xs" aria-live="polite">
        {test.isError ? <ErrorDisplay error={test.error} title="Not tested" /> : null}
        {test.data ? <RegexTestResults result={test.data} /> : null}
      </Stack>
      <Disclosure
        sectionKey="configuration:regular-expression:details"
        order={3}
        title="Details"
        description="What the pattern is for; advanced: its regex101 link and tags."
        advanced={
          <Group grow align="flex-start" wrap="wrap">
            <TextInput
              label="regex101 id"
              description="The id of a saved regex101.com test"
              value={draft.regex101Id ?? ''}
              maxLength={50}
              onChange={(event) => setDraft({ ...draft, regex101Id: event.currentTarget.value || null })}
            />
            <TagsInput label="Tags" value={draft.tags} onChange={(tags) => setDraft({ ...draft, tags })} clearable />
          </Group>
        }
      >
        <Textarea
          label="Description"
          value={draft.description ?? ''}
          onChange={(event) => setDraft({ ...draft, description: event.currentTarget.value || null })}
          autosize
          minRows={2}
        />
      </Disclosure>
    </EditorFrame>
  );
}
