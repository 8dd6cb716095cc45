import { Card, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A bordered part of a page: a region named by its h2 title. */
export function SectionCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card withBorder component="section" aria-label={title}>
      <Stack gap="sm">
        <Title order={2} size="h4">
          {title}
        </Title>
        {children}
      </Stack>
    </Card>
  );
}
