import { Anchor, Button, Card, Collapse, Group, Select, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { useCheckDrift, useDriftList, type DriftDetail, type DriftReason, type DriftStatus } from '../../api/drift';
import { APP_LABELS } from '../../api/types';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { PageHeader } from '../../components/PageHeader';
import { Empty, QueryState } from '../../components/QueryState';
import { StatusBadge } from '../../components/StatusBadge';
import { SyncChangeList } from '../../components/SyncChangeList';
import { TimeAgo } from '../../components/TimeAgo';
import { DriftSettingsCard } from './DriftSettingsCard';

/** The reasons in words (the codes are the API's; typed by them, so a new one needs its words here). */
const REASONS: Record<DriftReason, string> = {
  unreachable: 'the app could not be reached',
  timeout: 'the app did not answer in time',
  unauthorized: 'the app refused the API key',
  invalid_response: 'the app answered something that could not be read',
  app_mismatch: "the app at the instance's address is of another type",
  not_configured: 'the instance has no sync configuration',
  cache_not_ready: "the configuration database's state is not ready",
  rate_limited: 'the app asked arrgo to slow down',
  error: 'the check failed',
};

const STATUSES: Record<DriftStatus, string> = {
  'in-sync': 'In sync',
  drifted: 'Drifted',
  unreachable: 'Unreachable',
  unauthorized: 'Unauthorized',
  error: 'Error',
  'never-checked': 'Never checked',
};

const CATEGORIES = [
  { key: 'drift', title: 'Drifted', description: 'Changed in the app since arrgo wrote it.' },
  { key: 'missing', title: 'Missing', description: 'Desired, but not in the app.' },
  { key: 'unmanaged', title: 'Unmanaged', description: 'In the app, not managed by arrgo (kept unless the sync configuration deletes unmanaged entries).' },
] as const;

function counts(result: DriftDetail): string {
  const { drifted, missing, unmanaged } = result.counts;
  return `${drifted} drifted, ${missing} missing, ${unmanaged} unmanaged`;
}

function DriftResult({ result }: { result: DriftDetail }) {
  const check = useCheckDrift();
  // Open by default when something drifted or is missing, until the user chooses.
  const [chosen, setChosen] = useState<boolean | null>(null);
  const entries = result.drift.length + result.missing.length + result.unmanaged.length;
  const open = chosen ?? (result.counts.drifted > 0 || result.counts.missing > 0);
  const panelId = `drift-entries-${result.instanceId}`;
  const titleId = `drift-title-${result.instanceId}`;
  return (
    <Card withBorder component="section" aria-labelledby={titleId}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Group gap="xs" wrap="wrap">
            <Title order={3} size="h5" id={titleId}>
              <Anchor component={Link} to={`/instances/${result.instanceId}`} inherit>
                {result.instanceName}
              </Anchor>
            </Title>
            <Text size="sm" c="dimmed">
              {APP_LABELS[result.arrType]}
            </Text>
            <StatusBadge status={result.status} label={STATUSES[result.status]} />
          </Group>
          <Button size="xs" variant="default" loading={check.isPending} onClick={() => check.mutate(result.instanceId)} aria-label={`Check now: ${result.instanceName}`}>
            Check now
          </Button>
        </Group>
        {result.reason ? (
          <Text size="sm">
            Reason: {REASONS[result.reason]} ({result.reason})
          </Text>
        ) : null}
        <Text size="sm" c="dimmed">
          Checked <TimeAgo iso={result.checkedAt} />
          {result.contentCheckedAt && result.contentCheckedAt !== result.checkedAt ? (
            <>
              ; content last compared <TimeAgo iso={result.contentCheckedAt} />
            </>
          ) : null}
          {result.detectedVersion ? ` · version ${result.detectedVersion}` : ''} · {counts(result)}
        </Text>
        {check.isError ? <ErrorDisplay title="The check did not run" error={check.error} /> : null}
        {entries ? (
          <>
            <Group>
              <Button variant="subtle" size="compact-sm" onClick={() => setChosen(!open)} aria-expanded={open} aria-controls={panelId}>
                {open ? 'Hide entries' : `Show ${entries} ${entries === 1 ? 'entry' : 'entries'}`}
              </Button>
            </Group>
            <Collapse expanded={open} id={panelId}>
              <Stack gap="md">
                {CATEGORIES.filter((c) => result[c.key].length).map((category) => (
                  <Stack key={category.key} gap="xs" component="section" aria-label={`${result.instanceName}: ${category.title.toLowerCase()}`}>
                    <Title order={4} size="h5">
                      {category.title} ({result[category.key].length})
                    </Title>
                    <Text size="xs" c="dimmed">
                      {category.description}
                    </Text>
                    <SyncChangeList changes={result[category.key]} headingOrder={5} showUnchanged />
                  </Stack>
                ))}
              </Stack>
            </Collapse>
          </>
        ) : null}
      </Stack>
    </Card>
  );
}

export function DriftPage() {
  const drift = useDriftList();
  const [status, setStatus] = useState<DriftStatus | null>(null);
  return (
    <>
      <PageHeader title="Drift" description="What changed in the apps since arrgo wrote them: per instance, by section and category." />
      <Stack gap="lg">
        <Stack gap="xs" component="section" aria-labelledby="drift-schedule">
          <Title order={2} size="h4" id="drift-schedule">
            Schedule
          </Title>
          <DriftSettingsCard />
        </Stack>
        <Stack gap="xs" component="section" aria-labelledby="drift-results">
          <Group justify="space-between" align="flex-end">
            <Title order={2} size="h4" id="drift-results">
              Instances
            </Title>
            <Select
              label="Status"
              placeholder="Any status"
              clearable
              data={(Object.keys(STATUSES) as DriftStatus[]).map((value) => ({ value, label: STATUSES[value] }))}
              value={status}
              onChange={(value) => setStatus(value as DriftStatus | null)}
              w={200}
            />
          </Group>
          <QueryState
            query={drift}
            loadingLabel="Loading drift results"
            isEmpty={(data) => data.length === 0}
            empty={<Empty title="No instances" description="Add an instance with a sync configuration, and arrgo checks it for drift." />}
          >
            {(data) => {
              const shown = status ? data.filter((r) => r.status === status) : data;
              return shown.length ? (
                <Stack gap="sm">
                  {shown.map((result) => (
                    <DriftResult key={result.instanceId} result={result} />
                  ))}
                </Stack>
              ) : (
                <Empty title={`No instance is ${STATUSES[status!].toLowerCase()}`} />
              );
            }}
          </QueryState>
        </Stack>
      </Stack>
    </>
  );
}
