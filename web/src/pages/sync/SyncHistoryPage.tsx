import { Anchor, Button, Card, Group, Pagination, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { SYNC_HISTORY_PAGE_SIZE, useInstanceChoices, useSyncHistory } from '../../api/sync';
import { APP_LABELS, ARR_TYPE_OPTIONS, type SyncHistoryFilter, type SyncHistoryItem } from '../../api/types';
import { DataTable } from '../../components/DataTable';
import { InstanceLink } from '../../components/InstanceLink';
import { PageHeader } from '../../components/PageHeader';
import { Empty, QueryState } from '../../components/QueryState';
import { StatusBadge } from '../../components/StatusBadge';
import { TimeAgo } from '../../components/TimeAgo';
import { SECTION_LABELS, SECTION_OPTIONS } from './labels';
import { VerificationSummary } from './Verification';

// The API's values of the run status and trigger filters (GET /sync-history), with the console's words.
const STATUS_OPTIONS: { value: NonNullable<SyncHistoryFilter['status']>; label: string }[] = [
  { value: 'running', label: 'running' },
  { value: 'success', label: 'success' },
  { value: 'partial', label: 'partial' },
  { value: 'failed', label: 'failed' },
];
const TRIGGER_OPTIONS: { value: NonNullable<SyncHistoryFilter['trigger']>; label: string }[] = [
  { value: 'manual', label: 'manual' },
  { value: 'canary', label: 'canary rollout' },
  { value: 'schedule', label: 'schedule' },
];

const FILTER_KEYS = ['instanceId', 'arrType', 'status', 'trigger', 'section', 'from', 'to', 'q'] as const;
type FilterKey = (typeof FILTER_KEYS)[number];

/** The filter as the URL holds it (deep links and reloads keep it); from and to are ISO date-times. */
function filterOf(params: URLSearchParams): SyncHistoryFilter {
  const filter: Record<string, string | number> = {};
  for (const key of FILTER_KEYS) {
    const value = params.get(key);
    if (value) filter[key] = key === 'instanceId' ? Number(value) : value;
  }
  const page = Number(params.get('page') ?? '1');
  return { ...(filter as SyncHistoryFilter), page: Number.isInteger(page) && page > 0 ? page : 1 };
}

/** A datetime-local field's value (browser time) from an ISO date-time, and back. */
function toLocalInput(iso: string | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}
function fromLocalInput(value: string): string | null {
  const date = new Date(value);
  return value && !Number.isNaN(date.getTime()) ? date.toISOString() : null;
}

function Filters({ filter, set, clear }: { filter: SyncHistoryFilter; set: (key: FilterKey, value: string | null) => void; clear: () => void }) {
  const instances = useInstanceChoices();
  const [q, setQ] = useState(filter.q ?? '');
  const setSearch = useDebouncedCallback((value: string) => set('q', value.trim() || null), 300);
  return (
    <Card withBorder component="form" aria-label="Filters" onSubmit={(event) => event.preventDefault()}>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
        <Select
          label="Instance"
          placeholder="Any"
          clearable
          searchable
          data={(instances.data ?? []).map((i) => ({ value: String(i.id), label: i.name }))}
          value={filter.instanceId ? String(filter.instanceId) : null}
          onChange={(value) => set('instanceId', value)}
        />
        <Select label="App" placeholder="Any" clearable data={ARR_TYPE_OPTIONS} value={filter.arrType ?? null} onChange={(value) => set('arrType', value)} />
        <Select label="Status" placeholder="Any" clearable data={STATUS_OPTIONS} value={filter.status ?? null} onChange={(value) => set('status', value)} />
        <Select label="Trigger" placeholder="Any" clearable data={TRIGGER_OPTIONS} value={filter.trigger ?? null} onChange={(value) => set('trigger', value)} />
        <Select label="Section" placeholder="Any" clearable data={SECTION_OPTIONS} value={filter.section ?? null} onChange={(value) => set('section', value)} />
        <TextInput label="From" description="Started at or after" type="datetime-local" value={toLocalInput(filter.from)} onChange={(e) => set('from', fromLocalInput(e.currentTarget.value))} />
        <TextInput label="To" description="Started at or before" type="datetime-local" value={toLocalInput(filter.to)} onChange={(e) => set('to', fromLocalInput(e.currentTarget.value))} />
        <TextInput
          label="Search"
          description="Instance name or error"
          value={q}
          onChange={(e) => {
            setQ(e.currentTarget.value);
            setSearch(e.currentTarget.value);
          }}
        />
      </SimpleGrid>
      <Group justify="flex-end" mt="sm">
        <Button
          variant="default"
          size="xs"
          onClick={() => {
            setQ('');
            clear();
          }}
        >
          Clear filters
        </Button>
      </Group>
    </Card>
  );
}

function RunLinks({ run }: { run: SyncHistoryItem }) {
  return (
    <Group gap="xs" wrap="nowrap">
      {run.previewId !== null ? (
        <Anchor component={Link} to={`/sync/previews/${run.previewId}`} size="sm">
          Preview {run.previewId}
        </Anchor>
      ) : null}
      {run.rolloutId !== null ? (
        <Anchor component={Link} to={`/rollouts/${run.rolloutId}`} size="sm">
          Rollout {run.rolloutId}
        </Anchor>
      ) : null}
    </Group>
  );
}

function HistoryTable({ runs }: { runs: SyncHistoryItem[] }) {
  return (
    <DataTable
      label="Sync runs"
      minWidth={1280}
      rows={runs}
      rowKey={(run) => run.id}
      columns={[
        { label: 'Run', cell: (run) => run.id },
        { label: 'Started', cell: (run) => <TimeAgo iso={run.startedAt} /> },
        {
          label: 'Instance',
          cell: (run) => (
            <>
              {run.instanceId !== null ? <InstanceLink instance={{ id: run.instanceId, name: run.instanceName }} /> : <Text span size="sm">{run.instanceName} (deleted)</Text>}
              <Text span size="xs" c="dimmed" ml={6}>
                {APP_LABELS[run.arrType]}
              </Text>
            </>
          ),
        },
        { label: 'Trigger', cell: (run) => run.trigger },
        { label: 'Sections', cell: (run) => run.sectionsAttempted.map((s) => SECTION_LABELS[s]).join(', ') },
        { label: 'Status', cell: (run) => <StatusBadge status={run.status} /> },
        { label: 'Changes', cell: (run) => run.entityChangeCount },
        { label: 'Writes confirmed', cell: (run) => run.entityOutcomeCount },
        { label: 'Verification', cell: (run) => <VerificationSummary verification={run.verification} compact /> },
        {
          label: 'Error',
          cell: (run) => (
            <Text size="sm" maw={260}>
              {run.error ?? '–'}
            </Text>
          ),
        },
        { label: 'From', cell: (run) => <RunLinks run={run} /> },
      ]}
    />
  );
}

export function SyncHistoryPage() {
  const [params, setParams] = useSearchParams();
  const filter = filterOf(params);
  const history = useSyncHistory(filter);
  const filtered = FILTER_KEYS.some((key) => params.has(key));
  // A filter change starts again at page 1.
  const set = (key: FilterKey, value: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(key, value);
        else next.delete(key);
        next.delete('page');
        return next;
      },
      { replace: true },
    );
  const setPage = (page: number) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      next.set('page', String(page));
      return next;
    });
  return (
    <>
      <PageHeader
        title="Sync history"
        description="Every sync run, newest first: manual applies, canary rollouts and schedules."
        actions={
          <Button component={Link} to="/sync" variant="default">
            Preview a sync
          </Button>
        }
      />
      <Stack>
        <Filters filter={filter} set={set} clear={() => setParams(new URLSearchParams(), { replace: true })} />
        <QueryState
          query={history}
          loadingLabel="Loading sync history"
          isEmpty={(page) => page.totalRecords === 0}
          empty={
            <Empty
              title={filtered ? 'No run matches these filters' : 'No sync has run yet'}
              description={filtered ? 'Clear a filter to see more runs.' : 'Apply a preview, and its run is listed here.'}
            />
          }
        >
          {(page) => (
            <>
              <HistoryTable runs={page.items} />
              <Group justify="space-between">
                <Text size="sm" c="dimmed">
                  {page.totalRecords} {page.totalRecords === 1 ? 'run' : 'runs'}, {SYNC_HISTORY_PAGE_SIZE} a page
                </Text>
                {page.totalPages > 1 ? <Pagination total={page.totalPages} value={page.page} onChange={setPage} getControlProps={(control) => ({ 'aria-label': `${control} page` })} /> : null}
              </Group>
            </>
          )}
        </QueryState>
      </Stack>
    </>
  );
}
