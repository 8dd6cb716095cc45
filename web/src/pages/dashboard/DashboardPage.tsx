import { Anchor, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useFleetOverview } from '../../api/fleet';
import { APP_LABELS, type FleetInstance, type FleetOverview } from '../../api/types';
import { DataTable } from '../../components/DataTable';
import { ExternalLink } from '../../components/ExternalLink';
import { InstanceLink } from '../../components/InstanceLink';
import { PageHeader } from '../../components/PageHeader';
import { Empty, QueryState } from '../../components/QueryState';
import { StatusBadge } from '../../components/StatusBadge';
import { formatDuration, TimeAgo } from '../../components/TimeAgo';

function CountCard({ title, counts }: { title: string; counts: Record<string, number> }) {
  return (
    <Card withBorder padding="sm" component="section" aria-label={title}>
      <Text fw={600} size="sm" mb="xs">
        {title}
      </Text>
      <Stack gap={6}>
        {Object.entries(counts)
          .filter(([, n]) => n > 0)
          .map(([status, n]) => (
            <Group key={status} justify="space-between" wrap="nowrap">
              <StatusBadge status={status} />
              <Text size="sm" fw={600}>
                {n}
              </Text>
            </Group>
          ))}
      </Stack>
    </Card>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap="xs" component="section">
      <Title order={2} size="h4">
        {title}
      </Title>
      {children}
    </Stack>
  );
}

function GateTable({ gate }: { gate: FleetOverview['gate'] }) {
  if (!gate.length) return <Text size="sm" c="dimmed">No rollout is waiting at the gate.</Text>;
  return (
    <DataTable
      minWidth={560}
      striped={false}
      rows={gate}
      rowKey={(wait) => wait.rolloutId}
      columns={[
        {
          label: 'Rollout',
          cell: (wait) => (
            <Anchor component={Link} to={`/rollouts/${wait.rolloutId}`}>
              Rollout {wait.rolloutId}
            </Anchor>
          ),
        },
        { label: 'Canary', cell: (wait) => `${wait.canaryInstanceName} (${APP_LABELS[wait.arrType]})` },
        { label: 'Targets', cell: (wait) => wait.targetCount },
        { label: 'Waiting for', cell: (wait) => <span title={new Date(wait.waitingSince).toLocaleString()}>{formatDuration(wait.waitedSeconds)}</span> },
        {
          label: 'Workflow',
          cell: (wait) => (
            <ExternalLink href={wait.workflowUrl} label={`Rollout ${wait.rolloutId} in the Temporal Web UI`}>
              Temporal
            </ExternalLink>
          ),
        },
      ]}
    />
  );
}

function LastSync({ instance }: { instance: FleetInstance }) {
  const run = instance.lastSync;
  if (!run) return <Text size="sm" c="dimmed">never</Text>;
  return (
    <Group gap={6} wrap="nowrap">
      <StatusBadge status={run.status} />
      <Text size="sm">
        <TimeAgo iso={run.finishedAt ?? run.startedAt} />
      </Text>
      <ExternalLink href={run.workflowUrl} label={`Last sync of ${instance.name} in the Temporal Web UI`}>
        Temporal
      </ExternalLink>
    </Group>
  );
}

function FleetTable({ instances }: { instances: FleetInstance[] }) {
  return (
    <DataTable
      minWidth={760}
      rows={instances}
      rowKey={(instance) => instance.id}
      columns={[
        {
          label: 'Instance',
          cell: (instance) => (
            <>
              <InstanceLink instance={instance} />
              {instance.enabled ? null : (
                <Text span size="xs" c="dimmed" ml={6}>
                  (disabled)
                </Text>
              )}
            </>
          ),
        },
        { label: 'App', cell: (instance) => APP_LABELS[instance.arrType] },
        { label: 'Version', cell: (instance) => instance.version ?? '–' },
        { label: 'Drift', cell: (instance) => <StatusBadge status={instance.drift.status} /> },
        {
          label: 'Health',
          cell: ({ health }) =>
            health ? <StatusBadge status={health.band} label={health.score === null ? health.band : `${health.band} · ${health.score}`} /> : <Text size="sm" c="dimmed">not scored</Text>,
        },
        { label: 'Last sync', cell: (instance) => <LastSync instance={instance} /> },
      ]}
    />
  );
}

function RecentFailures({ failures }: { failures: FleetOverview['recentFailures'] }) {
  if (!failures.length) return <Text size="sm" c="dimmed">No failed sync or rollout.</Text>;
  return (
    <Stack gap="xs">
      {failures.map((failure) => (
        <Card key={`${failure.kind}-${failure.id}`} withBorder padding="sm">
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Group gap="xs">
              <StatusBadge status={failure.status} />
              <Text size="sm" fw={600}>
                {failure.kind === 'sync' ? `Sync run ${failure.id}` : `Rollout ${failure.id}`} · {failure.instanceName}
              </Text>
            </Group>
            <Group gap="xs">
              <Text size="sm" c="dimmed">
                <TimeAgo iso={failure.at} />
              </Text>
              <ExternalLink href={failure.workflowUrl} label={`${failure.kind === 'sync' ? 'Sync run' : 'Rollout'} ${failure.id} in the Temporal Web UI`}>
                Temporal
              </ExternalLink>
            </Group>
          </Group>
          {failure.message ? (
            <Text size="sm" mt={4}>
              {failure.message}
            </Text>
          ) : null}
        </Card>
      ))}
    </Stack>
  );
}

function Overview({ overview }: { overview: FleetOverview }) {
  const { counts } = overview;
  const listed = overview.instances.length;
  return (
    <Stack gap="lg">
      <SimpleGrid cols={{ base: 2, md: 4 }}>
        <CountCard title="Instances" counts={{ enabled: counts.enabled, disabled: counts.disabled }} />
        <CountCard title="Drift" counts={counts.drift} />
        <CountCard title="Health" counts={counts.health} />
        <CountCard title="Last sync" counts={counts.lastSync} />
      </SimpleGrid>
      <Section title="Waiting at the gate">
        <GateTable gate={overview.gate} />
      </Section>
      <Section title="Instances">
        <FleetTable instances={overview.instances} />
        {overview.instancesTotal > listed ? (
          <Text size="sm" c="dimmed">
            The first {listed} of {overview.instancesTotal} instances, by name.
          </Text>
        ) : null}
      </Section>
      <Section title="Recent failures">
        <RecentFailures failures={overview.recentFailures} />
      </Section>
    </Stack>
  );
}

export function DashboardPage() {
  const overview = useFleetOverview();
  return (
    <>
      <PageHeader title="Dashboard" description={overview.data ? <>Updated <TimeAgo iso={overview.data.generatedAt} /></> : undefined} />
      <QueryState
        query={overview}
        loadingLabel="Loading the fleet"
        isEmpty={(data) => data.instancesTotal === 0}
        empty={
          <Empty
            title="No instances yet"
            description="Add a Radarr, Sonarr or Lidarr instance and arrgo shows its drift, health and syncs here."
            action={
              <Button component={Link} to="/instances">
                Go to Instances
              </Button>
            }
          />
        }
      >
        {(data) => <Overview overview={data} />}
      </QueryState>
    </>
  );
}
