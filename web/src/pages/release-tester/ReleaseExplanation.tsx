import { SegmentedControl, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useExplainReleases, type ReleaseType } from '../../api/entity-testing';
import { FormatExplanations } from '../../components/FormatExplanations';
import { QueryState } from '../../components/QueryState';

type Shown = 'decided' | 'all';

/** One title's explanation, asked for that title alone (the API explains at most 50 releases a request). */
export function ReleaseExplanation({ databaseId, type, title, warnings }: { databaseId: number; type: ReleaseType; title: string; warnings: string[] }) {
  const query = useExplainReleases(databaseId, type, [title]);
  const [shown, setShown] = useState<Shown>('decided');
  return (
    <Stack gap="sm" style={{ flex: 1 }} aria-label={`Explanation of ${title}`} role="region">
      {warnings.map((w) => (
        <Text key={w} size="sm" c="orange">
          {w}
        </Text>
      ))}
      <SegmentedControl
        aria-label="Formats shown"
        size="xs"
        w="fit-content"
        value={shown}
        onChange={(value) => setShown(value as Shown)}
        data={[
          { value: 'decided', label: 'Matching and undecided' },
          { value: 'all', label: 'All formats' },
        ]}
      />
      <QueryState query={query} loadingLabel={`Explaining ${title}`}>
        {(data) => {
          const formats = (data.evaluations[0]?.explain ?? []).filter((f) => shown === 'all' || f.result === 'match' || f.result === 'undecided');
          return formats.length === 0 ? <Text size="sm">No custom format matches this title.</Text> : <FormatExplanations formats={formats} />;
        }}
      </QueryState>
    </Stack>
  );
}
