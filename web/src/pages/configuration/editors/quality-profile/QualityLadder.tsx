import { closestCenter, DndContext, KeyboardSensor, PointerSensor, useSensor, useSensors, type Announcements, type DragEndEvent } from '@dnd-kit/core';
import { arrayMove, SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { ActionIcon, Badge, Checkbox, Group, Paper, Radio, Stack, Text } from '@mantine/core';
import type { QualityItem } from './model';

interface LadderProps {
  profileName: string;
  items: QualityItem[];
  onChange: (items: QualityItem[]) => void;
}

const position = (items: QualityItem[], id: string | number) => items.findIndex((i) => i.name === id) + 1;

/**
 * The profile's qualities and groups, most preferred first. Reordered by dragging a handle (mouse,
 * touch, or the keyboard: Space picks up, arrows move, Space drops, Escape cancels) or with the
 * Move up / Move down buttons; each item can be allowed, and one allowed item is the upgrade-until
 * quality (the cutoff).
 */
export function QualityLadder({ profileName, items, onChange }: LadderProps) {
  const sensors = useSensors(useSensor(PointerSensor), useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }));
  const move = (from: number, to: number) => onChange(arrayMove(items, from, to));
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (over && active.id !== over.id) move(position(items, active.id) - 1, position(items, over.id) - 1);
  };
  const announcements: Announcements = {
    onDragStart: ({ active }) => `Picked up ${active.id}, position ${position(items, active.id)} of ${items.length}.`,
    // Over itself (where it was picked up) says nothing new.
    onDragOver: ({ active, over }) =>
      !over ? `${active.id} is not over the list.` : over.id === active.id ? undefined : `${active.id} is over position ${position(items, over.id)} of ${items.length}.`,
    onDragEnd: ({ active, over }) => (over ? `${active.id} dropped at position ${position(items, over.id)} of ${items.length}.` : `${active.id} dropped.`),
    onDragCancel: ({ active }) => `Moving ${active.id} was cancelled.`,
  };
  const set = (name: string, change: Partial<QualityItem>) => onChange(items.map((i) => (i.name === name ? { ...i, ...change } : i)));
  const setCutoff = (name: string) => onChange(items.map((i) => ({ ...i, upgradeUntil: i.name === name })));
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={onDragEnd}
      accessibility={{
        announcements,
        screenReaderInstructions: { draggable: 'To move a quality, press Space, then the arrow keys; Space again drops it, Escape cancels.' },
      }}
    >
      <SortableContext items={items.map((i) => i.name)} strategy={verticalListSortingStrategy}>
        <Stack component="ol" gap={4} p={0} m={0} aria-label={`Qualities of ${profileName}, most preferred first`} style={{ listStyle: 'none' }}>
          {items.map((item, index) => (
            <LadderRow
              key={item.name}
              item={item}
              first={index === 0}
              last={index === items.length - 1}
              onMoveUp={() => move(index, index - 1)}
              onMoveDown={() => move(index, index + 1)}
              onAllow={(enabled) => set(item.name, enabled ? { enabled } : { enabled, upgradeUntil: false })}
              onCutoff={() => setCutoff(item.name)}
            />
          ))}
        </Stack>
      </SortableContext>
    </DndContext>
  );
}

interface RowProps {
  item: QualityItem;
  first: boolean;
  last: boolean;
  onMoveUp: () => void;
  onMoveDown: () => void;
  onAllow: (enabled: boolean) => void;
  onCutoff: () => void;
}

function LadderRow({ item, first, last, onMoveUp, onMoveDown, onAllow, onCutoff }: RowProps) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: item.name });
  return (
    <Paper
      component="li"
      ref={setNodeRef}
      withBorder
      p={6}
      aria-label={item.name}
      style={{ transform: CSS.Transform.toString(transform), transition, opacity: isDragging ? 0.6 : 1, position: 'relative', zIndex: isDragging ? 1 : undefined }}
    >
      <Group gap="sm" wrap="wrap" justify="space-between">
        <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
          <ActionIcon variant="subtle" ref={setActivatorNodeRef} {...attributes} {...listeners} aria-label={`Drag ${item.name}`} style={{ cursor: 'grab', touchAction: 'none' }}>
            <Text aria-hidden size="lg" lh={1}>
              ⠿
            </Text>
          </ActionIcon>
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Group gap={6} wrap="nowrap">
              <Text fw={500} truncate>
                {item.name}
              </Text>
              {item.type === 'group' ? (
                <Badge size="xs" variant="light">
                  group
                </Badge>
              ) : null}
            </Group>
            {item.members ? (
              <Text size="xs" c="dimmed">
                {item.members.join(', ')}
              </Text>
            ) : null}
          </Stack>
        </Group>
        <Group gap="xs" wrap="nowrap">
          <Checkbox label="Allowed" aria-label={`Allow ${item.name}`} checked={item.enabled} onChange={(event) => onAllow(event.currentTarget.checked)} />
          <Radio
            name="upgrade-until"
            label="Upgrade until"
            aria-label={`Upgrade until ${item.name}`}
            value={item.name}
            checked={item.upgradeUntil}
            disabled={!item.enabled}
            onChange={onCutoff}
          />
          <ActionIcon variant="default" disabled={first} onClick={onMoveUp} aria-label={`Move ${item.name} up`}>
            <Text aria-hidden size="sm">
              ↑
            </Text>
          </ActionIcon>
          <ActionIcon variant="default" disabled={last} onClick={onMoveDown} aria-label={`Move ${item.name} down`}>
            <Text aria-hidden size="sm">
              ↓
            </Text>
          </ActionIcon>
        </Group>
      </Group>
    </Paper>
  );
}
