import { Alert, Anchor, Autocomplete, Badge, Button, Card, Checkbox, Code, Group, MultiSelect, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { COMPARE_MAX_INSTANCES, useCompare, type ComparableEntityType, type CompareInstance, type CompareRequest, type EntityCompare } from '../../api/compare';
import { useInstancePage } from '../../api/instances';
import { useResolvedEntities } from '../../api/pcd';
import { APP_LABELS } from '../../api/types';
import { useSearchParamPicks } from '../../app/search-params';
import { useDatabaseParam } from '../../components/DatabaseSelect';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { PageHeader } from '../../components/PageHeader';
import { Empty, QueryState } from '../../components/QueryState';
import { FieldTable } from '../../components/SyncChangeList';

/** The comparable types in words (typed by the API's ComparableEntityType). */
const TYPE_LABELS: Record<ComparableEntityType, string> = {
  qualityProfile: 'Quality profile',
  customFormat: 'Custom format',
  delayProfile: 'Delay profile',
  naming: 'Naming',
  mediaSettings: 'Media settings',
  qualityDefinitions: 'Quality definitions',
  musicAppMetadataProfile: 'Metadata profile (Lidarr)',
};
const TYPE_OPTIONS = (Object.keys(TYPE_LABELS) as ComparableEntityType[]).map((value) => ({ value, label: TYPE_LABELS[value] }));

/** Types kept per app family: their names are listed for every family. */
const PER_APP: ComparableEntityType[] = ['naming', 'mediaSettings', 'qualityDefinitions'];

/** The API's inline reasons in words (an unknown code is shown as it is). */
const REASONS: Record<string, string> = {
  incompatible: "the app can't hold this entity",
  not_configured: 'the instance has no sync configuration',
  'rate-limited': 'the live payload was fetched moments ago; try again shortly',
  unreachable: 'the app could not be reached',
  timeout: 'the app did not answer in time',
  unauthorized: 'the app refused the API key',
  invalid_response: 'the app answered something that could not be read',
  app_mismatch: "the app at the instance's address is of another type",
  rate_limited: 'the app asked arrgo to slow down',
  error: 'the read failed',
};

/** Entity names of the type for the picker (per-app types: every family's). */
function useEntityNames(databaseId: number | null, entityType: ComparableEntityType | null): string[] {
  const perApp = entityType !== null && PER_APP.includes(entityType);
  const type = entityType ?? 'qualityProfile';
  const agnostic = useResolvedEntities(databaseId, type, {}, entityType !== null && !perApp);
  const movie = useResolvedEntities(databaseId, type, { arrType: 'movie_app' }, perApp);
  const series = useResolvedEntities(databaseId, type, { arrType: 'series_app' }, perApp);
  const music = useResolvedEntities(databaseId, type, { arrType: 'music_app' }, perApp);
  const lists = perApp ? [movie, series, music] : [agnostic];
  return [...new Set(lists.flatMap((list) => list.data?.entities.filter((e) => e.exists).map((e) => e.name) ?? []))].sort();
}

function Payload({ label, value }: { label: string; value: unknown }) {
  return (
    <details>
      <summary>
        <Text span size="sm">
          {label}
        </Text>
      </summary>
      <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', maxHeight: 360, overflow: 'auto' }} tabIndex={0}>
        {JSON.stringify(value, null, 2)}
      </Code>
    </details>
  );
}

function InstanceColumn({ instance, result, includeLive }: { instance: CompareInstance; result: EntityCompare; includeLive: boolean }) {
  const baseline = result.baselineInstanceId === instance.instanceId;
  const diff = result.diffs.find((d) => d.instanceId === instance.instanceId);
  const fields = diff?.changes.flatMap((c) => c.fields) ?? [];
  const titleId = `compare-instance-${instance.instanceId}`;
  return (
    <Card withBorder component="section" aria-labelledby={titleId}>
      <Stack gap="xs">
        <Group gap="xs" wrap="wrap">
          <Title order={2} size="h5" id={titleId}>
            <Anchor component={Link} to={`/instances/${instance.instanceId}`} inherit>
              {instance.instanceName}
            </Anchor>
          </Title>
          {instance.arrType ? (
            <Text size="sm" c="dimmed">
              {APP_LABELS[instance.arrType]}
            </Text>
          ) : null}
          {baseline ? (
            <Badge variant="light" radius="sm" style={{ textTransform: 'none' }}>
              baseline
            </Badge>
          ) : null}
        </Group>
        <Text size="sm">
          {instance.supported ? 'The app can hold it' : "The app can't hold it"} · {instance.present ? 'selected by its sync configuration' : 'not selected by its sync configuration'}
        </Text>
        {instance.error ? (
          <Alert color="orange" title={`Reason: ${instance.error}`} p="xs">
            {REASONS[instance.error] ?? instance.error}
          </Alert>
        ) : null}
        {instance.desired === null ? (
          <Text size="sm" c="dimmed">
            No payload for this instance.
          </Text>
        ) : baseline ? (
          <Text size="sm">The others are compared with this one.</Text>
        ) : fields.length ? (
          <FieldTable name={`${instance.instanceName} against the baseline`} fields={fields} columns={['Baseline', 'This instance']} />
        ) : (
          <Text size="sm">Same as the baseline.</Text>
        )}
        {instance.desired ? <Payload label="Payload the sync would write" value={instance.desired} /> : null}
        {includeLive ? (
          instance.live === undefined ? (
            <Text size="sm" c="dimmed">
              No live payload{instance.error ? '' : ' (the app does not have it)'}.
            </Text>
          ) : (
            <Payload label="Live payload in the app" value={instance.live} />
          )
        ) : null}
      </Stack>
    </Card>
  );
}

function requestOf(params: URLSearchParams, databaseId: number | null): CompareRequest | null {
  const entityType = params.get('type') as ComparableEntityType | null;
  const name = params.get('name');
  const instanceIds = (params.get('instances') ?? '').split(',').filter(Boolean).map(Number);
  if (databaseId === null || !entityType || !(entityType in TYPE_LABELS) || !name || instanceIds.length === 0) return null;
  return { databaseId, entityType, name, instanceIds, includeLive: params.get('live') === '1' };
}

/** One entity as the sync would write it to each picked instance, side by side, with the diffs against the baseline. */
export function ComparePage() {
  const [params, set] = useSearchParamPicks();
  const { databaseId, select: databaseSelect } = useDatabaseParam();
  const request = requestOf(params, databaseId);
  const [entityType, setEntityType] = useState<ComparableEntityType | null>((params.get('type') as ComparableEntityType | null) ?? 'qualityProfile');
  const [name, setName] = useState(params.get('name') ?? '');
  const [instanceIds, setInstanceIds] = useState<string[]>((params.get('instances') ?? '').split(',').filter(Boolean));
  const [includeLive, setIncludeLive] = useState(params.get('live') === '1');
  const names = useEntityNames(databaseId, entityType);
  const instances = useInstancePage(1);
  const compare = useCompare(request);
  const instanceOptions = (instances.data?.items ?? []).map((i) => ({ value: String(i.id), label: `${i.name} (${APP_LABELS[i.arrType]})` }));
  const ready = entityType !== null && name.trim() !== '' && instanceIds.length > 0;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!ready) return;
    set({ type: entityType, name, instances: instanceIds.join(','), live: includeLive ? '1' : null });
    // The same picks again read again (a live payload may have changed).
    if (request && request.name === name && request.instanceIds.join(',') === instanceIds.join(',') && request.includeLive === includeLive && request.entityType === entityType) void compare.refetch();
  };

  return (
    <>
      <PageHeader title="Compare" description="One entity as the sync would write it to each instance, side by side, with what differs from the first instance that has it." />
      <Stack gap="md">
        <Card withBorder component="form" onSubmit={submit} aria-label="What to compare">
          <Stack gap="sm">
            <Group gap="sm" align="flex-end" wrap="wrap">
              {databaseSelect}
              <Select label="Entity type" data={TYPE_OPTIONS} value={entityType} onChange={(value) => setEntityType(value as ComparableEntityType | null)} allowDeselect={false} w={220} />
              <Autocomplete label="Name" data={names} value={name} onChange={setName} limit={50} w={280} required />
            </Group>
            <MultiSelect
              label={`Instances (up to ${COMPARE_MAX_INSTANCES})`}
              data={instanceOptions}
              value={instanceIds}
              onChange={setInstanceIds}
              maxValues={COMPARE_MAX_INSTANCES}
              searchable
              placeholder={instanceIds.length ? undefined : 'Pick instances'}
              description="The first instance that can hold the entity is the baseline."
            />
            <Group justify="space-between" wrap="wrap">
              <Checkbox label="Include the live payloads (one read per instance; again after a short wait)" checked={includeLive} onChange={(event) => setIncludeLive(event.currentTarget.checked)} />
              <Button type="submit" disabled={!ready}>
                Compare
              </Button>
            </Group>
          </Stack>
        </Card>
        {request === null ? (
          <Empty title="Nothing compared yet" description="Pick an entity and the instances to compare it on." />
        ) : compare.isError ? (
          <ErrorDisplay error={compare.error} onRetry={() => void compare.refetch()} />
        ) : (
          <QueryState query={compare} loadingLabel="Comparing">
            {(result) => (
              <Stack gap="sm" component="section" aria-label="Comparison">
                <Text size="sm">
                  {TYPE_LABELS[result.entityType]} <strong>{result.name}</strong> on {result.instances.length} {result.instances.length === 1 ? 'instance' : 'instances'}
                  {result.baselineInstanceId === null ? ': no instance has it.' : '.'}
                </Text>
                <SimpleGrid cols={{ base: 1, md: 2, xl: Math.min(result.instances.length, 4) }}>
                  {result.instances.map((instance) => (
                    <InstanceColumn key={instance.instanceId} instance={instance} result={result} includeLive={request.includeLive} />
                  ))}
                </SimpleGrid>
              </Stack>
            )}
          </QueryState>
        )}
      </Stack>
    </>
  );
}
