/**
 * Dependency graph of a replayed PCD (GET /pcd/{id}/graph), computed on demand, read-only.
 *
 * Edges point from referrer to dependency:
 * - quality_profile -> custom_format (a score row; arrType of the score, score set),
 * - custom_format -> regular_expression (a pattern condition; arrType of the condition),
 * - quality_profile -> quality (an enabled quality of the profile, directly or as a member of an
 *   enabled group, groupName set; arrType 'all': profile quality rows are shared by every app),
 * - quality_definition -> quality (a size row; arrType of the definition's app).
 *
 * Profile compatibility (compatibleArrTypes) is derived from the profile's enabled qualities: an
 * app is compatible when every enabled quality has a quality_api_mapping for it. Scores never make
 * a profile compatible. Filtering by an app keeps edges scoped to that app or to 'all' and drops
 * incompatible profiles; there is no fallback from one app to a sibling.
 */
import type Database from 'better-sqlite3';
import { validationError } from '../../errors';
import { ARR_TYPES, fromPcdArrType, isArrType, toPcdArrType, type ArrType, type ArrTypeOrAll } from '../arr-types';
import type { PortableType } from './entities/types';

export const GRAPH_NODE_KINDS = ['custom_format', 'regular_expression', 'quality_profile', 'quality', 'quality_definition'] as const;
export type GraphNodeKind = (typeof GRAPH_NODE_KINDS)[number];

export const GRAPH_EDGE_KINDS = [
  'quality_profile_custom_format',
  'custom_format_regular_expression',
  'quality_profile_quality',
  'quality_definition_quality',
] as const;
export type GraphEdgeKind = (typeof GRAPH_EDGE_KINDS)[number];

/** Default server-side edge cap. */
export const DEFAULT_GRAPH_EDGE_CAP = 5000;

export interface GraphNodeRef {
  kind: GraphNodeKind;
  name: string;
}

/** The PCD entity a node stands for, as the entity reads and edits name it. */
export interface GraphNodeEntity {
  portableType: PortableType;
  name: string;
}

export interface GraphNode extends GraphNodeRef {
  /** Database id of the entity; null for quality and quality_definition nodes. */
  routeId: number | null;
  /** Null for quality nodes: a quality is a fixed name of the apps, not an entity of the database. */
  entity: GraphNodeEntity | null;
  inDegree: number;
  outDegree: number;
  /** Only on quality_profile and quality nodes. */
  compatibleArrTypes?: ArrType[] | null;
}

export interface GraphEdge {
  from: GraphNodeRef;
  to: GraphNodeRef;
  edgeKind: GraphEdgeKind;
  arrType: ArrTypeOrAll;
  /** Only on quality_profile_custom_format edges; null elsewhere. */
  score: number | null;
  /** Only on quality_profile_quality edges to a group member; null elsewhere. */
  groupName: string | null;
}

export interface PcdGraph {
  nodes: GraphNode[];
  edges: GraphEdge[];
  arrTypesPresent: ArrTypeOrAll[];
  truncated: boolean;
}

export interface GraphOptions {
  arrType?: string | null;
  nodeKind?: string | null;
  /** Edge cap; default DEFAULT_GRAPH_EDGE_CAP. */
  maxEdges?: number;
}

/** Node name of a quality definition set: `<family>:<name>` (names repeat across apps). */
export function qualityDefinitionNodeName(family: ArrType, name: string): string {
  return `${family}:${name}`;
}

/** Quality definition nodes name their entity themselves (the node name carries the family). */
const ENTITY_TYPES: Partial<Record<GraphNodeKind, PortableType>> = {
  custom_format: 'custom_format',
  regular_expression: 'regular_expression',
  quality_profile: 'quality_profile',
};

const entityOf = (kind: GraphNodeKind, name: string): GraphNodeEntity | null => {
  const portableType = ENTITY_TYPES[kind];
  return portableType ? { portableType, name } : null;
};

const nodeId = (r: GraphNodeRef) => `${r.kind}\u0000${r.name}`;
const ARR_ORDER: ArrTypeOrAll[] = [...ARR_TYPES, 'all'];

function compatibility(enabledQualities: string[], mappings: Map<string, Set<ArrType>>): ArrType[] {
  if (enabledQualities.length === 0) return [];
  return ARR_TYPES.filter((app) => enabledQualities.every((q) => mappings.get(q)?.has(app)));
}

/** Builds the graph; throws AppError('validation') for an unknown arrType or nodeKind. */
export function buildGraph(db: Database.Database, options: GraphOptions = {}): PcdGraph {
  const arrType = options.arrType ?? null;
  if (arrType !== null && arrType !== 'all' && !isArrType(arrType)) {
    throw validationError('arrType: must be one of movie_app, series_app, music_app, all');
  }
  const nodeKind = options.nodeKind ?? null;
  if (nodeKind !== null && !(GRAPH_NODE_KINDS as readonly string[]).includes(nodeKind)) {
    throw validationError(`nodeKind: must be one of ${GRAPH_NODE_KINDS.join(', ')}`);
  }
  const cap = options.maxEdges ?? DEFAULT_GRAPH_EDGE_CAP;

  const nodes = new Map<string, GraphNode>();
  const add = (kind: GraphNodeKind, name: string, routeId: number | null, compatibleArrTypes?: ArrType[], entity = entityOf(kind, name)) => {
    const n: GraphNode = { kind, name, routeId, entity, inDegree: 0, outDegree: 0 };
    if (compatibleArrTypes !== undefined) n.compatibleArrTypes = compatibleArrTypes;
    nodes.set(nodeId(n), n);
  };

  const mappings = new Map<string, Set<ArrType>>();
  for (const r of db.prepare('SELECT quality_name AS q, arr_type AS a FROM quality_api_mappings').all() as { q: string; a: string }[]) {
    const app = fromPcdArrType(r.a);
    if (app === null || app === 'all') continue;
    if (!mappings.has(r.q)) mappings.set(r.q, new Set());
    mappings.get(r.q)!.add(app);
  }
  for (const r of db.prepare('SELECT name FROM qualities ORDER BY id').all() as { name: string }[]) {
    add('quality', r.name, null, ARR_TYPES.filter((a) => mappings.get(r.name)?.has(a)));
  }
  for (const r of db.prepare('SELECT id, name FROM custom_formats').all() as { id: number; name: string }[]) add('custom_format', r.name, r.id);
  for (const r of db.prepare('SELECT id, name FROM regular_expressions').all() as { id: number; name: string }[]) add('regular_expression', r.name, r.id);

  const edges: GraphEdge[] = [];
  const edge = (from: GraphNodeRef, to: GraphNodeRef, edgeKind: GraphEdgeKind, arr: ArrTypeOrAll, score: number | null = null, groupName: string | null = null) =>
    edges.push({ from, to, edgeKind, arrType: arr, score, groupName });

  // Profiles and their enabled qualities.
  const items = db
    .prepare(
      `SELECT i.quality_profile_name AS qp, i.quality_name AS q, i.quality_group_name AS g, m.quality_name AS member
         FROM quality_profile_qualities i
         LEFT JOIN quality_group_members m
           ON m.quality_profile_name = i.quality_profile_name AND m.quality_group_name = i.quality_group_name
        WHERE i.enabled = 1
        ORDER BY i.quality_profile_name, i.position, m.position`,
    )
    .all() as { qp: string; q: string | null; g: string | null; member: string | null }[];
  const enabledByProfile = new Map<string, { quality: string; group: string | null }[]>();
  for (const r of items) {
    const quality = r.q ?? r.member;
    if (quality === null) continue;
    if (!enabledByProfile.has(r.qp)) enabledByProfile.set(r.qp, []);
    enabledByProfile.get(r.qp)!.push({ quality, group: r.q === null ? r.g : null });
  }
  const profileCompat = new Map<string, ArrType[]>();
  for (const r of db.prepare('SELECT id, name FROM quality_profiles').all() as { id: number; name: string }[]) {
    const enabled = enabledByProfile.get(r.name) ?? [];
    const compat = compatibility(
      enabled.map((e) => e.quality),
      mappings,
    );
    profileCompat.set(r.name, compat);
    add('quality_profile', r.name, r.id, compat);
    for (const e of enabled) edge({ kind: 'quality_profile', name: r.name }, { kind: 'quality', name: e.quality }, 'quality_profile_quality', 'all', null, e.group);
  }

  for (const r of db
    .prepare('SELECT quality_profile_name AS qp, custom_format_name AS cf, arr_type AS a, score FROM quality_profile_custom_formats')
    .all() as { qp: string; cf: string; a: string; score: number }[]) {
    const scope = fromPcdArrType(r.a);
    if (scope === null) continue;
    edge({ kind: 'quality_profile', name: r.qp }, { kind: 'custom_format', name: r.cf }, 'quality_profile_custom_format', scope, r.score);
  }

  for (const r of db
    .prepare(
      `SELECT DISTINCT c.custom_format_name AS cf, p.regular_expression_name AS re, c.arr_type AS a
         FROM custom_format_conditions c
         JOIN condition_patterns p ON p.custom_format_name = c.custom_format_name AND p.condition_name = c.name`,
    )
    .all() as { cf: string; re: string; a: string }[]) {
    const scope = fromPcdArrType(r.a);
    if (scope === null) continue;
    edge({ kind: 'custom_format', name: r.cf }, { kind: 'regular_expression', name: r.re }, 'custom_format_regular_expression', scope);
  }

  for (const family of ARR_TYPES) {
    const table = `${toPcdArrType(family)}_quality_definitions`;
    for (const r of db.prepare(`SELECT name, quality_name AS q FROM "${table}" ORDER BY name`).all() as { name: string; q: string }[]) {
      const qd = qualityDefinitionNodeName(family, r.name);
      if (!nodes.has(nodeId({ kind: 'quality_definition', name: qd }))) add('quality_definition', qd, null, undefined, { portableType: `${family}_quality_definitions`, name: r.name });
      edge({ kind: 'quality_definition', name: qd }, { kind: 'quality', name: r.q }, 'quality_definition_quality', family);
    }
  }

  // Filter by app family.
  let kept = edges;
  if (arrType === 'all') {
    kept = edges.filter((e) => e.arrType === 'all');
  } else if (arrType !== null) {
    const app = arrType as ArrType;
    for (const [name, compat] of profileCompat) if (!compat.includes(app)) nodes.delete(nodeId({ kind: 'quality_profile', name }));
    for (const n of [...nodes.values()]) {
      if (n.kind === 'quality_definition' && !n.name.startsWith(`${app}:`)) nodes.delete(nodeId(n));
    }
    kept = edges.filter((e) => (e.arrType === app || e.arrType === 'all') && nodes.has(nodeId(e.from)) && nodes.has(nodeId(e.to)));
    const touched = new Set(kept.flatMap((e) => [nodeId(e.from), nodeId(e.to)]));
    for (const n of [...nodes.values()]) {
      if (n.kind === 'quality' && !n.compatibleArrTypes?.includes(app) && !touched.has(nodeId(n))) nodes.delete(nodeId(n));
    }
  }
  kept = kept.filter((e) => nodes.has(nodeId(e.from)) && nodes.has(nodeId(e.to)));
  for (const e of kept) {
    nodes.get(nodeId(e.from))!.outDegree++;
    nodes.get(nodeId(e.to))!.inDegree++;
  }

  // Focus on one node kind: its nodes, their edges, and the nodes at the other end.
  let resultNodes = [...nodes.values()];
  if (nodeKind !== null) {
    kept = kept.filter((e) => e.from.kind === nodeKind || e.to.kind === nodeKind);
    const ends = new Set(kept.flatMap((e) => [nodeId(e.from), nodeId(e.to)]));
    resultNodes = resultNodes.filter((n) => n.kind === nodeKind || ends.has(nodeId(n)));
  }

  const kindOrder = (k: string) => (GRAPH_NODE_KINDS as readonly string[]).indexOf(k);
  const edgeOrder = (k: string) => (GRAPH_EDGE_KINDS as readonly string[]).indexOf(k);
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  resultNodes.sort((a, b) => kindOrder(a.kind) - kindOrder(b.kind) || cmp(a.name, b.name));
  kept.sort(
    (a, b) =>
      edgeOrder(a.edgeKind) - edgeOrder(b.edgeKind) ||
      cmp(a.from.name, b.from.name) ||
      cmp(a.to.name, b.to.name) ||
      ARR_ORDER.indexOf(a.arrType) - ARR_ORDER.indexOf(b.arrType),
  );
  const truncated = kept.length > cap;
  if (truncated) kept = kept.slice(0, cap);
  const present = new Set(kept.map((e) => e.arrType));
  return { nodes: resultNodes, edges: kept, arrTypesPresent: ARR_ORDER.filter((a) => present.has(a)), truncated };
}

/** Compatible app families of every quality profile (basis: enabled qualities). */
export function profileCompatibility(db: Database.Database): { name: string; compatibleArrTypes: ArrType[]; basis: 'enabled-qualities' }[] {
  const graph = buildGraph(db, { nodeKind: 'quality_profile', maxEdges: Number.MAX_SAFE_INTEGER });
  return graph.nodes
    .filter((n) => n.kind === 'quality_profile')
    .map((n) => ({ name: n.name, compatibleArrTypes: n.compatibleArrTypes ?? [], basis: 'enabled-qualities' as const }));
}
