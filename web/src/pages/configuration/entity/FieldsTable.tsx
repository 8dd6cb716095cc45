import { Alert, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useMemo, useState } from 'react';
import type { EntityDetail, LineageEntry, PendingConflict, ConflictChoice, FieldChange } from '../../../api/pcd';
import { DataTable } from '../../../components/DataTable';
import { LineageBadge } from './LineageBadge';
import { FieldValue } from './values';

export interface ConflictActions {
  resolve: (conflict: PendingConflict, choice: ConflictChoice) => void;
  pending: boolean;
}

interface Row {
  path: string;
  value: unknown;
  lineage: LineageEntry | undefined;
  conflict: { op: PendingConflict; change: FieldChange } | undefined;
}

/** A pending conflict next to its field: upstream's value, the user's, and the two ways out. */
function FieldConflict({ path, op, change, actions }: { path: string; op: PendingConflict; change: FieldChange; actions: ConflictActions }) {
  return (
    <Alert color="orange" variant="light" p="xs" title={`Conflict: the base changed ${path} under your edit (op ${op.opId})`}>
      <Stack gap={4}>
        <Text size="sm" component="div">
          Upstream: <FieldValue value={change.current} />
        </Text>
        <Text size="sm" component="div">
          Yours: <FieldValue value={change.desired} />
        </Text>
        <Group gap="xs">
          <Button size="compact-sm" disabled={!op.mine} loading={actions.pending} onClick={() => actions.resolve(op, 'mine')} aria-label={`Keep mine for ${path}`}>
            Keep mine
          </Button>
          <Button size="compact-sm" variant="default" loading={actions.pending} onClick={() => actions.resolve(op, 'upstream')} aria-label={`Take upstream for ${path}`}>
            Take upstream
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}

/**
 * The fields of an entity in one layer: path, value, and (resolved layer) the lineage of each, with
 * a pending conflict shown on the field it concerns. A filter narrows long entities (profiles).
 */
export function FieldsTable({ detail, actions }: { detail: EntityDetail; actions: ConflictActions }) {
  const [filter, setFilter] = useState('');
  const rows = useMemo(() => {
    const lineage = new Map((detail.lineage ?? []).map((entry) => [entry.path, entry]));
    const conflicts = new Map<string, Row['conflict']>();
    for (const op of detail.pendingConflicts) for (const change of op.fields) conflicts.set(change.field, { op, change });
    const all: Row[] = detail.fields.map(({ path, value }) => ({ path, value, lineage: lineage.get(path), conflict: conflicts.get(path) }));
    // A field the user's op adds or removes is not among the current fields: it still needs its place.
    for (const [path, conflict] of conflicts) if (!all.some((r) => r.path === path)) all.push({ path, value: null, lineage: undefined, conflict });
    const needle = filter.trim().toLowerCase();
    return needle ? all.filter((r) => r.path.toLowerCase().includes(needle)) : all;
  }, [detail, filter]);
  const withLineage = detail.lineage !== undefined;
  return (
    <Stack gap="xs">
      <TextInput label="Filter fields" placeholder="Field path" value={filter} onChange={(e) => setFilter(e.currentTarget.value)} maw={360} />
      <DataTable
        label={`Fields (${detail.layer})`}
        minWidth={withLineage ? 640 : 420}
        rows={rows}
        rowKey={(r) => r.path}
        columns={[
          { label: 'Field', cell: (r) => <Text size="sm" style={{ wordBreak: 'break-word' }}>{r.path}</Text> },
          {
            label: 'Value',
            cell: (r) => (
              <Stack gap={4}>
                <FieldValue value={r.value} />
                {r.conflict ? <FieldConflict path={r.path} op={r.conflict.op} change={r.conflict.change} actions={actions} /> : null}
              </Stack>
            ),
          },
          ...(withLineage ? [{ label: 'Set by', cell: (r: Row) => (r.lineage ? <LineageBadge entry={r.lineage} /> : <Text size="sm" c="dimmed">unknown</Text>) }] : []),
        ]}
      />
      {rows.length === 0 ? <Text size="sm">No field matches.</Text> : null}
    </Stack>
  );
}
