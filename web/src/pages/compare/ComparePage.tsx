import { Text } from '@mantine/core';
import { PageHeader } from '../../components/PageHeader';

// Placeholder until its page is built (issue 27).
export function ComparePage() {
  return (
    <>
      <PageHeader title="Compare" />
      <Text>This page is being built.</Text>
    </>
  );
}
