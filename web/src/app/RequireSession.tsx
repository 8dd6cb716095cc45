import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useAuthStatus } from '../api/auth';
import { ErrorDisplay } from '../components/ErrorDisplay';
import { PageLoader } from '../components/PageLoader';
import { Container } from '@mantine/core';

/** The console's pages need a session: the setup page first on a new arrgo, else the sign-in page. */
export function RequireSession({ children }: { children: ReactNode }) {
  const status = useAuthStatus();
  const location = useLocation();
  if (status.isPending) return <PageLoader label="Checking the session" />;
  if (status.isError) {
    return (
      <Container size="sm" py="xl">
        <ErrorDisplay title="arrgo cannot tell who you are" error={status.error} onRetry={() => void status.refetch()} />
      </Container>
    );
  }
  if (status.data.setupRequired) return <Navigate to="/setup" replace />;
  if (!status.data.authenticated) {
    const next = `${location.pathname}${location.search}`;
    return <Navigate to={next === '/' ? '/login' : `/login?next=${encodeURIComponent(next)}`} replace />;
  }
  return <>{children}</>;
}

/** Where to go after signing in: a path inside the console only (never another site). */
export function safeNext(value: string | null): string {
  return value && value.startsWith('/') && !value.startsWith('//') && !value.includes('\\') ? value : '/';
}
