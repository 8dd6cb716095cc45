import { Center, EmptyState, Loader } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ErrorDisplay } from './ErrorDisplay';

interface QueryStateProps<T> {
  query: UseQueryResult<T>;
  /** What is loading, for screen readers ("Loading instances"). */
  loadingLabel: string;
  /** The data has nothing to show: render `empty` instead of children. */
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  children: (data: T) => ReactNode;
}

/** The three states every page shows before its data: loading, error (the API's text), empty. */
export function QueryState<T>({ query, loadingLabel, isEmpty, empty, children }: QueryStateProps<T>) {
  if (query.isPending) {
    return (
      <Center py="xl">
        <Loader aria-label={loadingLabel} role="status" />
      </Center>
    );
  }
  if (query.isError) return <ErrorDisplay error={query.error} onRetry={() => void query.refetch()} />;
  if (isEmpty?.(query.data)) return <>{empty}</>;
  return <>{children(query.data)}</>;
}

/** The empty state of a list: what is missing and what to do about it. */
export function Empty({ title, description, action }: { title: string; description?: ReactNode; action?: ReactNode }) {
  return (
    <EmptyState title={title} description={description} py="xl">
      {action ? <EmptyState.Actions>{action}</EmptyState.Actions> : null}
    </EmptyState>
  );
}
