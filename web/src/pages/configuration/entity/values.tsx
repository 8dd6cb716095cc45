import { Code, Text } from '@mantine/core';

/** A field's value as the API gives it: text as it is, other values as JSON. */
export function FieldValue({ value }: { value: unknown }) {
  if (value === null || value === undefined) {
    return (
      <Text size="sm" c="dimmed" component="span">
        (none)
      </Text>
    );
  }
  if (typeof value === 'string') return <Code style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>{value}</Code>;
  return <Code>{JSON.stringify(value)}</Code>;
}
