import { Badge, Button, Group, Popover, Stack, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import type { LineageEntry } from '../../../api/pcd';
import { Facts } from '../../../components/Facts';

const LAYER_COLOR: Record<string, string> = { user: 'grape', base: 'blue', tweaks: 'teal', schema: 'gray' };

/** The short inline word: which layer set the value (or why none can be named). */
export function lineageLabel(entry: LineageEntry): string {
  if (entry.status === 'ambiguous') return 'conflict';
  if (entry.status === 'unavailable' || !entry.sourceLayer) return 'unknown';
  if (entry.sourceKind === 'schema-default') return 'schema default';
  return entry.sourceLayer;
}

function opText(entry: LineageEntry): string {
  if (entry.opId !== null) return `op ${entry.opId}`;
  if (entry.fileOp) return `${entry.fileOp.file}, op ${entry.fileOp.position}`;
  return 'none';
}

const STATUS_TEXT: Record<LineageEntry['status'], string> = {
  resolved: 'resolved: one op established the value',
  ambiguous: 'withheld: a pending conflict on this entity makes the source uncertain',
  unavailable: 'unavailable: no op could be traced for this value',
};

/**
 * Lineage of one field, inline: a badge with the layer (op or schema default beside it), and a
 * button opening the detail (status, op, whether the op named the column, schema default).
 */
export function LineageBadge({ entry }: { entry: LineageEntry }) {
  const label = lineageLabel(entry);
  // The popover is mounted only while open (a profile has hundreds of fields, each with this
  // button); the button is mounted anew when it opens and closes, so focus is put back on it when
  // the detail closes with nothing else focused (Escape, or a click on no control).
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(false);
  useEffect(() => {
    if (wasOpen.current && !open && (document.activeElement === document.body || document.activeElement === null)) buttonRef.current?.focus();
    wasOpen.current = open;
  }, [open]);
  const button = (
    <Button ref={buttonRef} variant="subtle" size="compact-xs" aria-label={`Lineage of ${entry.path}`} aria-expanded={open} aria-haspopup="dialog" onClick={() => setOpen((o) => !o)}>
      Detail
    </Button>
  );
  return (
    <Group gap={6} wrap="nowrap">
      <Badge variant="light" color={entry.status === 'ambiguous' ? 'orange' : (LAYER_COLOR[entry.sourceLayer ?? ''] ?? 'gray')} data-testid="lineage-layer">
        {label}
      </Badge>
      {entry.opId !== null ? (
        <Text size="xs" c="dimmed">
          op {entry.opId}
        </Text>
      ) : null}
      {entry.isSchemaDefault && entry.sourceKind !== 'schema-default' ? (
        <Text size="xs" c="dimmed">
          = default
        </Text>
      ) : null}
      {open ? (
        // No transition: the detail is read (and scanned) the moment it opens.
        <Popover opened onChange={setOpen} onClose={() => setOpen(false)} width={320} position="bottom-start" withArrow shadow="md" trapFocus transitionProps={{ duration: 0 }}>
          <Popover.Target>{button}</Popover.Target>
          <Popover.Dropdown>
            <Stack gap="xs">
              <Text size="sm" fw={600}>
                {entry.path}
              </Text>
              <Facts
                items={[
                  ['Status', STATUS_TEXT[entry.status]],
                  ['Layer', entry.sourceLayer ?? 'none'],
                  ['Set by', entry.sourceKind === 'schema-default' ? 'the schema default (no op wrote it)' : opText(entry)],
                  ['Named explicitly', entry.explicit ? 'yes: the op names this column' : 'no'],
                  ['Schema default', entry.isSchemaDefault ? 'the value equals the schema default' : 'no'],
                ]}
              />
            </Stack>
          </Popover.Dropdown>
        </Popover>
      ) : (
        button
      )}
    </Group>
  );
}
