import { Badge } from '@mantine/core';

// Colours only: the statuses and their meaning are the API's. A status not listed here is grey.
const COLORS: Record<string, string> = {
  // good
  'in-sync': 'green',
  healthy: 'green',
  success: 'green',
  verified: 'green',
  completed: 'green',
  ready: 'green',
  applied: 'green',
  enabled: 'green',
  delivered: 'green',
  // look at it
  drifted: 'yellow',
  attention: 'yellow',
  partial: 'yellow',
  degraded: 'yellow',
  retrying: 'yellow',
  awaiting_confirmation: 'yellow',
  'needs-review': 'orange',
  unverified: 'orange',
  // broken
  failed: 'red',
  error: 'red',
  unreachable: 'red',
  unauthorized: 'red',
  aborted: 'red',
  unhealthy: 'red',
  // in progress
  running: 'blue',
  canary_running: 'blue',
  rolling_out: 'blue',
  building: 'blue',
  pending: 'blue',
  generating: 'blue',
  applying: 'blue',
};

/** A status word as a coloured badge; the text stays the API's word (readable without colour), never cut short by a narrow table column. */
export function StatusBadge({ status, label }: { status: string | null | undefined; label?: string }) {
  const value = status ?? 'none';
  return (
    <Badge color={COLORS[value] ?? 'gray'} variant="dot" radius="sm" size="md" style={{ textTransform: 'none', minWidth: 'max-content' }}>
      {label ?? value.replace(/_/g, ' ')}
    </Badge>
  );
}
