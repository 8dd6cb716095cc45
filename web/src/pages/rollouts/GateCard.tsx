import { Alert, Button, Card, Group, List, Modal, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { ApiError } from '../../api/client';
import { useGateAction, type GateAction, type Rollout } from '../../api/rollouts';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { describeCounts, describeRolloutChanges, evidenceOf, targetEvidence } from './rollout-view';

const ACTIONS: Record<GateAction, { label: string; title: (r: Rollout) => string; color?: string }> = {
  proceed: { label: 'Proceed', title: (r) => `Roll out to ${r.targets.length} ${r.targets.length === 1 ? 'target' : 'targets'}?` },
  abort: { label: 'Abort', title: () => 'Abort the rollout?', color: 'red' },
  'refresh-evidence': { label: 'Refresh evidence', title: () => 'Refresh the evidence?' },
};

/** What a decision will do, stated from the state it is made on. */
function Consequence({ action, rollout }: { action: GateAction; rollout: Rollout }) {
  if (action === 'abort') {
    return <Text size="sm">The rollout ends aborted. The canary keeps what it received; the {rollout.targets.length} remaining instances are left untouched.</Text>;
  }
  if (action === 'refresh-evidence') return <Text size="sm">Every target is previewed again; the rollout waits at the gate meanwhile.</Text>;
  return (
    <Stack gap="xs">
      <Text size="sm">
        The previewed changes are written to these instances, {rollout.batchSize} at a time:
      </Text>
      <List size="sm">
        {rollout.targets.map((target) => {
          const evidence = targetEvidence(rollout, target.instanceId);
          return (
            <List.Item key={target.instanceId}>
              {target.instanceName}: {evidence.kind === 'ready' ? describeCounts(evidence.preview.counts) : 'no preview'}
            </List.Item>
          );
        })}
      </List>
    </Stack>
  );
}

/**
 * The verification gate: proceed, abort or refresh the evidence. Each decision carries the state
 * token of the state the user looked at (the one on the page when the decision was opened); when
 * the rollout changed meanwhile the API refuses it (409), and the page says what changed and shows
 * the fresh state to decide on again.
 */
export function GateCard({ rollout, refetch }: { rollout: Rollout; refetch: () => Promise<{ data?: Rollout }> }) {
  const gate = useGateAction(rollout.id);
  // The decision being confirmed and the state it was opened on.
  const [pending, setPending] = useState<{ action: GateAction; seen: Rollout } | null>(null);
  const [changed, setChanged] = useState<string[] | null>(null);
  const [refusal, setRefusal] = useState<unknown>(null);
  const atGate = rollout.status === 'awaiting_confirmation';

  const decide = (action: GateAction, seen: Rollout) => {
    setChanged(null);
    setRefusal(null);
    gate.mutate(
      { action, stateToken: seen.stateToken },
      {
        onSettled: () => setPending(null),
        onError: async (error) => {
          if (!(error instanceof ApiError) || error.status !== 409) return setRefusal(error);
          const fresh = (await refetch()).data;
          if (fresh && (fresh.stateToken !== seen.stateToken || fresh.status !== seen.status)) setChanged(describeRolloutChanges(seen, fresh));
          else setRefusal(error);
        },
      },
    );
  };

  const evidence = evidenceOf(rollout);
  return (
    <Stack gap="sm">
      {changed ? (
        <Alert color="yellow" variant="light" title="Your decision was not applied" role="alert" withCloseButton closeButtonLabel="Dismiss" onClose={() => setChanged(null)}>
          <Text size="sm">
            The rollout changed since you opened it: {changed.join('; ')}. The page shows its current state{atGate ? ': review it and decide again.' : '.'}
          </Text>
        </Alert>
      ) : null}
      {refusal ? <ErrorDisplay title="Refused" error={refusal} /> : null}
      {atGate ? (
        <Card withBorder component="section" aria-labelledby="gate-title" style={{ borderColor: 'var(--mantine-color-yellow-filled)', borderWidth: 2 }}>
          <Stack gap="sm">
            <Title order={2} size="h4" id="gate-title">
              Waiting for your decision
            </Title>
            <Text size="sm">
              The canary {rollout.canary.instanceName} is synced. Check it in the app, read the evidence below, then proceed to sync the {rollout.targets.length} remaining{' '}
              {rollout.targets.length === 1 ? 'instance' : 'instances'}, or abort to leave them untouched.
            </Text>
            {evidence?.availability === 'unavailable' ? (
              <Text size="sm" fw={500}>
                The evidence is unavailable, so proceeding is refused: fix the cause shown below, then refresh the evidence.
              </Text>
            ) : null}
            <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="xs">
              <Button onClick={() => setPending({ action: 'proceed', seen: rollout })}>Proceed</Button>
              <Button color="red" variant="outline" onClick={() => setPending({ action: 'abort', seen: rollout })}>
                Abort
              </Button>
              <Button variant="default" loading={gate.isPending && gate.variables?.action === 'refresh-evidence'} onClick={() => decide('refresh-evidence', rollout)}>
                Refresh evidence
              </Button>
            </SimpleGrid>
          </Stack>
        </Card>
      ) : null}
      <Modal opened={pending !== null} onClose={() => setPending(null)} title={pending ? ACTIONS[pending.action].title(pending.seen) : ''} centered>
        {pending ? (
          <Stack>
            <Consequence action={pending.action} rollout={pending.seen} />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setPending(null)}>
                Cancel
              </Button>
              <Button color={ACTIONS[pending.action].color} loading={gate.isPending} onClick={() => decide(pending.action, pending.seen)}>
                {ACTIONS[pending.action].label}
              </Button>
            </Group>
          </Stack>
        ) : null}
      </Modal>
    </Stack>
  );
}
