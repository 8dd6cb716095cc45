import { Button, Card, Group, NumberInput, SimpleGrid, Stack, Switch, Text, Title } from '@mantine/core';
import type { UseMutationResult, UseQueryResult } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useDriftSettings, useRefGuideSettings, useSnapshotSettings, useSyncHistorySettings } from '../../api/system';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { Facts } from '../../components/Facts';
import { QueryState } from '../../components/QueryState';
import { TimeAgo } from '../../components/TimeAgo';

interface ScheduleCardProps<T, B> {
  title: string;
  description: string;
  settings: { query: UseQueryResult<T>; save: UseMutationResult<T, Error, B> };
  /** The form over the settings as read; `submit` sends what it built. */
  children: (settings: T, submit: (body: B) => void) => ReactNode;
  /** What the schedule did and will do (read-only). */
  facts?: (settings: T) => [string, ReactNode][];
}

/**
 * One settings resource as a card: its form, the API's refusal, and a word when saved. The form
 * is built again from what the API answered (the settings now in force).
 */
function ScheduleCard<T, B>({ title, description, settings, children, facts }: ScheduleCardProps<T, B>) {
  const { query, save } = settings;
  return (
    <Card withBorder padding="md" component="section" aria-label={title}>
      <Stack gap="sm">
        <div>
          <Title order={3} size="h5">
            {title}
          </Title>
          <Text size="sm" c="dimmed">
            {description}
          </Text>
        </div>
        <QueryState query={query} loadingLabel={`Loading ${title.toLowerCase()}`}>
          {(data) => (
            <Stack gap="sm" key={JSON.stringify(data)}>
              {facts ? <Facts items={facts(data)} /> : null}
              {children(data, (body) => save.mutate(body))}
              {save.isError ? <ErrorDisplay title="Not saved" error={save.error} /> : null}
              {save.isSuccess ? (
                <Text size="sm" c="teal" aria-live="polite">
                  Saved.
                </Text>
              ) : null}
            </Stack>
          )}
        </QueryState>
      </Stack>
    </Card>
  );
}

function SaveButton({ busy }: { busy: boolean }) {
  return (
    <Group justify="flex-end">
      <Button type="submit" size="xs" loading={busy}>
        Save
      </Button>
    </Group>
  );
}

const whole = (value: string | number) => (typeof value === 'number' ? value : Number.parseInt(value, 10));

/** A form of one enabled switch and numbers, sent whole on submit. */
function NumbersForm<K extends string>({
  enabledLabel,
  enabled,
  fields,
  busy,
  onSubmit,
}: {
  enabledLabel?: string;
  enabled?: boolean;
  fields: { key: K; label: string; description?: string; value: number }[];
  busy: boolean;
  onSubmit: (values: { enabled: boolean; numbers: Record<K, number> }) => void;
}) {
  const [on, setOn] = useState(enabled ?? true);
  const [numbers, setNumbers] = useState(() => Object.fromEntries(fields.map((f) => [f.key, f.value])) as Record<K, number | string>);
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit({ enabled: on, numbers: Object.fromEntries(fields.map((f) => [f.key, whole(numbers[f.key])])) as Record<K, number> });
      }}
    >
      <Stack gap="xs">
        {enabledLabel ? <Switch label={enabledLabel} checked={on} onChange={(e) => setOn(e.currentTarget.checked)} /> : null}
        {fields.map((field) => (
          <NumberInput
            key={field.key}
            label={field.label}
            description={field.description}
            allowDecimal={false}
            allowNegative={false}
            value={numbers[field.key]}
            onChange={(value) => setNumbers((n) => ({ ...n, [field.key]: value }))}
          />
        ))}
        <SaveButton busy={busy} />
      </Stack>
    </form>
  );
}

interface IntervalSettings {
  enabled: boolean;
  intervalMinutes: number;
  lastRunAt: string | null;
  nextRunAt: string | null;
}

/** A schedule that runs every N minutes (a Temporal Schedule): on or off, its interval, its runs. */
function IntervalSchedule<T extends IntervalSettings>({
  title,
  description,
  enabledLabel,
  settings,
  facts,
}: Omit<ScheduleCardProps<T, { enabled: boolean; intervalMinutes: number }>, 'children' | 'facts'> & { enabledLabel: string; facts: (settings: T) => [string, ReactNode][] }) {
  return (
    <ScheduleCard
      title={title}
      description={description}
      settings={settings}
      facts={(s) => [['Last run', <TimeAgo iso={s.lastRunAt} />], ['Next run', <TimeAgo iso={s.nextRunAt} fallback="not scheduled" />], ...facts(s)]}
    >
      {(s, submit) => (
        <NumbersForm
          enabledLabel={enabledLabel}
          enabled={s.enabled}
          fields={[{ key: 'intervalMinutes', label: 'Every (minutes)', value: s.intervalMinutes }]}
          busy={settings.save.isPending}
          onSubmit={({ enabled, numbers }) => submit({ enabled, intervalMinutes: numbers.intervalMinutes })}
        />
      )}
    </ScheduleCard>
  );
}

function DriftSchedule() {
  return (
    <IntervalSchedule
      title="Drift checks"
      description="How often arrgo compares every enabled instance with its desired configuration (a Temporal Schedule)."
      enabledLabel="Check for drift on a schedule"
      settings={useDriftSettings()}
      facts={(s) => [['Failing runs in a row', s.errorCount]]}
    />
  );
}

function HistoryRetention() {
  const settings = useSyncHistorySettings();
  return (
    <ScheduleCard title="Sync history retention" description="Finished sync runs older than this, or beyond the newest N, are removed by a scheduled job." settings={settings}>
      {(s, submit) => (
        <NumbersForm
          enabledLabel="Remove old sync runs"
          enabled={s.enabled}
          fields={[
            { key: 'retentionDays', label: 'Keep runs for (days)', value: s.retentionDays },
            { key: 'retentionMaxEntries', label: 'Keep at most (runs)', description: '0: no cap, age only', value: s.retentionMaxEntries },
          ]}
          busy={settings.save.isPending}
          onSubmit={({ enabled, numbers }) => submit({ enabled, ...numbers })}
        />
      )}
    </ScheduleCard>
  );
}

function SnapshotRetention() {
  const settings = useSnapshotSettings();
  return (
    <ScheduleCard title="Snapshots" description="Database snapshots kept for rollback, pruned after each new snapshot (those a rollback refers to stay)." settings={settings}>
      {(s, submit) => (
        <NumbersForm
          fields={[
            { key: 'maxPerDatabase', label: 'Snapshots kept per database', value: s.maxPerDatabase },
            { key: 'retentionDays', label: 'Prune snapshots older than (days)', description: '0: never by age', value: s.retentionDays },
          ]}
          busy={settings.save.isPending}
          onSubmit={({ numbers }) => submit(numbers)}
        />
      )}
    </ScheduleCard>
  );
}

function GuideRefresh() {
  return (
    <IntervalSchedule
      title="Reference guide refresh"
      description="How often every enabled reference-guide source is synced (a Temporal Schedule)."
      enabledLabel="Refresh the reference guides on a schedule"
      settings={useRefGuideSettings()}
      facts={(s) => [['Sources in the last run', `${s.lastRunSources}, ${s.lastRunFailed} failed`]]}
    />
  );
}

/** The four schedules arrgo runs, each with the settings the API keeps for it. */
export function Schedules() {
  return (
    <Stack gap="xs" component="section" aria-labelledby="schedules-title">
      <Title order={2} size="h4" id="schedules-title">
        Schedules
      </Title>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <DriftSchedule />
        <HistoryRetention />
        <SnapshotRetention />
        <GuideRefresh />
      </SimpleGrid>
    </Stack>
  );
}
