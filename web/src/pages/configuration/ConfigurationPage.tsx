import { Anchor, Badge, Card, Checkbox, Group, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useSearchParamPicks } from '../../app/search-params';
import { useDatabases, useProfileCompatibility } from '../../api/databases';
import { optionsOf } from '../../api/labels';
import { PER_APP_FAMILY_TYPES, RESOLVED_TYPE_LABELS, useResolvedEntities, useUserOps, type ResolvedEntity, type ResolvedEntityType } from '../../api/pcd';
import { ARR_TYPE_OPTIONS, type ArrType } from '../../api/types';
import { DataTable } from '../../components/DataTable';
import { Pager } from '../../components/Pager';
import { PageHeader } from '../../components/PageHeader';
import { Empty, QueryState } from '../../components/QueryState';
import { ImportPanel } from './ImportPanel';
import { entityUrl } from './urls';

const PAGE_SIZE = 50;
const DEFAULT_TYPE: ResolvedEntityType = 'customFormat';

/** The filters live in the address, so a reload or a link from another page shows the same list. */
type Param = 'database' | 'type' | 'arrType' | 'q' | 'tag' | 'edited' | 'conflict' | 'page';

function tagsOf(entity: ResolvedEntity): string[] {
  const tags = entity.entity?.tags;
  return Array.isArray(tags) ? tags.filter((t): t is string => typeof t === 'string') : [];
}

interface Filters {
  q: string;
  tag: string | null;
  edited: boolean;
  conflict: boolean;
  /** Quality profiles only: the app family the profile must be compatible with. */
  compatibleWith: ArrType | null;
}

function EntityList({ databaseId, type, arrType, filters, page, setPage }: { databaseId: number; type: ResolvedEntityType; arrType: ArrType | null; filters: Filters; page: number; setPage: (page: number) => void }) {
  const perApp = PER_APP_FAMILY_TYPES.includes(type);
  const list = useResolvedEntities(databaseId, type, { arrType: perApp ? arrType : null }, !perApp || arrType !== null);
  const ops = useUserOps(databaseId);
  const compatibility = useProfileCompatibility(type === 'qualityProfile' && filters.compatibleWith ? databaseId : null);
  const edited = useMemo(() => new Set((ops.data ?? []).map((op) => `${op.target.portableType}\u0000${op.target.name}`)), [ops.data]);
  return (
    <QueryState query={list} loadingLabel="Loading the entities">
      {(data) => {
        const needle = filters.q.trim().toLowerCase();
        const rows = data.entities.filter(
          (e) =>
            (!needle || e.name.toLowerCase().includes(needle)) &&
            (!filters.tag || tagsOf(e).includes(filters.tag)) &&
            (!filters.edited || edited.has(`${e.portableType}\u0000${e.name}`)) &&
            (!filters.conflict || e.conflict) &&
            (!filters.compatibleWith || type !== 'qualityProfile' || (compatibility.data?.get(e.name) ?? []).includes(filters.compatibleWith)),
        );
        if (!data.entities.length) return <Empty title="Nothing of this type" description="The database has no entity of this type (pull it, or import one below)." />;
        const pages = Math.max(1, Math.ceil(rows.length / PAGE_SIZE));
        const current = Math.min(page, pages);
        return (
          <Stack gap="xs">
            <Text size="sm" c="dimmed" aria-live="polite">
              {rows.length === data.entities.length ? `${rows.length} entities` : `${rows.length} of ${data.entities.length} entities match`}
            </Text>
            {rows.length ? (
              <DataTable
                label="Entities"
                minWidth={520}
                rows={rows.slice((current - 1) * PAGE_SIZE, current * PAGE_SIZE)}
                rowKey={(e) => e.name}
                columns={[
                  {
                    label: 'Name',
                    cell: (e) => (
                      <Anchor component={Link} to={entityUrl(databaseId, e.portableType, e.name)}>
                        {e.name}
                      </Anchor>
                    ),
                  },
                  { label: 'Tags', cell: (e) => <Text size="sm">{tagsOf(e).join(', ') || '—'}</Text> },
                  {
                    label: 'State',
                    cell: (e) => (
                      <Group gap={4}>
                        {e.conflict ? (
                          <Badge color="orange" variant="light">
                            pending conflict
                          </Badge>
                        ) : null}
                        {edited.has(`${e.portableType}\u0000${e.name}`) ? (
                          <Badge color="grape" variant="light">
                            edited by me
                          </Badge>
                        ) : null}
                      </Group>
                    ),
                  },
                ]}
              />
            ) : (
              <Empty title="No entity matches" description="Clear a filter to see more." />
            )}
            <Pager page={current} totalPages={pages} totalRecords={rows.length} pageSize={PAGE_SIZE} noun="entities" onChange={setPage} />
          </Stack>
        );
      }}
    </QueryState>
  );
}

/**
 * The PCD browser: a database's entities of one type, searchable and filtered by app family, tag,
 * "edited by me" (a user op targets it) and "pending conflict"; each opens its entity page. Below,
 * an import of portable JSON (upload or paste) into the database's user layer.
 */
export function ConfigurationPage() {
  const [params, setPicks] = useSearchParamPicks();
  const databases = useDatabases();
  const [q, setQ] = useState(params.get('q') ?? '');
  // Any other change starts the list on its first page again.
  const set = (name: Param, value: string | null) => setPicks({ [name]: value, ...(name !== 'page' ? { page: null } : {}) }, { replace: true });
  const setSearch = useDebouncedCallback((value: string) => set('q', value.trim() || null), 300);
  const databaseId = params.get('database') ? Number(params.get('database')) : (databases.data?.[0]?.id ?? null);
  const typeParam = params.get('type') as ResolvedEntityType | null;
  const type: ResolvedEntityType = typeParam && typeParam in RESOLVED_TYPE_LABELS ? typeParam : DEFAULT_TYPE;
  const perApp = PER_APP_FAMILY_TYPES.includes(type);
  const arrParam = (params.get('arrType') as ArrType | null) ?? null;
  const arrType = perApp ? (arrParam ?? 'movie_app') : arrParam;
  const familyApplies = perApp || type === 'qualityProfile';
  const filters: Filters = { q: params.get('q') ?? '', tag: params.get('tag'), edited: params.get('edited') === '1', conflict: params.get('conflict') === '1', compatibleWith: type === 'qualityProfile' ? arrType : null };
  const list = useResolvedEntities(databaseId, type, { arrType: perApp ? arrType : null }, databaseId !== null);
  const tagOptions = useMemo(() => [...new Set((list.data?.entities ?? []).flatMap(tagsOf))].sort(), [list.data]);

  return (
    <>
      <PageHeader title="Configuration" description="Browse a database's entities by type; open one for its layers, lineage, conflicts and editor." />
      <QueryState
        query={databases}
        loadingLabel="Loading the databases"
        isEmpty={(d) => d.length === 0}
        empty={<Empty title="No database linked" description="Link a PCD database first (Databases)." action={<Anchor component={Link} to="/databases">Databases</Anchor>} />}
      >
        {(all) => (
          <Stack>
            <Card withBorder>
              <Stack gap="xs" component="form" role="search" aria-label="Filter the entities" onSubmit={(event) => event.preventDefault()}>
                <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="xs">
                  <Select label="Database" data={all.map((d) => ({ value: String(d.id), label: d.name }))} value={databaseId === null ? null : String(databaseId)} onChange={(v) => set('database', v)} allowDeselect={false} />
                  <Select label="Entity type" data={optionsOf(RESOLVED_TYPE_LABELS)} value={type} onChange={(v) => set('type', v)} allowDeselect={false} />
                  <Select
                    label="App family"
                    placeholder={familyApplies ? 'Any app family' : 'Not per app family'}
                    description={perApp ? 'This type is kept per app family' : type === 'qualityProfile' ? 'Profiles compatible with it' : undefined}
                    data={ARR_TYPE_OPTIONS}
                    value={familyApplies ? arrType : null}
                    onChange={(v) => set('arrType', v)}
                    disabled={!familyApplies}
                    clearable={!perApp}
                    allowDeselect={!perApp}
                  />
                  <Select label="Tag" placeholder="Any tag" data={tagOptions} value={filters.tag} onChange={(v) => set('tag', v)} clearable searchable />
                  <TextInput
                    label="Search"
                    placeholder="Name"
                    value={q}
                    onChange={(e) => {
                      setQ(e.currentTarget.value);
                      setSearch(e.currentTarget.value);
                    }}
                  />
                </SimpleGrid>
                <Group gap="lg">
                  <Checkbox label="Edited by me" checked={filters.edited} onChange={(e) => set('edited', e.currentTarget.checked ? '1' : null)} />
                  <Checkbox label="Pending conflict" checked={filters.conflict} onChange={(e) => set('conflict', e.currentTarget.checked ? '1' : null)} />
                </Group>
              </Stack>
            </Card>
            {databaseId !== null ? (
              <>
                <EntityList databaseId={databaseId} type={type} arrType={arrType} filters={filters} page={Number(params.get('page') ?? 1)} setPage={(p) => set('page', String(p))} />
                <ImportPanel databaseId={databaseId} />
              </>
            ) : null}
          </Stack>
        )}
      </QueryState>
    </>
  );
}
