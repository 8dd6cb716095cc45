import { Alert, Anchor, Badge, Button, Code, Group, List, Progress, PasswordInput, SegmentedControl, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue, useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useSearchParamPicks } from '../../app/search-params';
import {
  GUIDE_PAGE_SIZE,
  useGuideEntities,
  useGuideEntity,
  useGuideImportPreview,
  useGuideSource,
  useCreateGuideSource,
  useGuideSources,
  useImportGuideEntity,
  useSyncGuideSource,
  type ImportableType,
  type RefGuideEntity,
  type RefGuideEntityType,
  type RefGuideImportResult,
  type RefGuideSource,
} from '../../api/guides';
import { APP_LABELS } from '../../api/types';
import { DataTable } from '../../components/DataTable';
import { useDatabaseParam } from '../../components/DatabaseSelect';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { FormModal } from '../../components/FormModal';
import { PageHeader } from '../../components/PageHeader';
import { Section } from '../../components/Section';
import { Pager } from '../../components/Pager';
import { Empty, QueryState } from '../../components/QueryState';
import { StatusBadge } from '../../components/StatusBadge';
import { TimeAgo } from '../../components/TimeAgo';

// What the page browses: formats, groups and profiles (the other cached types have no import).
const BROWSED: { value: RefGuideEntityType; label: string }[] = [
  { value: 'custom_format', label: 'Custom formats' },
  { value: 'custom_format_group', label: 'Groups' },
  { value: 'quality_profile', label: 'Profiles' },
];
const IMPORTABLE: readonly RefGuideEntityType[] = ['custom_format', 'quality_profile'];
const DEFAULT_SET = 'default';

/** The address's picks (source, type, search, page, entity), so links and reloads keep them. */
function useGuideParams() {
  const [params, set] = useSearchParamPicks();
  const type = (BROWSED.find((b) => b.value === params.get('type'))?.value ?? 'custom_format') as RefGuideEntityType;
  return {
    source: Number(params.get('source')) || null,
    type,
    q: params.get('q') ?? '',
    page: Math.max(1, Number(params.get('page')) || 1),
    entity: params.get('entity'),
    scoreSet: params.get('scoreSet') ?? DEFAULT_SET,
    set,
  };
}

function originText(source: RefGuideSource): string {
  const { origin } = source;
  return origin.kind === 'git' ? `${origin.url ?? ''}${origin.branch ? ` (${origin.branch})` : ''}${origin.tokenSet ? ' · token set' : ''}` : (origin.path ?? '');
}

function SyncState({ source }: { source: RefGuideSource }) {
  const detail = useGuideSource(source.sync.status === 'syncing' ? source.id : null);
  const progress = detail.data?.progress;
  return (
    <Stack gap={2}>
      <StatusBadge status={source.sync.status} />
      {progress && progress.total > 0 ? <Progress value={(100 * progress.done) / progress.total} size="sm" aria-label={`Sync of ${source.name}: ${progress.phase}`} /> : null}
      {source.sync.status === 'failed' && source.sync.message ? (
        <Text size="xs" c="red">
          {source.sync.reason ? <Code mr={4}>{source.sync.reason}</Code> : null}
          {source.sync.message}
        </Text>
      ) : null}
    </Stack>
  );
}

function Sources({ sources, selected, onSelect }: { sources: RefGuideSource[]; selected: number; onSelect: (id: number) => void }) {
  const sync = useSyncGuideSource();
  return (
    <Section title="Sources">
      {sync.isError ? <ErrorDisplay error={sync.error} title="The sync was refused" /> : null}
      <DataTable
        label="Guide sources"
        minWidth={860}
        rows={sources}
        rowKey={(s) => s.id}
        columns={[
          {
            label: 'Source',
            cell: (s) => (
              <Stack gap={0}>
                <Text size="sm" fw={s.id === selected ? 700 : 500}>
                  {s.name}
                </Text>
                <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
                  {originText(s)}
                </Text>
              </Stack>
            ),
          },
          { label: 'App', cell: (s) => APP_LABELS[s.arrType] },
          { label: 'Sync', cell: (s) => <SyncState source={s} /> },
          { label: 'Last good sync', cell: (s) => <TimeAgo iso={s.lastSyncedAt} /> },
          { label: 'Commit', cell: (s) => (s.lastCommit ? <Code>{s.lastCommit.slice(0, 10)}</Code> : '–') },
          {
            label: 'Cached',
            cell: (s) =>
              s.entityCounts ? (
                <Text size="xs">
                  {BROWSED.map((b) => `${s.entityCounts?.[b.value] ?? 0} ${b.label.toLowerCase()}`).join(', ')}
                </Text>
              ) : (
                '–'
              ),
          },
          {
            label: 'Actions',
            cell: (s) => (
              <Group gap="xs" wrap="nowrap">
                <Button size="xs" variant={s.id === selected ? 'filled' : 'default'} aria-label={`Browse ${s.name}`} aria-pressed={s.id === selected} onClick={() => onSelect(s.id)}>
                  Browse
                </Button>
                <Button size="xs" variant="default" aria-label={`Sync ${s.name}`} loading={sync.isPending && sync.variables === s.id} disabled={s.sync.status === 'syncing'} onClick={() => sync.mutate(s.id)}>
                  Sync
                </Button>
              </Group>
            ),
          },
        ]}
      />
    </Section>
  );
}

/** Score sets seen on the page's formats, default first. */
function scoreSets(items: { scores?: Record<string, number> }[]): string[] {
  const sets = new Set<string>();
  for (const item of items) for (const key of Object.keys(item.scores ?? {})) sets.add(key);
  sets.delete(DEFAULT_SET);
  return [DEFAULT_SET, ...[...sets].sort()];
}

function Browser({ source }: { source: RefGuideSource }) {
  const params = useGuideParams();
  const [search, setSearch] = useState(params.q);
  const [q] = useDebouncedValue(search.trim(), 300);
  const { set } = params;
  useEffect(() => {
    if (q !== params.q) set({ q, page: null });
  }, [q, params.q, set]);
  const entities = useGuideEntities(source, params.type, params.q, params.page);
  const sets = scoreSets(entities.data?.items ?? []);
  return (
    <Section title={`Browse ${source.name}`}>
      {source.lastSyncedAt === null ? (
        <Text size="sm">This source has no good sync yet: its entities show once one has succeeded.</Text>
      ) : (
        <>
          <Group align="flex-end" wrap="wrap">
            <SegmentedControl aria-label="Entity type" data={BROWSED} value={params.type} onChange={(type) => params.set({ type, page: null, entity: null, scoreSet: null })} />
            <TextInput label="Search by name" value={search} onChange={(e) => setSearch(e.currentTarget.value)} maxLength={100} w={{ base: '100%', xs: 240 }} />
            {params.type === 'custom_format' ? (
              <Select label="Score set" data={sets} value={sets.includes(params.scoreSet) ? params.scoreSet : DEFAULT_SET} allowDeselect={false} onChange={(v) => v && params.set({ scoreSet: v === DEFAULT_SET ? null : v })} w={{ base: '100%', xs: 220 }} />
            ) : null}
          </Group>
          <QueryState query={entities} loadingLabel="Loading the guide's entities" isEmpty={(data) => data.totalRecords === 0} empty={<Empty title="Nothing found" description={params.q ? `No name contains "${params.q}".` : 'The guide has none of these.'} />}>
            {(data) => (
              <Stack gap="xs">
                <DataTable
                  label={`${BROWSED.find((b) => b.value === params.type)!.label} of ${source.name}`}
                  minWidth={560}
                  rows={data.items}
                  rowKey={(e) => e.refId}
                  columns={[
                    {
                      label: 'Name',
                      cell: (e) => (
                        <Anchor component="button" type="button" size="sm" onClick={() => params.set({ entity: e.refId })} fw={e.refId === params.entity ? 700 : undefined}>
                          {e.name}
                        </Anchor>
                      ),
                    },
                    params.type === 'custom_format'
                      ? { label: `Score (${params.scoreSet})`, cell: (e) => e.scores?.[params.scoreSet] ?? e.scores?.[DEFAULT_SET] ?? '–' }
                      : params.type === 'quality_profile'
                        ? { label: 'Group', cell: (e) => e.group ?? '–' }
                        : { label: 'File', cell: (e) => <Text size="xs">{e.filePath.split('/').pop()}</Text> },
                    params.type === 'custom_format'
                      ? { label: 'Score sets', cell: (e) => Object.keys(e.scores ?? {}).length }
                      : params.type === 'quality_profile'
                        ? { label: 'Formats scored', cell: (e) => Object.keys(e.scores ?? {}).length }
                        : { label: 'Trash id', cell: (e) => <Code>{e.refId.slice(0, 8)}</Code> },
                  ]}
                />
                <Pager page={params.page} totalPages={data.totalPages} totalRecords={data.totalRecords} pageSize={GUIDE_PAGE_SIZE} noun="entities" onChange={(p) => params.set({ page: String(p) })} />
              </Stack>
            )}
          </QueryState>
        </>
      )}
    </Section>
  );
}

function ScoreTable({ scores, label, keyLabel }: { scores: Record<string, number>; label: string; keyLabel: string }) {
  const rows = Object.entries(scores);
  if (!rows.length) return <Text size="sm">No scores.</Text>;
  return <DataTable label={label} minWidth={320} rows={rows} rowKey={([k]) => k} columns={[{ label: keyLabel, cell: ([k]) => k }, { label: 'Score', cell: ([, v]) => v }]} />;
}

function entityLink(databaseId: number, entityType: string, name: string): string {
  return `/configuration/${databaseId}/${entityType}/${encodeURIComponent(name)}`;
}

/** The dry run's answer: what would be created, and what is left alone (names that exist). */
function ImportPlan({ plan }: { plan: RefGuideImportResult }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      <Stack gap={4} role="group" aria-label="Will be created">
        <Text size="sm" fw={600}>
          Will be created ({plan.created.length})
        </Text>
        {plan.created.length ? (
          <List size="sm">
            {plan.created.map((c) => (
              <List.Item key={`${c.entityType}:${c.name}`}>
                <Code>{c.entityType}</Code> {c.name}
              </List.Item>
            ))}
          </List>
        ) : (
          <Text size="sm">Nothing: everything it needs exists already.</Text>
        )}
      </Stack>
      <Stack gap={4} role="group" aria-label="Exists already or left alone">
        <Text size="sm" fw={600}>
          Exists already or left alone ({plan.skipped.length})
        </Text>
        {plan.skipped.length ? (
          <List size="sm">
            {plan.skipped.map((s) => (
              <List.Item key={`${s.entityType}:${s.name}`}>
                <Code>{s.entityType}</Code> {s.name}: {s.reason}
              </List.Item>
            ))}
          </List>
        ) : (
          <Text size="sm">No name exists already.</Text>
        )}
      </Stack>
    </SimpleGrid>
  );
}

function ImportPanel({ source, entity }: { source: RefGuideSource; entity: RefGuideEntity }) {
  const { databaseId, select } = useDatabaseParam();
  const type = entity.type as ImportableType;
  const profileSets = type === 'quality_profile' ? scoreSetsOfProfile(entity) : [];
  const [scoreSet, setScoreSet] = useState<string | null>(null);
  const body = databaseId === null ? null : { databaseId, type, ...(type === 'quality_profile' && scoreSet ? { scoreSet } : {}) };
  const preview = useGuideImportPreview(source.id, entity.refId, body);
  const run = useImportGuideEntity(source.id, entity.refId);
  const [done, setDone] = useState<RefGuideImportResult | null>(null);
  return (
    <Stack gap="sm" component="section" aria-label="Import into a database">
      <Title order={3} size="h5">
        Import into a database
      </Title>
      <Text size="sm" c="dimmed">
        Written to the database's user layer, one revertible edit per entity. Existing names are never overwritten.
      </Text>
      <Group align="flex-end" wrap="wrap">
        {select}
        {type === 'quality_profile' ? (
          <Select
            label="Score set"
            description="Default: the profile's own"
            data={profileSets}
            value={scoreSet}
            clearable
            onChange={setScoreSet}
            w={{ base: '100%', xs: 220 }}
          />
        ) : null}
      </Group>
      {body ? (
        <QueryState query={preview} loadingLabel="Planning the import">
          {(plan) => (
            <Stack gap="sm">
              <ImportPlan plan={plan} />
              {run.isError ? <ErrorDisplay error={run.error} title="The import was refused" /> : null}
              <Group>
                <Button
                  disabled={!plan.created.length}
                  loading={run.isPending}
                  onClick={() =>
                    run.mutate(body, {
                      onSuccess: (result) => {
                        setDone(result);
                        notifications.show({ color: 'green', message: `${result.created.length} ${result.created.length === 1 ? 'entity' : 'entities'} imported` });
                      },
                    })
                  }
                >
                  {plan.created.length ? `Import ${plan.created.length} ${plan.created.length === 1 ? 'entity' : 'entities'}` : 'Nothing to import'}
                </Button>
              </Group>
            </Stack>
          )}
        </QueryState>
      ) : null}
      {done ? (
        <Alert color="green" variant="light" title="Imported">
          <List size="sm">
            {done.created.map((c) => (
              <List.Item key={c.opId ?? c.name}>
                <Anchor component={Link} to={entityLink(done.databaseId, c.entityType, c.name)} c="inherit" fw={600} underline="always">
                  {c.name}
                </Anchor>{' '}
                ({c.entityType}, edit #{c.opId})
              </List.Item>
            ))}
          </List>
        </Alert>
      ) : null}
    </Stack>
  );
}

/** The score sets a guide profile's formats carry (the import's scoreSet choices). */
function scoreSetsOfProfile(entity: RefGuideEntity): string[] {
  const own = typeof entity.entity.trash_score_set === 'string' ? [entity.entity.trash_score_set] : [];
  return [...new Set([DEFAULT_SET, ...own])];
}

function GroupFormats({ entity }: { entity: RefGuideEntity }) {
  const formats = Array.isArray(entity.entity.custom_formats) ? (entity.entity.custom_formats as { name?: unknown; required?: unknown }[]) : [];
  return (
    <DataTable
      label={`Formats of ${entity.name}`}
      minWidth={320}
      rows={formats.map((f, i) => ({ name: String(f.name ?? ''), required: f.required === true, i }))}
      rowKey={(f) => f.i}
      columns={[
        { label: 'Custom format', cell: (f) => f.name },
        { label: 'Required', cell: (f) => (f.required ? 'Yes' : 'No') },
      ]}
    />
  );
}

function EntityPanel({ source, type, refId, onClose }: { source: RefGuideSource; type: RefGuideEntityType; refId: string; onClose: () => void }) {
  const entity = useGuideEntity(source, type, refId);
  return (
    <QueryState query={entity} loadingLabel="Loading the guide entity">
      {(e) => (
        <Section
          title={e.name}
          actions={
            <Button size="xs" variant="default" onClick={onClose}>
              Close
            </Button>
          }
        >
          <Group gap="xs">
            <Badge variant="light">{BROWSED.find((b) => b.value === e.type)?.label ?? e.type}</Badge>
            <Text size="xs" c="dimmed">
              {e.filePath}, as of <TimeAgo iso={e.fetchedAt} />
            </Text>
          </Group>
          {typeof e.entity.trash_description === 'string' ? <Text size="sm">{e.entity.trash_description.replace(/<[^>]*>/g, '')}</Text> : null}
          {e.type === 'custom_format' ? <ScoreTable scores={e.scores ?? {}} label={`Scores of ${e.name} per score set`} keyLabel="Score set" /> : null}
          {e.type === 'quality_profile' ? <ScoreTable scores={e.scores ?? {}} label={`Scores of ${e.name}`} keyLabel={`Custom format (set ${String(e.entity.trash_score_set ?? DEFAULT_SET)})`} /> : null}
          {e.type === 'custom_format_group' ? <GroupFormats entity={e} /> : null}
          {IMPORTABLE.includes(e.type) ? <ImportPanel key={e.refId} source={source} entity={e} /> : null}
        </Section>
      )}
    </QueryState>
  );
}

/** Adds a source from a git repository or a directory on the arrgo server; the API refuses what it cannot use, in its words. */
function AddSource({ onAdded }: { onAdded: (id: number) => void }) {
  const [opened, { open, close }] = useDisclosure(false);
  const [name, setName] = useState('');
  const [kind, setKind] = useState<'git' | 'local'>('git');
  const [location, setLocation] = useState('');
  const [branch, setBranch] = useState('');
  const [token, setToken] = useState('');
  const [arrType, setArrType] = useState<RefGuideSource['arrType']>('movie_app');
  const create = useCreateGuideSource();
  return (
    <>
      <Button onClick={open}>Add a source</Button>
      <FormModal
        title="Add a guide source"
        opened={opened}
        onClose={close}
        submitLabel="Add the source"
        loading={create.isPending}
        error={create.error}
        errorTitle="The source was not added"
        onSubmit={() => {
          const origin = kind === 'git' ? { kind, url: location.trim(), ...(branch.trim() ? { branch: branch.trim() } : {}), ...(token.trim() ? { token: token.trim() } : {}) } : { kind, path: location.trim() };
          create.mutate(
            { name: name.trim(), origin, arrType },
            {
              onSuccess: (source) => {
                notifications.show({ color: 'green', message: `${source.name} was added; its first sync has started` });
                close();
                onAdded(source.id);
              },
            },
          );
        }}
      >
        <TextInput label="Name" required maxLength={100} value={name} onChange={(e) => setName(e.currentTarget.value)} />
        <Select label="App" data={(['movie_app', 'series_app'] as const).map((value) => ({ value, label: APP_LABELS[value] }))} value={arrType} allowDeselect={false} onChange={(v) => v && setArrType(v as RefGuideSource['arrType'])} />
        <SegmentedControl aria-label="Where the guide is" data={[{ value: 'git', label: 'Git repository' }, { value: 'local', label: 'Directory on the server' }]} value={kind} onChange={(v) => setKind(v as 'git' | 'local')} />
        <TextInput label={kind === 'git' ? 'Git URL' : 'Directory'} description={kind === 'git' ? 'https://, ssh://, git@host: or file://' : 'An absolute path of a TRaSH Guides checkout'} required maxLength={1000} value={location} onChange={(e) => setLocation(e.currentTarget.value)} />
        {kind === 'git' ? <TextInput label="Branch" description="Default main" maxLength={200} value={branch} onChange={(e) => setBranch(e.currentTarget.value)} /> : null}
        {kind === 'git' ? (
          <PasswordInput label="Access token" description="A private repository over https:// only; stored encrypted, never shown again" maxLength={1000} autoComplete="off" value={token} onChange={(e) => setToken(e.currentTarget.value)} />
        ) : null}
      </FormModal>
    </>
  );
}

/** Reference-guide sources with their sync status; browse one, and import from it into a database. */
export function GuidesPage() {
  const sources = useGuideSources();
  const params = useGuideParams();
  return (
    <Stack>
      <PageHeader
        title="Guides"
        description="Reference guides (TRaSH Guides): their sync status, their formats, groups and profiles with scores per score set, and importing them into a database."
        actions={<AddSource onAdded={(id) => params.set({ source: String(id), page: null, entity: null, q: null })} />}
      />
      <QueryState
        query={sources}
        loadingLabel="Loading guide sources"
        isEmpty={(data) => data.length === 0}
        empty={<Empty title="No guide source" description="Add one: a git repository or a checkout of TRaSH Guides on the arrgo server." />}
      >
        {(data) => {
          const source = data.find((s) => s.id === params.source) ?? data[0];
          return (
            <Stack>
              <Sources sources={data} selected={source.id} onSelect={(id) => params.set({ source: String(id), page: null, entity: null, q: null })} />
              <Browser key={source.id} source={source} />
              {params.entity ? <EntityPanel source={source} type={params.type} refId={params.entity} onClose={() => params.set({ entity: null })} /> : null}
            </Stack>
          );
        }}
      </QueryState>
    </Stack>
  );
}
