import { Alert, Anchor, Badge, Button, Code, Group, Progress, SimpleGrid, Stack, Text, TextInput, Timeline } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { Link } from 'react-router';
import { useSearchParamPicks } from '../../app/search-params';
import {
  SNAPSHOTS_PAGE_SIZE,
  useRollback,
  useRollbacks,
  useSnapshotChanges,
  useSnapshots,
  useStartRollback,
  useTakeSnapshot,
  useUndoRollback,
  type Rollback,
  type Snapshot,
  type SnapshotChanges,
} from '../../api/snapshots';
import { ConfirmButton } from '../../components/ConfirmButton';
import { DataTable } from '../../components/DataTable';
import { useDatabaseParam } from '../../components/DatabaseSelect';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { FormModal } from '../../components/FormModal';
import { PageHeader } from '../../components/PageHeader';
import { Section } from '../../components/Section';
import { Pager } from '../../components/Pager';
import { Empty, QueryState } from '../../components/QueryState';
import { Stat } from '../../components/Stat';
import { StatusBadge } from '../../components/StatusBadge';
import { TimeAgo } from '../../components/TimeAgo';

// Why a snapshot was taken, in words (the API's SnapshotSubtype values).
const REASONS: Record<Snapshot['subtype'], string> = {
  pull: 'Before a pull that brought new ops',
  import: 'Before an import',
  edit: 'Before an edit',
  revert: 'Before a revert',
  goal: 'Before a goal was adopted',
  manual: 'Taken on demand',
  rollback: 'Before a rollback',
};

// The rollback workflow's steps, in order (RollbackSchema.step).
const STEPS = [
  { step: 'verify', title: 'Verify the snapshot' },
  { step: 'snapshot', title: 'Snapshot the current state' },
  { step: 'restore', title: 'Restore the op set' },
  { step: 'rebuild', title: 'Rebuild the cache' },
  { step: 'verify-state', title: 'Verify the state hash' },
] as const;

const CHANGE_COLORS = { added: 'green', removed: 'red', changed: 'yellow' } as const;

function entityLink(databaseId: number, portableType: string, name: string): string {
  return `/configuration/${databaseId}/${portableType}/${encodeURIComponent(name)}`;
}

/** The entities that differ between a snapshot and now, by type then name. */
function ChangeList({ databaseId, changes }: { databaseId: number; changes: SnapshotChanges }) {
  if (!changes.total) return <Text size="sm">Nothing differs: the database is as it was when the snapshot was taken.</Text>;
  return (
    <Stack gap="xs">
      <SimpleGrid cols={{ base: 3, sm: 5 }}>
        <Stat label="Added since" value={changes.counts.added} />
        <Stat label="Removed since" value={changes.counts.removed} />
        <Stat label="Changed since" value={changes.counts.changed} />
        <Stat label="User ops since" value={changes.userOps.onlyNow.length} />
        <Stat label="User ops undone since" value={changes.userOps.onlyInSnapshot.length} />
      </SimpleGrid>
      {changes.sameFileLayers ? null : (
        <Text size="sm" c="dimmed">
          The base moved too: commit {changes.baseCommit.snapshot?.slice(0, 10) ?? 'none'} then, {changes.baseCommit.now?.slice(0, 10) ?? 'none'} now.
        </Text>
      )}
      <DataTable
        label="Entities changed since the snapshot"
        minWidth={560}
        rows={changes.changes}
        rowKey={(c) => `${c.portableType}\u0000${c.name}`}
        columns={[
          { label: 'Type', cell: (c) => <Code>{c.portableType}</Code> },
          {
            label: 'Entity',
            cell: (c) =>
              c.change === 'removed' ? (
                c.name
              ) : (
                <Anchor component={Link} to={entityLink(databaseId, c.portableType, c.name)}>
                  {c.name}
                </Anchor>
              ),
          },
          {
            label: 'Since the snapshot',
            cell: (c) => (
              <Badge color={CHANGE_COLORS[c.change]} variant="light">
                {c.change}
              </Badge>
            ),
          },
          {
            label: 'Fields',
            cell: (c) =>
              c.fields.length ? (
                <Text size="sm" style={{ wordBreak: 'break-word' }}>
                  {c.fields.join(', ')}
                  {c.fieldCount > c.fields.length ? ` and ${c.fieldCount - c.fields.length} more` : ''}
                </Text>
              ) : (
                '–'
              ),
          },
        ]}
      />
      {changes.truncated ? (
        <Text size="sm" c="dimmed">
          The first {changes.changes.length} of {changes.total} entities.
        </Text>
      ) : null}
    </Stack>
  );
}

function SnapshotChangesPanel({ databaseId, snapshot, onClose }: { databaseId: number; snapshot: Snapshot; onClose: () => void }) {
  const changes = useSnapshotChanges(databaseId, snapshot.id);
  return (
    <Section title={`Changes since snapshot ${snapshot.id}`}>
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {REASONS[snapshot.subtype]}, <TimeAgo iso={snapshot.createdAt} />. What a rollback to it would undo:
        </Text>
        <Button size="xs" variant="default" onClick={onClose}>
          Close
        </Button>
      </Group>
      <QueryState query={changes} loadingLabel="Comparing the snapshot with now">
        {(data) => <ChangeList databaseId={databaseId} changes={data} />}
      </QueryState>
    </Section>
  );
}

/** What the rollback confirmation says: the snapshot and, once compared, how many entities return. */
function RollbackMessage({ databaseId, snapshot }: { databaseId: number; snapshot: Snapshot }) {
  const changes = useSnapshotChanges(databaseId, snapshot.id);
  const total = changes.data?.total;
  return (
    <>
      The database returns to snapshot {snapshot.id} ({REASONS[snapshot.subtype].toLowerCase()}, {new Date(snapshot.createdAt).toLocaleString()}).{' '}
      {total === undefined ? 'Comparing it with now…' : total === 0 ? 'Nothing differs from now.' : `${total} ${total === 1 ? 'entity returns' : 'entities return'} to how they were.`} Edits made since are kept, inactive, and come back
      if the rollback is undone. Instances are not synced: preview a sync to see what it means for them.
    </>
  );
}

function stepIndex(rollback: Rollback): number {
  if (rollback.status === 'success') return STEPS.length;
  const at = STEPS.findIndex((s) => s.step === rollback.step);
  return at < 0 ? 0 : at;
}

/** A rollback followed step by step while it runs, then its outcome and the way back. */
function RollbackProgress({ databaseId, rollbackId, onUndo }: { databaseId: number; rollbackId: number; onUndo: (rollbackId: number) => void }) {
  const rollback = useRollback(databaseId, rollbackId);
  const undo = useUndoRollback(databaseId);
  return (
    <Section title={`Rollback ${rollbackId}`}>
      <QueryState query={rollback} loadingLabel="Loading the rollback">
        {(r) => {
          const active = stepIndex(r);
          return (
            <Stack gap="sm">
              <Group gap="xs">
                <StatusBadge status={r.status} />
                <Text size="sm">
                  {r.trigger === 'undo' ? 'Undo of a rollback' : 'Rollback'} to snapshot {r.snapshotId}, started <TimeAgo iso={r.startedAt} />
                </Text>
              </Group>
              <Timeline active={r.status === 'failed' ? active - 1 : active} bulletSize={18} lineWidth={2}>
                {STEPS.map((step, i) => (
                  <Timeline.Item key={step.step} title={step.title}>
                    <Text size="sm" c="dimmed">
                      {i < active ? 'Done' : i === active && r.status === 'running' ? 'Running' : i === active && r.status === 'failed' ? 'Failed here' : 'Waiting'}
                    </Text>
                    {i === active && r.status === 'running' ? <Progress value={100} striped animated mt={4} aria-label={`${step.title}: in progress`} /> : null}
                  </Timeline.Item>
                ))}
              </Timeline>
              {r.status === 'failed' ? (
                <Alert color="red" variant="light" title="The rollback failed; the database is as it was before it" role="alert">
                  <Text size="sm">{r.error ?? 'No reason was recorded.'}</Text>
                </Alert>
              ) : null}
              {r.status === 'success' ? (
                <Stack gap="xs">
                  <Text size="sm">
                    Done: {r.opsUndone.length} user {r.opsUndone.length === 1 ? 'op' : 'ops'} set aside, {r.opsReactivated.length} active again.
                    {r.instancesFed.length ? ` ${r.instancesFed.length === 1 ? '1 instance is' : `${r.instancesFed.length} instances are`} fed by this database: preview a sync to see what it means for them.` : ''}
                  </Text>
                  {undo.isError ? <ErrorDisplay error={undo.error} title="The undo was refused" /> : null}
                  <Group>
                    <ConfirmButton
                      variant="outline"
                      color="orange"
                      title={`Undo rollback ${r.id}?`}
                      message={`The database returns to snapshot ${r.preSnapshotId}, taken just before this rollback: the ${r.opsUndone.length} user ops it set aside are active again. The undo is a rollback itself, and can be undone in turn.`}
                      loading={undo.isPending}
                      onConfirm={() => undo.mutateAsync(r.id).then((started) => onUndo(started.id), () => undefined)}
                    >
                      Undo this rollback
                    </ConfirmButton>
                    {r.instancesFed.length ? (
                      <Anchor component={Link} to="/sync" size="sm">
                        Preview a sync
                      </Anchor>
                    ) : null}
                  </Group>
                </Stack>
              ) : null}
            </Stack>
          );
        }}
      </QueryState>
    </Section>
  );
}

function TakeSnapshot({ databaseId }: { databaseId: number }) {
  const [opened, { open, close }] = useDisclosure(false);
  const [note, setNote] = useState('');
  const take = useTakeSnapshot(databaseId);
  return (
    <>
      <Button onClick={open}>Take a snapshot</Button>
      <FormModal
        title="Take a snapshot"
        opened={opened}
        onClose={close}
        submitLabel="Take the snapshot"
        loading={take.isPending}
        error={take.error}
        errorTitle="No snapshot was taken"
        onSubmit={() =>
          take.mutate(note.trim() || null, {
            onSuccess: (snapshot) => {
              notifications.show({ color: 'green', message: `Snapshot ${snapshot.id} taken` });
              setNote('');
              close();
            },
          })
        }
      >
        <TextInput label="Note" description="Optional, at most 500 characters" maxLength={500} value={note} onChange={(e) => setNote(e.currentTarget.value)} />
      </FormModal>
    </>
  );
}

function SnapshotList({ databaseId, onRollback, rollbackError }: { databaseId: number; onRollback: (snapshot: Snapshot) => Promise<unknown>; rollbackError: unknown }) {
  const [params, setPicks] = useSearchParamPicks();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const snapshots = useSnapshots(databaseId, page);
  const selected = Number(params.get('snapshot')) || null;
  const setParam = (key: string, value: string | null) => setPicks({ [key]: value });
  return (
    <QueryState
      query={snapshots}
      loadingLabel="Loading snapshots"
      isEmpty={(data) => data.totalRecords === 0}
      empty={<Empty title="No snapshot yet" description="Snapshots are taken before every change of the database (a pull with new ops, an edit, an import, a goal, a rollback), or now with Take a snapshot." />}
    >
      {(data) => {
        const current = data.items.find((s) => s.id === selected);
        return (
          <Stack>
            {rollbackError ? <ErrorDisplay error={rollbackError} title="The rollback was refused" /> : null}
            <Section title="Snapshots">
              <DataTable
                label="Snapshots"
                minWidth={760}
                rows={data.items}
                rowKey={(s) => s.id}
                columns={[
                  { label: 'Snapshot', cell: (s) => s.id },
                  { label: 'Taken', cell: (s) => <TimeAgo iso={s.createdAt} /> },
                  {
                    label: 'Reason',
                    cell: (s) => (
                      <Stack gap={0}>
                        <Text size="sm">{REASONS[s.subtype]}</Text>
                        {s.note ? (
                          <Text size="xs" c="dimmed">
                            {s.note}
                          </Text>
                        ) : null}
                      </Stack>
                    ),
                  },
                  { label: 'Ops (base / tweaks / user)', cell: (s) => `${s.opCounts.base} / ${s.opCounts.tweaks} / ${s.opCounts.user}` },
                  { label: 'Commit', cell: (s) => (s.baseCommit ? <Code>{s.baseCommit.slice(0, 10)}</Code> : '–') },
                  {
                    label: 'Actions',
                    cell: (s) => (
                      <Group gap="xs" wrap="nowrap">
                        <Button size="xs" variant="default" aria-label={`Changes since snapshot ${s.id}`} onClick={() => setParam('snapshot', String(s.id))}>
                          Changes since
                        </Button>
                        <ConfirmButton size="xs" variant="outline" color="orange" aria-label={`Roll back to snapshot ${s.id}`} title={`Roll back to snapshot ${s.id}?`} message={<RollbackMessage databaseId={databaseId} snapshot={s} />} onConfirm={() => onRollback(s)}>
                          Roll back
                        </ConfirmButton>
                      </Group>
                    ),
                  },
                ]}
              />
              <Pager page={page} totalPages={data.totalPages} totalRecords={data.totalRecords} pageSize={SNAPSHOTS_PAGE_SIZE} noun="snapshots" onChange={(p) => setParam('page', String(p))} />
            </Section>
            {current ? <SnapshotChangesPanel databaseId={databaseId} snapshot={current} onClose={() => setParam('snapshot', null)} /> : null}
          </Stack>
        );
      }}
    </QueryState>
  );
}

function RecentRollbacks({ databaseId, onFollow }: { databaseId: number; onFollow: (rollbackId: number) => void }) {
  const rollbacks = useRollbacks(databaseId);
  return (
    <Section title="Recent rollbacks">
      <QueryState query={rollbacks} loadingLabel="Loading rollbacks" isEmpty={(data) => data.totalRecords === 0} empty={<Text size="sm">No rollback yet.</Text>}>
        {(data) => (
          <DataTable
            label="Recent rollbacks"
            minWidth={560}
            rows={data.items}
            rowKey={(r) => r.id}
            columns={[
              { label: 'Rollback', cell: (r) => r.id },
              { label: 'Kind', cell: (r) => (r.trigger === 'undo' ? 'Undo' : 'Rollback') },
              { label: 'To snapshot', cell: (r) => r.snapshotId },
              { label: 'Status', cell: (r) => <StatusBadge status={r.status} /> },
              { label: 'Started', cell: (r) => <TimeAgo iso={r.startedAt} /> },
              {
                label: 'Details',
                cell: (r) => (
                  <Button size="xs" variant="default" aria-label={`Show rollback ${r.id}`} onClick={() => onFollow(r.id)}>
                    Show
                  </Button>
                ),
              },
            ]}
          />
        )}
      </QueryState>
    </Section>
  );
}

/** Per database: its snapshots, what changed since one, taking one, rolling back (and undoing it). */
export function SnapshotsPage() {
  const { databaseId, databases, isPending, error, select } = useDatabaseParam(['snapshot', 'rollback', 'page']);
  const [params, setPicks] = useSearchParamPicks();
  const followed = Number(params.get('rollback')) || null;
  const start = useStartRollback(databaseId ?? 0);
  const follow = (rollbackId: number) => setPicks({ rollback: String(rollbackId) });
  return (
    <Stack>
      <PageHeader
        title="Snapshots"
        description="A database's state before each change, what changed since, and rolling back to one."
        actions={databaseId !== null ? <TakeSnapshot databaseId={databaseId} /> : null}
      />
      {select}
      {error ? <ErrorDisplay error={error} /> : null}
      {!isPending && !databases?.length ? <Empty title="No database linked" description={<Anchor component={Link} to="/databases">Link a database first.</Anchor>} /> : null}
      {databaseId !== null ? (
        <>
          {followed ? <RollbackProgress key={followed} databaseId={databaseId} rollbackId={followed} onUndo={follow} /> : null}
          <SnapshotList databaseId={databaseId} rollbackError={start.error} onRollback={(snapshot) => start.mutateAsync(snapshot.id).then((r) => follow(r.id), () => undefined)} />
          <RecentRollbacks databaseId={databaseId} onFollow={follow} />
        </>
      ) : null}
    </Stack>
  );
}
