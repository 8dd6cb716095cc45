import { Anchor, Button, Group, Modal, Pagination, Stack, Table, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useState } from 'react';
import { Link } from 'react-router';
import { INSTANCES_PAGE_SIZE, useCreateInstance, useInstancePage } from '../../api/instances';
import { APP_LABELS, type Instance, type InstanceRegistered } from '../../api/types';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { PageHeader } from '../../components/PageHeader';
import { Empty, QueryState } from '../../components/QueryState';
import { StatusBadge } from '../../components/StatusBadge';
import { ConnectionOutcome } from './ConnectionOutcome';
import { EnabledSwitch } from './EnabledSwitch';
import { InstanceForm } from './InstanceForm';

function InstanceTable({ instances }: { instances: Instance[] }) {
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table striped highlightOnHover verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>App</Table.Th>
            <Table.Th>URL</Table.Th>
            <Table.Th>Version</Table.Th>
            <Table.Th>Connection</Table.Th>
            <Table.Th>Tags</Table.Th>
            <Table.Th>Enabled</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {instances.map((instance) => (
            <Table.Tr key={instance.id}>
              <Table.Td>
                <Anchor component={Link} to={`/instances/${instance.id}`}>
                  {instance.name}
                </Anchor>
              </Table.Td>
              <Table.Td>{APP_LABELS[instance.arrType]}</Table.Td>
              <Table.Td>
                <Text size="sm" style={{ wordBreak: 'break-all' }}>
                  {instance.baseUrl}
                </Text>
              </Table.Td>
              <Table.Td>{instance.verification.version ?? '–'}</Table.Td>
              <Table.Td>
                <StatusBadge status={instance.verification.status} label={instance.verification.reason ? `${instance.verification.status}: ${instance.verification.reason}` : undefined} />
              </Table.Td>
              <Table.Td>{instance.tags.join(', ')}</Table.Td>
              <Table.Td>
                <EnabledSwitch instance={instance} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function AddInstance({ onAdded }: { onAdded: (registered: InstanceRegistered) => void }) {
  const [opened, { open, close }] = useDisclosure(false);
  const create = useCreateInstance();
  const dismiss = () => {
    create.reset();
    close();
  };
  return (
    <>
      <Button onClick={open}>Add instance</Button>
      <Modal opened={opened} onClose={dismiss} title="Add an instance">
        <Stack>
          <Text size="sm" c="dimmed">
            arrgo tests the connection before saving: an app of another type is refused; an app it cannot reach is added, marked unverified.
          </Text>
          <InstanceForm
            submitLabel="Test and save"
            busy={create.isPending}
            error={create.isError ? <ErrorDisplay title="Not added" error={create.error} /> : null}
            onCancel={dismiss}
            onSubmit={(values) =>
              create.mutate(values, {
                onSuccess: (registered) => {
                  onAdded(registered);
                  dismiss();
                },
              })
            }
          />
        </Stack>
      </Modal>
    </>
  );
}

export function InstancesPage() {
  const [page, setPage] = useState(1);
  const [added, setAdded] = useState<InstanceRegistered | null>(null);
  const instances = useInstancePage(page);
  return (
    <>
      <PageHeader title="Instances" description="The Radarr, Sonarr and Lidarr instances arrgo manages." actions={<AddInstance onAdded={setAdded} />} />
      <Stack>
        {added ? <ConnectionOutcome name={added.name} result={added.connectionTest} onClose={() => setAdded(null)} /> : null}
        <QueryState
          query={instances}
          loadingLabel="Loading instances"
          isEmpty={(data) => data.totalRecords === 0}
          empty={<Empty title="No instances yet" description="Add a Radarr, Sonarr or Lidarr instance to manage its configuration." />}
        >
          {(data) => (
            <>
              <InstanceTable instances={data.items} />
              {data.totalPages > 1 ? (
                <Group justify="space-between">
                  <Text size="sm" c="dimmed">
                    {data.totalRecords} instances, {INSTANCES_PAGE_SIZE} a page
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
