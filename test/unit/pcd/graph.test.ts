import type Database from 'better-sqlite3';
import { buildGraph, DEFAULT_GRAPH_EDGE_CAP, replayPcd, type GraphEdge, type PcdGraph } from '../../../src/domain/pcd';
import { describeWithShared } from '../../helpers/shared-data';
import { sampleRepository, trashRepository, TRASH_PCD_PARTS } from './helpers';

const edgesBetween = (g: PcdGraph, from: string, to: string) => g.edges.filter((e) => e.from.name === from && e.to.name === to);
const strip = (e: GraphEdge) => ({ to: e.to.name, groupName: e.groupName, arrType: e.arrType });

describeWithShared(TRASH_PCD_PARTS, 'graph of trash-pcd', () => {
  let db: Database.Database;
  beforeAll(() => {
    db = replayPcd({ base: trashRepository().base }).resolved;
  });

  it('builds the full graph under the default cap', () => {
    const g = buildGraph(db);
    expect(g.truncated).toBe(false);
    expect(g.edges.length).toBeLessThan(DEFAULT_GRAPH_EDGE_CAP);
    expect(g.arrTypesPresent).toEqual(['movie_app', 'series_app', 'all']);
    expect(g.nodes.filter((n) => n.kind === 'custom_format')).toHaveLength(200);
    expect(g.nodes.filter((n) => n.kind === 'quality_profile')).toHaveLength(22);
    expect(g.edges.filter((e) => e.edgeKind === 'quality_profile_custom_format')).toHaveLength(1459);
    const av1 = g.nodes.find((n) => n.kind === 'custom_format' && n.name === 'AV1')!;
    expect(av1.routeId).toEqual(expect.any(Number));
    expect(av1.inDegree).toBe(db.prepare("SELECT COUNT(*) FROM quality_profile_custom_formats WHERE custom_format_name = 'AV1'").pluck().get());
    expect(av1.compatibleArrTypes).toBeUndefined();
    expect(g.nodes.find((n) => n.kind === 'quality' && n.name === 'CAM')).toMatchObject({ routeId: null, compatibleArrTypes: ['movie_app'] });
    expect(g.nodes.find((n) => n.kind === 'quality' && n.name === 'HDTV-480p')).toMatchObject({ compatibleArrTypes: [] });
  });

  it('scopes edges to the requested app plus all, without sibling fallback (hand-checked: AV1)', () => {
    // 1.initial.sql scores AV1 -10000 for radarr in "Remux + WEB 1080p"; op 12394 adds the sonarr score;
    // op 4731 widens the AV1 release_title condition from radarr to all.
    const series = buildGraph(db, { arrType: 'series_app', nodeKind: 'custom_format' });
    expect(edgesBetween(series, 'Remux + WEB 1080p', 'AV1').map((e) => ({ arrType: e.arrType, score: e.score, kind: e.edgeKind }))).toEqual([
      { arrType: 'series_app', score: -10000, kind: 'quality_profile_custom_format' },
    ]);
    expect(edgesBetween(series, 'AV1', 'AV1')).toEqual([
      { from: { kind: 'custom_format', name: 'AV1' }, to: { kind: 'regular_expression', name: 'AV1' }, edgeKind: 'custom_format_regular_expression', arrType: 'all', score: null, groupName: null },
    ]);
    expect(series.edges.some((e) => e.arrType === 'movie_app')).toBe(false);
    expect(series.arrTypesPresent).toEqual(['series_app', 'all']);
    expect(series.edges.every((e) => e.from.kind === 'custom_format' || e.to.kind === 'custom_format')).toBe(true);
    for (const e of series.edges) {
      expect(series.nodes.some((n) => n.kind === e.from.kind && n.name === e.from.name)).toBe(true);
      expect(series.nodes.some((n) => n.kind === e.to.kind && n.name === e.to.name)).toBe(true);
    }

    const movie = buildGraph(db, { arrType: 'movie_app', nodeKind: 'custom_format' });
    expect(edgesBetween(movie, 'Remux + WEB 1080p', 'AV1').map((e) => [e.arrType, e.score])).toEqual([['movie_app', -10000]]);
  });

  it('lists the enabled qualities of a profile (hand-checked: [Anime] Remux-1080p)', () => {
    const g = buildGraph(db, { arrType: 'series_app', nodeKind: 'quality_profile' });
    const anime = g.nodes.find((n) => n.kind === 'quality_profile' && n.name === '[Anime] Remux-1080p')!;
    expect(anime.compatibleArrTypes).toEqual(['movie_app', 'series_app']);
    const qualities = g.edges.filter((e) => e.from.name === '[Anime] Remux-1080p' && e.edgeKind === 'quality_profile_quality').map(strip);
    expect(qualities).toEqual(
      expect.arrayContaining([
        { to: 'Remux-1080p', groupName: 'Remux 1080p', arrType: 'all' },
        { to: 'Bluray-1080p', groupName: 'Remux 1080p', arrType: 'all' },
        { to: 'HDTV-1080p', groupName: 'WEB 1080p', arrType: 'all' },
        { to: 'WEBRip-1080p', groupName: 'WEB 1080p', arrType: 'all' },
        { to: 'WEBDL-1080p', groupName: 'WEB 1080p', arrType: 'all' },
        { to: 'Bluray-720p', groupName: null, arrType: 'all' },
        { to: 'HDTV-720p', groupName: 'WEB 720p', arrType: 'all' },
        { to: 'WEBRip-720p', groupName: 'WEB 720p', arrType: 'all' },
        { to: 'WEBDL-720p', groupName: 'WEB 720p', arrType: 'all' },
        { to: 'Bluray-576p', groupName: null, arrType: 'all' },
        { to: 'Bluray-480p', groupName: null, arrType: 'all' },
        { to: 'WEBRip-480p', groupName: 'WEB 480p', arrType: 'all' },
        { to: 'WEBDL-480p', groupName: 'WEB 480p', arrType: 'all' },
        { to: 'DVD', groupName: null, arrType: 'all' },
        { to: 'SDTV', groupName: null, arrType: 'all' },
      ]),
    );
    expect(qualities).toHaveLength(15);
    expect(g.nodes.filter((n) => n.kind === 'quality_profile')).toHaveLength(22);
    expect(g.edges.some((e) => e.edgeKind === 'custom_format_regular_expression')).toBe(false);
  });

  it('drops incompatible profiles for an app (no trash profile fits music_app)', () => {
    const g = buildGraph(db, { arrType: 'music_app' });
    expect(g.nodes.filter((n) => n.kind === 'quality_profile')).toEqual([]);
    expect(g.edges.every((e) => e.arrType === 'all' && e.edgeKind === 'custom_format_regular_expression')).toBe(true);
    expect(g.nodes.filter((n) => n.kind === 'quality').every((n) => n.compatibleArrTypes?.includes('music_app'))).toBe(true);
  });

  it('links quality definitions to their qualities per app', () => {
    const g = buildGraph(db, { nodeKind: 'quality_definition' });
    expect(g.nodes.filter((n) => n.kind === 'quality_definition').map((n) => n.name)).toEqual([
      'movie_app:Anime',
      'movie_app:Movie',
      'movie_app:SQP Streaming',
      'movie_app:SQP UHD',
      'series_app:Anime',
      'series_app:Series',
    ]);
    const movie = g.edges.filter((e) => e.from.name === 'movie_app:Movie');
    expect(movie.every((e) => e.arrType === 'movie_app' && e.edgeKind === 'quality_definition_quality')).toBe(true);
    expect(movie.map((e) => e.to.name)).toContain('Remux-2160p');
    expect(g.nodes.find((n) => n.name === 'movie_app:Movie')).toMatchObject({ routeId: null, inDegree: 0 });
  });

  it('caps the number of edges and says so', () => {
    const g = buildGraph(db, { maxEdges: 25 });
    expect(g.truncated).toBe(true);
    expect(g.edges).toHaveLength(25);
    expect(buildGraph(db, { nodeKind: 'quality_definition', maxEdges: 1000 }).truncated).toBe(false);
  });
});

describe('graph of the sample PCD', () => {
  const db = replayPcd({ base: sampleRepository().base }).resolved;

  it('derives profile compatibility from enabled qualities, not from scores', () => {
    const g = buildGraph(db, { nodeKind: 'quality_profile' });
    const compat = Object.fromEntries(g.nodes.filter((n) => n.kind === 'quality_profile').map((n) => [n.name, n.compatibleArrTypes]));
    // "Series 1080p" scores formats for 'all' and sonarr only, but every enabled quality exists in Radarr too.
    expect(compat).toEqual({ 'Movies 1080p': ['movie_app'], 'Music Lossless': ['music_app'], 'Series 1080p': ['movie_app', 'series_app'] });
    const music = buildGraph(db, { arrType: 'music_app', nodeKind: 'quality_profile' });
    expect(music.nodes.filter((n) => n.kind === 'quality_profile').map((n) => n.name)).toEqual(['Music Lossless']);
    expect(music.edges.filter((e) => e.edgeKind === 'quality_profile_custom_format').map((e) => [e.to.name, e.arrType, e.score])).toEqual([
      ['FLAC 24bit', 'music_app', 100],
      ['Music Groups', 'music_app', 20],
      ['Vinyl', 'music_app', -50],
    ]);
  });

  it('rejects unknown filters', () => {
    expect(() => buildGraph(db, { arrType: 'tv' })).toThrow('arrType: must be one of movie_app, series_app, music_app, all');
    expect(() => buildGraph(db, { nodeKind: 'tag' })).toThrow(/nodeKind: must be one of/);
  });

  it('names the entity behind each node, so a node can be opened (a quality is not an entity)', () => {
    const g = buildGraph(db);
    const entityOf = (kind: string, name: string) => g.nodes.find((n) => n.kind === kind && n.name === name)?.entity;
    expect(entityOf('quality_profile', 'Movies 1080p')).toEqual({ portableType: 'quality_profile', name: 'Movies 1080p' });
    expect(entityOf('custom_format', 'FLAC 24bit')).toEqual({ portableType: 'custom_format', name: 'FLAC 24bit' });
    expect(entityOf('regular_expression', 'Atmos')).toEqual({ portableType: 'regular_expression', name: 'Atmos' });
    expect(entityOf('quality_definition', 'movie_app:Movie Sizes')).toEqual({ portableType: 'movie_app_quality_definitions', name: 'Movie Sizes' });
    expect(entityOf('quality', 'Bluray-1080p')).toBeNull();
    for (const n of g.nodes) expect(n.entity === null).toBe(n.kind === 'quality');
  });

  it('keeps only all-scoped edges for arrType all', () => {
    const g = buildGraph(db, { arrType: 'all' });
    expect(g.arrTypesPresent).toEqual(['all']);
  });
});
