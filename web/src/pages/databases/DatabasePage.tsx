import { Alert, Anchor, Button, Code, List, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useRef, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { databaseKeys, isPulling, useDatabase, usePullDatabase, usePullState, useUnlinkDatabase } from '../../api/databases';
import { APP_LABELS, type Database, type FailedOp } from '../../api/types';
import { ConfirmButton } from '../../components/ConfirmButton';
import { DataTable } from '../../components/DataTable';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { Facts } from '../../components/Facts';
import { PageHeader } from '../../components/PageHeader';
import { Section } from '../../components/Section';
import { QueryState } from '../../components/QueryState';
import { StatusBadge } from '../../components/StatusBadge';
import { Stat } from '../../components/Stat';
import { TimeAgo } from '../../components/TimeAgo';
import { PullProgress } from './PullProgress';
import { sourceText } from './source';

// What each failure reason means (src/domain/pcd/failure.ts says it at length).
const REASON_TEXT: Record<string, string> = {
  duplicate_key: 'would duplicate a unique name or key',
  missing_target: 'targets an entity that does not exist',
  guard_mismatch: 'its guarded old values no longer match',
  invalid: 'not a valid statement for the schema',
};

type Stats = NonNullable<Database['cache']['stats']>;

function FailedByReason({ counts }: { counts: Record<string, number> }) {
  const entries = Object.entries(counts).filter(([, n]) => n > 0);
  if (!entries.length) return <Text size="sm">No op failed.</Text>;
  return (
    <DataTable
      label="Failed ops by reason"
      minWidth={360}
      striped={false}
      rows={entries}
      rowKey={([reason]) => reason}
      columns={[
        {
          label: 'Reason',
          cell: ([reason]) => (
            <>
              <Code>{reason}</Code> {REASON_TEXT[reason] ?? ''}
            </>
          ),
        },
        { label: 'Ops', cell: ([, n]) => n },
      ]}
    />
  );
}

/** Where a failed op is: its file and position (file layers) or its op id (database ops). */
function opPlace(op: FailedOp): string {
  if (!op.file) return `op ${op.opId ?? '?'}`;
  return `${op.file}${op.position ? `, op ${op.position}` : ''}${op.markerId ? ` (marker ${op.markerId})` : ''}`;
}

function FirstFailed({ ops }: { ops: FailedOp[] }) {
  return (
    <DataTable
      label="First failed ops"
      minWidth={640}
      striped={false}
      rows={ops.map((op, i) => ({ op, i }))}
      rowKey={({ i }) => i}
      columns={[
        { label: 'Layer', cell: ({ op }) => op.layer },
        {
          label: 'Where',
          cell: ({ op }) => (
            <Text size="sm" style={{ wordBreak: 'break-all' }}>
              {opPlace(op)}
            </Text>
          ),
        },
        { label: 'Target', cell: ({ op }) => (op.target ? `${op.target.entityType} "${op.target.name}"` : '–') },
        { label: 'Reason', cell: ({ op }) => <Code>{op.reason}</Code> },
      ]}
    />
  );
}

function ReplayStats({ stats }: { stats: Stats }) {
  const degradedCounts = stats.failedOpsByReason ?? stats.failedByReason;
  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 3, sm: 6 }}>
        <Stat label="Ops" value={stats.totalOps} />
        <Stat label="Applied" value={stats.applied} />
        <Stat label="Skipped" value={stats.skipped} />
        <Stat label="Failed" value={stats.failedOps ?? stats.failed} />
        <Stat label="Conflicts" value={stats.conflicts} />
        <Stat label="Entities" value={stats.entities} />
      </SimpleGrid>
      <Text size="xs" c="dimmed">
        Replayed <TimeAgo iso={stats.builtAt} /> in {Math.round(stats.durationMs)} ms.
        {stats.skippedWrites ? ` ${stats.skippedWrites === 1 ? '1 statement' : `${stats.skippedWrites} statements`} changed no row (never a failure).` : ''}
      </Text>
      <Title order={3} size="h5">
        Failed ops by reason
      </Title>
      <FailedByReason counts={degradedCounts} />
      {stats.firstFailed?.length ? (
        <>
          <Title order={3} size="h5">
            The first failed ops
          </Title>
          <FirstFailed ops={stats.firstFailed} />
        </>
      ) : null}
      {stats.schemaGaps?.length ? (
        <>
          <Title order={3} size="h5">
            Columns the schema lacks
          </Title>
          <List size="sm">
            {stats.schemaGaps.map((gap) => (
              <List.Item key={gap}>
                <Code>{gap}</Code>
              </List.Item>
            ))}
          </List>
        </>
      ) : null}
    </Stack>
  );
}

function CacheMessage({ database }: { database: Database }) {
  const { status, reason, message } = database.cache;
  if (status === 'ready' || isPulling(database) || !message) return null;
  return (
    <Alert color={status === 'failed' ? 'red' : 'yellow'} variant="light" title={status === 'failed' ? 'The database cannot be used' : 'The database is incomplete'} role="alert">
      <Text size="sm">
        {reason ? <Code mr={6}>{reason}</Code> : null}
        {message}
      </Text>
    </Alert>
  );
}

function DatabaseDetails({ database }: { database: Database }) {
  const pulling = isPulling(database);
  const pull = usePullDatabase(database.id);
  const pullState = usePullState(database.id, pulling);
  const unlink = useUnlinkDatabase();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // When the pull workflow ends, read the database again at once (its status, stats and commit).
  const running = pullState.data?.running ?? false;
  const wasRunning = useRef(running);
  useEffect(() => {
    if (wasRunning.current && !running) void queryClient.invalidateQueries({ queryKey: databaseKeys.one(database.id), exact: true });
    wasRunning.current = running;
  }, [running, database.id, queryClient]);
  // The database's own status is the authority: once the replay recorded it, the pull is over even
  // if the workflow has not closed yet. Before the fetch marks it building, the workflow says so.
  const phase = pullState.data?.phase;
  const showProgress = pulling || (running && (phase === 'fetching' || phase === 'importing'));
  const { manifest } = database;
  return (
    <Stack>
      <PageHeader
        title={database.name}
        description={manifest?.description ?? sourceText(database.source)}
        actions={
          <>
            <Button loading={pull.isPending} disabled={showProgress} onClick={() => pull.mutate()}>
              {showProgress ? 'Pulling…' : 'Pull'}
            </Button>
            <ConfirmButton
              variant="outline"
              color="red"
              title={`Unlink ${database.name}?`}
              message={`arrgo removes ${database.name}: its clone, its imported ops and the edits of its user layer. Instances synced from it must be switched to another database first. Nothing in your apps is touched.`}
              loading={unlink.isPending}
              onConfirm={() =>
                unlink.mutateAsync(database.id).then(
                  () => {
                    notifications.show({ color: 'green', message: `${database.name} was unlinked` });
                    navigate('/databases');
                  },
                  () => undefined,
                )
              }
            >
              Unlink
            </ConfirmButton>
          </>
        }
      />
      {pull.isError ? <ErrorDisplay title="The pull did not start" error={pull.error} /> : null}
      {unlink.isError ? <ErrorDisplay title="Not unlinked" error={unlink.error} /> : null}
      {showProgress ? <PullProgress name={database.name} state={pullState.data} /> : null}
      <CacheMessage database={database} />
      <Section title="Status">
        <Facts
          items={[
            ['Cache', <StatusBadge status={database.cache.status} />],
            ['Source', <Text size="sm" style={{ wordBreak: 'break-all' }}>{sourceText(database.source)}</Text>],
            ['Commit', database.commit ? <Code>{database.commit.slice(0, 12)}</Code> : '–'],
            ['Manifest', manifest ? `${manifest.name} ${manifest.version}` : '–'],
            ['Apps', manifest ? manifest.arrTypes.map((t) => APP_LABELS[t]).join(', ') : '–'],
            ['Schema', database.schema.source ? `${database.schema.source}${database.schema.note ? `: ${database.schema.note}` : ''}` : '–'],
            ['Last pulled', <TimeAgo iso={database.lastPulledAt} />],
            ['Enabled', database.enabled ? 'yes' : 'no: not synced, not cached'],
            ...(database.pinnedSnapshotId !== null ? ([['Pinned to snapshot', `${database.pinnedSnapshotId}, until the next pull`]] as [string, ReactNode][]) : []),
          ]}
        />
      </Section>
      <Section title="Replay">{database.cache.stats ? <ReplayStats stats={database.cache.stats} /> : <Text size="sm">Not replayed yet.</Text>}</Section>
    </Stack>
  );
}

export function DatabasePage() {
  const id = Number(useParams().id);
  const database = useDatabase(id);
  return (
    <Stack>
      <Anchor component={Link} to="/databases" size="sm">
        ← Databases
      </Anchor>
      <QueryState query={database} loadingLabel="Loading the database">
        {(data) => <DatabaseDetails database={data} />}
      </QueryState>
    </Stack>
  );
}
