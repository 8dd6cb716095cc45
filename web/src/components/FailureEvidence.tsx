import { Alert, Code, Stack, Text } from '@mantine/core';

export interface Evidence {
  code: string;
  message: string;
  recoveryAction?: string | null;
}

/** Failure evidence as the API authors it: what failed (code), what it means, and what to do. */
export function FailureEvidence({ evidence, title, onClose }: { evidence: Evidence; title?: string; onClose?: () => void }) {
  return (
    <Alert color="orange" variant="light" title={title ?? 'What went wrong'} role="alert" withCloseButton={!!onClose} onClose={onClose} closeButtonLabel="Dismiss">
      <Stack gap={4}>
        <Text size="sm">
          <Code>{evidence.code}</Code> {evidence.message}
        </Text>
        {evidence.recoveryAction ? (
          <Text size="sm">
            <Text span fw={600}>
              What to do:
            </Text>{' '}
            {evidence.recoveryAction}
          </Text>
        ) : null}
      </Stack>
    </Alert>
  );
}
