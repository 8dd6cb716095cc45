import { ActionIcon, Badge, Button, Group, Select, Stack, Table, Text, TextInput, UnstyledButton, VisuallyHidden } from '@mantine/core';
import {
  columnFilteringFeature,
  createColumnHelper,
  createFilteredRowModel,
  createSortedRowModel,
  filterFn_arrIncludes,
  filterFn_includesString,
  globalFilteringFeature,
  rowSortingFeature,
  sortFn_alphanumeric,
  sortFn_basic,
  tableFeatures,
  useTable,
  type ColumnFiltersState,
  type SortingState,
} from '@tanstack/react-table';
import { Fragment, useMemo, useState } from 'react';
import type { EvaluateResponse, ReleaseType } from '../../api/entity-testing';
import { ReleaseExplanation } from './ReleaseExplanation';

interface ResultRow {
  id: number;
  title: string;
  parsedTitle: string;
  year: number | null;
  quality: string;
  group: string;
  languages: string;
  /** Names of the matching custom formats. */
  formats: string[];
  /** Names of the formats a title cannot decide. */
  undecided: string[];
  score: number | null;
  meetsMinimum: boolean | null;
  warnings: string[];
}

function rowsOf(response: EvaluateResponse): ResultRow[] {
  const name = (id: string | number) => response.customFormats[String(id)] ?? `#${id}`;
  return response.evaluations.map((e) => {
    const p = e.parsed;
    return {
      id: e.releaseId,
      title: e.title,
      parsedTitle: p?.title ?? '',
      year: p?.year ?? null,
      quality: p ? [p.source, p.resolution ? `${p.resolution}p` : null, p.modifier !== 'none' ? p.modifier : null].filter(Boolean).join(' ') : '',
      group: p?.releaseGroup ?? '',
      languages: p?.languages.join(', ') ?? '',
      formats: Object.entries(e.cfMatches)
        .filter(([, matches]) => matches)
        .map(([id]) => name(id))
        .sort(),
      undecided: e.cfUndecided.map(name).sort(),
      score: e.score?.score ?? null,
      meetsMinimum: e.score?.meetsMinimum ?? null,
      warnings: e.warnings,
    };
  });
}

const features = tableFeatures({
  rowSortingFeature,
  columnFilteringFeature,
  globalFilteringFeature,
  sortedRowModel: createSortedRowModel(),
  filteredRowModel: createFilteredRowModel(),
  sortFns: { alphanumeric: sortFn_alphanumeric, basic: sortFn_basic },
  filterFns: { includesString: filterFn_includesString, arrIncludes: filterFn_arrIncludes },
});
const helper = createColumnHelper<typeof features, ResultRow>();

/** The results of one evaluation: sortable by any column, filtered by text and by a matching format; a row's explanation on demand. */
export function ReleaseResults({ databaseId, type, response }: { databaseId: number; type: ReleaseType; response: EvaluateResponse }) {
  const data = useMemo(() => rowsOf(response), [response]);
  const hasScore = response.evaluations.some((e) => e.score);
  const [sorting, setSorting] = useState<SortingState>([]);
  const [globalFilter, setGlobalFilter] = useState('');
  const [columnFilters, setColumnFilters] = useState<ColumnFiltersState>([]);
  const [opened, setOpened] = useState<number | null>(null);

  const columns = useMemo(
    () =>
      helper.columns([
        helper.accessor('title', { header: 'Title', sortFn: 'alphanumeric', cell: (info) => <Text size="sm" style={{ wordBreak: 'break-all' }}>{info.getValue()}</Text> }),
        helper.accessor('parsedTitle', { header: 'Parsed title', sortFn: 'alphanumeric' }),
        helper.accessor('year', { header: 'Year', sortFn: 'basic', sortUndefined: 'last', cell: (info) => info.getValue() ?? '—' }),
        helper.accessor('quality', { header: 'Quality', sortFn: 'alphanumeric' }),
        helper.accessor('group', { header: 'Group', sortFn: 'alphanumeric', cell: (info) => info.getValue() || '—' }),
        helper.accessor('languages', { header: 'Languages', sortFn: 'alphanumeric' }),
        helper.accessor('formats', {
          header: 'Custom formats',
          filterFn: 'arrIncludes',
          sortFn: (a, b) => a.original.formats.length - b.original.formats.length,
          cell: (info) => (
            <Group gap={4}>
              {info.row.original.formats.map((f) => (
                <Badge key={f} variant="light" size="sm" style={{ textTransform: 'none' }}>
                  {f}
                </Badge>
              ))}
              {info.row.original.undecided.map((f) => (
                <Badge key={f} variant="outline" color="gray" size="sm" style={{ textTransform: 'none' }} title="Undecided: depends on what a title cannot say">
                  {f}?
                </Badge>
              ))}
            </Group>
          ),
        }),
        ...(hasScore
          ? [
              helper.accessor('score', {
                header: 'Score',
                sortFn: 'basic',
                sortUndefined: 'last',
                cell: (info) => (
                  <Text size="sm" c={info.row.original.meetsMinimum === false ? 'red' : undefined} title={info.row.original.meetsMinimum === false ? 'Below the profile’s minimum score' : undefined}>
                    {info.getValue() ?? '—'}
                  </Text>
                ),
              }),
            ]
          : []),
      ]),
    [hasScore],
  );

  const table = useTable({
    features,
    columns,
    data,
    state: { sorting, globalFilter, columnFilters },
    onSortingChange: setSorting,
    onGlobalFilterChange: setGlobalFilter,
    onColumnFiltersChange: setColumnFilters,
    globalFilterFn: 'includesString',
    // Every column sorts ascending first (numbers too: lowest score first).
    sortDescFirst: false,
    getColumnCanGlobalFilter: (column) => column.id !== 'formats' && column.id !== 'score' && column.id !== 'year',
  });

  const formatNames = useMemo(() => Object.values(response.customFormats).sort(), [response]);
  // arrIncludes keeps rows having any of the filter's values: the filter is a one-name list.
  const formatFilter = (columnFilters.find((f) => f.id === 'formats')?.value as string[] | undefined)?.[0] ?? null;
  const rows = table.getRowModel().rows;
  const columnCount = columns.length + 1;

  return (
    <Stack gap="sm">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Text size="sm" aria-live="polite">
          {rows.length === data.length ? `${data.length} titles tested` : `${rows.length} of ${data.length} titles shown`}
          {response.parserVersion ? ` · parser ${response.parserVersion}` : ''}
        </Text>
        <Group gap="sm" wrap="wrap" role="search" aria-label="Filter the results">
          <TextInput label="Filter results" placeholder="Title, group, quality…" value={globalFilter} onChange={(event) => setGlobalFilter(event.currentTarget.value)} />
          <Select
            label="Matching format"
            placeholder="Any"
            data={formatNames}
            value={formatFilter}
            onChange={(value) => setColumnFilters(value ? [{ id: 'formats', value: [value] }] : [])}
            clearable
            searchable
          />
        </Group>
      </Group>
      {!response.parserAvailable ? <Text c="orange">The release parser is not available: only release-title conditions were evaluated.</Text> : null}
      <Table.ScrollContainer minWidth={960}>
        <Table striped verticalSpacing="xs" aria-label="Tested titles">
          <Table.Thead>
            {table.getHeaderGroups().map((headerGroup) => (
              <Table.Tr key={headerGroup.id}>
                {headerGroup.headers.map((header) => {
                  const sorted = header.column.getIsSorted();
                  return (
                    <Table.Th key={header.id} aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none'}>
                      <UnstyledButton onClick={header.column.getToggleSortingHandler()} fw={700} fz="sm">
                        <table.FlexRender header={header} />
                        {sorted === 'asc' ? ' ▲' : sorted === 'desc' ? ' ▼' : ''}
                      </UnstyledButton>
                    </Table.Th>
                  );
                })}
                <Table.Th>
                  <VisuallyHidden>Explanation</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            ))}
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => {
              const open = opened === row.original.id;
              return (
                <Fragment key={row.id}>
                  <Table.Tr>
                    {row.getAllCells().map((cell) => (
                      <Table.Td key={cell.id}>
                        <table.FlexRender cell={cell} />
                      </Table.Td>
                    ))}
                    <Table.Td>
                      <Button size="compact-xs" variant={open ? 'filled' : 'default'} aria-expanded={open} aria-label={`Explain ${row.original.title}`} onClick={() => setOpened(open ? null : row.original.id)}>
                        Explain
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                  {open ? (
                    <Table.Tr>
                      <Table.Td colSpan={columnCount}>
                        <Group justify="space-between" align="flex-start" wrap="nowrap">
                          <ReleaseExplanation databaseId={databaseId} type={type} title={row.original.title} warnings={row.original.warnings} />
                          <ActionIcon variant="subtle" aria-label={`Close the explanation of ${row.original.title}`} onClick={() => setOpened(null)}>
                            ×
                          </ActionIcon>
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  ) : null}
                </Fragment>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
