import fs from 'node:fs';
import path from 'node:path';
import { loadPcdRepository, replayPcd, type ReplayedPcd } from '../../../src/domain/pcd';
import { createLogger } from '../../../src/platform/logger';
import type { PcdCache } from '../../../src/services/pcd/cache-manager';
import { EvaluationService } from '../../../src/services/evaluation/evaluation-service';
import { subjectKey } from '../../../src/domain/evaluation';
import { loadReleaseParser } from '../../../src/services/evaluation/parser-loader';
import { describeWithShared, sharedPath } from '../../helpers/shared-data';

const SAMPLE_PCD_DIR = path.resolve(__dirname, '..', '..', '..', 'examples', 'sample-pcd');

const logger = createLogger({ level: 'fatal', stdout: false });

function cacheState(replay: ReplayedPcd): PcdCache {
  const memos = new Map<string, unknown>();
  return {
    databaseId: 1,
    resolved: replay.resolved,
    memo<T>(key: string, compute: () => T): T {
      if (!memos.has(key)) memos.set(key, compute());
      return memos.get(key) as T;
    },
  } as unknown as PcdCache;
}

describe('parser loading', () => {
  it('a parser module that fails to load leaves the service without a parser (logged), not broken', () => {
    const lines: string[] = [];
    const captured = createLogger({ level: 'info', stdout: false, extra: [{ write: (l) => lines.push(l) }] });
    expect(
      loadReleaseParser(captured, () => {
        throw new Error('boom');
      }),
    ).toBeNull();
    expect(lines.join('')).toMatch(/release parser failed to load/);
    expect(loadReleaseParser(captured)).not.toBeNull();
  });
});

describeWithShared(['data', 'pcd', 'trash-pcd'], 'evaluation service on trash-pcd', () => {
  let replay: ReplayedPcd;
  beforeAll(() => {
    const dir = sharedPath('data', 'pcd', 'trash-pcd');
    const opsDir = path.join(dir, 'ops');
    replay = loadReplay(dir, opsDir);
  });
  afterAll(() => {
    replay.base.close();
    replay.resolved.close();
  });

  function loadReplay(dir: string, opsDir: string): ReplayedPcd {
    const repo = loadPcdRepository({
      manifest: fs.readFileSync(path.join(dir, 'pcd.json'), 'utf8'),
      ops: fs.readdirSync(opsDir).map((file) => ({ file, text: fs.readFileSync(path.join(opsDir, file), 'utf8') })),
    });
    return replayPcd({ base: repo.base });
  }

  const title = 'Movie.2021.1080p.DSNP.WEB-DL.DDP5.1.H.264-EVO';

  it('without the parser: parserAvailable false, parsed null, release-title conditions still decide, parsed-field conditions are undecided', async () => {
    const state = cacheState(replay);
    const service = new EvaluationService({ get: async () => state }, logger, { parser: null });
    try {
      const r = await service.evaluate({ databaseId: 1, releases: [{ id: 1, title, type: 'movie' }], explain: true });
      expect(r.parserAvailable).toBe(false);
      expect(r.parserVersion).toBeNull();
      const e = r.evaluations[0];
      expect(e.parsed).toBeNull();
      const byName = new Map(e.explain!.map((f) => [f.name, f]));
      expect(byName.get('DD+')!.result).toBe('match'); // release-title conditions only
      expect(byName.get('DSNP')!.result).toBe('undecided'); // its source conditions need the parser
      expect(byName.get('1080p')!.result).toBe('undecided');
      expect(e.cfMatches[String(byName.get('DSNP')!.customFormatId)]).toBe(false);
      expect(e.cfUndecided).toContain(byName.get('DSNP')!.customFormatId);
    } finally {
      await service.close();
    }
  });

  it('warming a new state builds its model and compiles every pattern set, for ASCII titles and for the non-ASCII letters met lately', async () => {
    const previous = cacheState(replay);
    let current = previous;
    const service = new EvaluationService({ get: async () => current }, logger);
    try {
      await service.evaluate({ databaseId: 1, releases: [{ id: 1, title: 'Amélie.2001.1080p.BluRay.x264-GRP', type: 'movie' }] });
      const state = cacheState(replay);
      const run = jest.spyOn(service.runner, 'run');
      await service.warm(state);
      // The model is the state's memo: a request on the state finds it built.
      let built = false;
      state.memo('release-evaluation', () => (built = true));
      expect(built).toBe(false);
      const tasks = run.mock.calls.flatMap(([, list]) => list);
      expect(run.mock.calls.map(([table]) => table.patterns.length).every((n) => n > 900)).toBe(true);
      expect(new Set(tasks.map((t) => t.key))).toEqual(new Set(['', subjectKey('Amélie.2001.1080p.BluRay.x264-GRP')]));
      // every non-empty pattern set of both app families, each key run twice (compiled, then tiered up)
      expect(run.mock.calls).toHaveLength(2);
      for (const [table, list] of run.mock.calls) {
        const nonEmpty = table.sets.map((set, i) => (set.length > 0 ? i : -1)).filter((i) => i >= 0);
        expect(nonEmpty.length).toBeGreaterThan(0);
        expect(new Set(list.map((t) => t.set))).toEqual(new Set(nonEmpty));
      }
      expect(tasks.filter((t) => t.key === '').length).toBe(tasks.filter((t) => t.key !== '').length);
      current = state;
      run.mockClear();
      const r = await service.evaluate({ databaseId: 1, releases: [{ id: 2, title, type: 'movie' }] });
      expect(Object.keys(r.customFormats).length).toBeGreaterThan(100);
    } finally {
      await service.close();
    }
  });

  it('warming after close does nothing and never throws', async () => {
    const service = new EvaluationService({ get: async () => cacheState(replay) }, logger);
    await service.close();
    const state = cacheState(replay);
    await expect(service.warm(state)).resolves.toBeUndefined();
    let built = false;
    state.memo('release-evaluation', () => (built = true));
    expect(built).toBe(true);
  });

  it('parsed results are cached per parser version, type and title; results per database cache state (a new state is evaluated afresh)', async () => {
    let calls = 0;
    const parser = { version: 'test-1', parse: (t: string) => (calls++, { ...baseParsed, title: t }) };
    const baseParsed = {
      title: '',
      year: 2021,
      source: 'webdl' as const,
      resolution: 1080,
      modifier: 'none' as const,
      revision: { version: 1, real: 0, isRepack: false, isProper: false },
      languages: ['English'],
      releaseGroup: 'EVO',
      edition: null,
      releaseType: null,
      series: null,
    };
    let state = cacheState(replay);
    const service = new EvaluationService({ get: async () => state }, logger, { parser });
    try {
      const request = { databaseId: 1, releases: [{ id: 1, title, type: 'movie' as const }] };
      const first = await service.evaluate(request);
      await service.evaluate(request);
      service.parse(title, 'series');
      expect(calls).toBe(2); // movie once, series once
      const firstModel = state.memo('release-evaluation', () => null);
      state = cacheState(replay);
      const second = await service.evaluate(request);
      expect(state.memo('release-evaluation', () => null)).not.toBe(firstModel);
      expect(second.evaluations[0].cfMatches).toEqual(first.evaluations[0].cfMatches);
    } finally {
      await service.close();
    }
  });
});

describe('Sonarr release type conditions (sample PCD)', () => {
  // The sample PCD has "Season Pack" (a required sonarr release_type condition); this op adds a multi-episode
  // format whose condition is for every app, so the movie side shows how Radarr, which has no such condition, treats it.
  const extraOp = [
    "INSERT INTO custom_formats (name, description, include_in_rename) VALUES ('Episode Batch', 'Several episodes in one release', 0);",
    "INSERT INTO custom_format_conditions (custom_format_name, name, type, arr_type, negate, required) VALUES ('Episode Batch', 'Multi', 'release_type', 'all', 0, 1);",
    "INSERT INTO condition_release_types (custom_format_name, condition_name, release_type) VALUES ('Episode Batch', 'Multi', 'multi_episode');",
    "INSERT INTO custom_formats (name, description, include_in_rename) VALUES ('One Episode', 'A single episode', 0);",
    "INSERT INTO custom_format_conditions (custom_format_name, name, type, arr_type, negate, required) VALUES ('One Episode', 'Single', 'release_type', 'sonarr', 0, 1);",
    "INSERT INTO condition_release_types (custom_format_name, condition_name, release_type) VALUES ('One Episode', 'Single', 'single_episode');",
  ].join('\n');
  let replay: ReplayedPcd;
  beforeAll(() => {
    const opsDir = path.join(SAMPLE_PCD_DIR, 'ops');
    const ops = fs.readdirSync(opsDir).map((file) => ({ file, text: fs.readFileSync(path.join(opsDir, file), 'utf8') }));
    ops.push({ file: '90.episode-batch.sql', text: extraOp });
    const repo = loadPcdRepository({ manifest: fs.readFileSync(path.join(SAMPLE_PCD_DIR, 'pcd.json'), 'utf8'), ops });
    replay = replayPcd({ base: repo.base });
  });
  afterAll(() => {
    replay.base.close();
    replay.resolved.close();
  });

  const releases = [
    { id: 1, title: 'Harbor.Lights.S02.1080p.WEB-DL.DDP5.1.H.264-QRX', type: 'series' as const },
    { id: 2, title: 'Harbor.Lights.S02E03E04.1080p.WEB-DL.DDP5.1.H.264-QRX', type: 'series' as const },
    { id: 3, title: 'Harbor.Lights.S02E03.1080p.WEB-DL.DDP5.1.H.264-QRX', type: 'series' as const },
    { id: 4, title: 'Harbor.Lights.S01-S03.1080p.BluRay.x264-QRX', type: 'series' as const },
    { id: 5, title: '[Kumo] Harbor Lights - 13-24 [1080p]', type: 'series' as const },
    { id: 6, title: 'Harbor.Lights.2019.1080p.BluRay.x264-QRX', type: 'movie' as const },
    { id: 7, title: 'Evening.Desk.2024.03.15.720p.HDTV.x264-QRX', type: 'series' as const },
    { id: 8, title: 'Harbor.Lights.S02.Part.1.1080p.WEB-DL.DDP5.1.H.264-QRX', type: 'series' as const },
    { id: 9, title: 'Harbor Lights / S2E1-8 of 8 [2024, WEB-DL 1080p]', type: 'series' as const },
    { id: 10, title: 'Harbor.Lights.205.HDTV.x264-QRX', type: 'series' as const },
  ];

  it('a release type condition matches season packs and multi-episode releases as Sonarr parses them, and Radarr leaves it out', async () => {
    const service = new EvaluationService({ get: async () => cacheState(replay) }, logger);
    try {
      const r = await service.evaluate({ databaseId: 1, releases, explain: true });
      const formatId = (name: string) => Number(Object.entries(r.customFormats).find(([, n]) => n === name)![0]);
      const seasonPack = formatId('Season Pack');
      const batch = formatId('Episode Batch');
      const byId = new Map(r.evaluations.map((e) => [e.releaseId, e]));
      const result = (id: number, format: number) => byId.get(id)!.explain!.find((f) => f.customFormatId === format)!;

      expect([1, 2, 3, 4, 5, 6].map((id) => byId.get(id)!.parsed!.releaseType)).toEqual(['seasonPack', 'multiEpisode', 'singleEpisode', 'seasonPack', 'multiEpisode', null]);
      expect(byId.get(4)!.parsed!.series!.seasonNumbers).toEqual([1, 2, 3]);
      expect(byId.get(5)!.parsed!.series!.absoluteEpisodeNumbers).toHaveLength(12);

      // Season Pack: matches the season and the multi-season pack only
      expect([1, 2, 3, 4, 5].map((id) => byId.get(id)!.cfMatches[String(seasonPack)])).toEqual([true, false, false, true, false]);
      expect(result(1, seasonPack).conditions[0]).toMatchObject({ type: 'release_type', result: 'pass', reason: 'the parsed release type is "season_pack"' });
      expect(result(3, seasonPack).conditions[0]).toMatchObject({ result: 'fail', reason: 'the parsed release type is not "season_pack"' });
      // Episode Batch: S02E03E04 and an anime batch of absolute numbers are multi-episode releases
      expect([1, 2, 3, 4, 5].map((id) => byId.get(id)!.cfMatches[String(batch)])).toEqual([false, true, false, false, true]);

      // Sonarr counts parsed episodes first: a daily air date alone and a part of a season are Unknown (no release type
      // format matches), "S2E1-8 of 8" is the whole season, scene numbering "205" is season 2 episode 5
      const single = formatId('One Episode');
      expect([7, 8, 9, 10].map((id) => byId.get(id)!.parsed!.releaseType)).toEqual(['unknown', 'unknown', 'seasonPack', 'singleEpisode']);
      expect([7, 8, 9, 10].map((id) => [seasonPack, batch, single].map((f) => byId.get(id)!.cfMatches[String(f)]))).toEqual([
        [false, false, false],
        [false, false, false],
        [true, false, false],
        [false, false, true],
      ]);

      // Radarr has no release type condition: the movie's condition is left out and the format does not apply
      const movie = result(6, batch);
      expect(movie.result).toBe('notApplicable');
      expect(movie.conditions[0]).toMatchObject({ type: 'release_type', result: 'leftOut', reason: 'the app would not have this condition: Radarr has no release type conditions' });
      expect(byId.get(6)!.cfMatches[String(batch)]).toBe(false);
      // the sonarr-only Season Pack format has no condition for a movie at all
      expect(result(6, seasonPack)).toMatchObject({ result: 'notApplicable', conditions: [] });
    } finally {
      await service.close();
    }
  });
});
