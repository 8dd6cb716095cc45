import { Anchor, Button, Card, CopyButton, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { urlBase } from '../../api/client';
import { useRegenerateApiKey, useRevealApiKey, useServiceHealth, type ServiceHealth } from '../../api/system';
import { ConfirmButton } from '../../components/ConfirmButton';
import { DataTable, type Column } from '../../components/DataTable';
import { Disclosure } from '../../components/Disclosure';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { ExternalLink } from '../../components/ExternalLink';
import { Facts } from '../../components/Facts';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { StatusBadge } from '../../components/StatusBadge';
import { formatDuration, TimeAgo } from '../../components/TimeAgo';
import { Schedules } from './Schedules';

type Components = ServiceHealth['components'];

const COMPONENT_LABELS: Record<keyof Components, string> = { sqlite: 'Database', repos: 'Repositories', jobs: 'Jobs', outbox: 'Outbox', backups: 'Backups', logs: 'Logs' };

/** The verbose detail of each component, in words. */
function componentDetail(name: keyof Components, components: Components): ReactNode {
  switch (name) {
    case 'sqlite': {
      const c = components.sqlite;
      return `${c.driver ?? 'database'}, migration ${c.migration}, answered in ${c.responseTimeMs} ms`;
    }
    case 'repos': {
      const c = components.repos;
      return c.total === undefined ? null : `${c.total} linked, ${c.enabled} enabled, ${c.cached} cached, ${c.disabled} disabled`;
    }
    case 'jobs': {
      const runs = Object.entries(components.jobs.lastRun ?? {});
      if (!runs.length) return null;
      return (
        <Stack gap={0}>
          {runs.map(([job, at]) => (
            <Text key={job} size="xs">
              {job}: last run <TimeAgo iso={at} />
            </Text>
          ))}
        </Stack>
      );
    }
    case 'outbox': {
      const c = components.outbox;
      return c.backlog === 0 ? null : `${c.backlog} waiting, the oldest for ${formatDuration(c.oldestAgeSeconds)}`;
    }
    case 'backups': {
      const c = components.backups;
      if (c.count === undefined) return null;
      return (
        <>
          {c.count} backups, {c.totalSize}, kept {c.retentionDays} days, the newest <TimeAgo iso={c.lastBackup} />
        </>
      );
    }
    case 'logs': {
      const c = components.logs;
      return c.fileCount === undefined ? null : `${c.fileCount} files, ${c.totalSize}${c.oldestLog ? `, from ${c.oldestLog}` : ''}${c.newestLog ? ` to ${c.newestLog}` : ''}`;
    }
  }
}

function componentColumns(components: Components, advanced: boolean): Column<keyof Components>[] {
  const basic: Column<keyof Components>[] = [
    { label: 'Component', cell: (name) => COMPONENT_LABELS[name] },
    { label: 'Status', cell: (name) => <StatusBadge status={components[name].status} /> },
    { label: 'Message', cell: (name) => components[name].message ?? '–' },
  ];
  const detail: Column<keyof Components> = {
    label: 'Detail',
    cell: (name) => (
      <Text size="xs" component="div">
        {componentDetail(name, components)}
      </Text>
    ),
  };
  return advanced ? [...basic, detail] : basic;
}

function SystemHealth({ health }: { health: ServiceHealth }) {
  return (
    <Disclosure sectionKey="settings:system:components" title="System" description="arrgo itself: its database, repositories, scheduled jobs, what waits for Temporal (the outbox), backups and logs. The advanced detail adds each component's figures.">
      {(advanced) => (
        <Stack gap="sm">
          <Card withBorder padding="sm">
            <Facts
              items={[
                ['Status', <StatusBadge status={health.status} />],
                ['Version', health.version],
                ['Running for', formatDuration(health.uptime)],
                ['Checked', <TimeAgo iso={health.timestamp} />],
              ]}
            />
          </Card>
          <DataTable columns={componentColumns(health.components, advanced)} rows={Object.keys(COMPONENT_LABELS) as (keyof Components)[]} rowKey={(name) => name} minWidth={520} striped={false} />
        </Stack>
      )}
    </Disclosure>
  );
}

function Links({ temporalUi }: { temporalUi: string | null | undefined }) {
  return (
    <Stack gap={4} component="section" aria-labelledby="links-title">
      <Title order={2} size="h4" id="links-title">
        Links
      </Title>
      <Anchor href={`${urlBase()}/docs/`} size="sm">
        API documentation
      </Anchor>
      <Anchor href={`${urlBase()}/api/v1/openapi.json`} size="sm">
        OpenAPI document
      </Anchor>
      {temporalUi ? (
        <ExternalLink href={temporalUi}>Temporal Web UI</ExternalLink>
      ) : (
        <Text size="sm" c="dimmed">
          Temporal Web UI: its address is not known (set TEMPORAL_UI_URL).
        </Text>
      )}
    </Stack>
  );
}

function ApiKey() {
  const reveal = useRevealApiKey();
  const regenerate = useRegenerateApiKey();
  const shown = regenerate.data?.apiKey ?? reveal.data?.apiKey ?? null;
  const hide = () => {
    reveal.reset();
    regenerate.reset();
  };
  return (
    <Stack gap="xs" component="section" aria-labelledby="api-key-title">
      <Title order={2} size="h4" id="api-key-title">
        API key
      </Title>
      <Text size="sm" c="dimmed">
        Scripts and other tools send it in the X-Api-Key header. The console signs in with your session instead.
      </Text>
      {shown ? (
        <Group gap="xs" wrap="nowrap" align="flex-end">
          <TextInput label="Current API key" readOnly value={shown} style={{ flex: 1 }} styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }} />
          <CopyButton value={shown}>
            {({ copied, copy }) => (
              <Button variant="default" onClick={copy}>
                {copied ? 'Copied' : 'Copy'}
              </Button>
            )}
          </CopyButton>
        </Group>
      ) : null}
      {reveal.data?.source === 'env' && !regenerate.data ? (
        <Text size="sm" c="dimmed">
          Set by ARRGO_API_KEY: change it there and restart arrgo.
        </Text>
      ) : null}
      {regenerate.data ? (
        <Text size="sm" aria-live="polite">
          A new key is in force: the old one is refused from now on. Give the new one to every script that used the old.
        </Text>
      ) : null}
      <Group gap="xs">
        {shown ? (
          <Button size="xs" variant="default" onClick={hide}>
            Hide the API key
          </Button>
        ) : (
          <Button size="xs" variant="default" loading={reveal.isPending} onClick={() => reveal.mutate()}>
            Show the API key
          </Button>
        )}
        <ConfirmButton
          size="xs"
          variant="outline"
          color="red"
          title="Regenerate the API key?"
          message="arrgo makes a new API key and refuses the old one at once: every script or tool that uses it stops working until it gets the new one."
          loading={regenerate.isPending}
          onConfirm={() => regenerate.mutateAsync().catch(() => undefined)}
        >
          Regenerate the API key
        </ConfirmButton>
      </Group>
      {reveal.isError ? <ErrorDisplay title="Not shown" error={reveal.error} /> : null}
      {regenerate.isError ? <ErrorDisplay title="Not regenerated" error={regenerate.error} /> : null}
    </Stack>
  );
}

/** arrgo itself: its health report, version and links, the schedules it runs, and its API key. */
export function SettingsPage() {
  const health = useServiceHealth();
  return (
    <>
      <PageHeader title="Settings" description={health.data ? `arrgo ${health.data.version}` : undefined} />
      <Stack gap="xl">
        <QueryState query={health} loadingLabel="Loading the health report">
          {(data) => (
            <Stack gap="xl">
              <SystemHealth health={data} />
              <Links temporalUi={data.temporalUi} />
            </Stack>
          )}
        </QueryState>
        <Schedules />
        <ApiKey />
      </Stack>
    </>
  );
}
