import { Button } from '@mantine/core';
import { Link } from 'react-router';
import { Empty } from '../components/QueryState';
import { PageHeader } from '../components/PageHeader';

export function NotFoundPage() {
  return (
    <>
      <PageHeader title="Page not found" />
      <Empty
        title="There is no page at this address"
        action={
          <Button component={Link} to="/" variant="default">
            Go to the dashboard
          </Button>
        }
      />
    </>
  );
}
