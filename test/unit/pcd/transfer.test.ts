import { AppError } from '../../../src/errors';
import {
  entityNames,
  exportEntity,
  modelOf,
  planImport,
  PORTABLE_TYPES,
  replayPcd,
  replayUserLayer,
  type PortableType,
  type ReplayedPcd,
  type UserOp,
} from '../../../src/domain/pcd';
import { describeWithShared } from '../../helpers/shared-data';
import { sampleRepository, trashRepository, TRASH_PCD_PARTS } from './helpers';

function appError(fn: () => unknown): AppError {
  try {
    fn();
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error('expected an AppError');
}

/** Imports a renamed copy of every entity of `types` into an empty user layer and re-exports it. */
function roundTrip(replay: ReplayedPcd, types: readonly PortableType[]) {
  const ops: UserOp[] = [];
  const pairs: { type: PortableType; name: string; copy: string; exported: Record<string, unknown> }[] = [];
  for (const type of types) {
    for (const name of entityNames(replay.resolved, type)) {
      const exported = exportEntity(replay.resolved, type, name);
      expect(exported.entityType).toBe(type);
      const copy = `${name} (copy)`;
      const planned = planImport(replay.resolved, { entityType: type, data: { ...exported.data, name: copy } });
      expect(planned.target).toEqual({ portableType: type, name: copy });
      ops.push({ id: ops.length + 1, sql: planned.sql, target: planned.target });
      pairs.push({ type, name, copy, exported: exported.data });
    }
  }
  const user = replayUserLayer(replay.base, ops);
  return { user, pairs };
}

describe('export and import (sample PCD)', () => {
  const repo = sampleRepository();
  const replay = replayPcd({ base: repo.base, tweaks: repo.tweaks });

  it('the sample has at least one entity of every portable type', () => {
    for (const type of PORTABLE_TYPES) expect({ type, n: entityNames(replay.resolved, type).length > 0 }).toEqual({ type, n: true });
  });

  it('round-trips every entity of every portable type through an empty user layer', () => {
    const { user, pairs } = roundTrip(replay, PORTABLE_TYPES);
    expect(user.outcomes.filter((o) => o.status === 'failed')).toEqual([]);
    for (const p of pairs) {
      const again = exportEntity(user.resolved, p.type, p.copy).data;
      expect({ type: p.type, data: { ...again, name: p.name } }).toEqual({ type: p.type, data: p.exported });
    }
  });

  it('round-trips self-contained entities into a database that has none', () => {
    const empty = replayPcd({ base: [] });
    const types = PORTABLE_TYPES.filter((t) => !['custom_format', 'quality_profile'].includes(t));
    const ops: UserOp[] = [];
    for (const type of types) {
      for (const name of entityNames(replay.resolved, type)) {
        const planned = planImport(empty.resolved, exportEntity(replay.resolved, type, name));
        ops.push({ id: ops.length + 1, sql: planned.sql, target: planned.target });
      }
    }
    const user = replayUserLayer(empty.base, ops);
    expect(user.outcomes.every((o) => o.status === 'applied')).toBe(true);
    // The same portable entities; ids are each database's own.
    const portable = (db: typeof replay.resolved, type: PortableType, name: string) => ({ ...exportEntity(db, type, name), id: undefined });
    for (const type of types) {
      for (const name of entityNames(replay.resolved, type)) expect(portable(user.resolved, type, name)).toEqual(portable(replay.resolved, type, name));
    }
  });

  it("exports the entity's id in its database beside the data, which carries none", () => {
    const formats = entityNames(replay.resolved, 'custom_format');
    const exported = formats.map((name) => exportEntity(replay.resolved, 'custom_format', name));
    for (const [i, e] of exported.entries()) {
      expect(e.id).toBe((replay.resolved.prepare('SELECT id FROM custom_formats WHERE name = ?').get(formats[i]) as { id: number }).id);
      expect(e.data).not.toHaveProperty('id');
    }
    expect(new Set(exported.map((e) => e.id)).size).toBe(formats.length);
    expect(exportEntity(replay.resolved, 'music_app_quality_definitions', 'Music Sizes').id).toBeNull();
  });

  it('exports the documented portable shapes', () => {
    expect(exportEntity(replay.resolved, 'custom_format', 'Remux Tier').data).toEqual({
      name: 'Remux Tier',
      description: null,
      includeInRename: false,
      tags: [],
      conditions: [
        { name: 'Remux', type: 'quality_modifier', arrType: 'movie_app', negate: false, required: true, qualityModifier: 'remux' },
        { name: 'Big', type: 'size', arrType: 'movie_app', negate: false, required: false, minBytes: 20000000000, maxBytes: null },
      ],
      tests: [],
    });
    const qp = exportEntity(replay.resolved, 'quality_profile', 'Music Lossless').data;
    expect(qp).toEqual({
      name: 'Music Lossless',
      description: 'Lossless audio only',
      upgradesAllowed: true,
      minimumCustomFormatScore: 0,
      upgradeUntilScore: 300,
      upgradeScoreIncrement: 1,
      tags: ['Music'],
      languages: [],
      qualities: [
        { type: 'quality', name: 'FLAC 24bit', enabled: true, upgradeUntil: false },
        { type: 'group', name: 'Lossless', enabled: true, upgradeUntil: true, members: ['FLAC', 'ALAC'] },
        { type: 'quality', name: 'MP3-320', enabled: false, upgradeUntil: false },
      ],
      customFormats: {
        all: [],
        movie_app: [],
        series_app: [],
        music_app: [
          { name: 'FLAC 24bit', score: 100 },
          { name: 'Music Groups', score: 20 },
          { name: 'Vinyl', score: -50 },
        ],
      },
    });
    expect(exportEntity(replay.resolved, 'music_app_naming', 'Standard').data).toMatchObject({ rename: true, colonReplacementFormat: 1, replaceIllegalCharacters: true });
    expect(exportEntity(replay.resolved, 'delay_profile', 'Standard').data).toEqual({
      name: 'Standard',
      preferredProtocol: 'prefer_usenet',
      usenetDelay: 0,
      torrentDelay: 120,
      bypassIfHighestQuality: true,
      bypassIfAboveCustomFormatScore: false,
      minimumCustomFormatScore: null,
    });
    expect(exportEntity(replay.resolved, 'music_app_quality_definitions', 'Music Sizes').data).toEqual({
      name: 'Music Sizes',
      entries: [
        { quality: 'MP3-320', minSize: 0, maxSize: 350, preferredSize: 320 },
        { quality: 'ALAC', minSize: 0, maxSize: 1400, preferredSize: 1000 },
        { quality: 'FLAC', minSize: 0, maxSize: 1400, preferredSize: 1000 },
        { quality: 'FLAC 24bit', minSize: 0, maxSize: 2900, preferredSize: 2000 },
      ],
    });
    const mp = exportEntity(replay.resolved, 'music_app_metadata_profile', 'Studio Albums').data as Record<string, { name: string }[]>;
    expect(mp.primaryAlbumTypes.map((t) => t.name)).toEqual(['Album', 'EP', 'Single', 'Broadcast', 'Other']);
    expect(mp.releaseStatuses).toHaveLength(4);
  });

  it('rejects an existing name with a validation error', () => {
    for (const type of PORTABLE_TYPES) {
      const name = entityNames(replay.resolved, type)[0];
      const e = appError(() => planImport(replay.resolved, exportEntity(replay.resolved, type, name)));
      expect({ kind: e.kind, status: e.status }).toEqual({ kind: 'validation', status: 400 });
      expect(e.publicMessage).toBe(`name: ${type} "${name}" already exists`);
    }
  });

  it('rejects unknown types, missing entities and references to missing entities', () => {
    expect(appError(() => planImport(replay.resolved, { entityType: 'movie_app_profile', data: {} })).publicMessage).toMatch(/unknown portable entity type/);
    expect(appError(() => exportEntity(replay.resolved, 'custom_format', 'Nope')).kind).toBe('not_found');
    const cf = exportEntity(replay.resolved, 'custom_format', 'Atmos').data as { conditions: { regularExpression?: string }[] };
    cf.conditions[0].regularExpression = 'Missing Regex';
    const e = appError(() => planImport(replay.resolved, { entityType: 'custom_format', data: { ...cf, name: 'Atmos 2' } }));
    expect(e.publicMessage).toContain('conditions.Atmos.regularExpression: regular expression "Missing Regex" does not exist');
    const qp = exportEntity(replay.resolved, 'quality_profile', 'Series 1080p').data as { qualities: { name: string }[] };
    qp.qualities[0].name = 'Bluray-9000p';
    expect(appError(() => planImport(replay.resolved, { entityType: 'quality_profile', data: { ...qp, name: 'X' } })).publicMessage).toContain(
      'qualities.Bluray-9000p: quality "Bluray-9000p" does not exist',
    );
  });

  it('validates payloads with messages naming the field', () => {
    const cf = exportEntity(replay.resolved, 'custom_format', 'Atmos').data;
    const msg = (data: unknown, type: PortableType = 'custom_format') => appError(() => planImport(replay.resolved, { entityType: type, data })).publicMessage;
    expect(msg({ ...cf, name: 'N', includeInRename: 'yes' })).toContain('includeInRename: Expected boolean, received string');
    expect(msg({ ...cf, name: 'N', colour: 'red' })).toContain('colour: unsupported field');
    const { description: _d, ...noDescription } = cf;
    expect(msg({ ...noDescription, name: 'N' })).toContain('description: required field is missing');
    expect(msg({ ...cf, name: 'N', conditions: [{ name: 'S', type: 'source', arrType: 'music_app', negate: false, required: true, source: 'web_dl' }] })).toContain(
      'conditions.S.type: source conditions are not supported by music_app',
    );
    expect(msg('not an object')).toBe('data: must be an object');
  });

  it('validates migration metadata: all three keys when supplied', () => {
    const data = { ...exportEntity(replay.resolved, 'regular_expression', 'Atmos').data, name: 'Atmos (migrated)' };
    expect(planImport(replay.resolved, { entityType: 'regular_expression', data, migration: { format: 'json', version: 1, source: 'profilarr' } }).sql).toContain(
      'Atmos (migrated)',
    );
    expect(appError(() => planImport(replay.resolved, { entityType: 'regular_expression', data, migration: { format: 'json', source: 'x' } })).publicMessage).toBe(
      'migration.version: required field is missing',
    );
    expect(appError(() => planImport(replay.resolved, { entityType: 'regular_expression', data, migration: { format: 'xml', version: 1, source: 'x' } })).publicMessage).toMatch(
      /^migration\.format: /,
    );
    expect(appError(() => planImport(replay.resolved, { entityType: 'regular_expression', data, migration: { format: 'json', version: 1.5, source: 'x' } })).publicMessage).toMatch(
      /^migration\.version: /,
    );
  });
});

describe('music-app payloads fail fast', () => {
  const repo = sampleRepository();
  const replay = replayPcd({ base: repo.base, tweaks: repo.tweaks });
  const naming: Record<string, unknown> = { ...exportEntity(replay.resolved, 'music_app_naming', 'Standard').data, name: 'New' };
  const series = { ...exportEntity(replay.resolved, 'series_app_naming', 'Standard').data, name: 'New' };
  const msg = (entityType: PortableType, data: unknown) => appError(() => planImport(replay.resolved, { entityType, data })).publicMessage;

  it('rejects fields of another family mixed in', () => {
    expect(msg('music_app_naming', { ...naming, standardEpisodeFormat: 'x' })).toBe(
      'invalid music_app_naming data: standardEpisodeFormat: belongs to series_app_naming and cannot be mixed into music_app_naming',
    );
    expect(msg('music_app_naming', { ...naming, movieFormat: 'x' })).toContain('movieFormat: belongs to movie_app_naming');
  });

  it('requires music_app_* entity types for music entities', () => {
    expect(msg('series_app_naming', { ...series, standardTrackFormat: 'x' })).toContain(
      'standardTrackFormat: belongs to music_app_naming; music entities must use music_app_* entity types',
    );
    const defs = exportEntity(replay.resolved, 'music_app_quality_definitions', 'Music Sizes').data;
    expect(msg('movie_app_quality_definitions', { ...defs, name: 'X' })).toContain('"MP3-320" is not a movie_app quality');
  });

  it('rejects missing required fields and unsupported fields', () => {
    const { artistFolderFormat: _a, ...missing } = naming;
    expect(msg('music_app_naming', missing)).toBe('invalid music_app_naming data: artistFolderFormat: required field is missing');
    expect(msg('music_app_naming', { ...naming, albumFolderFormat: 'x' })).toBe('invalid music_app_naming data: albumFolderFormat: unsupported field');
    expect(msg('music_app_naming', { ...naming, colonReplacementFormat: 7 })).toMatch(/^invalid music_app_naming data: colonReplacementFormat: /);
    const defs = exportEntity(replay.resolved, 'music_app_quality_definitions', 'Music Sizes').data as { entries: unknown[] };
    expect(msg('music_app_quality_definitions', { ...defs, name: 'X', entries: [{ quality: 'Bluray-1080p', minSize: 1, maxSize: 2, preferredSize: 2 }] })).toBe(
      'invalid music_app_quality_definitions data: entries.0.quality: "Bluray-1080p" is not a music_app quality',
    );
  });

  it('reports only the first problem of a music payload', () => {
    const { artistFolderFormat: _a, standardTrackFormat: _s, ...twoMissing } = naming;
    const m = msg('music_app_naming', { ...twoMissing, extra: 1 });
    expect(m.split(';')).toHaveLength(1);
  });

  it('validates metadata profiles against Lidarr types', () => {
    const mp = exportEntity(replay.resolved, 'music_app_metadata_profile', 'Studio Albums').data as Record<string, unknown> & { primaryAlbumTypes: unknown[] };
    expect(msg('music_app_metadata_profile', { ...mp, name: 'None' })).toContain('name: the name "None" is reserved by Lidarr');
    expect(msg('music_app_metadata_profile', { ...mp, name: 'X', primaryAlbumTypes: mp.primaryAlbumTypes.slice(1) })).toContain('primaryAlbumTypes: missing "Album"');
    expect(msg('music_app_metadata_profile', { ...mp, name: 'X', primaryAlbumTypes: [{ name: 'Mixtape', allowed: true }] })).toMatch(/primaryAlbumTypes\.0\.name/);
  });
});

describeWithShared(TRASH_PCD_PARTS, 'export and import (trash-pcd)', () => {
  let replay: ReplayedPcd;
  beforeAll(() => {
    replay = replayPcd({ base: trashRepository().base });
  });

  it('round-trips every custom format, quality profile and regular expression', () => {
    const types: PortableType[] = ['custom_format', 'quality_profile', 'regular_expression', 'movie_app_quality_definitions', 'series_app_naming'];
    const { user, pairs } = roundTrip(replay, types);
    expect(user.outcomes.filter((o) => o.status === 'failed')).toEqual([]);
    expect(pairs.filter((p) => p.type === 'custom_format')).toHaveLength(200);
    expect(pairs.filter((p) => p.type === 'quality_profile')).toHaveLength(22);
    for (const p of pairs) {
      const again = exportEntity(user.resolved, p.type, p.copy).data;
      if (JSON.stringify({ ...again, name: p.name }) !== JSON.stringify(p.exported)) {
        expect({ type: p.type, name: p.name, data: { ...again, name: p.name } }).toEqual({ type: p.type, name: p.name, data: p.exported });
      }
    }
  });

  it('uses the canonical names and per-arrType scores of real profiles', () => {
    const qp = exportEntity(replay.resolved, 'quality_profile', '[Anime] Remux-1080p').data as {
      qualities: { name: string; type: string; members?: string[] }[];
      customFormats: Record<string, { name: string; score: number }[]>;
    };
    expect(qp.qualities.slice(0, 2)).toEqual([
      { type: 'group', name: 'Remux 1080p', enabled: true, upgradeUntil: true, members: ['Remux-1080p', 'Bluray-1080p'] },
      { type: 'group', name: 'WEB 1080p', enabled: true, upgradeUntil: false, members: ['HDTV-1080p', 'WEBRip-1080p', 'WEBDL-1080p'] },
    ]);
    expect(qp.customFormats.movie_app.find((c) => c.name === 'AV1')).toEqual({ name: 'AV1', score: -10000 });
    expect(qp.customFormats.series_app.find((c) => c.name === 'AV1')).toEqual({ name: 'AV1', score: -10000 });
    expect(modelOf('quality_profile').diffOptions.arrays?.qualities).toEqual({ key: 'name', ordered: true });
  });
});
