import { Anchor, Badge, Button, Card, Code, Group, MultiSelect, Pagination, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { urlBase } from '../../api/client';
import { useDatabases } from '../../api/databases';
import { useFleetOverview } from '../../api/fleet';
import { optionsOf } from '../../api/labels';
import { SOURCE_LABELS, STATUS_LABELS, TIMELINE_PAGE_SIZE, useTimeline, type TimelineItem, type TimelineQuery, type TimelineSource, type TimelineStatus } from '../../api/timeline';
import { APP_LABELS, ARR_TYPE_OPTIONS, type ArrType } from '../../api/types';
import { Disclosure } from '../../components/Disclosure';
import { ExternalLink } from '../../components/ExternalLink';
import { InstanceLink } from '../../components/InstanceLink';
import { PageHeader } from '../../components/PageHeader';
import { Empty, QueryState } from '../../components/QueryState';
import { StatusBadge } from '../../components/StatusBadge';
import { TimeAgo } from '../../components/TimeAgo';
import { Annotations } from './Annotations';

/** The filters live in the address (a reload or a shared link shows the same feed). */
const FILTERS = ['source', 'instanceId', 'arrType', 'databaseId', 'status', 'from', 'to', 'q'] as const;
type Filter = (typeof FILTERS)[number];

function queryOf(params: URLSearchParams): TimelineQuery {
  const number = (name: Filter | 'page') => (params.get(name) ? Number(params.get(name)) : undefined);
  const text = (name: Filter) => params.get(name) || undefined;
  return {
    source: text('source'),
    instanceId: number('instanceId'),
    arrType: text('arrType') as ArrType | undefined,
    databaseId: number('databaseId'),
    status: text('status') as TimelineStatus | undefined,
    from: text('from'),
    to: text('to'),
    q: text('q'),
    page: number('page') ?? 1,
    pageSize: TIMELINE_PAGE_SIZE,
  };
}

interface FiltersProps {
  params: URLSearchParams;
  set: (name: Filter, value: string | null) => void;
  /** The search box's text (applied to the address a moment after typing stops). */
  q: string;
  setQ: (q: string) => void;
}

function Filters({ params, set, q, setQ }: FiltersProps) {
  const fleet = useFleetOverview();
  const databases = useDatabases();
  const setSearch = useDebouncedCallback((value: string) => set('q', value.trim() || null), 400);
  const instanceOptions = (fleet.data?.instances ?? []).map((i) => ({ value: String(i.id), label: i.name }));
  const databaseOptions = (databases.data ?? []).map((d) => ({ value: String(d.id), label: d.name }));
  return (
    <Stack gap="xs" component="form" role="search" aria-label="Filter the timeline" onSubmit={(event) => event.preventDefault()}>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="xs">
        <MultiSelect
          label="Sources"
          placeholder="All sources"
          data={optionsOf(SOURCE_LABELS)}
          value={params.get('source')?.split(',').filter(Boolean) ?? []}
          onChange={(values) => set('source', values.length ? values.join(',') : null)}
          clearable
        />
        <Select label="Instance" placeholder="Any instance" data={instanceOptions} value={params.get('instanceId')} onChange={(value) => set('instanceId', value)} clearable searchable />
        <Select label="App" placeholder="Any app" data={ARR_TYPE_OPTIONS} value={params.get('arrType')} onChange={(value) => set('arrType', value)} clearable />
        <Select label="Database" placeholder="Any database" data={databaseOptions} value={params.get('databaseId')} onChange={(value) => set('databaseId', value)} clearable searchable />
        <Select label="Status" placeholder="Any status" data={optionsOf(STATUS_LABELS)} value={params.get('status')} onChange={(value) => set('status', value)} clearable />
        <TextInput label="From" type="date" value={params.get('from') ?? ''} onChange={(e) => set('from', e.currentTarget.value || null)} />
        <TextInput label="To" type="date" value={params.get('to') ?? ''} onChange={(e) => set('to', e.currentTarget.value || null)} />
        <TextInput
          label="Search"
          placeholder="Name, error or note"
          value={q}
          onChange={(e) => {
            setQ(e.currentTarget.value);
            setSearch(e.currentTarget.value);
          }}
        />
      </SimpleGrid>
    </Stack>
  );
}

function sourceIdOf(item: TimelineItem): string {
  return item.id.slice(item.id.indexOf(':') + 1);
}

function EventCard({ item, advanced }: { item: TimelineItem; advanced: boolean }) {
  const name = `${SOURCE_LABELS[item.source]} ${sourceIdOf(item)}`;
  const scope =
    item.scope.kind === 'arr-instance' && item.scope.id !== null ? (
      <InstanceLink instance={{ id: item.scope.id, name: item.scope.label }} />
    ) : (
      <Text span size="sm">
        {item.scope.label}
        {item.scope.id === null ? ' (deleted)' : ''}
      </Text>
    );
  return (
    <Card withBorder padding="sm" component="article" aria-label={name}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Group gap="xs" wrap="wrap">
            <StatusBadge status={item.status} label={STATUS_LABELS[item.status]} />
            <Text size="sm" fw={600}>
              {name}
            </Text>
            <Text size="sm" c="dimmed">
              {item.subtype}
            </Text>
            {scope}
            {item.scope.arrType && item.scope.arrType in APP_LABELS ? (
              <Text size="sm" c="dimmed">
                {APP_LABELS[item.scope.arrType as ArrType]}
              </Text>
            ) : null}
          </Group>
          <Group gap="sm">
            <Text size="sm" c="dimmed">
              <TimeAgo iso={item.occurredAt} />
            </Text>
            {item.link.api ? (
              <Anchor href={`${urlBase()}${item.link.api}`} target="_blank" rel="noreferrer" size="sm" aria-label={`${name} in the API`}>
                API
              </Anchor>
            ) : null}
            <ExternalLink href={item.link.workflowUrl} label={`${name} in the Temporal Web UI`}>
              Temporal
            </ExternalLink>
          </Group>
        </Group>
        {item.reason ? (
          <Text size="sm">
            <Text span fw={600}>
              Why:
            </Text>{' '}
            {item.reason}
          </Text>
        ) : null}
        {advanced ? (
          <Text size="xs" c="dimmed">
            Event <Code>{item.id}</Code>
            {item.link.workflowId ? (
              <>
                {' '}
                · workflow <Code>{item.link.workflowId}</Code>
              </>
            ) : null}
            {item.link.api ? (
              <>
                {' '}
                · <Code>{item.link.api}</Code>
              </>
            ) : null}
          </Text>
        ) : null}
        <Annotations eventId={item.id} annotations={item.annotations} />
      </Stack>
    </Card>
  );
}

/** The merged feed of syncs, canary rollouts, snapshots and rollbacks, newest first, with notes. */
export function TimelinePage() {
  const [params, setParams] = useSearchParams();
  const query = queryOf(params);
  const timeline = useTimeline(query);
  const [q, setQ] = useState(params.get('q') ?? '');
  const set = (name: Filter | 'page', value: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value === null || value === '') next.delete(name);
        else next.set(name, value);
        // A new filter starts at the first page.
        if (name !== 'page') next.delete('page');
        return next;
      },
      { replace: true },
    );
  const filtered = FILTERS.some((name) => params.has(name));
  return (
    <>
      <PageHeader
        title="Timeline"
        description="Every sync, canary rollout, snapshot and rollback, newest first, with your notes."
        actions={
          filtered ? (
            <Button
              variant="default"
              onClick={() => {
                setQ('');
                setParams(new URLSearchParams(), { replace: true });
              }}
            >
              Clear filters
            </Button>
          ) : null
        }
      />
      <Stack gap="md">
        <Filters params={params} set={set} q={q} setQ={setQ} />
        <Disclosure sectionKey="timeline:feed:events" title="Events" description="The advanced detail adds each event's id, workflow id and API path.">
          {(advanced) => (
            <QueryState
              query={timeline}
              loadingLabel="Loading the timeline"
              isEmpty={(data) => data.totalRecords === 0}
              empty={<Empty title={filtered ? 'No event matches these filters' : 'Nothing has happened yet'} description={filtered ? 'Change or clear the filters.' : 'Syncs, rollouts, snapshots and rollbacks appear here as they run.'} />}
            >
              {(data) => (
                <Stack gap="xs">
                  <Group gap="xs" aria-label="Events per source" role="group">
                    {(Object.keys(SOURCE_LABELS) as TimelineSource[]).map((source) => (
                      <Badge key={source} variant="default" radius="sm" style={{ textTransform: 'none' }}>
                        {SOURCE_LABELS[source]}: {data.counts[source]}
                      </Badge>
                    ))}
                  </Group>
                  {data.items.map((item) => (
                    <EventCard key={item.id} item={item} advanced={advanced} />
                  ))}
                  {data.totalPages > 1 ? (
                    <Group justify="space-between">
                      <Text size="sm" c="dimmed">
                        {data.totalRecords} events, {TIMELINE_PAGE_SIZE} a page
                      </Text>
                      <Pagination total={data.totalPages} value={data.page} onChange={(page) => set('page', String(page))} getControlProps={(control) => ({ 'aria-label': `${control} page` })} />
                    </Group>
                  ) : null}
                </Stack>
              )}
            </QueryState>
          )}
        </Disclosure>
      </Stack>
    </>
  );
}
