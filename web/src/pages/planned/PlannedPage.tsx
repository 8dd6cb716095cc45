import { Anchor, Text } from '@mantine/core';
import { urlBase } from '../../api/client';
import { Empty } from '../../components/QueryState';
import { PageHeader } from '../../components/PageHeader';

/** A page of the navigation that is not built yet: says so and points at the API that does it today. */
export function PlannedPage({ title, api }: { title: string; api: string }) {
  return (
    <>
      <PageHeader title={title} />
      <Empty
        title="This page is not built yet"
        description={
          <Text size="sm" c="dimmed" component="span">
            The API does it today ({api}); see the{' '}
            <Anchor href={`${urlBase()}/docs/`} inherit underline="always">
              API documentation
            </Anchor>
            .
          </Text>
        }
      />
    </>
  );
}
