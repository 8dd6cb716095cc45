import { Center, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect, type ReactNode } from 'react';

/** The frame of the sign-in and setup pages (no navigation: there is no session yet). */
export function AuthCard({ title, description, children }: { title: string; description: ReactNode; children: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · arrgo`;
  }, [title]);
  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder shadow="sm" p="xl" w="100%" maw={420}>
        <Stack>
          <Text fw={700} size="xl">
            arrgo
          </Text>
          <Title order={1} size="h3">
            {title}
          </Title>
          <Text size="sm" c="dimmed">
            {description}
          </Text>
          {children}
        </Stack>
      </Paper>
    </Center>
  );
}
