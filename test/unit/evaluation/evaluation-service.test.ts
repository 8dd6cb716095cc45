import fs from 'node:fs';
import path from 'node:path';
import { loadPcdRepository, replayPcd, type ReplayedPcd } from '../../../src/domain/pcd';
import { createLogger } from '../../../src/platform/logger';
import type { PcdCache } from '../../../src/services/pcd/cache-manager';
import { EvaluationService } from '../../../src/services/evaluation/evaluation-service';
import { subjectKey } from '../../../src/domain/evaluation';
import { loadReleaseParser } from '../../../src/services/evaluation/parser-loader';
import { describeWithShared, sharedPath } from '../../helpers/shared-data';

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
