import { Anchor, Badge, Button, Card, Group, List, Select, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { useAdoption, useApplyAdoption, useStartAdoption } from '../../api/adoptions';
import { useDatabases } from '../../api/databases';
import type { Adoption, Instance } from '../../api/types';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { FailureEvidence } from '../../components/FailureEvidence';
import { FieldTable } from '../../components/SyncChangeList';

const TYPE_LABELS: Record<string, string> = {
  regular_expression: 'regular expression',
  custom_format: 'custom format',
  quality_profile: 'quality profile',
  delay_profile: 'delay profile',
  music_app_metadata_profile: 'metadata profile',
};

function typeLabel(entityType: string): string {
  return TYPE_LABELS[entityType] ?? entityType.replace(/^(movie|series|music)_app_/, '').replace(/_/g, ' ');
}

function Entries({ title, entries }: { title: string; entries: { entityType: string; name: string; reason?: string }[] }) {
  if (entries.length === 0) return null;
  return (
    <Stack gap={4}>
      <Title order={4} size="h5">
        {title} ({entries.length})
      </Title>
      <List size="sm" aria-label={title}>
        {entries.map((e) => (
          <List.Item key={`${e.entityType}:${e.name}`}>
            {typeLabel(e.entityType)} <strong>{e.name}</strong>
            {e.reason ? <Text span size="sm" c="dimmed">{`: ${e.reason}`}</Text> : null}
          </List.Item>
        ))}
      </List>
    </Stack>
  );
}

function AdoptionPreview({ adoption }: { adoption: Adoption }) {
  const apply = useApplyAdoption(adoption.id);
  const { counts } = adoption;
  return (
    <Stack aria-label="Adoption preview" component="section">
      <Group gap="xs">
        <Badge variant="light" color={adoption.status === 'applied' ? 'green' : adoption.status === 'failed' ? 'red' : 'blue'}>
          {adoption.status}
        </Badge>
        <Text size="sm">
          {counts.create} to create, {counts.override} to override, {counts.skipped} skipped, {counts.unchanged} unchanged
        </Text>
      </Group>
      {adoption.failure ? <FailureEvidence evidence={adoption.failure} /> : null}
      <Entries title="Created" entries={adoption.creates} />
      {adoption.overrides.length > 0 ? (
        <Stack gap={4}>
          <Title order={4} size="h5">
            Overridden ({adoption.overrides.length})
          </Title>
          {adoption.overrides.map((o) => (
            <Stack key={`${o.entityType}:${o.name}`} gap={2}>
              <Text size="sm">
                {typeLabel(o.entityType)} <strong>{o.name}</strong>
              </Text>
              <FieldTable name={o.name} fields={o.fields} columns={['Database', 'App']} />
            </Stack>
          ))}
        </Stack>
      ) : null}
      <Entries title="Skipped" entries={adoption.skipped} />
      {adoption.status === 'ready' ? (
        <Group>
          <Button loading={apply.isPending} onClick={() => apply.mutate()}>
            Apply adoption
          </Button>
        </Group>
      ) : null}
      {apply.isError ? <ErrorDisplay title="Not applied" error={apply.error} /> : null}
      {adoption.status === 'applied' ? (
        <Text size="sm" role="status">
          Adopted: {adoption.appliedOpIds.length} user edits written to the database
          {adoption.snapshotId !== null ? (
            <>
              {' '}
              after{' '}
              <Anchor component={Link} underline="always" to={`/snapshots?database=${adoption.databaseId}&snapshot=${adoption.snapshotId}`}>
                snapshot {adoption.snapshotId}
              </Anchor>
            </>
          ) : null}
          {adoption.select ? '; the sync configuration now selects them.' : '.'}
        </Text>
      ) : null}
    </Stack>
  );
}

/** "Adopt this instance": plan the app's own configuration into a database, review it, apply it. */
export function AdoptInstance({ instance }: { instance: Instance }) {
  const databases = useDatabases();
  const [databaseId, setDatabaseId] = useState<string | null>(null);
  const [adoptionId, setAdoptionId] = useState<number | null>(null);
  const start = useStartAdoption(instance.id);
  const adoption = useAdoption(adoptionId);
  return (
    <Card withBorder>
      <Stack>
        <Text size="sm">
          Bring what {instance.name} holds today (custom formats, quality profiles, delay profile, naming, media settings, quality definitions) into a database&apos;s user layer. Nothing is
          written until you apply; every edit can be reverted.
        </Text>
        <Group align="end">
          <Select
            label="Adopt into database"
            placeholder={databases.isPending ? 'Loading…' : 'Pick a database'}
            data={(databases.data ?? []).map((d) => ({ value: String(d.id), label: d.name }))}
            value={databaseId}
            onChange={setDatabaseId}
            w={{ base: '100%', xs: 260 }}
          />
          <Button
            variant="default"
            disabled={databaseId === null}
            loading={start.isPending || adoption.data?.status === 'generating'}
            onClick={() => start.mutate(Number(databaseId), { onSuccess: (a) => setAdoptionId(a.id) })}
          >
            Preview adoption
          </Button>
        </Group>
        {start.isError ? <ErrorDisplay title="The adoption did not start" error={start.error} /> : null}
        {adoption.data && adoption.data.status !== 'generating' ? <AdoptionPreview adoption={adoption.data} /> : null}
      </Stack>
    </Card>
  );
}
