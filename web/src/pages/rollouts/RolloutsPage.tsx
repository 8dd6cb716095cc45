import { Anchor, Button, Group, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { ROLLOUTS_PAGE_SIZE, useRolloutPage, type Rollout, type RolloutStatus } from '../../api/rollouts';
import { ROLLOUT_STATUS_LABELS, ROLLOUT_STATUS_OPTIONS } from './rollout-view';
import { APP_LABELS } from '../../api/types';
import { DataTable, type Column } from '../../components/DataTable';
import { InstanceLink } from '../../components/InstanceLink';
import { PageHeader } from '../../components/PageHeader';
import { Pager } from '../../components/Pager';
import { Empty, QueryState } from '../../components/QueryState';
import { StatusBadge } from '../../components/StatusBadge';
import { TimeAgo } from '../../components/TimeAgo';

function targetNames(rollout: Rollout): string {
  const names = rollout.targets.map((t) => t.instanceName);
  return names.length <= 3 ? names.join(', ') : `${names.slice(0, 2).join(', ')} and ${names.length - 2} more`;
}

const COLUMNS: Column<Rollout>[] = [
  {
    label: 'Rollout',
    cell: (rollout) => (
      <Anchor component={Link} to={`/rollouts/${rollout.id}`}>
        Rollout {rollout.id}
      </Anchor>
    ),
  },
  { label: 'Status', cell: (rollout) => <StatusBadge status={rollout.status} label={ROLLOUT_STATUS_LABELS[rollout.status]} /> },
  {
    label: 'Canary',
    cell: (rollout) => (
      <>
        <InstanceLink instance={{ id: rollout.canary.instanceId, name: rollout.canary.instanceName }} />{' '}
        <Text span size="xs" c="dimmed">
          ({APP_LABELS[rollout.arrType]})
        </Text>
      </>
    ),
  },
  {
    label: 'Targets',
    cell: (rollout) => (
      <Text size="sm">
        {rollout.targets.length}: {targetNames(rollout)}
      </Text>
    ),
  },
  { label: 'Started', cell: (rollout) => <TimeAgo iso={rollout.createdAt} /> },
];

export function RolloutsPage() {
  const [status, setStatus] = useState<RolloutStatus | null>(null);
  const [page, setPage] = useState(1);
  const rollouts = useRolloutPage(status, page);
  return (
    <>
      <PageHeader
        title="Rollouts"
        description="Canary rollouts: one instance is synced first, every other target is previewed, and you decide at the gate."
        actions={
          <Button component={Link} to="/rollouts/new">
            Start a rollout
          </Button>
        }
      />
      <Stack>
        <Group>
          <Select
            label="Status"
            placeholder="Any status"
            clearable
            data={ROLLOUT_STATUS_OPTIONS}
            value={status}
            onChange={(value) => {
              setStatus(value as RolloutStatus | null);
              setPage(1);
            }}
            w={240}
          />
        </Group>
        <QueryState
          query={rollouts}
          loadingLabel="Loading rollouts"
          isEmpty={(data) => data.totalRecords === 0}
          empty={
            <Empty
              title={status ? `No rollout is ${ROLLOUT_STATUS_LABELS[status].toLowerCase()}` : 'No rollouts yet'}
              description="A rollout syncs one canary instance first and waits for you before it changes the others."
            />
          }
        >
          {(data) => (
            <>
              <DataTable columns={COLUMNS} rows={data.items} rowKey={(rollout) => rollout.id} minWidth={640} />
              <Pager page={page} totalPages={data.totalPages} totalRecords={data.totalRecords} pageSize={ROLLOUTS_PAGE_SIZE} noun="rollouts" onChange={setPage} />
            </>
          )}
        </QueryState>
      </Stack>
    </>
  );
}
