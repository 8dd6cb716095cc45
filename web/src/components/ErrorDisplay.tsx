import { Alert, Button, Code, Group, Stack, Text } from '@mantine/core';
import { ApiError } from '../api/client';

/** The code a refusal carries beside its text (e.g. appMismatch), when it has one. */
function refusalCode(error: unknown): string | null {
  if (!(error instanceof ApiError) || !error.body || typeof error.body !== 'object') return null;
  const code = (error.body as { code?: unknown }).code;
  return typeof code === 'string' ? code : null;
}

/** What the user reads: the API's {error} text, or a plain sentence when arrgo did not answer. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  return 'arrgo did not answer. Check that it is running and that this page can reach it.';
}

/** A failed request or a refusal: the API's own message (and its code), with a retry when given. */
export function ErrorDisplay({ error, title, onRetry }: { error: unknown; title?: string; onRetry?: () => void }) {
  const code = refusalCode(error);
  const retryAfter = error instanceof ApiError ? error.retryAfterSeconds : null;
  return (
    <Alert color="red" variant="light" title={title ?? 'The request failed'} role="alert">
      <Stack gap="xs">
        <Text size="sm">
          {code ? <Code mr={6}>{code}</Code> : null}
          {errorMessage(error)}
        </Text>
        {retryAfter ? <Text size="sm">Try again in {retryAfter} s.</Text> : null}
        {onRetry ? (
          <Group>
            <Button size="xs" variant="default" onClick={onRetry}>
              Try again
            </Button>
          </Group>
        ) : null}
      </Stack>
    </Alert>
  );
}
