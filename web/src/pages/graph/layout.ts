// The graph page's layout, kept apart from React so a bench can time it alone: dagre's layered
// layout, left to right (profiles, then formats and qualities, then regular expressions), turned
// into the nodes and edges @xyflow/react draws. Also the focus on one node.
import dagre from '@dagrejs/dagre';
import type { Edge, Node } from '@xyflow/react';
// Types straight from the generated client, so the layout also loads outside the browser (a bench, a unit test).
import type { components } from '../../../../src/client';

type PcdGraph = components['schemas']['PcdGraph'];
type GraphNode = PcdGraph['nodes'][number];
type GraphEdge = PcdGraph['edges'][number];

export const NODE_WIDTH = 240;
export const NODE_HEIGHT = 52;

export interface GraphNodeData extends Record<string, unknown> {
  node: GraphNode;
}

export interface GraphEdgeData extends Record<string, unknown> {
  edge: GraphEdge;
}

export type FlowNode = Node<GraphNodeData, 'entity'>;
export type FlowEdge = Edge<GraphEdgeData>;

export interface LaidOutGraph {
  nodes: FlowNode[];
  edges: FlowEdge[];
}

type GraphPart = Pick<PcdGraph, 'nodes' | 'edges'>;
type NodeRef = { kind: string; name: string };

/** A node's id in the drawing (and the focus search parameter): kind and name are unique together. */
export const nodeKey = (ref: NodeRef) => `${ref.kind}:${ref.name}`;

/** An edge's id: the API may give two edges between the same nodes (one per app family). */
const edgeKey = (edge: GraphEdge) => `${nodeKey(edge.from)}->${nodeKey(edge.to)}@${edge.arrType}`;

const GAP = 16;

/**
 * Lays the graph out left to right: each node's position, each edge with its score as its label.
 * Nodes without a link (a quality no profile enables) would stack up in the first layer: they are
 * set out in rows under the layered part instead.
 */
export function layoutGraph(graph: GraphPart): LaidOutGraph {
  const linked = new Set(graph.edges.flatMap((e) => [nodeKey(e.from), nodeKey(e.to)]));
  // React Flow draws the edges itself, so dagre needs one edge per pair of nodes (the API may give one
  // per app family). tight-tree ranks keep each kind in its column; network-simplex and dagre's
  // optimal-order pass gave the same columns about 14x and 4x slower on trash-pcd's movie graph
  // (1,105 linked nodes, 2,334 edges: about 2.5 s in Node against 35 s and 10 s).
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: 'LR', nodesep: 12, ranksep: 160, marginx: GAP, marginy: GAP, ranker: 'tight-tree' });
  g.setDefaultEdgeLabel(() => ({}));
  for (const node of graph.nodes) if (linked.has(nodeKey(node))) g.setNode(nodeKey(node), { width: NODE_WIDTH, height: NODE_HEIGHT });
  for (const edge of graph.edges) g.setEdge(nodeKey(edge.from), nodeKey(edge.to));
  dagre.layout(g, { disableOptimalOrderHeuristic: true });
  const { width = 0, height = 0 } = g.graph();
  const columns = Math.max(4, Math.floor(width / (NODE_WIDTH + GAP)));
  let unlinked = 0;
  const position = (key: string) => {
    if (linked.has(key)) {
      // dagre gives centres; the drawing places nodes by their top-left corner.
      const { x, y } = g.node(key);
      return { x: x - NODE_WIDTH / 2, y: y - NODE_HEIGHT / 2 };
    }
    const i = unlinked++;
    return { x: GAP + (i % columns) * (NODE_WIDTH + GAP), y: height + GAP + Math.floor(i / columns) * (NODE_HEIGHT + GAP) };
  };
  const nodes = graph.nodes.map(
    (node): FlowNode => ({
      id: nodeKey(node),
      type: 'entity',
      position: position(nodeKey(node)),
      data: { node },
      ariaLabel: `${node.name} (${node.kind.replaceAll('_', ' ')})`,
      draggable: false,
      connectable: false,
    }),
  );
  const edges = graph.edges.map(
    (edge): FlowEdge => ({
      id: edgeKey(edge),
      source: nodeKey(edge.from),
      target: nodeKey(edge.to),
      data: { edge },
      label: edge.score === null ? undefined : String(edge.score),
      ariaLabel: `${edge.from.name} to ${edge.to.name}${edge.score === null ? '' : `, score ${edge.score}`}`,
      focusable: false,
      selectable: false,
    }),
  );
  return { nodes, edges };
}

/**
 * One node and what is around it: the edges into and out of it, and the edges out of its
 * dependencies (a profile, its formats and their regular expressions; a format, the profiles
 * scoring it and its regular expressions).
 */
export function focusGraph(graph: GraphPart, key: string): GraphPart {
  const outOfFocus = graph.edges.filter((e) => nodeKey(e.from) === key);
  const dependencies = new Set(outOfFocus.map((e) => nodeKey(e.to)));
  const edges = graph.edges.filter((e) => nodeKey(e.from) === key || nodeKey(e.to) === key || dependencies.has(nodeKey(e.from)));
  const kept = new Set([key, ...edges.flatMap((e) => [nodeKey(e.from), nodeKey(e.to)])]);
  return { nodes: graph.nodes.filter((n) => kept.has(nodeKey(n))), edges };
}
