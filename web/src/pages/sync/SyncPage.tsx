import { Anchor, Button, Card, Group, List, MultiSelect, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useCreatePreviews, useInstanceChoices, useRecentPreviews } from '../../api/sync';
import { APP_LABELS, type SyncPreview } from '../../api/types';
import { DataTable } from '../../components/DataTable';
import { errorMessage } from '../../components/ErrorDisplay';
import { PageHeader } from '../../components/PageHeader';
import { Empty, QueryState } from '../../components/QueryState';
import { StatusBadge } from '../../components/StatusBadge';
import { TimeAgo } from '../../components/TimeAgo';

function StartPreviews() {
  const instances = useInstanceChoices();
  const create = useCreatePreviews();
  const navigate = useNavigate();
  const [picked, setPicked] = useState<string[]>([]);
  const names = new Map((instances.data ?? []).map((i) => [i.id, i.name]));
  return (
    <Card withBorder component="section" aria-label="Preview a sync">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          create.mutate(picked.map(Number), {
            onSuccess: (results) => {
              // One instance: straight to its preview. Several: they are listed below as they generate.
              if (results.length === 1 && results[0].result.status === 'fulfilled') navigate(`/sync/previews/${results[0].result.value.id}`);
              else setPicked([]);
            },
          });
        }}
      >
        <Stack>
          <Title order={2} size="h4">
            Preview a sync
          </Title>
          <Text size="sm" c="dimmed">
            A preview reads each app and compares it with its database. Nothing is written until you apply a preview.
          </Text>
          <MultiSelect
            label="Instances"
            placeholder={instances.isPending ? 'Loading…' : 'Pick one or several'}
            data={(instances.data ?? []).map((i) => ({ value: String(i.id), label: `${i.name} (${APP_LABELS[i.arrType]})` }))}
            value={picked}
            onChange={setPicked}
            searchable
            clearable
            nothingFoundMessage="No such instance"
            error={instances.isError ? errorMessage(instances.error) : undefined}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={create.isPending} disabled={picked.length === 0}>
              {picked.length > 1 ? `Preview ${picked.length} instances` : 'Preview'}
            </Button>
          </Group>
          {create.data && create.data.length > 1 ? (
            <Stack gap={4} aria-live="polite">
              <List size="sm">
                {create.data.map(({ instanceId, result }) => (
                  <List.Item key={instanceId}>
                    {result.status === 'fulfilled' ? (
                      <Anchor component={Link} to={`/sync/previews/${result.value.id}`} inherit>
                        Preview {result.value.id} of {result.value.instanceName}
                      </Anchor>
                    ) : (
                      <Text span c="red" inherit>
                        {names.get(instanceId) ?? `Instance ${instanceId}`}: {errorMessage(result.reason)}
                      </Text>
                    )}
                  </List.Item>
                ))}
              </List>
            </Stack>
          ) : null}
          {create.data?.length === 1 && create.data[0].result.status === 'rejected' ? (
            <Text size="sm" c="red" role="alert">
              {names.get(create.data[0].instanceId) ?? 'The instance'}: {errorMessage(create.data[0].result.reason)}
            </Text>
          ) : null}
        </Stack>
      </form>
    </Card>
  );
}

function changesText(preview: SyncPreview): string {
  if (preview.status === 'generating') return '–';
  const { create, update, delete: remove } = preview.counts;
  return `${create} create, ${update} update, ${remove} delete`;
}

function PreviewTable({ previews }: { previews: SyncPreview[] }) {
  return (
    <DataTable
      label="Recent previews"
      minWidth={700}
      rows={previews}
      rowKey={(preview) => preview.id}
      columns={[
        {
          label: 'Preview',
          cell: (preview) => (
            <Anchor component={Link} to={`/sync/previews/${preview.id}`}>
              Preview {preview.id}
            </Anchor>
          ),
        },
        { label: 'Instance', cell: (preview) => `${preview.instanceName} (${APP_LABELS[preview.arrType]})` },
        { label: 'Status', cell: (preview) => <StatusBadge status={preview.status} /> },
        { label: 'Changes', cell: changesText },
        { label: 'Created', cell: (preview) => <TimeAgo iso={preview.createdAt} /> },
      ]}
    />
  );
}

export function SyncPage() {
  const previews = useRecentPreviews();
  return (
    <>
      <PageHeader
        title="Sync"
        description="Preview what a sync would change, read it field by field, then apply it."
        actions={
          <Button component={Link} to="/sync/history" variant="default">
            Sync history
          </Button>
        }
      />
      <Stack>
        <StartPreviews />
        <Stack gap="xs" component="section" aria-label="Recent previews">
          <Title order={2} size="h4">
            Recent previews
          </Title>
          <QueryState
            query={previews}
            loadingLabel="Loading previews"
            isEmpty={(page) => page.totalRecords === 0}
            empty={<Empty title="No preview yet" description="Pick instances above to preview what a sync would change on them." />}
          >
            {(page) => <PreviewTable previews={page.items} />}
          </QueryState>
        </Stack>
      </Stack>
    </>
  );
}
