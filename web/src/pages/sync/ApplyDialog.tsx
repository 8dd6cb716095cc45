import { Button, Group, List, Modal, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useApplyPreview } from '../../api/sync';
import { APP_LABELS, type SyncPreview } from '../../api/types';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { allChanges, entityLabel, plural, type Action } from './labels';

/** The names listed per action; the rest is counted. */
const NAMES_SHOWN = 40;

const WRITES: { action: Exclude<Action, 'unchanged'>; title: string }[] = [
  { action: 'create', title: 'Create' },
  { action: 'update', title: 'Update' },
  { action: 'delete', title: 'Delete' },
];

/** What an apply writes: the counts, and the entities by action. */
function WhatWillBeWritten({ preview }: { preview: SyncPreview }) {
  const changes = allChanges(preview);
  const { create, update, delete: remove } = preview.counts;
  const total = create + update + remove;
  const app = APP_LABELS[preview.arrType];
  if (total === 0) {
    return <Text size="sm">Nothing would change: {preview.instanceName} already matches the database. The apply records a run and writes nothing.</Text>;
  }
  return (
    <Stack gap="sm">
      <Text size="sm">
        arrgo writes {plural(total, 'change')} to {preview.instanceName} ({app}): {create} to create, {update} to update, {remove} to delete. {preview.counts.unchanged === 1 ? '1 entity stays' : `${preview.counts.unchanged} entities stay`} as they are.
      </Text>
      {WRITES.map(({ action, title }) => {
        const named = changes.filter((change) => change.action === action);
        if (!named.length) return null;
        return (
          <Stack key={action} gap={4} component="section" aria-label={`${title} (${named.length})`}>
            <Title order={3} size="h6" c={action === 'delete' ? 'red' : undefined}>
              {title} ({named.length})
            </Title>
            <List size="sm" spacing={2}>
              {named.slice(0, NAMES_SHOWN).map((change) => (
                <List.Item key={`${change.entityType}:${change.name}`}>
                  {change.name} <Text span size="xs" c="dimmed">({entityLabel(change.entityType)}{change.fields.length ? `, ${plural(change.fields.length, 'field')}` : ''})</Text>
                </List.Item>
              ))}
            </List>
            {named.length > NAMES_SHOWN ? (
              <Text size="xs" c="dimmed">
                and {named.length - NAMES_SHOWN} more
              </Text>
            ) : null}
          </Stack>
        );
      })}
      <Text size="xs" c="dimmed">
        The app is asked who it is before the first write, and a preview that no longer matches the app is refused as stale.
      </Text>
    </Stack>
  );
}

/** Apply, after a confirmation that states what will be written. */
export function ApplyDialog({ preview }: { preview: SyncPreview }) {
  const [opened, { open, close }] = useDisclosure(false);
  const apply = useApplyPreview(preview.id);
  const dismiss = () => {
    apply.reset();
    close();
  };
  return (
    <>
      <Button onClick={open}>Apply</Button>
      <Modal opened={opened} onClose={dismiss} title={`Apply to ${preview.instanceName}?`} size="lg">
        <Stack>
          <WhatWillBeWritten preview={preview} />
          {apply.isError ? <ErrorDisplay title="Not applied" error={apply.error} /> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={dismiss}>
              Cancel
            </Button>
            <Button loading={apply.isPending} onClick={() => apply.mutate(undefined, { onSuccess: close })}>
              Apply {plural(preview.counts.create + preview.counts.update + preview.counts.delete, 'change')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
