import { ActionIcon, Button, Checkbox, Group, NumberInput, SegmentedControl, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useResolvedEntities } from '../../../../api/pcd';
import { APP_LABELS } from '../../../../api/types';
import { NumberField } from '../NumberField';
import { SCORE_SCOPES, withScores, type QualityProfile, type ScoreScope, type Scores } from './model';

const SCOPE_LABELS: Record<ScoreScope, string> = { all: 'All apps', ...APP_LABELS };

interface ScoreTableProps {
  databaseId: number;
  profile: QualityProfile;
  onChange: (scores: Scores) => void;
}

/** A NumberInput's value as a number, or null while it is cleared or unfinished ("-"). */
const numberOf = (value: number | string): number | null => (typeof value === 'number' ? value : null);

/**
 * The custom-format scores of a profile, one scope at a time ('all', or one app family's own
 * scores), with search, add and remove, and bulk actions on the selected rows: set a score, scale
 * by a factor, or copy the scores another profile gives.
 */
export function ScoreTable({ databaseId, profile, onChange }: ScoreTableProps) {
  const scores = profile.customFormats;
  const [scope, setScope] = useState<ScoreScope>(() => SCORE_SCOPES.find((s) => scores[s].length > 0) ?? 'all');
  const [search, setSearch] = useState('');
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [bulkScore, setBulkScore] = useState<number | null>(0);
  const [factor, setFactor] = useState<number | null>(1);
  const [source, setSource] = useState<string | null>(null);
  const [adding, setAdding] = useState<string | null>(null);
  const formats = useResolvedEntities(databaseId, 'customFormat');
  const profiles = useResolvedEntities(databaseId, 'qualityProfile');

  const rows = scores[scope];
  const needle = search.trim().toLowerCase();
  const shown = useMemo(() => rows.filter((r) => r.name.toLowerCase().includes(needle)), [rows, needle]);
  const chosen = rows.filter((r) => selected.has(r.name));
  const allShownChosen = shown.length > 0 && shown.every((r) => selected.has(r.name));

  const update = (list: Scores[ScoreScope]) => onChange({ ...scores, [scope]: list });
  const setScores = (changes: Map<string, number>) => update(withScores(rows, changes));
  const pickScope = (next: ScoreScope) => {
    setScope(next);
    setSelected(new Set());
  };
  const toggle = (name: string, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(name);
    else next.delete(name);
    setSelected(next);
  };

  const otherProfile = profiles.data?.entities.find((e) => e.name === source)?.entity as QualityProfile | undefined;
  const copyFrom = () => {
    if (!otherProfile) return;
    const theirs = otherProfile.customFormats[scope].filter((s) => chosen.length === 0 || selected.has(s.name));
    setScores(new Map(theirs.map((s) => [s.name, s.score])));
  };
  const addable = (formats.data?.entities ?? []).map((e) => e.name).filter((name) => !rows.some((r) => r.name === name));

  return (
    <Stack gap="sm">
      <SegmentedControl
        aria-label="Score scope"
        value={scope}
        onChange={(value) => pickScope(value as ScoreScope)}
        data={SCORE_SCOPES.map((s) => ({ value: s, label: `${SCOPE_LABELS[s]} (${scores[s].length})` }))}
        style={{ alignSelf: 'flex-start', maxWidth: '100%', overflowX: 'auto' }}
      />
      <Group gap="sm" align="flex-end" wrap="wrap">
        <TextInput label="Search formats" value={search} onChange={(event) => setSearch(event.currentTarget.value)} w={240} />
        <Select
          label="Add a format"
          placeholder={formats.isPending ? 'Loading formats' : 'Pick a custom format'}
          data={addable}
          searchable
          value={adding}
          onChange={setAdding}
          w={240}
          nothingFoundMessage="No format left to add"
        />
        <Button
          variant="default"
          disabled={adding === null}
          onClick={() => {
            setScores(new Map([[adding!, 0]]));
            setAdding(null);
          }}
        >
          Add format
        </Button>
      </Group>

      <Stack component="section" aria-label="Bulk actions" gap="xs">
        <Text size="sm" aria-live="polite">
          {chosen.length === 0 ? 'Select rows for the bulk actions.' : `${chosen.length} selected`}
        </Text>
        <Group gap="sm" align="flex-end" wrap="wrap">
          <NumberInput label="Score for the selected" allowDecimal={false} value={bulkScore ?? ''} onChange={(v) => setBulkScore(numberOf(v))} w={170} />
          <Button variant="default" disabled={chosen.length === 0 || bulkScore === null} onClick={() => setScores(new Map(chosen.map((r) => [r.name, bulkScore!])))}>
            Set score
          </Button>
          <NumberInput label="Factor" decimalScale={3} value={factor ?? ''} onChange={(v) => setFactor(numberOf(v))} w={110} />
          <Button
            variant="default"
            disabled={chosen.length === 0 || factor === null}
            onClick={() => setScores(new Map(chosen.map((r) => [r.name, Math.round(r.score * factor!)])))}
          >
            Scale scores
          </Button>
          <Select
            label="Copy from profile"
            placeholder={profiles.isPending ? 'Loading profiles' : 'Pick a profile'}
            data={(profiles.data?.entities ?? []).map((e) => e.name).filter((n) => n !== profile.name)}
            value={source}
            onChange={setSource}
            searchable
            w={220}
          />
          <Button variant="default" disabled={!otherProfile} onClick={copyFrom}>
            Copy scores
          </Button>
        </Group>
        <Text size="xs" c="dimmed">
          Copy takes the other profile&apos;s {SCOPE_LABELS[scope]} scores: of the selected formats, or of every format it scores when nothing is selected (formats it scores that this profile lacks are added).
        </Text>
      </Stack>

      <Table.ScrollContainer minWidth={480}>
        <Table striped verticalSpacing={4} aria-label={`Custom format scores of ${profile.name} (${SCOPE_LABELS[scope]})`}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={40}>
                <Checkbox
                  aria-label="Select every format shown"
                  checked={allShownChosen}
                  indeterminate={!allShownChosen && shown.some((r) => selected.has(r.name))}
                  onChange={(event) => {
                    const next = new Set(selected);
                    for (const r of shown) {
                      if (event.currentTarget.checked) next.add(r.name);
                      else next.delete(r.name);
                    }
                    setSelected(next);
                  }}
                />
              </Table.Th>
              <Table.Th>Custom format</Table.Th>
              <Table.Th>Score</Table.Th>
              <Table.Th>
                <Text span size="sm" fw={700}>
                  Remove
                </Text>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.map((row) => (
              <Table.Tr key={row.name}>
                <Table.Td>
                  <Checkbox aria-label={`Select ${row.name}`} checked={selected.has(row.name)} onChange={(event) => toggle(row.name, event.currentTarget.checked)} />
                </Table.Td>
                <Table.Td>{row.name}</Table.Td>
                <Table.Td>
                  <NumberField aria-label={`Score of ${row.name}`} allowDecimal={false} value={row.score} onValue={(score) => setScores(new Map([[row.name, score]]))} size="xs" w={120} />
                </Table.Td>
                <Table.Td>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={`Remove ${row.name}`}
                    onClick={() => {
                      update(rows.filter((r) => r.name !== row.name));
                      toggle(row.name, false);
                    }}
                  >
                    <Text aria-hidden>×</Text>
                  </ActionIcon>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {shown.length === 0 ? (
        <Text size="sm" c="dimmed">
          {rows.length === 0 ? `No ${SCOPE_LABELS[scope]} score in this profile.` : 'No format matches the search.'}
        </Text>
      ) : null}
    </Stack>
  );
}
