import { ActionIcon, Box, Group, Text } from '@mantine/core';
import { Handle, Position, type NodeProps } from '@xyflow/react';
import { createContext, memo, useContext } from 'react';
import type { GraphNodeKind } from '../../api/graph';
import { nodeKey, NODE_HEIGHT, NODE_WIDTH, type FlowNode } from './layout';

/** Each node kind in words and a colour (typed by the API's kinds: a new kind needs its words here). */
export const KIND_LABELS: Record<GraphNodeKind, { label: string; color: string }> = {
  quality_profile: { label: 'Quality profile', color: 'blue' },
  custom_format: { label: 'Custom format', color: 'grape' },
  regular_expression: { label: 'Regular expression', color: 'teal' },
  quality: { label: 'Quality', color: 'gray' },
  quality_definition: { label: 'Quality definitions', color: 'orange' },
};

/** What a node's focus button does: the page keeps the focus in its URL. */
export const FocusContext = createContext<(key: string) => void>(() => undefined);

/** One node: its kind, its name, and a button focusing the graph on it (its links). */
export const GraphNodeCard = memo(function GraphNodeCard({ data }: NodeProps<FlowNode>) {
  const focus = useContext(FocusContext);
  const { node } = data;
  const kind = KIND_LABELS[node.kind];
  return (
    <Box
      w={NODE_WIDTH}
      h={NODE_HEIGHT}
      px="xs"
      bd={`2px solid var(--mantine-color-${kind.color}-6)`}
      bg="var(--mantine-color-body)"
      style={{ borderRadius: 6, cursor: node.entity ? 'pointer' : 'default', display: 'flex', alignItems: 'center' }}
    >
      <Handle type="target" position={Position.Left} isConnectable={false} />
      <Group gap={4} wrap="nowrap" w="100%" justify="space-between">
        <Box miw={0}>
          <Text size="xs" c="dimmed" lh={1.2}>
            {kind.label}
          </Text>
          <Text size="sm" fw={500} truncate="end" lh={1.3} title={node.name}>
            {node.name}
          </Text>
        </Box>
        {node.inDegree + node.outDegree > 0 ? (
          <ActionIcon
            className="nodrag nopan"
            variant="subtle"
            size="sm"
            aria-label={`Focus on ${kind.label.toLowerCase()} ${node.name}`}
            onClick={(event) => {
              event.stopPropagation();
              focus(nodeKey(node));
            }}
          >
            <span aria-hidden="true">◎</span>
          </ActionIcon>
        ) : null}
      </Group>
      <Handle type="source" position={Position.Right} isConnectable={false} />
    </Box>
  );
});
