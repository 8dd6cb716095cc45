/**
 * POST /entity-testing/evaluate: parses release titles and evaluates them against a database's
 * custom formats, in the API process over the in-memory PCD cache (a read-only computation).
 *
 * Caches (docs/evaluation.md, "Caching"):
 * - parsed titles per (parser version, type, title), bounded (PARSED_CACHE_SIZE entries);
 * - per database cache state (a PcdCache memo, so a rebuilt cache starts afresh): the translated
 *   patterns, format model and per-(type, title) results, bounded (RESULT_CACHE_SIZE entries).
 */
import type { ArrType } from '../../domain/arr-types';
import { OUTSIDE_BMP_TEXT, scoreRelease, subjectKey, type FormatExplanation, type ProfileScore } from '../../domain/evaluation';
// The hot loops read these constants: imported from their module, not through the index's re-exports.
import {
  buildEvaluationModel,
  evaluateRelease,
  explainRelease,
  FORMAT_RESULTS,
  FORMAT_UNDECIDED,
  FORMAT_YES,
  KIND_APP,
  REGEX_UNDECIDABLE,
  releaseTitleSubject,
  TIMED_OUT,
  type AppModel,
  type EvaluationModel,
  type PatternField,
  type ReleaseEvaluation,
} from '../../domain/evaluation/custom-formats';
import type { ParsedRelease, ReleaseKind } from '../../domain/evaluation/release-parser';
import { entityNames, readEntity, regularExpressionPatterns, type CustomFormatData, type QualityProfileData } from '../../domain/pcd';
import { notFound } from '../../errors';
import { evaluationStatesWarmedTotal } from '../../platform/metrics';
import { type Logger, logFailure } from '../../platform/logger';
import type { PcdCache, PcdCacheManager } from '../pcd/cache-manager';
import { BoundedCache } from './bounded-cache';
import { loadReleaseParser, type ReleaseParser } from './parser-loader';
import { MATCH_TIMEOUT, RegexRunner, type RegexTable, type RegexTask } from './regex-runner';
import { RegexTestService } from './regex-test-service';

export const PARSED_CACHE_SIZE = 20_000;
export const RESULT_CACHE_SIZE = 5_000;
/** A single regex match running longer than this counts as no match (and is reported). */
export const DEFAULT_MATCH_DEADLINE_MS = 100;

export interface EvaluateRequest {
  databaseId?: number;
  releases: { id: number; title: string; type: ReleaseKind }[];
  explain?: boolean;
  profileName?: string;
}

export interface ReleaseEvaluationView {
  releaseId: number;
  title: string;
  parsed: ParsedRelease | null;
  cfMatches: Record<string, boolean>;
  cfUndecided: number[];
  warnings: string[];
  explain?: FormatExplanation[];
  score?: ProfileScore;
}

export interface EvaluateResponse {
  parserAvailable: boolean;
  parserVersion: string | null;
  /** Custom format id -> name, for every id the evaluations report ({} without a database). */
  customFormats: Record<string, string>;
  evaluations: ReleaseEvaluationView[];
}

const FIELDS: PatternField[] = ['title', 'group', 'edition'];
/**
 * Subjects a new state's patterns are first run on: V8 compiles a RegExp on its first match and tiers
 * it up to native code on the next, so a request after warming finds every pattern native.
 */
const WARMING_SUBJECTS = ['Warming.Title.2020.1080p.WEB-DL.DDP5.1.H.264-GROUP', 'Warming Title S01E01 720p HDTV x264-GROUP'];
/**
 * Non-ASCII subject keys (subjectKey) met lately. Patterns whose translation depends on a title's
 * non-ASCII letters are compiled per key; a new state is warmed for these keys too.
 */
const RECENT_KEYS = 8;

/** What one database cache state evaluates with; held as a PcdCache memo. */
class DatabaseEvaluator {
  readonly model: EvaluationModel;
  readonly tables: Record<'movie_app' | 'series_app', RegexTable>;
  readonly results = new BoundedCache<string, ReleaseEvaluation>(RESULT_CACHE_SIZE);

  constructor(readonly cache: PcdCache) {
    const db = cache.resolved;
    const formats = entityNames(db, 'custom_format').map((name) => {
      const entity = readEntity(db, 'custom_format', name)!;
      return { id: entity.routeId ?? 0, data: entity.data as unknown as CustomFormatData };
    });
    const regularExpressions = regularExpressionPatterns(db);
    this.model = buildEvaluationModel(formats, regularExpressions);
    const table = (app: AppModel): RegexTable => ({ patterns: this.model.patterns, sets: FIELDS.map((f) => app.patternSets[f]) });
    this.tables = { movie_app: table(this.model.apps.movie_app), series_app: table(this.model.apps.series_app) };
  }
}

interface Pending {
  key: string;
  app: AppModel;
  parsed: ParsedRelease | null;
  title: string;
  tasks: Partial<Record<PatternField, number>>;
  /** Per field: the subject holds a character outside the BMP (see decidesFor). */
  outsideBmp: Record<PatternField, boolean>;
}

export class EvaluationService {
  private readonly parsedCache = new BoundedCache<string, ParsedRelease | null>(PARSED_CACHE_SIZE);
  private readonly parser: ReleaseParser | null;
  private readonly recentKeys = new BoundedCache<string, true>(RECENT_KEYS);
  private closed = false;
  readonly runner: RegexRunner;
  /** POST /entity-testing/regex (its own worker). */
  readonly regexTests: RegexTestService;

  constructor(
    private readonly caches: Pick<PcdCacheManager, 'get'>,
    private readonly logger: Logger,
    options: { deadlineMs?: number; parser?: ReleaseParser | null } = {},
  ) {
    this.parser = options.parser !== undefined ? options.parser : loadReleaseParser(logger);
    this.runner = new RegexRunner({ deadlineMs: options.deadlineMs ?? DEFAULT_MATCH_DEADLINE_MS });
    this.regexTests = new RegexTestService({ deadlineMs: options.deadlineMs ?? DEFAULT_MATCH_DEADLINE_MS });
  }

  get parserAvailable(): boolean {
    return this.parser !== null;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([this.runner.close(), this.regexTests.close()]);
  }

  /**
   * Builds a cache state's evaluation model and compiles its patterns in the regex worker, so the first
   * request on the state only parses and matches. Called in the background for every new state.
   */
  async warm(cache: PcdCache): Promise<void> {
    if (this.closed) return;
    try {
      const evaluator = cache.memo('release-evaluation', () => new DatabaseEvaluator(cache));
      const keys = ['', ...this.recentKeys.keys()];
      for (const table of Object.values(evaluator.tables)) {
        // Each pattern twice per key: the instance compiled for a key runs on any subject, its result is not kept.
        const tasks = table.sets.flatMap((set, index) =>
          set.length === 0 ? [] : keys.flatMap((key) => WARMING_SUBJECTS.map((subject) => ({ subject, key, set: index }))),
        );
        if (tasks.length > 0 && !this.closed) await this.runner.run(table, tasks);
      }
      evaluationStatesWarmedTotal.inc({ result: 'warmed' });
    } catch (error) {
      // Shutting down terminates the worker under a warm-up: not a failure worth a line.
      if (this.closed) return;
      evaluationStatesWarmedTotal.inc({ result: 'failed' });
      logFailure(this.logger, 'warn', { databaseId: cache.databaseId }, error, 'warming the release evaluation of a new pcd cache state failed');
    }
  }

  parse(title: string, type: ReleaseKind): ParsedRelease | null {
    if (!this.parser) return null;
    const key = `${this.parser.version}\u0000${type}\u0000${title}`;
    const hit = this.parsedCache.get(key);
    if (hit !== undefined) return hit;
    let parsed: ParsedRelease | null;
    try {
      parsed = this.parser.parse(title, type);
    } catch (error) {
      logFailure(this.logger, 'warn', {}, error, 'release parser failed on a title');
      parsed = null;
    }
    this.parsedCache.set(key, parsed);
    return parsed;
  }

  async evaluate(request: EvaluateRequest): Promise<EvaluateResponse> {
    const parsedAll = request.releases.map((r) => this.parse(r.title, r.type));
    const base = (i: number): ReleaseEvaluationView => ({
      releaseId: request.releases[i].id,
      title: request.releases[i].title,
      parsed: parsedAll[i],
      cfMatches: {},
      cfUndecided: [],
      warnings: [],
    });
    const response: EvaluateResponse = {
      parserAvailable: this.parserAvailable,
      parserVersion: this.parser?.version ?? null,
      customFormats: {},
      evaluations: request.releases.map((_, i) => base(i)),
    };
    if (request.databaseId === undefined) return response;

    const cache = await this.caches.get(request.databaseId);
    const evaluator = cache.memo('release-evaluation', () => new DatabaseEvaluator(cache));
    const profile = request.profileName === undefined ? null : this.profile(cache, request.profileName);
    const results = await this.results(evaluator, request, parsedAll);
    for (const kind of new Set(request.releases.map((r) => KIND_APP[r.type]))) {
      for (const format of evaluator.model.apps[kind].formats) response.customFormats[String(format.id)] = format.name;
    }

    request.releases.forEach((release, i) => {
      const view = response.evaluations[i];
      const app = evaluator.model.apps[KIND_APP[release.type]];
      const evaluation = results[i];
      app.formats.forEach((format, fi) => {
        const code = evaluation.formats[fi];
        view.cfMatches[String(format.id)] = code === FORMAT_YES;
        if (code === FORMAT_UNDECIDED) view.cfUndecided.push(format.id);
      });
      view.warnings = this.timeoutWarnings(app, evaluation);
      if (request.explain) view.explain = explainRelease(app, parsedAll[i], evaluation);
      if (profile) {
        const formats = app.formats.map((f, fi) => ({ id: f.id, name: f.name, result: FORMAT_RESULTS[evaluation.formats[fi]] }));
        view.score = scoreRelease(profile, app.arrType as ArrType, formats);
      }
    });
    return response;
  }

  private profile(cache: PcdCache, name: string): QualityProfileData {
    const entity = readEntity(cache.resolved, 'quality_profile', name);
    if (!entity) throw notFound(`Quality profile "${name}" not found in database ${cache.databaseId}`);
    return entity.data as unknown as QualityProfileData;
  }

  /** Cached or computed evaluations, one per release; uncached ones share one regex batch. */
  private async results(evaluator: DatabaseEvaluator, request: EvaluateRequest, parsedAll: (ParsedRelease | null)[]): Promise<ReleaseEvaluation[]> {
    const out: (ReleaseEvaluation | undefined)[] = [];
    const keys = request.releases.map((r) => `${r.type}\u0000${r.title}`);
    const computed = new Map<string, ReleaseEvaluation>();
    const pending = new Map<string, Pending>();
    const batches: Record<'movie_app' | 'series_app', { tasks: RegexTask[]; index: Map<string, number> }> = {
      movie_app: { tasks: [], index: new Map() },
      series_app: { tasks: [], index: new Map() },
    };
    request.releases.forEach((release, i) => {
      const key = keys[i];
      const hit = evaluator.results.get(key);
      out.push(hit);
      if (hit || pending.has(key)) return;
      const appType = KIND_APP[release.type];
      const app = evaluator.model.apps[appType];
      const parsed = parsedAll[i];
      const subjects: Record<PatternField, string | null> = {
        title: releaseTitleSubject(release.title),
        group: parsed?.releaseGroup ?? null,
        edition: parsed?.edition ?? null,
      };
      const tasks: Pending['tasks'] = {};
      FIELDS.forEach((field, set) => {
        const subject = subjects[field];
        if (subject === null || app.patternSets[field].length === 0) return;
        const batch = batches[appType];
        const taskKey = `${set}\u0000${subject}`;
        let index = batch.index.get(taskKey);
        if (index === undefined) {
          const key = subjectKey(subject);
          if (key !== '') this.recentKeys.set(key, true);
          index = batch.tasks.push({ subject, key, set }) - 1;
          batch.index.set(taskKey, index);
        }
        tasks[field] = index;
      });
      const outsideBmp = { title: OUTSIDE_BMP_TEXT.test(subjects.title!), group: subjects.group !== null && OUTSIDE_BMP_TEXT.test(subjects.group), edition: subjects.edition !== null && OUTSIDE_BMP_TEXT.test(subjects.edition) };
      pending.set(key, { key, app, parsed, title: release.title, tasks, outsideBmp });
    });
    if (pending.size > 0) {
      const codes = {
        movie_app: batches.movie_app.tasks.length ? await this.runner.run(evaluator.tables.movie_app, batches.movie_app.tasks) : [],
        series_app: batches.series_app.tasks.length ? await this.runner.run(evaluator.tables.series_app, batches.series_app.tasks) : [],
      };
      for (const p of pending.values()) {
        const appCodes = codes[p.app.arrType as 'movie_app' | 'series_app'];
        const evaluation = evaluateRelease(p.app, p.parsed, (field, pattern) => {
          const task = p.tasks[field];
          if (task === undefined) return 0;
          if (p.outsideBmp[field] && evaluator.model.patterns[pattern].unitSensitive) return REGEX_UNDECIDABLE;
          return appCodes[task][p.app.setPosition[field].get(pattern)!];
        });
        if (evaluation.timedOut === 0) evaluator.results.set(p.key, evaluation);
        computed.set(p.key, evaluation);
      }
      if (Object.values(codes).some((list) => list.some((c) => c.includes(MATCH_TIMEOUT)))) {
        this.logger.warn({ databaseId: request.databaseId }, 'a custom-format regex ran past the match deadline');
      }
    }
    return out.map((hit, i) => hit ?? computed.get(keys[i])!);
  }

  private timeoutWarnings(app: AppModel, evaluation: ReleaseEvaluation): string[] {
    const warnings: string[] = [];
    if (evaluation.timedOut === 0) return warnings;
    let k = 0;
    for (const format of app.formats) {
      for (const condition of format.conditions) {
        if (evaluation.conditions[k++] & TIMED_OUT) {
          warnings.push(`condition "${condition.name}" of custom format "${format.name}" ran past the ${this.runner.deadlineMs} ms match deadline in this database state and counted as no match`);
        }
      }
    }
    return warnings;
  }
}
