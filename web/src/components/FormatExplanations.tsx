import { Badge, Group, Stack, Text, Title } from '@mantine/core';
import type { ConditionExplanation, FormatExplanation } from '../api/entity-testing';
import { DataTable } from './DataTable';

const FORMAT_RESULT: Record<FormatExplanation['result'], { label: string; color: string }> = {
  match: { label: 'matches', color: 'green' },
  noMatch: { label: 'does not match', color: 'gray' },
  undecided: { label: 'undecided', color: 'yellow' },
  notApplicable: { label: 'not for this app', color: 'gray' },
};

const CONDITION_RESULT: Record<ConditionExplanation['result'], { label: string; color: string }> = {
  pass: { label: 'pass', color: 'green' },
  fail: { label: 'fail', color: 'red' },
  notEvaluable: { label: 'not evaluable', color: 'yellow' },
  leftOut: { label: 'left out', color: 'gray' },
};

/** Why each format matched or not: its conditions with their result (after negate) and the API's reason. */
export function FormatExplanations({ formats, headingOrder = 4 }: { formats: FormatExplanation[]; headingOrder?: 3 | 4 | 5 }) {
  return (
    <Stack gap="md">
      {formats.map((format) => (
        <Stack key={format.customFormatId} gap={4}>
          <Group gap="xs">
            <Title order={headingOrder} size="h5">
              {format.name}
            </Title>
            <Badge color={FORMAT_RESULT[format.result].color} variant="light" size="sm">
              {FORMAT_RESULT[format.result].label}
            </Badge>
          </Group>
          {format.conditions.length === 0 ? (
            <Text size="sm" c="dimmed">
              No conditions.
            </Text>
          ) : (
            <DataTable
              label={`Conditions of ${format.name}`}
              minWidth={560}
              striped={false}
              rows={format.conditions.map((condition, index) => ({ ...condition, key: `${condition.name}:${index}` }))}
              rowKey={(c) => c.key}
              columns={[
                {
                  label: 'Condition',
                  cell: (c) => (
                    <>
                      {c.name}
                      {c.required ? <Text span size="xs" c="dimmed"> · required</Text> : null}
                      {c.negate ? <Text span size="xs" c="dimmed"> · negated</Text> : null}
                    </>
                  ),
                },
                {
                  label: 'Type',
                  cell: (c) => (
                    <Text size="sm" ff="monospace">
                      {c.type}
                    </Text>
                  ),
                },
                {
                  label: 'Result',
                  cell: (c) => (
                    <Badge color={CONDITION_RESULT[c.result].color} variant="light" size="sm">
                      {CONDITION_RESULT[c.result].label}
                    </Badge>
                  ),
                },
                { label: 'Why', cell: (c) => c.reason },
              ]}
            />
          )}
        </Stack>
      ))}
    </Stack>
  );
}
