import { Stack, Text } from '@mantine/core';

/** A labelled number ("Ops 6019"), laid out in a grid of them. */
export function Stat({ label, value }: { label: string; value: number | null | undefined }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={600}>{value ?? '–'}</Text>
    </Stack>
  );
}
