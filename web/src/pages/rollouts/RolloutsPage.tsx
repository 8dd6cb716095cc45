import { Anchor, Button, Group, Pagination, Select, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { ROLLOUTS_PAGE_SIZE, useRolloutPage, type Rollout, type RolloutStatus } from '../../api/rollouts';
import { ROLLOUT_STATUS_LABELS, ROLLOUT_STATUS_OPTIONS } from './rollout-view';
import { APP_LABELS } from '../../api/types';
import { PageHeader } from '../../components/PageHeader';
import { Empty, QueryState } from '../../components/QueryState';
import { StatusBadge } from '../../components/StatusBadge';
import { TimeAgo } from '../../components/TimeAgo';

function targetNames(rollout: Rollout): string {
  const names = rollout.targets.map((t) => t.instanceName);
  return names.length <= 3 ? names.join(', ') : `${names.slice(0, 2).join(', ')} and ${names.length - 2} more`;
}

function RolloutTable({ rollouts }: { rollouts: Rollout[] }) {
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped highlightOnHover verticalSpacing="xs" aria-label="Rollouts">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Rollout</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Canary</Table.Th>
            <Table.Th>Targets</Table.Th>
            <Table.Th>Started</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rollouts.map((rollout) => (
            <Table.Tr key={rollout.id}>
              <Table.Td>
                <Anchor component={Link} to={`/rollouts/${rollout.id}`}>
                  Rollout {rollout.id}
                </Anchor>
              </Table.Td>
              <Table.Td>
                <StatusBadge status={rollout.status} label={ROLLOUT_STATUS_LABELS[rollout.status]} />
              </Table.Td>
              <Table.Td>
                {rollout.canary.instanceName}{' '}
                <Text span size="xs" c="dimmed">
                  ({APP_LABELS[rollout.arrType]})
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm">
                  {rollout.targets.length}: {targetNames(rollout)}
                </Text>
              </Table.Td>
              <Table.Td>
                <TimeAgo iso={rollout.createdAt} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

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
              <RolloutTable rollouts={data.items} />
              {data.totalPages > 1 ? (
                <Group justify="space-between">
                  <Text size="sm" c="dimmed">
                    {data.totalRecords} rollouts, {ROLLOUTS_PAGE_SIZE} a page
                  </Text>
                  <Pagination total={data.totalPages} value={page} onChange={setPage} getControlProps={(control) => ({ 'aria-label': `${control} page` })} />
                </Group>
              ) : null}
            </>
          )}
        </QueryState>
      </Stack>
    </>
  );
}
