import { Anchor, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useFleetOverview } from '../../api/fleet';
import { APP_LABELS, type FleetInstance } from '../../api/types';
import { PageHeader } from '../../components/PageHeader';
import { Empty, QueryState } from '../../components/QueryState';
import { StatusBadge } from '../../components/StatusBadge';
import { TimeAgo } from '../../components/TimeAgo';

function HealthTable({ instances }: { instances: FleetInstance[] }) {
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table striped verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Instance</Table.Th>
            <Table.Th>App</Table.Th>
            <Table.Th>Band</Table.Th>
            <Table.Th>Score</Table.Th>
            <Table.Th>Scored</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {instances.map((instance) => (
            <Table.Tr key={instance.id}>
              <Table.Td>
                <Anchor component={Link} to={`/health/${instance.id}`}>
                  {instance.name}
                </Anchor>
              </Table.Td>
              <Table.Td>{APP_LABELS[instance.arrType]}</Table.Td>
              <Table.Td>{instance.health ? <StatusBadge status={instance.health.band} /> : <Text size="sm" c="dimmed">not scored</Text>}</Table.Td>
              <Table.Td>{instance.health?.score ?? '–'}</Table.Td>
              <Table.Td>
                <TimeAgo iso={instance.health?.generatedAt} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Config health of every instance (the newest snapshot each); an instance's page has the detail. */
export function HealthPage() {
  const overview = useFleetOverview();
  return (
    <>
      <PageHeader title="Health" description="How well each instance's configuration matches what arrgo manages: a score out of 100, its band and the criteria behind it." />
      <QueryState
        query={overview}
        loadingLabel="Loading config health"
        isEmpty={(data) => data.instancesTotal === 0}
        empty={<Empty title="No instances yet" description="Add an instance and give it a sync configuration: arrgo scores its health on a schedule." />}
      >
        {(data) => (
          <>
            <HealthTable instances={data.instances} />
            {data.instancesTotal > data.instances.length ? (
              <Text size="sm" c="dimmed" mt="xs">
                The first {data.instances.length} of {data.instancesTotal} instances, by name.
              </Text>
            ) : null}
          </>
        )}
      </QueryState>
    </>
  );
}
