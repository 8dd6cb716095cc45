import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useFleetOverview } from '../../api/fleet';
import { APP_LABELS, type FleetInstance } from '../../api/types';
import { DataTable, type Column } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { Empty, QueryState } from '../../components/QueryState';
import { StatusBadge } from '../../components/StatusBadge';
import { TimeAgo } from '../../components/TimeAgo';

const COLUMNS: Column<FleetInstance>[] = [
  { label: 'Instance', cell: (instance) => <Anchor component={Link} to={`/health/${instance.id}`}>{instance.name}</Anchor> },
  { label: 'App', cell: (instance) => APP_LABELS[instance.arrType] },
  { label: 'Band', cell: (instance) => (instance.health ? <StatusBadge status={instance.health.band} /> : <Text size="sm" c="dimmed">not scored</Text>) },
  { label: 'Score', cell: (instance) => instance.health?.score ?? '–' },
  { label: 'Scored', cell: (instance) => <TimeAgo iso={instance.health?.generatedAt} /> },
];

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
            <DataTable columns={COLUMNS} rows={data.instances} rowKey={(instance) => instance.id} minWidth={560} />
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
