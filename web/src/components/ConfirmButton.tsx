import { Button, Group, Modal, Stack, Text, type ButtonProps } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { ReactNode } from 'react';

interface ConfirmButtonProps extends ButtonProps {
  /** The button's text, also the confirming button's. */
  children: string;
  title: string;
  /** What will happen, in words. */
  message: ReactNode;
  onConfirm: () => Promise<unknown> | void;
  loading?: boolean;
}

/** A button that asks first, stating what will happen. */
export function ConfirmButton({ children, title, message, onConfirm, loading, ...button }: ConfirmButtonProps) {
  const [opened, { open, close }] = useDisclosure(false);
  return (
    <>
      <Button {...button} onClick={open}>
        {children}
      </Button>
      <Modal opened={opened} onClose={close} title={title} centered>
        <Stack>
          <Text size="sm">{message}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button
              color={button.color ?? 'red'}
              loading={loading}
              onClick={async () => {
                await onConfirm();
                close();
              }}
            >
              {children}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
