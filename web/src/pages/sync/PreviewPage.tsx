import { Alert, Anchor, Button, Card, Center, Code, Group, List, Loader, SimpleGrid, Stack, Switch, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useCreatePreviews, usePreview } from '../../api/sync';
import { APP_LABELS, type SyncPreview } from '../../api/types';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { Facts } from '../../components/Facts';
import { InstanceLink } from '../../components/InstanceLink';
import { FailureEvidence } from '../../components/FailureEvidence';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { StatusBadge } from '../../components/StatusBadge';
import { TimeAgo } from '../../components/TimeAgo';
import { ApplyDialog } from './ApplyDialog';
import { SectionChanges } from './ChangeList';
import { ActionBadge } from './ActionBadge';
import { ACTIONS, ACTION_PHRASES, entityLabel, SECTION_LABELS } from './labels';
import { ApplyProgress, RunOutcome } from './RunOutcome';

function Counts({ preview }: { preview: SyncPreview }) {
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }} component="section" aria-label="Changes">
      {ACTIONS.map((action) => (
        <Card key={action} withBorder padding="sm">
          <Group justify="space-between" wrap="nowrap" align="baseline">
            <ActionBadge action={action} />
            <Text size="sm" c="dimmed">
              <Text span fw={700} size="xl" c="var(--mantine-color-text)">
                {preview.counts[action]}
              </Text>{' '}
              {ACTION_PHRASES[action]}
            </Text>
          </Group>
        </Card>
      ))}
    </SimpleGrid>
  );
}

/** A new preview of the same instance (an expired or applied preview is not applied again). */
function PreviewAgain({ preview, primary }: { preview: SyncPreview; primary?: boolean }) {
  const create = useCreatePreviews();
  const navigate = useNavigate();
  const failed = create.data?.find((r) => r.result.status === 'rejected');
  return (
    <>
      <Button
        variant={primary ? 'filled' : 'default'}
        loading={create.isPending}
        onClick={() =>
          create.mutate([preview.instanceId], {
            onSuccess: ([created]) => {
              if (created.result.status === 'fulfilled') navigate(`/sync/previews/${created.result.value.id}`);
            },
          })
        }
      >
        Preview again
      </Button>
      {failed?.result.status === 'rejected' ? <ErrorDisplay title="No new preview" error={failed.result.reason} /> : null}
    </>
  );
}

/** What can be done with the preview now, by its status. */
function NextStep({ preview }: { preview: SyncPreview }) {
  switch (preview.status) {
    case 'generating':
      return (
        <Card withBorder>
          <Center>
            <Group gap="sm">
              <Loader size="sm" role="status" aria-label="Generating the preview" />
              <Text size="sm">Reading {preview.instanceName} and comparing it with the database…</Text>
            </Group>
          </Center>
        </Card>
      );
    case 'ready':
      return (
        <Group justify="space-between" wrap="wrap">
          <Text size="sm" c="dimmed">
            Nothing is written until you apply.{' '}
            {preview.expiresAt ? (
              <>
                Applicable until <TimeAgo iso={preview.expiresAt} />.
              </>
            ) : null}
          </Text>
          <Group gap="xs">
            <PreviewAgain preview={preview} />
            <ApplyDialog preview={preview} />
          </Group>
        </Group>
      );
    case 'applying':
      return <ApplyProgress preview={preview} />;
    case 'expired':
      return (
        <Alert color="yellow" variant="light" title="This preview expired" role="alert">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">It is too old to apply safely. A new preview reads the app again.</Text>
            <PreviewAgain preview={preview} primary />
          </Stack>
        </Alert>
      );
    default:
      return (
        <Stack>
          {preview.runId !== null ? <RunOutcome preview={preview} /> : null}
          <Group justify="flex-end">
            <PreviewAgain preview={preview} />
          </Group>
        </Stack>
      );
  }
}

function Issues({ issues }: { issues: SyncPreview['issues'] }) {
  if (!issues.length) return null;
  return (
    <Alert color="yellow" variant="light" title="What the database asks that the app cannot take">
      <List size="sm">
        {issues.map((issue, i) => (
          <List.Item key={i}>
            <Code>{issue.severity}</Code> {issue.name} ({issue.entityType}, {issue.section}): {issue.message}
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}

/** Entities two or more databases supply: which database's version is synced, and which are not. */
function Collisions({ preview }: { preview: SyncPreview }) {
  if (preview.databases.length < 2) return null;
  return (
    <Card withBorder component="section" aria-label="Databases">
      <Stack gap="xs">
        <Title order={2} size="h4">
          Databases
        </Title>
        <Text size="sm">
          In priority order: {preview.databases.map((d, i) => `${i + 1}. ${d.name}`).join(', ')}. An entity two databases supply comes from the earlier one.
        </Text>
        {preview.collisions.length === 0 ? (
          <Text size="sm" c="dimmed">
            No collisions: no two databases supply an entity of the same type and name.
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={560}>
            <Table aria-label="Collisions between databases" verticalSpacing={4}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Entity</Table.Th>
                  <Table.Th>Synced from</Table.Th>
                  <Table.Th>Not synced from</Table.Th>
                  <Table.Th>Why</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {preview.collisions.map((c) => (
                  <Table.Tr key={`${c.entityType}:${c.name}`}>
                    <Table.Td>
                      {c.name} <Text span size="xs" c="dimmed">({entityLabel(c.entityType)})</Text>
                    </Table.Td>
                    <Table.Td>{c.winner.databaseName}</Table.Td>
                    <Table.Td>{c.losers.map((l) => (l.name ? `${l.databaseName} (${l.name})` : l.databaseName)).join(', ')}</Table.Td>
                    <Table.Td>
                      {c.kind === 'formatOverride'
                        ? `An earlier database overrides this format for ${c.profile ? `profile ${c.profile}` : 'the later profiles'}`
                        : 'Selected by several databases: the earlier one wins'}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Card>
  );
}

function PreviewDetails({ preview }: { preview: SyncPreview }) {
  const [showUnchanged, setShowUnchanged] = useState(false);
  const generating = preview.status === 'generating';
  return (
    <Stack>
      <PageHeader
        title={`Sync preview of ${preview.instanceName}`}
        description={
          <>
            Preview {preview.id}: what a sync would change on {preview.instanceName} ({APP_LABELS[preview.arrType]}).
          </>
        }
      />
      <Card withBorder component="section" aria-label="Preview">
        <Facts
          items={[
            ['Status', <StatusBadge status={preview.status} />],
            ['Instance', <InstanceLink instance={{ id: preview.instanceId, name: preview.instanceName }} />],
            ['Sections', preview.sections.map((s) => SECTION_LABELS[s]).join(', ') || '–'],
            ['Generated', preview.generatedAt === null ? '–' : <TimeAgo iso={new Date(preview.generatedAt).toISOString()} />],
            ['Expires', <TimeAgo iso={preview.expiresAt} fallback="–" />],
            ['Trigger', preview.trigger],
          ]}
        />
      </Card>
      {preview.failure ? <FailureEvidence title={failureTitle(preview)} evidence={preview.failure} /> : null}
      <NextStep preview={preview} />
      {generating ? null : (
        <>
          <Counts preview={preview} />
          <Issues issues={preview.issues} />
          <Collisions preview={preview} />
          <Switch label="Show unchanged entities" checked={showUnchanged} onChange={(e) => setShowUnchanged(e.currentTarget.checked)} />
          {preview.sections.map((section) => (
            <SectionChanges key={section} preview={preview} section={section} showUnchanged={showUnchanged} />
          ))}
        </>
      )}
    </Stack>
  );
}

export function PreviewPage() {
  const id = Number(useParams().id);
  const preview = usePreview(id);
  return (
    <Stack>
      <Anchor component={Link} to="/sync" size="sm">
        ← Sync
      </Anchor>
      <QueryState query={preview} loadingLabel="Loading the preview">
        {(data) => <PreviewDetails preview={data} />}
      </QueryState>
    </Stack>
  );
}

/** What the preview's failure evidence is about: its generation, an apply that stopped, or an apply that did not verify. */
function failureTitle(preview: { runId: number | null; status: string }): string {
  if (preview.runId === null) return 'The preview failed';
  return preview.status === 'applied' ? 'The apply completed, but not everything landed' : 'The apply did not complete';
}
