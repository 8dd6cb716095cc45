import '@xyflow/react/dist/style.css';
import { Alert, Anchor, Box, Button, Group, Select, Stack, Table, Text, Title, useComputedColorScheme } from '@mantine/core';
import { Background, Controls, ReactFlow, type NodeMouseHandler } from '@xyflow/react';
import { useMemo, type KeyboardEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { useDependencyGraph, type ArrTypeOrAll, type GraphEdge, type GraphNode, type GraphNodeKind, type GraphQuery, type PcdGraph } from '../../api/graph';
import { entityPath } from '../../api/pcd';
import { APP_LABELS, ARR_TYPE_OPTIONS } from '../../api/types';
import { useSearchParamPicks } from '../../app/search-params';
import { useDatabaseParam } from '../../components/DatabaseSelect';
import { PageHeader } from '../../components/PageHeader';
import { Empty, QueryState } from '../../components/QueryState';
import { FocusContext, GraphNodeCard, KIND_LABELS } from './GraphNodeCard';
import { focusGraph, layoutGraph, nodeKey } from './layout';

const NODE_TYPES = { entity: GraphNodeCard };

const FAMILY_OPTIONS = [...ARR_TYPE_OPTIONS, { value: 'all', label: 'Shared by every app (all)' }];
const KIND_OPTIONS = (Object.keys(KIND_LABELS) as GraphNodeKind[]).map((value) => ({ value, label: KIND_LABELS[value].label }));

const familyLabel = (arrType: ArrTypeOrAll) => (arrType === 'all' ? 'every app' : APP_LABELS[arrType]);

/** The focus picker: every node by kind, searchable. */
function focusOptions(graph: PcdGraph) {
  return (Object.keys(KIND_LABELS) as GraphNodeKind[])
    .map((kind) => ({ group: KIND_LABELS[kind].label, items: graph.nodes.filter((n) => n.kind === kind).map((n) => ({ value: nodeKey(n), label: n.name })) }))
    .filter((group) => group.items.length > 0);
}

interface LinksProps {
  databaseId: number;
  focused: GraphNode;
  edges: GraphEdge[];
  nodes: Map<string, GraphNode>;
  onFocus: (key: string) => void;
}

/** The accessible alternative to the drawing: the focused node's links, each opening its entity. */
function LinksTable({ databaseId, focused, edges, nodes, onFocus }: LinksProps) {
  const key = nodeKey(focused);
  const rows = edges.filter((e) => nodeKey(e.from) === key || nodeKey(e.to) === key);
  return (
    <Stack gap="xs" component="section" aria-labelledby="graph-links-title">
      <Title order={2} size="h4" id="graph-links-title">
        Links of {focused.name}
      </Title>
      <Text size="sm" c="dimmed">
        {KIND_LABELS[focused.kind].label}
        {focused.entity ? (
          <>
            {' · '}
            <Anchor component={Link} to={entityPath(databaseId, focused.entity.portableType, focused.entity.name)}>
              Open {focused.name}
            </Anchor>
          </>
        ) : null}
      </Text>
      {rows.length === 0 ? (
        <Text size="sm">No links under these filters.</Text>
      ) : (
        <Table.ScrollContainer minWidth={480}>
          <Table striped aria-labelledby="graph-links-title">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Link</Table.Th>
                <Table.Th scope="col">Kind</Table.Th>
                <Table.Th scope="col">Name</Table.Th>
                <Table.Th scope="col">Score</Table.Th>
                <Table.Th scope="col">App family</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((edge) => {
                const uses = nodeKey(edge.from) === key;
                const other = nodes.get(nodeKey(uses ? edge.to : edge.from));
                if (!other) return null;
                return (
                  <Table.Tr key={`${nodeKey(edge.from)}->${nodeKey(edge.to)}@${edge.arrType}`}>
                    <Table.Td>{uses ? 'uses' : 'used by'}</Table.Td>
                    <Table.Td>{KIND_LABELS[other.kind].label}</Table.Td>
                    <Table.Td>
                      {other.entity ? (
                        <Anchor component={Link} to={entityPath(databaseId, other.entity.portableType, other.entity.name)}>
                          {other.name}
                        </Anchor>
                      ) : (
                        <Anchor component="button" type="button" onClick={() => onFocus(nodeKey(other))}>
                          {other.name}
                        </Anchor>
                      )}
                      {edge.groupName ? (
                        <Text span size="xs" c="dimmed">
                          {' '}
                          (in group {edge.groupName})
                        </Text>
                      ) : null}
                    </Table.Td>
                    <Table.Td>{edge.score ?? '–'}</Table.Td>
                    <Table.Td>{familyLabel(edge.arrType)}</Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}

/** The drawing: laid out by dagre (timed as the arrgo:graph-layout measure), drawn by React Flow. */
function GraphDrawing({ graph, open }: { graph: Pick<PcdGraph, 'nodes' | 'edges'>; open: (node: GraphNode) => void }) {
  const colorMode = useComputedColorScheme('dark');
  const laidOut = useMemo(() => {
    const start = performance.now();
    const result = layoutGraph(graph);
    performance.measure('arrgo:graph-layout', { start, detail: { nodes: graph.nodes.length, edges: graph.edges.length } });
    return result;
  }, [graph]);
  const onNodeClick: NodeMouseHandler = (_event, node) => open(laidOut.nodes.find((n) => n.id === node.id)!.data.node);
  // Enter on a focused node opens it (React Flow's own handling selects it; its keys reach the wrapper).
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const target = event.target as HTMLElement;
    if (event.key !== 'Enter' || !target.classList.contains('react-flow__node')) return;
    const node = laidOut.nodes.find((n) => n.id === target.dataset.id);
    if (node) open(node.data.node);
  };
  return (
    <Box h="min(70vh, 720px)" mih={360} bd="1px solid var(--mantine-color-default-border)" style={{ borderRadius: 8 }} data-testid="graph-drawing" data-nodes={graph.nodes.length} data-edges={graph.edges.length}>
      <ReactFlow
        nodes={laidOut.nodes}
        edges={laidOut.edges}
        nodeTypes={NODE_TYPES}
        colorMode={colorMode}
        onNodeClick={onNodeClick}
        onKeyDown={onKeyDown}
        nodesDraggable={false}
        nodesConnectable={false}
        edgesFocusable={false}
        onlyRenderVisibleElements
        fitView
        fitViewOptions={{ maxZoom: 1.5 }}
        minZoom={0.01}
        aria-label="Dependency graph"
      >
        <Background />
        <Controls showInteractive={false} />
      </ReactFlow>
    </Box>
  );
}

/** The dependency graph of a database: profiles to formats to regular expressions, and profiles to qualities. */
export function GraphPage() {
  const [params, set] = useSearchParamPicks();
  const navigate = useNavigate();
  const { databaseId, select: databaseSelect } = useDatabaseParam(['focus']);
  const arrType = (params.get('arrType') || null) as GraphQuery['arrType'] | null;
  const nodeKind = (params.get('nodeKind') || null) as GraphNodeKind | null;
  const focus = params.get('focus');
  const graph = useDependencyGraph(databaseId, { ...(arrType ? { arrType } : {}), ...(nodeKind ? { nodeKind } : {}) });
  const setFocus = (key: string | null) => set({ focus: key });
  const open = (node: GraphNode) => {
    if (node.entity && databaseId !== null) void navigate(entityPath(databaseId, node.entity.portableType, node.entity.name));
    else setFocus(nodeKey(node));
  };
  const shown = useMemo(() => {
    if (!graph.data) return null;
    const focused = focus ? graph.data.nodes.find((n) => nodeKey(n) === focus) : undefined;
    return { focused, part: focused ? focusGraph(graph.data, focus!) : graph.data, nodes: new Map(graph.data.nodes.map((n) => [nodeKey(n), n])) };
  }, [graph.data, focus]);

  return (
    <>
      <PageHeader title="Graph" description="What depends on what in a database: quality profiles to their custom formats and qualities, custom formats to their regular expressions. Click a node (or press Enter on it) to open it." />
      <Stack gap="md">
        <Group gap="sm" align="flex-end" wrap="wrap">
          {databaseSelect}
          <Select label="App family" placeholder="Every family" data={FAMILY_OPTIONS} value={arrType} onChange={(value) => set({ arrType: value })} clearable w={240} />
          <Select label="Node kind" placeholder="Every kind" data={KIND_OPTIONS} value={nodeKind} onChange={(value) => set({ nodeKind: value })} clearable w={200} />
          <Select
            label="Focus on"
            placeholder="Nothing (the whole graph)"
            data={graph.data ? focusOptions(graph.data) : []}
            value={shown?.focused ? focus : null}
            onChange={setFocus}
            searchable
            clearable
            limit={100}
            w={280}
          />
          {focus ? (
            <Button variant="default" onClick={() => setFocus(null)}>
              Show the whole graph
            </Button>
          ) : null}
        </Group>
        {databaseId === null ? (
          <Empty title="No database" description="Link a configuration database to see its graph." />
        ) : (
          <QueryState query={graph} loadingLabel="Loading the graph" isEmpty={(data) => data.nodes.length === 0} empty={<Empty title="Nothing to draw" description="No node matches these filters." />}>
            {(data) => (
              <Stack gap="sm">
                <Text size="sm" role="note">
                  {shown!.part.nodes.length} nodes, {shown!.part.edges.length} edges
                  {shown!.focused ? ` around ${shown!.focused.name}` : ''}
                  {data.arrTypesPresent.length ? ` · app families: ${data.arrTypesPresent.map(familyLabel).join(', ')}` : ''}
                </Text>
                {data.truncated ? (
                  <Alert color="yellow" title="The graph is cut short">
                    The API gives at most {data.edges.length} edges and this graph has more: narrow it with the app family or node kind filters.
                  </Alert>
                ) : null}
                {data.cacheStatus !== 'ready' ? (
                  <Alert color="orange" title="The state is incomplete">
                    Some operations of this database failed ({data.cacheStatus}); the graph shows what the others built.
                  </Alert>
                ) : null}
                <FocusContext.Provider value={setFocus}>
                  {/* A new view (filters, focus) is drawn afresh, so it is fitted to the frame. */}
                  <GraphDrawing key={params.toString()} graph={shown!.part} open={open} />
                </FocusContext.Provider>
                {shown!.focused ? (
                  <LinksTable databaseId={databaseId} focused={shown!.focused} edges={shown!.part.edges} nodes={shown!.nodes} onFocus={setFocus} />
                ) : (
                  <Text size="sm" c="dimmed">
                    Focus on a node (its ◎ button, or the Focus on picker) to list its links in a table.
                  </Text>
                )}
              </Stack>
            )}
          </QueryState>
        )}
      </Stack>
    </>
  );
}
