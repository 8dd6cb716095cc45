import { Badge, Card, Code, Group, Stack, Table, Text, Title } from '@mantine/core';
import type { FieldChange, SyncChange, SyncPreview, SyncSection } from '../../api/types';
import { FailureEvidence } from '../../components/FailureEvidence';
import { ActionBadge } from './ActionBadge';
import { ACTIONS, ACTION_PHRASES, countActions, entityLabel, SECTION_LABELS, sectionGroups, type ChangeGroup } from './labels';

/** A field value as the API gives it: text as is, absent as "absent", anything else as JSON. */
function Value({ value }: { value: unknown }) {
  if (value === null || value === undefined) {
    return (
      <Text size="sm" c="dimmed" fs="italic">
        absent
      </Text>
    );
  }
  if (typeof value === 'object') {
    return (
      <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
        {JSON.stringify(value, null, 1)}
      </Code>
    );
  }
  return (
    <Text size="sm" style={{ wordBreak: 'break-word' }}>
      {String(value)}
    </Text>
  );
}

function FieldTable({ change, fields }: { change: SyncChange; fields: FieldChange[] }) {
  return (
    <Table.ScrollContainer minWidth={480}>
      <Table verticalSpacing={4} withColumnBorders aria-label={`${change.name} (${entityLabel(change.entityType)}): current and desired values`} layout="fixed">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w="28%">Field</Table.Th>
            <Table.Th>Current (in the app)</Table.Th>
            <Table.Th>Desired (from the database)</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {fields.map((field) => (
            <Table.Tr key={field.field}>
              <Table.Td>
                <Code style={{ wordBreak: 'break-all' }}>{field.field}</Code>
                {field.type === 'changed' ? null : (
                  <Text span size="xs" c="dimmed" ml={6}>
                    {field.type}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                <Value value={field.current} />
              </Table.Td>
              <Table.Td>
                <Value value={field.desired} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** What happens to an entity that has no field list (create, delete, unchanged), in words. */
function actionText(change: SyncChange): string {
  if (change.category === 'unmanaged' && change.unmanagedReason === 'noLongerSelected') {
    return change.action === 'delete' ? 'Created by arrgo, no longer selected: deleted, as the sync configuration asks (deleteUnmanaged).' : 'Created by arrgo, no longer selected: left alone.';
  }
  if (change.category === 'unmanaged') return change.action === 'delete' ? 'Not in the database: deleted, as the sync configuration asks (deleteUnmanaged).' : 'Not managed by arrgo: left alone.';
  if (change.action === 'create') return "Created with the database's values.";
  if (change.action === 'delete') return 'Deleted from the app.';
  if (change.action === 'unchanged') return 'Already as the database has it.';
  return 'Updated.';
}

/** Database id -> name, when the preview came from several databases (null: one, not shown per entity). */
type DatabaseNames = Map<number, string> | null;

function databaseNamesOf(preview: SyncPreview): DatabaseNames {
  return preview.databases.length > 1 ? new Map(preview.databases.map((d) => [d.databaseId, d.name])) : null;
}

function Entity({ change, databases }: { change: SyncChange; databases: DatabaseNames }) {
  return (
    <Card withBorder padding="sm" component="article" aria-label={`${change.name} (${entityLabel(change.entityType)})`}>
      <Stack gap="xs">
        <Group gap="xs" wrap="wrap">
          <Text fw={600} size="sm">
            {change.name}
          </Text>
          <ActionBadge action={change.action} />
          {change.category ? (
            <Badge variant="outline" color="gray" radius="sm" style={{ textTransform: 'none' }}>
              {change.category}
            </Badge>
          ) : null}
          {databases && change.databaseId !== undefined ? (
            <Badge variant="light" color="indigo" radius="sm" style={{ textTransform: 'none' }}>
              from {databases.get(change.databaseId) ?? `database ${change.databaseId}`}
            </Badge>
          ) : null}
          {change.fields.length ? (
            <Text size="xs" c="dimmed">
              {change.fields.length} {change.fields.length === 1 ? 'field' : 'fields'}
            </Text>
          ) : null}
        </Group>
        {change.fields.length ? <FieldTable change={change} fields={change.fields} /> : <Text size="sm" c="dimmed">{actionText(change)}</Text>}
      </Stack>
    </Card>
  );
}

/** "2 to create, 1 to update, 14 unchanged". */
export function countsText(counts: Record<(typeof ACTIONS)[number], number>): string {
  const parts = ACTIONS.filter((action) => counts[action] > 0).map((action) => `${counts[action]} ${ACTION_PHRASES[action]}`);
  return parts.length ? parts.join(', ') : 'nothing';
}

function ChangeGroupList({ group, showUnchanged, titled, databases }: { group: ChangeGroup; showUnchanged: boolean; titled: boolean; databases: DatabaseNames }) {
  const counts = countActions(group.changes);
  const shown = showUnchanged ? group.changes : group.changes.filter((change) => change.action !== 'unchanged');
  return (
    <Stack gap="xs">
      {titled ? (
        <Group gap="xs" align="baseline">
          <Title order={3} size="h5">
            {group.label}
          </Title>
          <Text size="sm" c="dimmed">
            {countsText(counts)}
          </Text>
        </Group>
      ) : null}
      {shown.map((change) => (
        <Entity key={`${change.entityType}:${change.name}:${change.remoteId ?? ''}`} change={change} databases={databases} />
      ))}
      {!showUnchanged && counts.unchanged > 0 ? (
        <Text size="xs" c="dimmed">
          {counts.unchanged} unchanged not shown.
        </Text>
      ) : null}
    </Stack>
  );
}

/** One section of the preview: its outcome (skipped, or the failure evidence) and its changes by entity kind. */
export function SectionChanges({ preview, section, showUnchanged }: { preview: SyncPreview; section: SyncSection; showUnchanged: boolean }) {
  const outcome = preview.sectionOutcomes.find((o) => o.section === section);
  const groups = sectionGroups(preview, section);
  const label = SECTION_LABELS[section];
  const databases = databaseNamesOf(preview);
  return (
    <Card withBorder component="section" aria-label={label}>
      <Stack gap="md">
        <Group gap="xs" align="baseline">
          <Title order={2} size="h4">
            {label}
          </Title>
          {groups.length ? (
            <Text size="sm" c="dimmed">
              {countsText(countActions(groups.flatMap((g) => g.changes)))}
            </Text>
          ) : null}
        </Group>
        {outcome?.failure ? <FailureEvidence title={`${label}: not previewed`} evidence={outcome.failure} /> : null}
        {outcome?.skipped ? <Text size="sm" c="dimmed">Nothing to preview: the sync configuration selects nothing in this section.</Text> : null}
        {groups.map((group) => (
          <ChangeGroupList key={group.label} group={group} showUnchanged={showUnchanged} titled={groups.length > 1 || group.label !== label} databases={databases} />
        ))}
      </Stack>
    </Card>
  );
}
