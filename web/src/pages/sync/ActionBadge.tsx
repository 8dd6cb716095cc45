import { Badge } from '@mantine/core';
import { ACTION_COLORS, type Action } from './labels';

/** What a sync does to an entity, as a coloured badge (the word is the API's). */
export function ActionBadge({ action }: { action: Action }) {
  return (
    <Badge color={ACTION_COLORS[action]} variant="light" radius="sm" style={{ textTransform: 'none' }}>
      {action}
    </Badge>
  );
}
