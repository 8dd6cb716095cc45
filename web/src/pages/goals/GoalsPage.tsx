import { Alert, Anchor, Button, Card, Code, Group, Loader, Radio, Select, SimpleGrid, Slider, Stack, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { memo, useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useSearchParamPicks } from '../../app/search-params';
import { ApiError } from '../../api/client';
import { useProfileCompatibility, useResolvedNames } from '../../api/databases';
import { useApplyGoal, useGoalCatalog, useGoalPreview, type GoalApplyResult, type GoalCatalog, type GoalPreview, type GoalRequest, type GoalWeights } from '../../api/goals';
import { useRevertUserOp } from '../../api/pcd';
import { APP_LABELS, ARR_TYPE_OPTIONS, type ArrType } from '../../api/types';
import { ConfirmButton } from '../../components/ConfirmButton';
import { DataTable } from '../../components/DataTable';
import { useDatabaseParam } from '../../components/DatabaseSelect';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { PageHeader } from '../../components/PageHeader';
import { Section } from '../../components/Section';
import { Empty, QueryState } from '../../components/QueryState';
import { Stat } from '../../components/Stat';

type Plan = GoalPreview['plan'];
type SliderAxis = GoalCatalog['axes'][number];
type Ceiling = GoalWeights['resolutionCeiling'];

// The sliders' names and what moving them up does (the API's GoalWeights descriptions, shortened).
const AXES: Record<SliderAxis, { label: string; up: string }> = {
  qualityVsSize: { label: 'Quality over size', up: 'remux, lossless audio and HDR score higher' },
  compatibility: { label: 'Compatibility', up: 'formats that play everywhere score higher' },
  hdrPreference: { label: 'HDR preference', up: 'HDR categories score higher' },
  unwantedStrictness: { label: 'Unwanted strictness', up: 'unwanted formats score lower, and a minimum score is set' },
};
const CEILINGS: Ceiling[] = ['720p', '1080p', '2160p'];
const DEBOUNCE_MS = 250;

// What a 409 of /goals/apply means, by its code (the message says it too; this says what to do).
const APPLY_CONFLICTS: Record<string, string> = {
  stale: 'The database changed after this plan was computed (an edit, a pull or another adopt). The plan above has been computed again on the current state: review it, then adopt again.',
  engine_changed: 'arrgo was upgraded and its goal engine changed after this plan was computed. The plan above has been computed again by the new engine: review it, then adopt again.',
};

function value(v: unknown): string {
  if (v === null || v === undefined) return '–';
  return typeof v === 'string' ? v : JSON.stringify(v);
}

function signed(n: number): string {
  return n > 0 ? `+${n}` : String(n);
}

/** The request's picks from the address: app family and profile (links from other pages set them). */
function usePicks(databaseId: number | null) {
  const [params, setPicks] = useSearchParamPicks();
  const compatibility = useProfileCompatibility(databaseId);
  const profiles = useResolvedNames(databaseId, 'qualityProfile', null);
  const arrType = (params.get('arrType') as ArrType | null) ?? 'movie_app';
  const compatible = (profiles.data ?? []).filter((name) => compatibility.data?.get(name)?.includes(arrType) ?? true);
  const asked = params.get('profile');
  const profile = asked && compatible.includes(asked) ? asked : (compatible[0] ?? null);
  // A profile belongs to the app family it was picked for.
  const set = (key: 'arrType' | 'profile', v: string) => setPicks(key === 'arrType' ? { arrType: v, profile: null } : { profile: v });
  return { arrType, profile, compatible, loading: profiles.isPending || compatibility.isPending, error: profiles.error ?? compatibility.error, set };
}

function WeightSliders({ catalog, weights, onChange }: { catalog: GoalCatalog; weights: GoalWeights; onChange: (weights: GoalWeights) => void }) {
  const ceilingIndex = CEILINGS.indexOf(weights.resolutionCeiling);
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
      {catalog.axes.map((axis) => (
        <Stack key={axis} gap={4}>
          <Group justify="space-between">
            <Text size="sm" fw={500} id={`slider-${axis}`}>
              {AXES[axis].label}
            </Text>
            <Text size="sm">{weights[axis]}</Text>
          </Group>
          <Slider
            aria-labelledby={`slider-${axis}`}
            thumbLabel={AXES[axis].label}
            min={0}
            max={100}
            step={5}
            value={weights[axis]}
            onChange={(v) => onChange({ ...weights, [axis]: v })}
            marks={[{ value: 50, label: 'neutral' }]}
          />
          <Text size="xs" c="dimmed" mt="sm">
            Up: {AXES[axis].up}.
          </Text>
        </Stack>
      ))}
      <Stack gap={4}>
        <Group justify="space-between">
          <Text size="sm" fw={500}>
            Resolution ceiling
          </Text>
          <Text size="sm">{weights.resolutionCeiling}</Text>
        </Group>
        <Slider
          thumbLabel="Resolution ceiling"
          min={0}
          max={CEILINGS.length - 1}
          step={1}
          value={ceilingIndex}
          label={(i) => CEILINGS[i]}
          onChange={(i) => onChange({ ...weights, resolutionCeiling: CEILINGS[i] })}
          marks={CEILINGS.map((c, i) => ({ value: i, label: c }))}
          restrictToMarks
        />
        <Text size="xs" c="dimmed" mt="lg">
          Qualities above it are disabled.
        </Text>
      </Stack>
    </SimpleGrid>
  );
}

function Decisions({ plan }: { plan: Plan }) {
  return (
    <Section title="Decisions" description="Each custom format's category, why it is there, and how each slider moved its score from the preset's base.">
      <DataTable
        label="Decisions"
        minWidth={760}
        rows={plan.decisions}
        rowKey={(d) => d.customFormatName}
        columns={[
          { label: 'Custom format', cell: (d) => d.customFormatName },
          { label: 'Category', cell: (d) => <Code>{d.category}</Code> },
          { label: 'Score', cell: (d) => <Text fw={600}>{d.score}</Text> },
          {
            label: 'Reason',
            cell: (d) => (
              <Text size="sm">
                <Code>{d.reason.code}</Code> rule <Code>{d.reason.ruleId}</Code>
                {d.reason.ceiling ? ` (${d.reason.ceiling} the ceiling)` : ''}
              </Text>
            ),
          },
          {
            label: 'Base and contributions',
            cell: (d) => (
              <Text size="sm">
                base {d.reason.base}
                {d.reason.axisContributions
                  .filter((c) => c.delta !== 0)
                  .map((c) => `, ${c.axis === 'resolutionCeiling' ? 'ceiling' : AXES[c.axis].label.toLowerCase()} ${signed(c.delta)}`)
                  .join('')}
              </Text>
            ),
          },
        ]}
      />
    </Section>
  );
}

function Ladder({ plan }: { plan: Plan }) {
  const ladder = plan.qualityLadder;
  return (
    <Section title="Quality ladder" description={`Ceiling ${ladder.ceiling}; upgrades until ${ladder.cutoff ?? 'no cutoff'}.`}>
      {ladder.sharedLadderNote ? (
        <Alert color={ladder.reshapesSiblingArrs ? 'yellow' : 'blue'} variant="light" title={ladder.reshapesSiblingArrs ? 'This ladder is shared with other apps' : 'Shared ladder'}>
          <Text size="sm">{ladder.sharedLadderNote}</Text>
        </Alert>
      ) : null}
      <DataTable
        label="Quality ladder"
        minWidth={480}
        rows={ladder.items}
        rowKey={(item) => `${item.type}:${item.name}`}
        columns={[
          { label: 'Position', cell: (item) => item.position },
          { label: 'Quality', cell: (item) => `${item.name}${item.type === 'group' ? ' (group)' : ''}` },
          { label: 'Resolution', cell: (item) => (item.resolution ? `${item.resolution}p` : '–') },
          { label: 'Enabled', cell: (item) => (item.enabled ? 'Yes' : 'No') },
          { label: 'Upgrade until', cell: (item) => (item.upgradeUntil ? 'Yes' : '') },
        ]}
      />
    </Section>
  );
}

// A slider move re-renders the page at once; the plan (hundreds of rows on a large profile) is drawn
// again only when its answer changes.
const PlanView = memo(function PlanView({ preview }: { preview: GoalPreview }) {
  const { plan } = preview;
  const diff = preview.configDiff.flatMap((entity) => entity.changes.map((change) => ({ entity: entity.name, ...change })));
  return (
    <Stack>
      <Section title="Summary">
        <SimpleGrid cols={{ base: 2, sm: 3, md: 6 }}>
          <Stat label="Formats" value={plan.coverage.total} />
          <Stat label="Scored" value={plan.coverage.scored} />
          <Stat label="Uncategorized" value={plan.coverage.uncategorized} />
          <Stat label="Minimum score" value={plan.thresholds.minimumScore} />
          <Stat label="Upgrade until score" value={plan.thresholds.upgradeUntilScore} />
          <Stat label="Score increment" value={plan.thresholds.upgradeScoreIncrement} />
        </SimpleGrid>
      </Section>
      <Section title="Profile changes" description="What adopting the plan changes in the profile, field by field.">
        {diff.length ? (
          <DataTable
            label="Profile changes"
            minWidth={560}
            rows={diff}
            rowKey={(c) => `${c.entity}:${c.field}`}
            columns={[
              { label: 'Field', cell: (c) => <Code>{c.field}</Code> },
              { label: 'Change', cell: (c) => c.type },
              { label: 'Now', cell: (c) => value(c.current) },
              { label: 'With the plan', cell: (c) => value(c.desired) },
            ]}
          />
        ) : (
          <Text size="sm">The profile already is what this plan asks: adopting it changes nothing.</Text>
        )}
        {preview.skippedChanges.length ? (
          <>
            <Title order={3} size="h5">
              Changes that will be skipped
            </Title>
            <DataTable
              label="Skipped changes"
              minWidth={480}
              rows={preview.skippedChanges}
              rowKey={(s) => s.change.customFormatName}
              columns={[
                { label: 'Custom format', cell: (s) => s.change.customFormatName },
                { label: 'Score', cell: (s) => s.change.score },
                { label: 'Why', cell: (s) => s.reason },
              ]}
            />
          </>
        ) : null}
      </Section>
      <Decisions plan={plan} />
      {plan.uncategorized.length ? (
        <Section title="Uncategorized formats" description="Formats no rule placed: they keep their score. Each has a suggested category.">
          <DataTable
            label="Uncategorized formats"
            minWidth={480}
            rows={plan.uncategorized}
            rowKey={(u) => u.name}
            columns={[
              { label: 'Custom format', cell: (u) => u.name },
              { label: 'Suggested category', cell: (u) => <Code>{u.suggestedCategory}</Code> },
              { label: 'Why', cell: (u) => u.reason },
            ]}
          />
        </Section>
      ) : null}
      <Ladder plan={plan} />
    </Stack>
  );
});

/** The adopted plan's ops, with the way back. */
function Adopted({ databaseId, result, onReverted }: { databaseId: number; result: GoalApplyResult; onReverted: () => void }) {
  const revert = useRevertUserOp(databaseId);
  return (
    <Alert color="green" variant="light" title="The plan was adopted">
      <Stack gap="xs">
        <Text size="sm">
          Stored as {result.ops.length === 1 ? 'a user-layer edit' : `${result.ops.length} user-layer edits`}: {result.ops.map((op) => `#${op.id} ${op.summary}`).join('; ')}.
        </Text>
        {revert.isError ? <ErrorDisplay error={revert.error} title="The revert was refused" /> : null}
        <Group>
          <Button
            variant="outline"
            color="orange"
            loading={revert.isPending}
            onClick={async () => {
              try {
                for (const op of [...result.ops].reverse()) await revert.mutateAsync(op.id);
                notifications.show({ color: 'green', message: 'The adopted plan was reverted' });
                onReverted();
              } catch {
                // shown above
              }
            }}
          >
            Revert the adopted plan
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}

function ApplyRefusal({ error }: { error: unknown }) {
  const code = error instanceof ApiError && error.status === 409 && error.body && typeof error.body === 'object' ? (error.body as { code?: string }).code : undefined;
  return (
    <Stack gap="xs">
      <ErrorDisplay error={error} title="The plan was not adopted" />
      {code && APPLY_CONFLICTS[code] ? <Text size="sm">{APPLY_CONFLICTS[code]}</Text> : null}
    </Stack>
  );
}

function Workbench({ databaseId, catalog }: { databaseId: number; catalog: GoalCatalog }) {
  const picks = usePicks(databaseId);
  const [params, setPicks] = useSearchParamPicks();
  const presetId = catalog.presets.some((p) => p.id === params.get('preset')) ? params.get('preset')! : catalog.presets[0].id;
  const preset = catalog.presets.find((p) => p.id === presetId)!;
  const [weights, setWeights] = useState<GoalWeights>(preset.suggestedWeights);
  useEffect(() => setWeights(preset.suggestedWeights), [preset]);
  // Leading edge: a single move (a key press) asks at once; a drag asks again once it rests.
  const [debounced] = useDebouncedValue(weights, DEBOUNCE_MS, { leading: true });
  const request = useMemo<GoalRequest | null>(
    () => (picks.profile ? { databaseId, arrType: picks.arrType, profileName: picks.profile, preset: presetId, weights: debounced } : null),
    [databaseId, picks.arrType, picks.profile, presetId, debounced],
  );
  const preview = useGoalPreview(request);
  const apply = useApplyGoal();
  const [adopted, setAdopted] = useState<GoalApplyResult | null>(null);
  const moving = weights !== debounced || (preview.isFetching && preview.isPlaceholderData);

  return (
    <Stack>
      <Group align="flex-end" wrap="wrap">
        <Select label="App" data={ARR_TYPE_OPTIONS} value={picks.arrType} allowDeselect={false} onChange={(v) => v && picks.set('arrType', v)} w={{ base: '100%', xs: 220 }} />
        <Select
          label="Quality profile"
          data={picks.compatible}
          value={picks.profile}
          allowDeselect={false}
          disabled={!picks.compatible.length}
          placeholder={picks.loading ? 'Loading…' : `No profile for ${APP_LABELS[picks.arrType]}`}
          onChange={(v) => v && picks.set('profile', v)}
          w={{ base: '100%', xs: 280 }}
        />
      </Group>
      {picks.error ? <ErrorDisplay error={picks.error} /> : null}
      <Section title="Goal">
        <Radio.Group
          label="Preset"
          value={presetId}
          onChange={(id) => setPicks({ preset: id })}
        >
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} mt="xs">
            {catalog.presets.map((p) => (
              <Radio.Card key={p.id} value={p.id} p="sm" radius="md">
                <Group wrap="nowrap" align="flex-start" gap="sm">
                  <Radio.Indicator />
                  <Stack gap={2}>
                    <Text fw={600} size="sm">
                      {p.title}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {p.description}
                    </Text>
                  </Stack>
                </Group>
              </Radio.Card>
            ))}
          </SimpleGrid>
        </Radio.Group>
        <WeightSliders catalog={catalog} weights={weights} onChange={setWeights} />
        <Group justify="space-between">
          <Button variant="default" size="xs" onClick={() => setWeights(preset.suggestedWeights)}>
            Back to the preset's sliders
          </Button>
          {moving ? (
            <Group gap={6} role="status" aria-label="Updating the plan">
              <Loader size="xs" />
              <Text size="sm" c="dimmed">
                Updating the plan…
              </Text>
            </Group>
          ) : null}
        </Group>
      </Section>
      {!picks.profile && !picks.loading ? <Empty title={`No quality profile for ${APP_LABELS[picks.arrType]}`} description="Pick another app, or another database." /> : null}
      {request ? (
        <QueryState query={preview} loadingLabel="Computing the plan">
          {(data) => (
            <Stack>
              {adopted ? (
                <Adopted databaseId={databaseId} result={adopted} onReverted={() => setAdopted(null)} />
              ) : (
                <Card withBorder>
                  <Stack gap="xs">
                    <Group justify="space-between">
                      <Text size="sm">
                        {data.configDiff.reduce((n, e) => n + e.changes.length, 0)} changes to <strong>{request.profileName}</strong>.
                      </Text>
                      <ConfirmButton
                        color="blue"
                        disabled={moving || !data.configDiff.some((e) => e.changes.length)}
                        title={`Adopt the plan for ${request.profileName}?`}
                        message={`The ${data.configDiff.reduce((n, e) => n + e.changes.length, 0)} changes shown are stored as a value-guarded edit of the profile in the database's user layer. Instances pick them up at their next sync. You can revert it here, or from the profile's user ops.`}
                        loading={apply.isPending}
                        onConfirm={() =>
                          apply.mutateAsync({ ...request, engineVersion: data.plan.engineVersion, databaseVersion: data.databaseVersion }).then(
                            (result) => setAdopted(result),
                            () => undefined,
                          )
                        }
                      >
                        Adopt the plan
                      </ConfirmButton>
                    </Group>
                    {apply.isError ? <ApplyRefusal error={apply.error} /> : null}
                  </Stack>
                </Card>
              )}
              <PlanView preview={data} />
            </Stack>
          )}
        </QueryState>
      ) : null}
      {picks.profile ? (
        <Anchor component={Link} to={`/configuration/${databaseId}/quality_profile/${encodeURIComponent(picks.profile)}`} size="sm">
          Open {picks.profile} in the configuration
        </Anchor>
      ) : null}
    </Stack>
  );
}

/** A preset and five sliders turned into a plan for one profile, live; adopt it, and revert it. */
export function GoalsPage() {
  const { databaseId, databases, isPending, error, select } = useDatabaseParam(['profile']);
  const catalog = useGoalCatalog();
  return (
    <Stack>
      <PageHeader title="Goals" description="Say what you want from a profile with a preset and five sliders; see the plan, adopt it, revert it." />
      {select}
      {error ? <ErrorDisplay error={error} /> : null}
      {!isPending && !databases?.length ? <Empty title="No database linked" description={<Anchor component={Link} to="/databases">Link a database first.</Anchor>} /> : null}
      {databaseId !== null ? (
        <QueryState query={catalog} loadingLabel="Loading the presets">
          {(data) => <Workbench key={databaseId} databaseId={databaseId} catalog={data} />}
        </QueryState>
      ) : null}
    </Stack>
  );
}
