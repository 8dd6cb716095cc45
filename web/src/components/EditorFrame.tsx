import { Button, Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { ErrorDisplay } from './ErrorDisplay';
import { UnsavedChangesGuard } from './UnsavedChangesGuard';

interface EditorFrameProps {
  /** What is edited, for the buttons' accessible names ("Save Atmos"). */
  name: string;
  dirty: boolean;
  saving: boolean;
  /** The last save's refusal (the API's message), if any. */
  error: unknown;
  onSave: () => void;
  onDiscard: () => void;
  children: ReactNode;
}

/**
 * The frame every entity editor shares: its fields, then Save and Discard, the API's refusal, and
 * the guard that asks before leaving with unsaved changes. Saving writes value-guarded user ops.
 */
export function EditorFrame({ name, dirty, saving, error, onSave, onDiscard, children }: EditorFrameProps) {
  return (
    <Stack gap="md">
      <UnsavedChangesGuard dirty={dirty} what={`the unsaved changes to ${name}`} />
      {children}
      {error ? <ErrorDisplay error={error} title="Not saved" /> : null}
      <Group justify="space-between" wrap="wrap">
        <Text size="sm" c="dimmed" aria-live="polite">
          {dirty ? 'Unsaved changes' : 'No unsaved changes'}
        </Text>
        <Group gap="xs">
          <Button variant="default" disabled={!dirty || saving} onClick={onDiscard} aria-label={`Discard changes to ${name}`}>
            Discard
          </Button>
          <Button disabled={!dirty} loading={saving} onClick={onSave} aria-label={`Save ${name}`}>
            Save
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}
