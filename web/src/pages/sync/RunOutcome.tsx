import { Anchor, Card, Group, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useSyncRun } from '../../api/sync';
import type { SyncHistoryItem, SyncPreview } from '../../api/types';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { StatusBadge } from '../../components/StatusBadge';
import { Stat } from '../../components/Stat';
import { TimeAgo } from '../../components/TimeAgo';
import { plural } from './labels';
import { VerificationSummary } from './Verification';

function RunCounts({ run }: { run: SyncHistoryItem }) {
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }}>
      <Stat label="Changes planned" value={run.entityChangeCount} />
      <Stat label="Writes confirmed by the app" value={run.entityOutcomeCount} />
      <Stat label="Items in step" value={run.itemsSynced} />
      <Stat label="Sections written" value={run.sectionsRun} />
    </SimpleGrid>
  );
}

/** While the apply runs: the writes the app has confirmed so far (the run records each one). */
export function ApplyProgress({ preview }: { preview: SyncPreview }) {
  const run = useSyncRun(preview.runId, true);
  const planned = preview.counts.create + preview.counts.update + preview.counts.delete;
  return (
    <Card withBorder component="section" aria-label="Apply progress">
      <Stack gap="sm">
        <Title order={2} size="h4">
          Applying to {preview.instanceName}
        </Title>
        <Progress value={100} striped animated aria-label={`Applying ${plural(planned, 'change')} to ${preview.instanceName}`} />
        <Text size="sm" aria-live="polite">
          {run.data ? `${plural(run.data.entityOutcomeCount, 'write')} confirmed by the app so far, of ${plural(planned, 'change')} planned.` : `Starting the apply of ${plural(planned, 'change')}.`}
        </Text>
      </Stack>
    </Card>
  );
}

/** After the apply: the run's outcome, as sync history keeps it. */
export function RunOutcome({ preview }: { preview: SyncPreview }) {
  const run = useSyncRun(preview.runId, false);
  return (
    <Card withBorder component="section" aria-label="Apply outcome">
      <Stack gap="sm">
        <Group gap="xs">
          <Title order={2} size="h4">
            Sync run {preview.runId}
          </Title>
          {run.data ? <StatusBadge status={run.data.status} /> : null}
        </Group>
        {run.isError ? <ErrorDisplay title="The run could not be read" error={run.error} /> : null}
        {run.data ? (
          <>
            <RunCounts run={run.data} />
            <VerificationSummary verification={run.data.verification} />
            <Text size="sm" c="dimmed">
              Started <TimeAgo iso={run.data.startedAt} />
              {run.data.finishedAt ? (
                <>
                  , finished <TimeAgo iso={run.data.finishedAt} />
                </>
              ) : null}
              .{' '}
              <Anchor component={Link} to={`/sync/history?instanceId=${preview.instanceId}`} inherit>
                Sync history of {preview.instanceName}
              </Anchor>
            </Text>
          </>
        ) : null}
      </Stack>
    </Card>
  );
}
