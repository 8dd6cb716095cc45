import { Card, Progress, Stack, Text, Timeline, Title } from '@mantine/core';
import type { DatabasePullState } from '../../api/types';

const STEPS = [
  { phase: 'fetching', title: 'Fetch the source', doing: 'Fetching the repository or reading the directory' },
  { phase: 'importing', title: 'Import the ops', doing: 'Storing the new schema, base and tweak ops' },
  { phase: 'replaying', title: 'Replay', doing: 'Replaying every op into the cache' },
] as const;

/** Index of the step running; past the last once the pull is done. */
function stepIndex(phase: DatabasePullState['phase']): number {
  if (phase === 'done') return STEPS.length;
  const at = STEPS.findIndex((step) => step.phase === phase);
  return at < 0 ? 0 : at;
}

/** A running pull, step by step: the steps behind it with what they found, and the one running. */
export function PullProgress({ name, state }: { name: string; state: DatabasePullState | undefined }) {
  const active = stepIndex(state?.phase ?? null);
  return (
    <Card withBorder component="section" aria-label={`Pull of ${name}`}>
      <Stack gap="sm">
        <Title order={2} size="h4">
          Pulling {name}
        </Title>
        <Timeline active={active} bulletSize={18} lineWidth={2}>
          {STEPS.map((step, i) => (
            <Timeline.Item key={step.phase} title={step.title}>
              <Text size="sm" c="dimmed">
                {i < active ? doneText(step.phase, state) : i === active ? step.doing : 'Waiting'}
              </Text>
              {i === active ? <Progress value={100} striped animated mt={4} aria-label={`${step.title}: in progress`} /> : null}
            </Timeline.Item>
          ))}
        </Timeline>
      </Stack>
    </Card>
  );
}

function doneText(phase: (typeof STEPS)[number]['phase'], state: DatabasePullState | undefined): string {
  if (phase === 'fetching') return state?.commit ? `Done: at commit ${state.commit.slice(0, 10)}` : 'Done';
  if (phase === 'importing') return state?.inserted !== null && state?.inserted !== undefined ? `Done: ${state.inserted} new ops, ${state.removed ?? 0} removed` : 'Done';
  return 'Done';
}
