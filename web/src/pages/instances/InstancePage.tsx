import { Anchor, Button, Card, Modal, Stack, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useDeleteInstance, useInstance, useTestInstance, useUpdateInstance } from '../../api/instances';
import { APP_LABELS, type Instance, type InstanceTestResult } from '../../api/types';
import { ConfirmButton } from '../../components/ConfirmButton';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { Facts } from '../../components/Facts';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { TimeAgo } from '../../components/TimeAgo';
import { AdoptInstance } from './AdoptInstance';
import { ConnectionOutcome } from './ConnectionOutcome';
import { EnabledSwitch } from './EnabledSwitch';
import { changedFields, InstanceForm } from './InstanceForm';
import { SyncConfigEditor } from './SyncConfigEditor';
import { VerificationBadge } from './VerificationBadge';

function EditInstance({ instance, onTested }: { instance: Instance; onTested: (result: InstanceTestResult) => void }) {
  const [opened, { open, close }] = useDisclosure(false);
  const update = useUpdateInstance(instance.id);
  const dismiss = () => {
    update.reset();
    close();
  };
  return (
    <>
      <Button variant="default" onClick={open}>
        Edit
      </Button>
      <Modal opened={opened} onClose={dismiss} title={`Edit ${instance.name}`}>
        <InstanceForm
          instance={instance}
          submitLabel="Save"
          busy={update.isPending}
          error={update.isError ? <ErrorDisplay title="Not changed" error={update.error} /> : null}
          onCancel={dismiss}
          onSubmit={(values) => {
            const patch = changedFields(instance, values);
            if (Object.keys(patch).length === 0) return dismiss();
            update.mutate(patch, {
              onSuccess: (updated) => {
                if (updated.connectionTest) onTested(updated.connectionTest);
                dismiss();
              },
            });
          }}
        />
      </Modal>
    </>
  );
}

function InstanceDetails({ instance }: { instance: Instance }) {
  const test = useTestInstance(instance.id);
  const remove = useDeleteInstance();
  const navigate = useNavigate();
  const [tested, setTested] = useState<InstanceTestResult | null>(null);
  const { verification } = instance;
  return (
    <Stack>
      <PageHeader
        title={instance.name}
        description={`${APP_LABELS[instance.arrType]} instance`}
        actions={
          <>
            <Button variant="default" loading={test.isPending} onClick={() => test.mutate(undefined, { onSuccess: setTested })}>
              Test connection
            </Button>
            <EditInstance instance={instance} onTested={setTested} />
            <ConfirmButton
              variant="outline"
              color="red"
              title={`Delete ${instance.name}?`}
              message={`arrgo forgets ${instance.name}, its sync configuration and its drift and health results. Nothing in the app is touched.`}
              loading={remove.isPending}
              onConfirm={() =>
                remove.mutateAsync(instance.id).then(
                  () => {
                    notifications.show({ color: 'green', message: `${instance.name} was deleted` });
                    navigate('/instances');
                  },
                  () => undefined,
                )
              }
            >
              Delete
            </ConfirmButton>
          </>
        }
      />
      {test.isError ? <ErrorDisplay title="The test did not run" error={test.error} /> : null}
      {remove.isError ? <ErrorDisplay title="Not deleted" error={remove.error} /> : null}
      {tested ? <ConnectionOutcome name={instance.name} result={tested} onClose={() => setTested(null)} /> : null}
      <Card withBorder>
        <Facts
          items={[
            ['URL', instance.baseUrl],
            ['Connection', <VerificationBadge instance={instance} />],
            ['App reported', verification.appName ? `${verification.appName} ${verification.version ?? ''}` : '–'],
            ['Last tested', <TimeAgo iso={verification.checkedAt} />],
            ['Tags', instance.tags.length ? instance.tags.join(', ') : '–'],
            ['Enabled', <EnabledSwitch instance={instance} withLabel />],
          ]}
        />
      </Card>
      <Title order={2} size="h3">
        Sync configuration
      </Title>
      <SyncConfigEditor instance={instance} />
      <Title order={2} size="h3">
        Adopt this instance
      </Title>
      <AdoptInstance instance={instance} />
    </Stack>
  );
}

export function InstancePage() {
  const id = Number(useParams().id);
  const instance = useInstance(id);
  return (
    <Stack>
      <Anchor component={Link} to="/instances" size="sm">
        ← Instances
      </Anchor>
      <QueryState query={instance} loadingLabel="Loading the instance">
        {(data) => <InstanceDetails instance={data} />}
      </QueryState>
    </Stack>
  );
}
