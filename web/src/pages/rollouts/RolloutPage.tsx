import { Accordion, Alert, Anchor, Badge, Card, Group, Progress, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { hasEnded, useCanaryPreview, useRollout, type Rollout, type RolloutStatus } from '../../api/rollouts';
import { APP_LABELS } from '../../api/types';
import { Facts } from '../../components/Facts';
import { FailureEvidence, type Evidence as FailureEvidenceValue } from '../../components/FailureEvidence';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { StatusBadge } from '../../components/StatusBadge';
import { previewChanges, SECTION_LABELS, SyncChangeList, type SyncSection } from '../../components/SyncChangeList';
import { TimeAgo } from '../../components/TimeAgo';
import { GateCard } from './GateCard';
import { batches, describeCounts, diagnosticsOf, evidenceOf, ROLLOUT_STATUS_LABELS, TARGET_PROGRESS_LABELS, targetEvidence, type TargetProgress } from './rollout-view';

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = `section-${title.toLowerCase().replace(/[^a-z]+/g, '-')}`;
  return (
    <Stack gap="xs" component="section" aria-labelledby={id}>
      <Title order={2} size="h4" id={id}>
        {title}
      </Title>
      {children}
    </Stack>
  );
}

// The stages a rollout goes through; an end other than completed replaces the last.
const STAGES: { status: RolloutStatus; label: string }[] = [
  { status: 'canary_running', label: 'Canary' },
  { status: 'awaiting_confirmation', label: 'Gate' },
  { status: 'rolling_out', label: 'Rolling out' },
  { status: 'completed', label: 'Completed' },
];

function endedStage(rollout: Rollout): number {
  if (rollout.statusReasonCode === 'targets_failed' || rollout.rolloutResults.length) return 2;
  if (rollout.statusReasonCode === 'gate_declined') return 1;
  return rollout.statusReasonCode ? 0 : 1;
}

/** Where the rollout is, as a row of stages: done, current (aria-current) and to come. */
function Stages({ rollout }: { rollout: Rollout }) {
  const ended = rollout.status === 'aborted' || rollout.status === 'failed';
  // An aborted or failed rollout stopped in the stage its reason names.
  const reached = ended ? endedStage(rollout) : STAGES.findIndex((s) => s.status === rollout.status);
  return (
    <Group component="ol" gap="xs" m={0} p={0} aria-label="Stages" style={{ listStyle: 'none' }}>
      {STAGES.map((stage, index) => {
        const current = index === reached;
        const done = index < reached || (current && rollout.status === 'completed');
        const label = current && ended ? `${stage.label}: ${ROLLOUT_STATUS_LABELS[rollout.status].toLowerCase()}` : stage.label;
        if (ended && index > reached) return null;
        return (
          <Group component="li" key={stage.status} gap={6} wrap="nowrap" aria-current={current ? 'step' : undefined}>
            {index > 0 ? (
              <Text span c="dimmed" aria-hidden>
                →
              </Text>
            ) : null}
            <Badge
              variant={current ? 'filled' : 'light'}
              color={current && ended ? 'red' : done ? 'green' : current ? 'blue' : 'gray'}
              radius="sm"
              style={{ textTransform: 'none' }}
            >
              {done && !current ? '✓ ' : ''}
              {label}
            </Badge>
          </Group>
        );
      })}
    </Group>
  );
}

function CanarySection({ rollout }: { rollout: Rollout }) {
  const diagnostics = diagnosticsOf(rollout);
  const preview = useCanaryPreview(rollout.canary.previewId);
  return (
    <Section title="Canary">
      <Card withBorder>
        <Stack gap="sm">
          <Group gap="xs">
            <Text fw={600}>{rollout.canary.instanceName}</Text>
            <StatusBadge status={rollout.canaryStatus} />
          </Group>
          {diagnostics ? <Text size="sm">Sync result: {diagnostics.summary}</Text> : <Text size="sm" c="dimmed">The canary is being synced.</Text>}
          {diagnostics?.failure ? <FailureEvidence evidence={diagnostics.failure} title="The canary sync failed" /> : null}
          {rollout.warning ? (
            <Alert color="yellow" variant="light" title="Warning">
              {rollout.warning}
            </Alert>
          ) : null}
          {rollout.canary.previewId !== null && preview.data ? (
            <Accordion variant="contained" chevronPosition="left">
              <Accordion.Item value="canary-changes">
                <Accordion.Control>What the canary received ({describeCounts(preview.data.counts)})</Accordion.Control>
                <Accordion.Panel>
                  <SyncChangeList changes={previewChanges(preview.data)} headingOrder={3} />
                </Accordion.Panel>
              </Accordion.Item>
            </Accordion>
          ) : null}
        </Stack>
      </Card>
    </Section>
  );
}

const PROGRESS_STATUS: Record<TargetProgress, string> = {
  success: 'success',
  partial: 'partial',
  failed: 'failed',
  applying: 'running',
  waiting: 'none',
  untouched: 'none',
};

function ProgressSection({ rollout }: { rollout: Rollout }) {
  const done = rollout.rolloutResults.length;
  const total = rollout.targets.length;
  return (
    <Section title="Progress">
      <Progress value={total ? (done / total) * 100 : 0} aria-label={`${done} of ${total} targets synced`} size="lg" />
      <Text size="sm">
        {done} of {total} {total === 1 ? 'target' : 'targets'} synced, {rollout.batchSize} at a time
      </Text>
      {batches(rollout).map((batch) => (
        <Card key={batch.number} withBorder padding="sm" component="section" aria-label={`Batch ${batch.number}`}>
          <Text size="sm" fw={600} mb={6}>
            Batch {batch.number}
          </Text>
          <Stack gap={6} component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
            {batch.targets.map((target) => (
              <Stack component="li" key={target.instanceId} gap={2} aria-label={`${target.instanceName}: ${TARGET_PROGRESS_LABELS[target.progress]}`}>
                <Group gap="xs" wrap="nowrap">
                  <Text size="sm">{target.instanceName}</Text>
                  <StatusBadge status={PROGRESS_STATUS[target.progress]} label={TARGET_PROGRESS_LABELS[target.progress]} />
                </Group>
                {target.summary ? (
                  <Text size="xs" c="dimmed">
                    {target.summary}
                  </Text>
                ) : null}
              </Stack>
            ))}
          </Stack>
        </Card>
      ))}
      {rollout.rolloutResults
        .filter((r) => r.diagnostics?.failure)
        .map((r) => (
          <FailureEvidence key={r.instanceId} evidence={r.diagnostics!.failure!} title={`${r.instanceName}: ${r.summary}`} />
        ))}
    </Section>
  );
}

/** The failure evidence of each section a failed preview could not read. */
function sectionFailures(outcomes: { section: SyncSection; failure?: FailureEvidenceValue | null }[]): Partial<Record<SyncSection, FailureEvidenceValue>> {
  return Object.fromEntries(outcomes.filter((o) => o.failure).map((o) => [o.section, o.failure!]));
}

function EvidenceSection({ rollout }: { rollout: Rollout }) {
  const evidence = evidenceOf(rollout);
  return (
    <Section title="Evidence">
      <Text size="sm" c="dimmed">
        A preview of every remaining target: what proceeding will write to it.
      </Text>
      {evidence ? (
        <Group gap="xs">
          <StatusBadge status={evidence.availability === 'available' ? 'ready' : 'failed'} label={evidence.availability} />
          <Text size="sm">
            {evidence.availability === 'available' ? 'Built' : 'Found unavailable'} <TimeAgo iso={evidence.availability === 'available' ? evidence.generatedAt : evidence.recordedAt} />
          </Text>
        </Group>
      ) : (
        <Text size="sm">{rollout.finishedAt ? 'No evidence was kept.' : 'The evidence is built while the canary syncs.'}</Text>
      )}
      {evidence?.availability === 'unavailable' && evidence.failure ? <FailureEvidence evidence={evidence.failure} title="The evidence is unavailable" /> : null}
      {evidence ? (
        <Accordion multiple variant="separated" chevronPosition="left">
          {rollout.targets.map((target) => {
            const found = targetEvidence(rollout, target.instanceId);
            return (
              <Accordion.Item key={target.instanceId} value={String(target.instanceId)}>
                <Accordion.Control>
                  <Group gap="xs" wrap="wrap">
                    <Text size="sm" fw={600}>
                      {target.instanceName}
                    </Text>
                    <Text size="sm" c={found.kind === 'failed' ? 'red' : 'dimmed'}>
                      {found.kind === 'ready' ? describeCounts(found.preview.counts) : found.kind === 'failed' ? `no preview: ${found.preview.failure?.cause ?? found.preview.failure?.code ?? 'failed'}` : 'no preview'}
                    </Text>
                  </Group>
                </Accordion.Control>
                <Accordion.Panel>
                  {found.kind === 'ready' ? (
                    <SyncChangeList changes={previewChanges(found.preview)} headingOrder={3} />
                  ) : found.kind === 'failed' ? (
                    <Stack gap="sm">
                      {found.preview.failure ? <FailureEvidence evidence={found.preview.failure} title={`${target.instanceName}: no preview`} /> : null}
                      <SyncChangeList changes={previewChanges(found.preview)} sectionFailures={sectionFailures(found.preview.sectionOutcomes)} headingOrder={3} />
                    </Stack>
                  ) : (
                    <Text size="sm" c="dimmed">
                      This target has no preview in the evidence.
                    </Text>
                  )}
                </Accordion.Panel>
              </Accordion.Item>
            );
          })}
        </Accordion>
      ) : null}
    </Section>
  );
}

function RolloutDetails({ rollout, refetch }: { rollout: Rollout; refetch: () => Promise<{ data?: Rollout }> }) {
  const ended = hasEnded(rollout);
  return (
    <Stack gap="lg">
      <PageHeader
        title={`Rollout ${rollout.id}`}
        description={
          <>
            {APP_LABELS[rollout.arrType]}: canary {rollout.canary.instanceName}, {rollout.targets.length} {rollout.targets.length === 1 ? 'target' : 'targets'}, started <TimeAgo iso={rollout.createdAt} />
          </>
        }
      />
      <Stack gap="xs">
        <Group gap="xs" aria-live="polite">
          <Text size="sm" fw={600}>
            Status:
          </Text>
          <StatusBadge status={rollout.status} label={ROLLOUT_STATUS_LABELS[rollout.status]} />
          {ended ? (
            <Text size="sm" c="dimmed">
              finished <TimeAgo iso={rollout.finishedAt} />
            </Text>
          ) : null}
        </Group>
        <Stages rollout={rollout} />
      </Stack>
      {rollout.statusReason ? (
        <Alert color={rollout.status === 'failed' ? 'red' : 'orange'} variant="light" title={ROLLOUT_STATUS_LABELS[rollout.status]}>
          {rollout.statusReason}
        </Alert>
      ) : null}
      <GateCard rollout={rollout} refetch={refetch} />
      <CanarySection rollout={rollout} />
      <ProgressSection rollout={rollout} />
      <EvidenceSection rollout={rollout} />
      <Section title="Details">
        <Card withBorder>
          <Facts
            items={[
              ['Sections', rollout.sections.map((s) => SECTION_LABELS[s]).join(', ')],
              ['Partial canary', rollout.partialPolicy === 'gate' ? 'go on to the gate with a warning' : 'abort'],
              ['Batch size', rollout.batchSize],
              ['Trigger', rollout.trigger],
              ['Workflow', rollout.workflowId],
              ['Last change', <TimeAgo iso={rollout.updatedAt} />],
            ]}
          />
        </Card>
      </Section>
    </Stack>
  );
}

export function RolloutPage() {
  const id = Number(useParams().id);
  const rollout = useRollout(id);
  return (
    <Stack>
      <Anchor component={Link} to="/rollouts" size="sm">
        ← Rollouts
      </Anchor>
      <QueryState query={rollout} loadingLabel="Loading the rollout">
        {(data) => <RolloutDetails rollout={data} refetch={() => rollout.refetch()} />}
      </QueryState>
    </Stack>
  );
}
