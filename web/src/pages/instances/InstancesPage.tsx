import { Button, Group, Modal, Pagination, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useState } from 'react';
import { INSTANCES_PAGE_SIZE, useCreateInstance, useInstancePage } from '../../api/instances';
import { APP_LABELS, type Instance, type InstanceRegistered } from '../../api/types';
import { DataTable } from '../../components/DataTable';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { InstanceLink } from '../../components/InstanceLink';
import { PageHeader } from '../../components/PageHeader';
import { Empty, QueryState } from '../../components/QueryState';
import { ConnectionOutcome } from './ConnectionOutcome';
import { EnabledSwitch } from './EnabledSwitch';
import { InstanceForm } from './InstanceForm';
import { VerificationBadge } from './VerificationBadge';

function InstanceTable({ instances }: { instances: Instance[] }) {
  return (
    <DataTable
      minWidth={720}
      rows={instances}
      rowKey={(instance) => instance.id}
      columns={[
        { label: 'Name', cell: (instance) => <InstanceLink instance={instance} /> },
        { label: 'App', cell: (instance) => APP_LABELS[instance.arrType] },
        {
          label: 'URL',
          cell: (instance) => (
            <Text size="sm" style={{ wordBreak: 'break-all' }}>
              {instance.baseUrl}
            </Text>
          ),
        },
        { label: 'Version', cell: (instance) => instance.verification.version ?? '–' },
        { label: 'Connection', cell: (instance) => <VerificationBadge instance={instance} /> },
        { label: 'Tags', cell: (instance) => instance.tags.join(', ') },
        { label: 'Enabled', cell: (instance) => <EnabledSwitch instance={instance} /> },
      ]}
    />
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
