import { Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { useAuthStatus, useSetup } from '../../api/auth';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { PageLoader } from '../../components/PageLoader';
import { AuthCard } from './AuthCard';

/** First start: creates the admin user (and signs in with it). */
export function SetupPage() {
  const status = useAuthStatus();
  const setup = useSetup();
  const navigate = useNavigate();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [repeated, setRepeated] = useState('');
  const mismatch = repeated !== '' && repeated !== password;

  if (status.isPending) return <PageLoader label="Checking the session" />;
  if (status.data && !status.data.setupRequired && !setup.isPending) return <Navigate to={status.data.authenticated ? '/' : '/login'} replace />;

  return (
    <AuthCard title="Create the admin user" description="arrgo has no user yet. The user you create here signs in to this console; API clients keep using the API key.">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (mismatch) return;
          setup.mutate({ username, password }, { onSuccess: () => navigate('/', { replace: true }) });
        }}
      >
        <Stack>
          {status.isError ? <ErrorDisplay error={status.error} /> : null}
          {setup.isError ? <ErrorDisplay title="The user was not created" error={setup.error} /> : null}
          <TextInput label="Username" autoComplete="username" required value={username} onChange={(e) => setUsername(e.currentTarget.value)} />
          <PasswordInput label="Password" autoComplete="new-password" required value={password} onChange={(e) => setPassword(e.currentTarget.value)} />
          <PasswordInput
            label="Repeat the password"
            autoComplete="new-password"
            required
            value={repeated}
            error={mismatch ? 'The two passwords differ' : undefined}
            onChange={(e) => setRepeated(e.currentTarget.value)}
          />
          <Button type="submit" loading={setup.isPending} disabled={mismatch}>
            Create the user and sign in
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
