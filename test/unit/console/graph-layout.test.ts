import { buildGraph, replayPcd } from '../../../src/domain/pcd';
import { focusGraph, layoutGraph, nodeKey, NODE_HEIGHT, NODE_WIDTH } from '../../../web/src/pages/graph/layout';
import { describeWithShared } from '../../helpers/shared-data';
import { sampleRepository, trashRepository, TRASH_PCD_PARTS } from '../pcd/helpers';

const graph = buildGraph(replayPcd({ base: sampleRepository().base }).resolved);
const PROFILE = 'quality_profile:Movies 1080p';

describe('graph layout (the graph page)', () => {
  const laidOut = layoutGraph(graph);
  const at = new Map(laidOut.nodes.map((n) => [n.id, n.position]));

  it('lays every node and edge out once, edges labelled with their score', () => {
    expect(laidOut.nodes.map((n) => n.id).sort()).toEqual(graph.nodes.map(nodeKey).sort());
    expect(new Set(laidOut.edges.map((e) => e.id)).size).toBe(graph.edges.length);
    const scored = laidOut.edges.find((e) => e.data!.edge.edgeKind === 'quality_profile_custom_format')!;
    expect(scored.label).toBe(String(scored.data!.edge.score));
    expect(laidOut.edges.find((e) => e.data!.edge.edgeKind === 'custom_format_regular_expression')!.label).toBeUndefined();
  });

  it('runs left to right: every referrer left of its dependency (profiles, formats, regular expressions)', () => {
    for (const edge of laidOut.edges) expect(at.get(edge.source)!.x + NODE_WIDTH).toBeLessThan(at.get(edge.target)!.x);
  });

  it('sets nodes without a link out in rows under the layered part, without overlaps', () => {
    const linked = new Set(graph.edges.flatMap((e) => [nodeKey(e.from), nodeKey(e.to)]));
    const unlinked = laidOut.nodes.filter((n) => !linked.has(n.id));
    expect(unlinked.length).toBeGreaterThan(0);
    const bottom = Math.max(...laidOut.nodes.filter((n) => linked.has(n.id)).map((n) => n.position.y + NODE_HEIGHT));
    for (const n of unlinked) expect(n.position.y).toBeGreaterThan(bottom);
    const boxes = laidOut.nodes.map((n) => n.position);
    const overlaps = boxes.flatMap((a, i) => boxes.slice(i + 1).filter((b) => Math.abs(a.x - b.x) < NODE_WIDTH && Math.abs(a.y - b.y) < NODE_HEIGHT));
    expect(overlaps).toEqual([]);
  });

  it("focuses on a profile: its formats and their regular expressions, its qualities, nothing else", () => {
    const focused = focusGraph(graph, PROFILE);
    const formats = graph.edges.filter((e) => nodeKey(e.from) === PROFILE && e.to.kind === 'custom_format').map((e) => nodeKey(e.to));
    expect(formats.length).toBeGreaterThan(0);
    const regexes = graph.edges.filter((e) => formats.includes(nodeKey(e.from))).map((e) => nodeKey(e.to));
    const qualities = graph.edges.filter((e) => nodeKey(e.from) === PROFILE && e.to.kind === 'quality').map((e) => nodeKey(e.to));
    expect(focused.nodes.map(nodeKey).sort()).toEqual([...new Set([PROFILE, ...formats, ...regexes, ...qualities])].sort());
    expect(focused.nodes.some((n) => n.kind === 'quality_profile' && nodeKey(n) !== PROFILE)).toBe(false);
  });
});

describeWithShared(TRASH_PCD_PARTS, 'graph layout of trash-pcd movie profiles', () => {
  it('lays the whole movie graph out, left to right', () => {
    const movie = buildGraph(replayPcd({ base: trashRepository().base }).resolved, { arrType: 'movie_app' });
    const laidOut = layoutGraph(movie);
    expect(laidOut.nodes).toHaveLength(movie.nodes.length);
    const at = new Map(laidOut.nodes.map((n) => [n.id, n.position]));
    const backwards = laidOut.edges.filter((e) => at.get(e.source)!.x >= at.get(e.target)!.x);
    expect(backwards).toEqual([]);
  }, 60_000);
});
