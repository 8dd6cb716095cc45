import { Alert, Anchor, Button, Card, Group, List, SegmentedControl, Stack, Text } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import { Link, useParams } from 'react-router';
import { ApiError } from '../../api/client';
import {
  trendExportUrl,
  useHealthResult,
  useHealthTrend,
  useRecomputeHealth,
  type HealthCriterion,
  type HealthResult,
  type HealthSuggestion,
  type HealthTrend,
  type TrendWindow,
} from '../../api/config-health';
import { useInstance } from '../../api/instances';
import { APP_LABELS } from '../../api/types';
import { DataTable, type Column } from '../../components/DataTable';
import { Disclosure } from '../../components/Disclosure';
import { ErrorDisplay, errorMessage } from '../../components/ErrorDisplay';
import { Facts } from '../../components/Facts';
import { PageHeader } from '../../components/PageHeader';
import { PageLoader } from '../../components/PageLoader';
import { QueryState } from '../../components/QueryState';
import { StatusBadge } from '../../components/StatusBadge';
import { TimeAgo } from '../../components/TimeAgo';

const TrendChart = lazy(() => import('./TrendChart'));

const TONE_COLORS: Record<HealthSuggestion['tone'], string> = { neutral: 'gray', info: 'blue', warning: 'yellow', danger: 'red' };

const WINDOWS: { label: string; value: string; days: TrendWindow }[] = [
  { label: '7 days', value: '7', days: 7 },
  { label: '30 days', value: '30', days: 30 },
  { label: '90 days', value: '90', days: 90 },
  { label: 'All', value: 'all', days: null },
];

/** How many trend points the advanced table lists (the newest). */
const POINTS_LISTED = 50;

function Suggestions({ suggestions, advanced }: { suggestions: HealthSuggestion[]; advanced: boolean }) {
  if (!suggestions.length) return null;
  return (
    <Stack gap={6}>
      {suggestions.map((suggestion, i) => (
        <Alert key={i} variant="light" color={TONE_COLORS[suggestion.tone]} title={suggestion.headline} p="xs">
          {advanced && suggestion.detail.length ? <Lines lines={suggestion.detail} /> : null}
        </Alert>
      ))}
    </Stack>
  );
}

function Lines({ lines }: { lines: string[] }) {
  if (!lines.length) return <>–</>;
  return (
    <List size="sm">
      {lines.map((line, i) => (
        <List.Item key={i}>{line}</List.Item>
      ))}
    </List>
  );
}

function criteriaColumns(advanced: boolean): Column<HealthCriterion>[] {
  const basic: Column<HealthCriterion>[] = [
    { label: 'Criterion', cell: (c) => c.label },
    { label: 'Score', cell: (c) => c.score ?? 'skipped' },
    { label: 'Weight', cell: (c) => c.weight },
  ];
  return advanced ? [...basic, { label: 'Contribution', cell: (c) => c.contribution }, { label: 'Detail', cell: (c) => <Lines lines={c.detail} /> }] : basic;
}

type Profile = HealthResult['profiles'][number];

function profileColumns(advanced: boolean): Column<Profile>[] {
  const basic: Column<Profile>[] = [
    { label: 'Profile', cell: (p) => p.name },
    { label: 'Band', cell: (p) => <StatusBadge status={p.band} /> },
    { label: 'Score', cell: (p) => p.score },
  ];
  return advanced ? [...basic, { label: 'Criteria', cell: (p) => p.criteria.map((c) => `${c.label} ${c.score ?? 'skipped'}`).join(' · ') }] : basic;
}

function ResultView({ result }: { result: HealthResult }) {
  const { overall } = result;
  return (
    <Stack gap="lg">
      <Card withBorder padding="sm">
        <Facts
          items={[
            ['Score', <Text span fw={700} size="lg">{overall.score}</Text>],
            ['Band', <StatusBadge status={overall.band} />],
            ['Scored', <TimeAgo iso={result.generatedAt} />],
            ['Scoring rules', result.engineVersion],
          ]}
        />
      </Card>
      <Disclosure sectionKey="health:instance:criteria" title="Criteria" description="What the score is made of. The advanced detail adds each criterion's contribution and its findings.">
        {(advanced) => (
          <>
            <DataTable columns={criteriaColumns(advanced)} rows={overall.criteria} rowKey={(c) => c.id} minWidth={advanced ? 640 : 360} striped={false} />
            <Suggestions suggestions={overall.suggestions} advanced={advanced} />
          </>
        )}
      </Disclosure>
      {result.profiles.length ? (
        <Disclosure sectionKey="health:instance:profiles" title="Quality profiles" description="Each synced profile scored on its own. The advanced detail adds its criteria.">
          {(advanced) => <DataTable columns={profileColumns(advanced)} rows={result.profiles} rowKey={(p) => p.name} minWidth={420} striped={false} />}
        </Disclosure>
      ) : null}
    </Stack>
  );
}

function LatestResult({ instanceId }: { instanceId: number }) {
  const latest = useHealthResult(instanceId);
  // Before the first snapshot (or without a sync configuration) the API says why: not an error.
  if (latest.error instanceof ApiError && latest.error.status === 404) {
    return (
      <Alert variant="light" color="gray" title="Not scored yet">
        {errorMessage(latest.error)}
      </Alert>
    );
  }
  return (
    <QueryState query={latest} loadingLabel="Loading the health result">
      {(result) => <ResultView result={result} />}
    </QueryState>
  );
}

function trendSummary(trend: HealthTrend, window: string): string {
  const measured = trend.points.filter((p) => p.score !== null);
  const last = measured.at(-1);
  return `Health score of ${trend.instance.instanceName} over ${window === 'All' ? 'every stored snapshot' : `the last ${window}`}: ${trend.counts.points} ${trend.counts.points === 1 ? 'point' : 'points'}, ${trend.counts.measured} measured${last ? `, the latest ${last.score}` : ''}.`;
}

type Point = HealthTrend['points'][number];

const POINT_COLUMNS: Column<Point>[] = [
  { label: 'Snapshot', cell: (p) => p.snapshotId },
  { label: 'Time', cell: (p) => <TimeAgo iso={p.generatedAt} /> },
  { label: 'State', cell: (p) => p.state },
  { label: 'Band', cell: (p) => <StatusBadge status={p.band} /> },
  { label: 'Score', cell: (p) => p.score ?? '–' },
  { label: 'Scoring rules', cell: (p) => p.engineVersion },
];

function PointsTable({ trend }: { trend: HealthTrend }) {
  return (
    <>
      <DataTable columns={POINT_COLUMNS} rows={trend.points.slice(-POINTS_LISTED).reverse()} rowKey={(p) => p.snapshotId} minWidth={560} striped={false} />
      {trend.points.length > POINTS_LISTED ? (
        <Text size="sm" c="dimmed">
          The newest {POINTS_LISTED} of {trend.points.length} points; the CSV export has them all.
        </Text>
      ) : null}
    </>
  );
}

function Trend({ instanceId }: { instanceId: number }) {
  const [windowValue, setWindowValue] = useState('30');
  const selected = WINDOWS.find((w) => w.value === windowValue) ?? WINDOWS[1];
  const trend = useHealthTrend(instanceId, selected.days);
  return (
    <Disclosure
      sectionKey="health:instance:trend"
      title="Trend"
      description="The score of every stored snapshot in the window. The advanced detail lists the points with their state."
      advanced={trend.data?.points.length ? <PointsTable trend={trend.data} /> : null}
    >
      <Group justify="space-between" wrap="wrap" gap="xs">
        <SegmentedControl aria-label="Trend window" value={windowValue} onChange={setWindowValue} data={WINDOWS.map(({ label, value }) => ({ label, value }))} />
        <Anchor href={trendExportUrl(instanceId, selected.days)} download size="sm">
          Export CSV
        </Anchor>
      </Group>
      <QueryState query={trend} loadingLabel="Loading the trend" isEmpty={(data) => data.points.length === 0} empty={<Text size="sm" c="dimmed">No snapshot in this window.</Text>}>
        {(data) => (
          <Stack gap="xs">
            <Suspense fallback={<PageLoader label="Loading the chart" />}>
              <TrendChart trend={data} label={trendSummary(data, selected.label)} />
            </Suspense>
            <Text size="sm" c="dimmed">
              {trendSummary(data, selected.label)}
            </Text>
          </Stack>
        )}
      </QueryState>
    </Disclosure>
  );
}

/** One instance's config health: score, band, criteria, profiles, the trend, its CSV export and a recompute. */
export function HealthInstancePage() {
  const instanceId = Number(useParams().instanceId);
  const instance = useInstance(instanceId);
  const recompute = useRecomputeHealth(instanceId);
  const name = instance.data?.name ?? `Instance ${instanceId}`;
  return (
    <>
      <PageHeader
        title={`Health of ${name}`}
        description={instance.data ? `${APP_LABELS[instance.data.arrType]} instance` : undefined}
        actions={
          <>
            <Button component={Link} to="/health" variant="default">
              All instances
            </Button>
            <Button loading={recompute.isPending} onClick={() => recompute.mutate()}>
              Recompute
            </Button>
          </>
        }
      />
      <Stack gap="lg">
        {recompute.isError ? <ErrorDisplay title="Not recomputed" error={recompute.error} /> : null}
        {recompute.isSuccess ? (
          <Alert variant="light" color="green" title="Recomputed" withCloseButton closeButtonLabel="Dismiss" onClose={recompute.reset}>
            Score {recompute.data.overall.score}, band {recompute.data.overall.band}.
          </Alert>
        ) : null}
        {instance.isError ? <ErrorDisplay error={instance.error} /> : null}
        <LatestResult instanceId={instanceId} />
        <Trend instanceId={instanceId} />
      </Stack>
    </>
  );
}
