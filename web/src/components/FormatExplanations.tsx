import { Badge, Group, Stack, Table, Text, Title } from '@mantine/core';
import type { ConditionExplanation, FormatExplanation } from '../api/entity-testing';

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
            <Table.ScrollContainer minWidth={560}>
              <Table verticalSpacing={4} aria-label={`Conditions of ${format.name}`}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Condition</Table.Th>
                    <Table.Th>Type</Table.Th>
                    <Table.Th>Result</Table.Th>
                    <Table.Th>Why</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {format.conditions.map((condition, index) => (
                    <Table.Tr key={`${condition.name}:${index}`}>
                      <Table.Td>
                        {condition.name}
                        {condition.required ? <Text span size="xs" c="dimmed"> · required</Text> : null}
                        {condition.negate ? <Text span size="xs" c="dimmed"> · negated</Text> : null}
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm" ff="monospace">
                          {condition.type}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Badge color={CONDITION_RESULT[condition.result].color} variant="light" size="sm">
                          {CONDITION_RESULT[condition.result].label}
                        </Badge>
                      </Table.Td>
                      <Table.Td>{condition.reason}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </Stack>
      ))}
    </Stack>
  );
}
