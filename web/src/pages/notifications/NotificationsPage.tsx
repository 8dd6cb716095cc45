import { Alert, Badge, Button, Group, Modal, Pagination, Select, SimpleGrid, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue, useDisclosure } from '@mantine/hooks';
import { useState } from 'react';
import {
  DELIVERIES_PAGE_SIZE,
  DELIVERY_STATUS_LABELS,
  EVENT_LABELS,
  CHANNEL_KIND_LABELS,
  useChannels,
  useCreateChannel,
  useDeleteChannel,
  useDeliveries,
  useTestChannel,
  useUpdateChannel,
  type DeliveryQuery,
  type DeliveryStatus,
  type NotificationChannel,
  type NotificationDelivery,
  type NotificationEventType,
} from '../../api/notifications';
import { optionsOf } from '../../api/labels';
import { ConfirmButton } from '../../components/ConfirmButton';
import { DataTable, type Column } from '../../components/DataTable';
import { Disclosure } from '../../components/Disclosure';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { ExternalLink } from '../../components/ExternalLink';
import { PageHeader } from '../../components/PageHeader';
import { Empty, QueryState } from '../../components/QueryState';
import { StatusBadge } from '../../components/StatusBadge';
import { TimeAgo } from '../../components/TimeAgo';
import { ChannelForm } from './ChannelForm';

const eventLabel = (type: NotificationDelivery['eventType']) => (type === 'test' ? 'Test' : EVENT_LABELS[type]);

/** What a delivery came to, in words: the receiver's last HTTP status, the last error and the attempts. */
function outcome(delivery: NotificationDelivery): string {
  const parts: string[] = [];
  if (delivery.lastStatusCode !== null) parts.push(`HTTP ${delivery.lastStatusCode}`);
  if (delivery.lastError) parts.push(delivery.lastError.replace(/_/g, ' '));
  parts.push(`${delivery.attempts} ${delivery.attempts === 1 ? 'attempt' : 'attempts'}`);
  return parts.join(' · ');
}

function AddChannel() {
  const [opened, { open, close }] = useDisclosure(false);
  const create = useCreateChannel();
  const dismiss = () => {
    create.reset();
    close();
  };
  return (
    <>
      <Button onClick={open}>Add channel</Button>
      <Modal opened={opened} onClose={dismiss} title="Add a notification channel" size="lg">
        <ChannelForm
          busy={create.isPending}
          error={create.isError ? <ErrorDisplay title="Not added" error={create.error} /> : null}
          onCancel={dismiss}
          onCreate={(body) => create.mutate(body, { onSuccess: dismiss })}
        />
      </Modal>
    </>
  );
}

function EditChannel({ channel }: { channel: NotificationChannel }) {
  const [opened, { open, close }] = useDisclosure(false);
  const update = useUpdateChannel(channel.id);
  const dismiss = () => {
    update.reset();
    close();
  };
  return (
    <>
      <Button size="xs" variant="default" onClick={open} aria-label={`Edit ${channel.name}`}>
        Edit
      </Button>
      <Modal opened={opened} onClose={dismiss} title={`Edit ${channel.name}`} size="lg">
        <ChannelForm
          channel={channel}
          busy={update.isPending}
          error={update.isError ? <ErrorDisplay title="Not changed" error={update.error} /> : null}
          onCancel={dismiss}
          onUpdate={(patch) => (Object.keys(patch).length === 0 ? dismiss() : update.mutate(patch, { onSuccess: dismiss }))}
        />
      </Modal>
    </>
  );
}

/** Enables or disables a channel; focusable while the change is stored (as the instances' switch). */
function EnabledSwitch({ channel }: { channel: NotificationChannel }) {
  const update = useUpdateChannel(channel.id);
  const enabled = update.isPending ? (update.variables.enabled ?? channel.enabled) : channel.enabled;
  return (
    <Switch
      aria-label={`${channel.name} enabled`}
      aria-busy={update.isPending}
      checked={enabled}
      onChange={(e) => {
        if (!update.isPending) update.mutate({ enabled: e.currentTarget.checked });
      }}
      error={update.isError ? update.error.message : undefined}
    />
  );
}

interface Tested {
  channel: NotificationChannel;
  delivery?: NotificationDelivery;
  error?: unknown;
}

function ChannelActions({ channel, onTested }: { channel: NotificationChannel; onTested: (tested: Tested) => void }) {
  const test = useTestChannel(channel.id);
  const remove = useDeleteChannel();
  return (
    <Group gap={6} wrap="nowrap">
      <Button size="xs" variant="light" loading={test.isPending} aria-label={`Test ${channel.name}`} onClick={() => test.mutate(undefined, { onSuccess: (delivery) => onTested({ channel, delivery }), onError: (error) => onTested({ channel, error }) })}>
        Test
      </Button>
      <EditChannel channel={channel} />
      <ConfirmButton
        size="xs"
        variant="subtle"
        color="red"
        aria-label={`Delete ${channel.name}`}
        title={`Delete ${channel.name}?`}
        message="arrgo stops sending to this channel. Its deliveries stay in the log under its name."
        loading={remove.isPending}
        onConfirm={() => remove.mutateAsync(channel.id).catch(() => undefined)}
      >
        Delete
      </ConfirmButton>
    </Group>
  );
}

function TestOutcome({ tested: { channel, delivery, error }, onClose }: { tested: Tested; onClose: () => void }) {
  if (!delivery) return <ErrorDisplay title={`The test of ${channel.name} was not sent`} error={error} />;
  const color = delivery.status === 'delivered' ? 'green' : delivery.status === 'failed' ? 'red' : 'yellow';
  return (
    <Alert variant="light" color={color} title={`Test of ${channel.name}: ${DELIVERY_STATUS_LABELS[delivery.status].toLowerCase()}`} withCloseButton closeButtonLabel="Dismiss" onClose={onClose}>
      <Text size="sm">
        {DELIVERY_STATUS_LABELS[delivery.status]} · {outcome(delivery)}. Delivery <code>{delivery.id}</code>
        {delivery.status === 'retrying' || delivery.status === 'pending' ? '; arrgo keeps trying: the delivery log follows it.' : '.'}
      </Text>
    </Alert>
  );
}

const storedBadge = (text: string) => (
  <Badge variant="light" color="gray" radius="sm" style={{ textTransform: 'none' }}>
    {text}
  </Badge>
);

function channelColumns(onTested: (tested: Tested) => void): Column<NotificationChannel>[] {
  return [
    { label: 'Name', cell: (channel) => channel.name },
    { label: 'Kind', cell: (channel) => CHANNEL_KIND_LABELS[channel.kind] },
    {
      label: 'Events',
      cell: (channel) => (channel.events.length === Object.keys(EVENT_LABELS).length ? 'All events' : channel.events.map((e) => EVENT_LABELS[e]).join(', ')),
    },
    {
      label: 'Stored',
      cell: (channel) => (
        <Group gap={4}>
          {channel.urlSet ? storedBadge('URL') : null}
          {channel.secretSet ? storedBadge('secret') : null}
        </Group>
      ),
    },
    { label: 'Enabled', cell: (channel) => <EnabledSwitch channel={channel} /> },
    { label: 'Actions', cell: (channel) => <ChannelActions channel={channel} onTested={onTested} /> },
  ];
}

function Channels() {
  const channels = useChannels();
  const [tested, setTested] = useState<Tested | null>(null);
  return (
    <Stack gap="xs" component="section" aria-labelledby="channels-title">
      <Group justify="space-between">
        <Title order={2} size="h4" id="channels-title">
          Channels
        </Title>
        <AddChannel />
      </Group>
      {tested ? <TestOutcome tested={tested} onClose={() => setTested(null)} /> : null}
      <QueryState
        query={channels}
        loadingLabel="Loading channels"
        isEmpty={(data) => data.totalRecords === 0}
        empty={<Empty title="No channels yet" description="Add a webhook or a Discord channel: arrgo tells it about drift, rollouts, failed syncs and health drops." />}
      >
        {(data) => (
          <DataTable columns={channelColumns(setTested)} rows={data.items} rowKey={(channel) => channel.id} minWidth={760} />
        )}
      </QueryState>
    </Stack>
  );
}

function AttemptLog({ delivery }: { delivery: NotificationDelivery }) {
  if (!delivery.attemptLog.length) return <Text size="sm" c="dimmed">No attempt yet.</Text>;
  return (
    <Stack gap={2}>
      {delivery.attemptLog.map((attempt) => (
        <Text key={attempt.attempt} size="sm">
          Attempt {attempt.attempt}, <TimeAgo iso={attempt.at} />: {attempt.outcome}
          {attempt.statusCode !== null ? ` (HTTP ${attempt.statusCode})` : ''}
          {attempt.error ? `, ${attempt.error.replace(/_/g, ' ')}` : ''}
        </Text>
      ))}
    </Stack>
  );
}

function deliveryColumns(advanced: boolean): Column<NotificationDelivery>[] {
  const basic: Column<NotificationDelivery>[] = [
    { label: 'When', cell: (d) => <TimeAgo iso={d.createdAt} /> },
    { label: 'Channel', cell: (d) => `${d.channelName}${d.channelId === null ? ' (deleted)' : ''}` },
    {
      label: 'Event',
      cell: (d) => (
        <>
          <Text size="sm">{eventLabel(d.eventType)}</Text>
          <Text size="xs" c="dimmed">
            {d.eventId}
          </Text>
        </>
      ),
    },
    { label: 'Status', cell: (d) => <StatusBadge status={d.status} label={DELIVERY_STATUS_LABELS[d.status]} /> },
    { label: 'Outcome', cell: (d) => outcome(d) },
    {
      label: 'Workflow',
      cell: (d) => (
        <ExternalLink href={d.workflowUrl} label={`Delivery ${d.id} in the Temporal Web UI`}>
          Temporal
        </ExternalLink>
      ),
    },
  ];
  const attempts: Column<NotificationDelivery> = {
    label: 'Attempts',
    cell: (d) => (
      <>
        <AttemptLog delivery={d} />
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          Delivery {d.id}, workflow {d.workflowId}
        </Text>
      </>
    ),
  };
  return advanced ? [...basic, attempts] : basic;
}

function Deliveries() {
  const channels = useChannels();
  const [filters, setFilters] = useState<{ channelId: string | null; status: string | null; eventType: string | null; eventId: string }>({ channelId: null, status: null, eventType: null, eventId: '' });
  const [page, setPage] = useState(1);
  const [eventId] = useDebouncedValue(filters.eventId.trim(), 400);
  const query: DeliveryQuery = {
    channelId: filters.channelId ? Number(filters.channelId) : undefined,
    status: (filters.status as DeliveryStatus | null) ?? undefined,
    eventType: (filters.eventType as NotificationEventType | 'test' | null) ?? undefined,
    eventId: eventId || undefined,
    page,
    pageSize: DELIVERIES_PAGE_SIZE,
  };
  const deliveries = useDeliveries(query);
  const set = (change: Partial<typeof filters>) => {
    setFilters((f) => ({ ...f, ...change }));
    setPage(1);
  };
  return (
    <Disclosure sectionKey="notifications:deliveries:attempts" title="Delivery log" description="One row per event and channel, newest first. The advanced detail adds every attempt and the delivery workflow.">
      {(advanced) => (
        <>
          <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="xs" role="search" aria-label="Filter the delivery log">
            <Select label="Channel" placeholder="Any channel" data={(channels.data?.items ?? []).map((c) => ({ value: String(c.id), label: c.name }))} value={filters.channelId} onChange={(channelId) => set({ channelId })} clearable />
            <Select label="Delivery status" placeholder="Any status" data={optionsOf(DELIVERY_STATUS_LABELS)} value={filters.status} onChange={(status) => set({ status })} clearable />
            <Select label="Event" placeholder="Any event" data={[{ value: 'test', label: 'Test' }, ...optionsOf(EVENT_LABELS)]} value={filters.eventType} onChange={(eventType) => set({ eventType })} clearable />
            <TextInput label="Event id" placeholder="e.g. rollout:7:gate" value={filters.eventId} onChange={(e) => set({ eventId: e.currentTarget.value })} />
          </SimpleGrid>
          <QueryState query={deliveries} loadingLabel="Loading deliveries" isEmpty={(data) => data.totalRecords === 0} empty={<Empty title="No deliveries" description="Deliveries appear here when an event reaches a channel, or when you test one." />}>
            {(data) => (
              <Stack gap="xs">
                <DataTable columns={deliveryColumns(advanced)} rows={data.items} rowKey={(delivery) => delivery.id} minWidth={advanced ? 900 : 760} />
                {data.totalPages > 1 ? (
                  <Group justify="space-between">
                    <Text size="sm" c="dimmed">
                      {data.totalRecords} deliveries, {DELIVERIES_PAGE_SIZE} a page
                    </Text>
                    <Pagination total={data.totalPages} value={page} onChange={setPage} getControlProps={(control) => ({ 'aria-label': `${control} page` })} />
                  </Group>
                ) : null}
              </Stack>
            )}
          </QueryState>
        </>
      )}
    </Disclosure>
  );
}

/** Where arrgo sends its events (webhooks, Discord), and what became of each delivery. */
export function NotificationsPage() {
  return (
    <>
      <PageHeader title="Notifications" description="Channels that hear about drift, rollouts, failed syncs and health drops, and the log of every delivery." />
      <Stack gap="xl">
        <Channels />
        <Deliveries />
      </Stack>
    </>
  );
}
