import { Alert, Text } from '@mantine/core';
import type { InstanceTestResult } from '../../api/types';
import { FailureEvidence } from '../../components/FailureEvidence';

/** What a connection test found: the app and version, or why it failed (the API's pre-authored text). */
export function ConnectionOutcome({ name, result, onClose }: { name: string; result: InstanceTestResult; onClose?: () => void }) {
  if (result.reachable && result.matchesArrType !== false) {
    return (
      <Alert color="green" variant="light" title={`${name}: connected`} withCloseButton={!!onClose} onClose={onClose} closeButtonLabel="Dismiss">
        <Text size="sm">
          {result.appName} {result.version} answered with this API key.
        </Text>
      </Alert>
    );
  }
  return (
    <FailureEvidence
      onClose={onClose}
      title={`${name}: the connection test failed`}
      evidence={{ code: result.reason ?? 'unknown', message: result.message ?? 'The app did not answer as expected.', recoveryAction: result.recoveryAction }}
    />
  );
}
