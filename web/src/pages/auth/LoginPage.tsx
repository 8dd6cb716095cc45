import { Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { useAuthStatus, useLogin } from '../../api/auth';
import { safeNext } from '../../app/RequireSession';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { PageLoader } from '../../components/PageLoader';
import { AuthCard } from './AuthCard';

export function LoginPage() {
  const status = useAuthStatus();
  const login = useLogin();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');

  if (status.isPending) return <PageLoader label="Checking the session" />;
  if (status.data?.setupRequired) return <Navigate to="/setup" replace />;
  if (status.data?.authenticated && !login.isPending) return <Navigate to={next} replace />;

  return (
    <AuthCard title="Sign in" description="Sign in with the user created when arrgo was first set up.">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          login.mutate({ username, password }, { onSuccess: () => navigate(next, { replace: true }) });
        }}
      >
        <Stack>
          {status.isError ? <ErrorDisplay error={status.error} /> : null}
          {login.isError ? <ErrorDisplay title="Not signed in" error={login.error} /> : null}
          <TextInput label="Username" autoComplete="username" required value={username} onChange={(e) => setUsername(e.currentTarget.value)} />
          <PasswordInput label="Password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.currentTarget.value)} />
          <Button type="submit" loading={login.isPending}>
            Sign in
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
