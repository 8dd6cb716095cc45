import { Alert, Anchor, Button, Card, Group, List, SegmentedControl, Stack, Table, Text } from '@mantine/core';
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
          {advanced && suggestion.detail.length ? (
            <List size="sm">
              {suggestion.detail.map((line, j) => (
                <List.Item key={j}>{line}</List.Item>
              ))}
            </List>
          ) : null}
        </Alert>
      ))}
    </Stack>
  );
}

function CriteriaTable({ criteria, advanced }: { criteria: HealthCriterion[]; advanced: boolean }) {
  return (
    <Table.ScrollContainer minWidth={advanced ? 640 : 360}>
      <Table verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Criterion</Table.Th>
            <Table.Th>Score</Table.Th>
            <Table.Th>Weight</Table.Th>
            {advanced ? <Table.Th>Contribution</Table.Th> : null}
            {advanced ? <Table.Th>Detail</Table.Th> : null}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {criteria.map((criterion) => (
            <Table.Tr key={criterion.id}>
              <Table.Td>{criterion.label}</Table.Td>
              <Table.Td>{criterion.score ?? 'skipped'}</Table.Td>
              <Table.Td>{criterion.weight}</Table.Td>
              {advanced ? <Table.Td>{criterion.contribution}</Table.Td> : null}
              {advanced ? (
                <Table.Td>
                  {criterion.detail.length ? (
                    <List size="sm">
                      {criterion.detail.map((line, i) => (
                        <List.Item key={i}>{line}</List.Item>
                      ))}
                    </List>
                  ) : (
                    <Text size="sm" c="dimmed">
                      –
                    </Text>
                  )}
                </Table.Td>
              ) : null}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
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
            <CriteriaTable criteria={overall.criteria} advanced={advanced} />
            <Suggestions suggestions={overall.suggestions} advanced={advanced} />
          </>
        )}
      </Disclosure>
      {result.profiles.length ? (
        <Disclosure sectionKey="health:instance:profiles" title="Quality profiles" description="Each synced profile scored on its own. The advanced detail adds its criteria.">
          {(advanced) => (
            <Table.ScrollContainer minWidth={420}>
              <Table verticalSpacing="xs">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Profile</Table.Th>
                    <Table.Th>Band</Table.Th>
                    <Table.Th>Score</Table.Th>
                    {advanced ? <Table.Th>Criteria</Table.Th> : null}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {result.profiles.map((profile) => (
                    <Table.Tr key={profile.name}>
                      <Table.Td>{profile.name}</Table.Td>
                      <Table.Td>
                        <StatusBadge status={profile.band} />
                      </Table.Td>
                      <Table.Td>{profile.score}</Table.Td>
                      {advanced ? <Table.Td>{profile.criteria.map((c) => `${c.label} ${c.score ?? 'skipped'}`).join(' · ')}</Table.Td> : null}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
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
  return `Health score of ${trend.instance.instanceName} over ${window === 'All' ? 'every stored snapshot' : `the last ${window}`}: ${trend.counts.points} points, ${trend.counts.measured} measured${last ? `, the latest ${last.score}` : ''}.`;
}

function PointsTable({ trend }: { trend: HealthTrend }) {
  const points = trend.points.slice(-POINTS_LISTED).reverse();
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table verticalSpacing={4} fz="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Snapshot</Table.Th>
            <Table.Th>Time</Table.Th>
            <Table.Th>State</Table.Th>
            <Table.Th>Band</Table.Th>
            <Table.Th>Score</Table.Th>
            <Table.Th>Scoring rules</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {points.map((point) => (
            <Table.Tr key={point.snapshotId}>
              <Table.Td>{point.snapshotId}</Table.Td>
              <Table.Td>
                <TimeAgo iso={point.generatedAt} />
              </Table.Td>
              <Table.Td>{point.state}</Table.Td>
              <Table.Td>
                <StatusBadge status={point.band} />
              </Table.Td>
              <Table.Td>{point.score ?? '–'}</Table.Td>
              <Table.Td>{point.engineVersion}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {trend.points.length > POINTS_LISTED ? (
        <Text size="sm" c="dimmed">
          The newest {POINTS_LISTED} of {trend.points.length} points; the CSV export has them all.
        </Text>
      ) : null}
    </Table.ScrollContainer>
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
        description={
          <>
            {instance.data ? `${APP_LABELS[instance.data.arrType]} instance · ` : null}
            <Anchor component={Link} to="/health" inherit>
              All instances
            </Anchor>
          </>
        }
        actions={
          <Button loading={recompute.isPending} onClick={() => recompute.mutate()}>
            Recompute
          </Button>
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
