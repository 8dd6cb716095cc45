import { Anchor, Button, Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useFleetOverview } from '../../api/fleet';
import { APP_LABELS, type FleetInstance, type FleetOverview } from '../../api/types';
import { ExternalLink } from '../../components/ExternalLink';
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
    <Table.ScrollContainer minWidth={560}>
      <Table verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Rollout</Table.Th>
            <Table.Th>Canary</Table.Th>
            <Table.Th>Targets</Table.Th>
            <Table.Th>Waiting for</Table.Th>
            <Table.Th>Workflow</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {gate.map((wait) => (
            <Table.Tr key={wait.rolloutId}>
              <Table.Td>
                <Anchor component={Link} to={`/rollouts/${wait.rolloutId}`}>
                  Rollout {wait.rolloutId}
                </Anchor>
              </Table.Td>
              <Table.Td>
                {wait.canaryInstanceName} ({APP_LABELS[wait.arrType]})
              </Table.Td>
              <Table.Td>{wait.targetCount}</Table.Td>
              <Table.Td>
                <span title={new Date(wait.waitingSince).toLocaleString()}>{formatDuration(wait.waitedSeconds)}</span>
              </Table.Td>
              <Table.Td>
                <ExternalLink href={wait.workflowUrl} label={`Rollout ${wait.rolloutId} in the Temporal Web UI`}>
                  Temporal
                </ExternalLink>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
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
    <Table.ScrollContainer minWidth={760}>
      <Table striped verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Instance</Table.Th>
            <Table.Th>App</Table.Th>
            <Table.Th>Version</Table.Th>
            <Table.Th>Drift</Table.Th>
            <Table.Th>Health</Table.Th>
            <Table.Th>Last sync</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {instances.map((instance) => (
            <Table.Tr key={instance.id}>
              <Table.Td>
                <Anchor component={Link} to={`/instances/${instance.id}`}>
                  {instance.name}
                </Anchor>
                {instance.enabled ? null : (
                  <Text span size="xs" c="dimmed" ml={6}>
                    (disabled)
                  </Text>
                )}
              </Table.Td>
              <Table.Td>{APP_LABELS[instance.arrType]}</Table.Td>
              <Table.Td>{instance.version ?? '–'}</Table.Td>
              <Table.Td>
                <StatusBadge status={instance.drift.status} />
              </Table.Td>
              <Table.Td>{instance.health ? <StatusBadge status={instance.health.band} label={instance.health.score === null ? instance.health.band : `${instance.health.band} · ${instance.health.score}`} /> : <Text size="sm" c="dimmed">not scored</Text>}</Table.Td>
              <Table.Td>
                <LastSync instance={instance} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
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
