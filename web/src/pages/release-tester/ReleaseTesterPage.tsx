import { Text } from '@mantine/core';
import { PageHeader } from '../../components/PageHeader';

// Placeholder until its page is built (issue 27).
export function ReleaseTesterPage() {
  return (
    <>
      <PageHeader title="Release tester" />
      <Text>This page is being built.</Text>
    </>
  );
}
