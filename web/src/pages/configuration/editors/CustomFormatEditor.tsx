import { Text } from '@mantine/core';
import type { EditorProps } from './types';

// Placeholder until its editor is built (issue 27).
export function CustomFormatEditor(_props: EditorProps) {
  return <Text>This editor is being built.</Text>;
}
