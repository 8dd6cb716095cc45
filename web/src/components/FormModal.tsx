import { Button, Group, Modal, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { ErrorDisplay } from './ErrorDisplay';

interface FormModalProps {
  title: string;
  opened: boolean;
  onClose: () => void;
  onSubmit: () => void;
  /** The submit button's text. */
  submitLabel: string;
  loading: boolean;
  /** The last refusal, shown as the API words it, under `errorTitle`. */
  error: unknown;
  errorTitle: string;
  children: ReactNode;
}

/** A small form in a dialog: its fields, the API's refusal, Cancel and the submit button. */
export function FormModal({ title, opened, onClose, onSubmit, submitLabel, loading, error, errorTitle, children }: FormModalProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          onSubmit();
        }}
      >
        <Stack>
          {children}
          {error ? <ErrorDisplay error={error} title={errorTitle} /> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={loading}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
