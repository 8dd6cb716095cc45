import { Badge, List, Stack, Text } from '@mantine/core';
import type { SyncHistoryItem } from '../../api/types';
import { plural } from './labels';

type RunVerification = NonNullable<SyncHistoryItem['verification']>;

/** A written or stored value as the list shows it (null: no limit, or nothing). */
const valueText = (value: unknown) => (value === null || value === undefined ? 'none' : typeof value === 'string' ? value : JSON.stringify(value));

/** Mismatches listed under the summary; the rest are counted. */
const LISTED = 5;

function headline(verification: RunVerification): { text: string; color: string } {
  if (verification.status === 'verified') return { text: 'Verified', color: 'green' };
  if (verification.status === 'skipped') return { text: 'Nothing to verify', color: 'gray' };
  if (verification.unreadable) return { text: 'Could not be read back', color: 'orange' };
  return { text: `${plural(verification.mismatches.length, 'field')} did not land`, color: 'orange' };
}

/**
 * What reading the run's writes back found (the API's `verification`): "Verified", or the fields
 * the app accepted but did not store. `compact` (the history table) lists fewer words per field.
 */
export function VerificationSummary({ verification, compact = false }: { verification: SyncHistoryItem['verification']; compact?: boolean }) {
  if (!verification) return <Text size="sm">{compact ? '–' : 'Not verified (the apply did not complete, or ran before verification)'}</Text>;
  const { text, color } = headline(verification);
  const listed = verification.mismatches.slice(0, LISTED);
  const more = verification.mismatches.length - listed.length;
  return (
    <Stack gap={4} aria-label="Verification">
      <Badge color={color} variant="light" w="fit-content">
        {text}
      </Badge>
      {listed.length > 0 ? (
        <List size="xs" spacing={0}>
          {listed.map((m) => (
            <List.Item key={`${m.stepId}:${m.name}:${m.path}`}>
              {m.name} {m.path || '(missing)'}
              {compact ? null : `: wrote ${valueText(m.expected)}, the app kept ${valueText(m.actual)}`}
            </List.Item>
          ))}
          {more > 0 ? <List.Item>and {more} more</List.Item> : null}
        </List>
      ) : null}
      {!compact && verification.status !== 'skipped' ? (
        <Text size="xs" c="dimmed">
          {verification.checked === 1 ? '1 entity' : `${verification.checked} entities`} read back after the apply.
        </Text>
      ) : null}
    </Stack>
  );
}
