import { ActionIcon, Badge, Button, Card, Code, Group, NumberInput, SegmentedControl, Select, SimpleGrid, Stack, Switch, TagsInput, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useConditionTypes, type ConditionTypeInfo } from '../../../api/custom-formats';
import { RELEASE_TYPE_OPTIONS, useExplainReleases, type ReleaseType } from '../../../api/entity-testing';
import { useResolvedEntities } from '../../../api/pcd';
import { APP_LABELS, type ArrType } from '../../../api/types';
import { Disclosure } from '../../../components/Disclosure';
import { EditorFrame } from '../../../components/EditorFrame';
import { FormatExplanations } from '../../../components/FormatExplanations';
import { QueryState } from '../../../components/QueryState';
import { customFormatChanges, type Condition, type CustomFormat } from './custom-format/model';
import { useEntityDraft } from './draft';
import { same } from './field-edits';
import type { EditorProps } from './types';

const GB = 1024 * 1024 * 1024;
/** The API explains at most 50 releases a request (EVALUATE_LIMITS.explainReleases). */
const MAX_TEST_TITLES = 50;

/** A new condition of a type: its value fields empty (sizes and years unbounded). */
function blankCondition(info: ConditionTypeInfo, name: string, arrType: Condition['arrType']): Condition {
  const c: Condition = { name, type: info.type, arrType, negate: false, required: false };
  for (const field of info.fields) c[field] = field === 'exceptLanguage' ? false : info.kind === 'size' || info.kind === 'year' ? null : '';
  return c;
}

/** The values offered for a condition: its app family's, or every family's that has the type when it applies to all. */
function valuesFor(info: ConditionTypeInfo, arrType: Condition['arrType']): string[] {
  const lists = arrType === 'all' ? info.apps.map((a) => info.values[a] ?? []) : [info.values[arrType] ?? []];
  return [...new Set(lists.flat())];
}

interface ConditionCardProps {
  condition: Condition;
  info: ConditionTypeInfo | undefined;
  types: ConditionTypeInfo[];
  patterns: { name: string; pattern: string }[];
  onChange: (next: Condition) => void;
  onRemove: () => void;
  duplicateName: boolean;
}

function ConditionCard({ condition, info, types, patterns, onChange, onRemove, duplicateName }: ConditionCardProps) {
  const set = (field: string, value: unknown) => onChange({ ...condition, [field]: value });
  const apps = info?.apps ?? [];
  const leftOut = condition.arrType !== 'all' && info && !apps.includes(condition.arrType);
  const valueField = info?.fields[0] ?? '';
  const picked = info?.kind === 'pattern' ? patterns.find((p) => p.name === condition.regularExpression) : undefined;
  return (
    <Card withBorder padding="sm" role="group" aria-label={`Condition ${condition.name}`}>
      <Stack gap="xs">
        <Group justify="space-between" align="flex-end" wrap="nowrap">
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="xs" style={{ flex: 1 }}>
            <TextInput label="Condition name" value={condition.name} onChange={(e) => set('name', e.currentTarget.value)} error={condition.name === '' ? 'must not be empty' : duplicateName ? 'another condition has this name' : undefined} />
            <Select
              label="Type"
              data={types.map((t) => ({ value: t.type, label: t.type }))}
              value={condition.type}
              onChange={(value) => {
                const next = types.find((t) => t.type === value);
                if (next && next.type !== condition.type) onChange({ ...blankCondition(next, condition.name, condition.arrType), negate: condition.negate, required: condition.required });
              }}
              allowDeselect={false}
            />
            <Select
              label="App"
              data={[{ value: 'all', label: 'All apps' }, ...(Object.keys(APP_LABELS) as ArrType[]).map((a) => ({ value: a, label: APP_LABELS[a] }))]}
              value={condition.arrType}
              onChange={(value) => value && set('arrType', value)}
              allowDeselect={false}
            />
          </SimpleGrid>
          <ActionIcon variant="subtle" color="red" aria-label={`Remove condition ${condition.name}`} onClick={onRemove}>
            ×
          </ActionIcon>
        </Group>
        {info?.kind === 'pattern' ? (
          <Stack gap={4}>
            <Select
              label="Regular expression"
              description="One of the database's regular expressions"
              data={patterns.map((p) => p.name)}
              value={String(condition.regularExpression ?? '') || null}
              onChange={(value) => set('regularExpression', value ?? '')}
              searchable
              nothingFoundMessage="No regular expression of that name"
              error={condition.regularExpression ? undefined : 'pick a regular expression'}
            />
            {picked ? <Code>{picked.pattern}</Code> : null}
          </Stack>
        ) : null}
        {info?.kind === 'value' || info?.kind === 'language' ? (
          <Group align="flex-end" gap="sm">
            <Select
              label={valueField === 'qualityModifier' ? 'Quality modifier' : valueField === 'releaseType' ? 'Release type' : valueField.charAt(0).toUpperCase() + valueField.slice(1)}
              data={valuesFor(info, condition.arrType)}
              value={String(condition[valueField] ?? '') || null}
              onChange={(value) => set(valueField, value ?? '')}
              searchable
              error={condition[valueField] ? undefined : 'pick a value'}
            />
            {info.kind === 'language' ? <Switch label="Except this language" checked={Boolean(condition.exceptLanguage)} onChange={(e) => set('exceptLanguage', e.currentTarget.checked)} /> : null}
          </Group>
        ) : null}
        {info?.kind === 'size' ? (
          <Group gap="sm">
            {(['minBytes', 'maxBytes'] as const).map((field) => (
              <NumberInput
                key={field}
                label={field === 'minBytes' ? 'Minimum size (GB)' : 'Maximum size (GB)'}
                placeholder="No limit"
                min={0}
                decimalScale={2}
                value={typeof condition[field] === 'number' ? (condition[field] as number) / GB : ''}
                onChange={(value) => set(field, typeof value === 'number' ? Math.round(value * GB) : null)}
              />
            ))}
          </Group>
        ) : null}
        {info?.kind === 'year' ? (
          <Group gap="sm">
            {(['minYear', 'maxYear'] as const).map((field) => (
              <NumberInput
                key={field}
                label={field === 'minYear' ? 'From year' : 'To year'}
                placeholder="No limit"
                min={0}
                max={9999}
                allowDecimal={false}
                value={typeof condition[field] === 'number' ? (condition[field] as number) : ''}
                onChange={(value) => set(field, typeof value === 'number' ? value : null)}
              />
            ))}
          </Group>
        ) : null}
        <Group gap="lg">
          <Switch label="Negate" checked={condition.negate} onChange={(e) => set('negate', e.currentTarget.checked)} />
          <Switch label="Required" checked={condition.required} onChange={(e) => set('required', e.currentTarget.checked)} />
        </Group>
        {leftOut ? (
          <Text size="sm" c="orange">
            {APP_LABELS[condition.arrType as ArrType]} has no {condition.type} condition: a sync leaves this one out.
          </Text>
        ) : info && condition.arrType === 'all' && apps.length < 3 ? (
          <Text size="sm" c="dimmed">
            Only {apps.map((a) => APP_LABELS[a]).join(' and ')} {apps.length === 1 ? 'has' : 'have'} this condition type; the others leave it out.
          </Text>
        ) : null}
      </Stack>
    </Card>
  );
}

/** Pasted titles explained against the saved format: each condition with why it passed or failed. */
function LiveTest({ databaseId, name, tests }: { databaseId: number; name: string; tests: CustomFormat['tests'] }) {
  const initialType: ReleaseType = tests.some((t) => t.type === 'series') && !tests.some((t) => t.type === 'movie') ? 'series' : 'movie';
  const [type, setType] = useState<ReleaseType>(initialType);
  const [text, setText] = useState(() => tests.filter((t) => t.type === initialType).map((t) => t.title).join('\n'));
  const [titles, setTitles] = useState<string[]>([]);
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const query = useExplainReleases(databaseId, type, titles);
  return (
    <Stack gap="sm" component="section" aria-label="Live test">
      <Title order={3} size="h4">
        Live test
      </Title>
      <Text size="sm" c="dimmed">
        Titles are evaluated against the saved format, as the apps would (save to test your changes).
      </Text>
      <SegmentedControl
        aria-label="Titles are"
        w="fit-content"
        value={type}
        onChange={(value) => setType(value as ReleaseType)}
        data={RELEASE_TYPE_OPTIONS}
      />
      <Textarea
        label="Titles to test"
        description={`One a line, up to ${MAX_TEST_TITLES}`}
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        autosize
        minRows={3}
        maxRows={10}
        error={lines.length > MAX_TEST_TITLES ? `at most ${MAX_TEST_TITLES} titles` : undefined}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
      />
      <Group>
        <Button variant="default" disabled={lines.length === 0 || lines.length > MAX_TEST_TITLES} onClick={() => setTitles(lines)}>
          Test titles
        </Button>
      </Group>
      {titles.length > 0 ? (
        <QueryState query={query} loadingLabel="Testing the titles">
          {(data) => (
            <Stack gap="md">
              {data.evaluations.map((e) => {
                const format = e.explain?.find((f) => f.name === name);
                return (
                  <Stack key={e.releaseId} gap={4} role="region" aria-label={`Test of ${e.title}`}>
                    <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
                      {e.title}
                    </Text>
                    {format ? <FormatExplanations formats={[format]} headingOrder={4} /> : <Badge color="gray">not in the saved database state</Badge>}
                  </Stack>
                );
              })}
            </Stack>
          )}
        </QueryState>
      ) : null}
    </Stack>
  );
}

/**
 * A custom format: its conditions of every type the apps support (the API's list, with the values
 * each app family has), a picker of the database's regular expressions, and a live test box that
 * explains pasted titles condition by condition.
 */
export function CustomFormatEditor(props: EditorProps) {
  const { draft, setDraft, frame } = useEntityDraft<CustomFormat>(props, customFormatChanges);
  const types = useConditionTypes();
  const regexes = useResolvedEntities(props.databaseId, 'regularExpression');
  const patterns = (regexes.data?.entities ?? []).map((e) => ({ name: e.name, pattern: String((e.entity as { pattern?: unknown } | null)?.pattern ?? '') }));
  const setConditions = (conditions: Condition[]) => setDraft({ ...draft, conditions });
  const names = draft.conditions.map((c) => c.name);
  const newName = () => {
    let i = draft.conditions.length + 1;
    while (names.includes(`Condition ${i}`)) i++;
    return `Condition ${i}`;
  };
  const invalid = names.some((n, i) => n === '' || names.indexOf(n) !== i);
  return (
    <EditorFrame {...frame} dirty={frame.dirty} onSave={invalid ? () => undefined : frame.onSave}>
      <Disclosure
        sectionKey="configuration:custom-format:details"
        order={3}
        title="Details"
        description="What the format is for; advanced: its tags and whether its name goes into renamed files."
        advanced={
          <Group align="flex-end" wrap="wrap">
            <TagsInput label="Tags" value={draft.tags} onChange={(tags) => setDraft({ ...draft, tags })} clearable />
            <Switch label="Include in renaming" checked={draft.includeInRename} onChange={(e) => setDraft({ ...draft, includeInRename: e.currentTarget.checked })} />
          </Group>
        }
      >
        <Textarea label="Description" value={draft.description ?? ''} onChange={(e) => setDraft({ ...draft, description: e.currentTarget.value || null })} autosize minRows={2} />
      </Disclosure>
      <Stack gap="xs" component="section" aria-label="Conditions">
        <Title order={3} size="h4">
          Conditions
        </Title>
        <Text size="sm" c="dimmed">
          Conditions of one type form a group: a group passes when no required condition fails and at least one passes (negate applied first); the format matches when every group passes.
        </Text>
        <QueryState query={types} loadingLabel="Loading the condition types">
          {(catalog) => (
            <Stack gap="xs">
              {draft.conditions.map((condition, index) => (
                <ConditionCard
                  key={index}
                  condition={condition}
                  info={catalog.types.find((t) => t.type === condition.type)}
                  types={catalog.types}
                  patterns={patterns}
                  duplicateName={names.indexOf(condition.name) !== index}
                  onChange={(next) => setConditions(draft.conditions.map((c, i) => (i === index ? next : c)))}
                  onRemove={() => setConditions(draft.conditions.filter((_, i) => i !== index))}
                />
              ))}
              <Group>
                <Button variant="default" onClick={() => setConditions([...draft.conditions, blankCondition(catalog.types[0], newName(), 'all')])}>
                  Add a condition
                </Button>
              </Group>
            </Stack>
          )}
        </QueryState>
        {invalid ? (
          <Text size="sm" c="red" role="alert">
            Every condition needs a name of its own before saving.
          </Text>
        ) : null}
      </Stack>
      <LiveTest key={same(draft.tests, []) ? 'none' : 'tests'} databaseId={props.databaseId} name={props.name} tests={draft.tests} />
    </EditorFrame>
  );
}
