/**
 * Custom-format matching of parsed releases, following the apps' rule (docs/evaluation.md,
 * "Matching"): conditions are grouped by type; a group passes when no required condition fails
 * and at least one passes (negate applied first); a format matches when every group passes.
 *
 * The conditions a format has on an app are those the sync would write (./sync/transform): other
 * families' conditions, types the app lacks and values it has no number for are left out. A
 * condition a title alone cannot decide (size, indexer flags, the original language, a pattern that
 * cannot be translated) is "not evaluable": the result is three-valued, and a format that depends
 * on such a condition is reported undecided and never counted as a match.
 */
import type { ArrType } from '../arr-types';
import type { CustomFormatCondition, CustomFormatData } from '../pcd';
import { APP_CONDITION_TYPES, enumValue, type ConditionType, type EnumKind } from '../sync/enums';
import type { ParsedRelease, ReleaseKind } from './release-parser';
import { translateDotnetRegex, type TranslatedRegex } from './regex/translate';

/** Condition outcome codes (after negate). */
export const PASS = 1;
export const FAIL = 0;
export const NOT_EVALUABLE = 2;
export const LEFT_OUT = 3;
/** Flag: the condition's regex ran past the deadline (it counted as no match). */
export const TIMED_OUT = 4;
/** Flag: the subject holds a character outside the BMP that the pattern's answer depends on (not evaluable). */
export const OUTSIDE_BMP = 8;

/** Format outcome codes. */
export const FORMAT_NO = 0;
export const FORMAT_YES = 1;
export const FORMAT_UNDECIDED = 2;
export const FORMAT_NOT_APPLICABLE = 3;

export type PatternField = 'title' | 'group' | 'edition';

/**
 * The regex match result for a pattern on a release's field (0 no, 1 yes, 2 timed out, 3 error,
 * REGEX_UNDECIDABLE: the translation cannot answer for this subject as .NET would).
 */
export const REGEX_UNDECIDABLE = 5;
/** (field, pattern index) -> a regex match result code. */
export type RegexLookup = (field: PatternField, pattern: number) => number;

interface ConditionModel {
  name: string;
  type: string;
  negate: boolean;
  required: boolean;
  /** Why the app would not have this condition (it is left out), or null. */
  leftOut: string | null;
  /** Why no title can decide it, or null. */
  notEvaluable: string | null;
  field: PatternField | null;
  pattern: number | null;
  enumKind: EnumKind | null;
  enumValue: number | null;
  condition: CustomFormatCondition;
}

export interface FormatModel {
  id: number;
  name: string;
  conditions: ConditionModel[];
  /** Per condition, the index of its type's group (conditions are grouped by type). */
  groupOf: number[];
  groupCount: number;
}

export interface AppModel {
  arrType: ArrType;
  formats: FormatModel[];
  /** Pattern indexes used per field, for the regex runner. */
  patternSets: Record<PatternField, number[]>;
  /** Position of each pattern in its field's set. */
  setPosition: Record<PatternField, Map<number, number>>;
  conditionCount: number;
}

export interface EvaluationModel {
  patterns: TranslatedRegex[];
  /** Patterns that cannot be translated: .NET pattern -> reason. */
  refused: Map<string, string>;
  apps: Record<'movie_app' | 'series_app', AppModel>;
}

export interface FormatInput {
  id: number;
  data: CustomFormatData;
}

export const KIND_APP: Record<ReleaseKind, 'movie_app' | 'series_app'> = { movie: 'movie_app', series: 'series_app' };
const APP_LABEL: Record<ArrType, string> = { movie_app: 'Radarr', series_app: 'Sonarr', music_app: 'Lidarr' };
const FIELD_OF: Partial<Record<ConditionType, PatternField>> = { release_title: 'title', release_group: 'group', edition: 'edition' };
const ENUM_OF: Partial<Record<ConditionType, EnumKind>> = {
  source: 'source',
  resolution: 'resolution',
  quality_modifier: 'quality_modifier',
  release_type: 'release_type',
};

function enumTextOf(c: CustomFormatCondition): string {
  switch (c.type) {
    case 'source':
      return c.source;
    case 'resolution':
      return c.resolution;
    case 'quality_modifier':
      return c.qualityModifier;
    case 'release_type':
      return c.releaseType;
    default:
      return '';
  }
}

/**
 * Builds the evaluation model of a database's custom formats: every pattern translated once, and
 * per app family the conditions the app would have.
 */
export function buildEvaluationModel(formats: readonly FormatInput[], regularExpressions: Readonly<Record<string, string>>): EvaluationModel {
  const patterns: TranslatedRegex[] = [];
  const patternIndex = new Map<string, number | string>();
  const refused = new Map<string, string>();
  const translate = (pattern: string): number | string => {
    let hit = patternIndex.get(pattern);
    if (hit === undefined) {
      const t = translateDotnetRegex(pattern);
      if (t.ok) {
        patterns.push(t.regex);
        hit = patterns.length - 1;
      } else {
        refused.set(pattern, t.reason);
        hit = t.reason;
      }
      patternIndex.set(pattern, hit);
    }
    return hit;
  };

  const appModel = (arrType: 'movie_app' | 'series_app'): AppModel => {
    const supported = APP_CONDITION_TYPES[arrType];
    const sets: Record<PatternField, Set<number>> = { title: new Set(), group: new Set(), edition: new Set() };
    let conditionCount = 0;
    const models: FormatModel[] = formats.map((f) => {
      const conditions: ConditionModel[] = [];
      for (const c of f.data.conditions) {
        if (c.arrType !== 'all' && c.arrType !== arrType) continue;
        const type = c.type as ConditionType;
        const m: ConditionModel = { name: c.name, type: c.type, negate: c.negate, required: c.required, leftOut: null, notEvaluable: null, field: null, pattern: null, enumKind: null, enumValue: null, condition: c };
        conditions.push(m);
        conditionCount++;
        if (!supported.has(type)) {
          m.leftOut = `${APP_LABEL[arrType]} has no ${c.type.replace('_', ' ')} conditions`;
          continue;
        }
        const field = FIELD_OF[type];
        if (field && 'regularExpression' in c) {
          const pattern = regularExpressions[c.regularExpression];
          if (pattern === undefined || pattern.trim() === '') {
            m.leftOut = `regular expression "${c.regularExpression}" is missing`;
            continue;
          }
          const t = translate(pattern);
          if (typeof t === 'string') m.notEvaluable = `the pattern cannot be translated: ${t}`;
          else {
            m.field = field;
            m.pattern = t;
            sets[field].add(t);
          }
          continue;
        }
        const kind = ENUM_OF[type];
        if (kind) {
          const value = enumValue(kind, arrType, enumTextOf(c));
          if (value === null) m.leftOut = `${APP_LABEL[arrType]} has no ${kind.replace('_', ' ')} "${enumTextOf(c)}"`;
          else if (value === 0 && kind !== 'release_type') m.leftOut = `${APP_LABEL[arrType]} does not accept the ${kind.replace('_', ' ')} "${enumTextOf(c)}" in a condition`;
          m.enumKind = kind;
          m.enumValue = value;
          continue;
        }
        if (c.type === 'size') m.notEvaluable = 'a release size is not part of its title';
        else if (c.type === 'indexer_flag') m.notEvaluable = 'indexer flags are not part of a title';
        else if (c.type === 'language' && ['original', 'any'].includes(c.language.toLowerCase())) {
          m.notEvaluable = `the "${c.language}" language depends on the movie or series, not the title`;
        }
      }
      const types = [...new Set(conditions.map((c) => c.type))];
      return { id: f.id, name: f.data.name, conditions, groupOf: conditions.map((c) => types.indexOf(c.type)), groupCount: types.length };
    });
    const patternSets = { title: [...sets.title], group: [...sets.group], edition: [...sets.edition] };
    const setPosition = {
      title: new Map(patternSets.title.map((p, i) => [p, i])),
      group: new Map(patternSets.group.map((p, i) => [p, i])),
      edition: new Map(patternSets.edition.map((p, i) => [p, i])),
    };
    return { arrType, formats: models, patternSets, setPosition, conditionCount };
  };

  return { patterns, refused, apps: { movie_app: appModel('movie_app'), series_app: appModel('series_app') } };
}

/** The characters the apps strip from a title before release-title conditions match it. */
export function releaseTitleSubject(title: string): string {
  return title.replace(/[<>?*|]/g, '');
}

/** The source as the app numbers it: Sonarr folds Radarr's remux and raw-HD modifiers into its sources. */
function parsedSource(parsed: ParsedRelease, arrType: ArrType): number | null {
  if (arrType === 'series_app') {
    if (parsed.source === 'bluray' && parsed.modifier === 'remux') return enumValue('source', arrType, 'blurayraw');
    if (parsed.source === 'tv' && parsed.modifier === 'rawhd') return enumValue('source', arrType, 'televisionraw');
  }
  return enumValue('source', arrType, parsed.source) ?? 0;
}

function parsedEnum(kind: EnumKind, parsed: ParsedRelease, arrType: ArrType): number | null {
  switch (kind) {
    case 'source':
      return parsedSource(parsed, arrType);
    case 'resolution':
      return parsed.resolution ?? 0;
    case 'quality_modifier':
      return enumValue(kind, arrType, parsed.modifier) ?? 0;
    case 'release_type':
      return enumValue(kind, arrType, parsed.releaseType ?? 'unknown') ?? 0;
    default:
      return null;
  }
}

/** Condition codes of one release (in model order, formats flattened) and format codes. */
export interface ReleaseEvaluation {
  conditions: Uint8Array;
  formats: Uint8Array;
  /** Conditions whose regex ran past the deadline. */
  timedOut: number;
}

/** Raw (before negate) outcome of one evaluable condition: true/false, or null when undecidable. */
function rawOutcome(m: ConditionModel, parsed: ParsedRelease | null, arrType: ArrType, regex: RegexLookup): { raw: boolean | null; timedOut: boolean; outsideBmp?: boolean } {
  const c = m.condition;
  if (m.field !== null && m.pattern !== null) {
    if (m.field !== 'title') {
      if (!parsed) return { raw: null, timedOut: false };
      const subject = m.field === 'group' ? parsed.releaseGroup : parsed.edition;
      if (subject === null) return { raw: false, timedOut: false };
    }
    const code = regex(m.field, m.pattern);
    if (code === REGEX_UNDECIDABLE) return { raw: null, timedOut: false, outsideBmp: true };
    return { raw: code === 1, timedOut: code === 2 };
  }
  if (!parsed) return { raw: null, timedOut: false };
  if (m.enumKind !== null) return { raw: parsedEnum(m.enumKind, parsed, arrType) === m.enumValue, timedOut: false };
  if (c.type === 'year') {
    if (parsed.year === null) return { raw: false, timedOut: false };
    return { raw: (c.minYear === null || parsed.year >= c.minYear) && (c.maxYear === null || parsed.year <= c.maxYear), timedOut: false };
  }
  if (c.type === 'language') {
    // `Unknown`: the title names no language; `Original`: a language the movie or series decides.
    const named = parsed.languages.map((l) => l.toLowerCase()).filter((l) => l !== 'unknown');
    const definite = named.filter((l) => l !== 'original');
    const placeholder = definite.length < named.length;
    if (named.length === 0) return { raw: null, timedOut: false };
    const wanted = c.language.toLowerCase();
    const decided = c.exceptLanguage ? definite.some((l) => l !== wanted) : definite.includes(wanted);
    return { raw: decided ? true : placeholder ? null : false, timedOut: false };
  }
  return { raw: null, timedOut: false };
}

/** Evaluates every format of the app model for one release. `parsed` null: the title could not be parsed. */
export function evaluateRelease(app: AppModel, parsed: ParsedRelease | null, regex: RegexLookup): ReleaseEvaluation {
  const conditions = new Uint8Array(app.conditionCount);
  const formats = new Uint8Array(app.formats.length);
  let k = 0;
  let timedOutCount = 0;
  // Per group: bit 1 a required condition failed, 2 a required one is undecided, 4 one passed, 8 one is undecided, 16 present.
  let state = new Uint8Array(16);
  app.formats.forEach((format, fi) => {
    if (state.length < format.groupCount) state = new Uint8Array(format.groupCount);
    state.fill(0, 0, format.groupCount);
    format.conditions.forEach((m, ci) => {
      let code: number;
      if (m.leftOut !== null) code = LEFT_OUT;
      else if (m.notEvaluable !== null) code = NOT_EVALUABLE;
      else {
        const { raw, timedOut, outsideBmp } = rawOutcome(m, parsed, app.arrType, regex);
        code = raw === null ? NOT_EVALUABLE | (outsideBmp ? OUTSIDE_BMP : 0) : raw !== m.negate ? PASS : FAIL;
        if (timedOut) {
          code |= TIMED_OUT;
          timedOutCount++;
        }
      }
      conditions[k++] = code;
      const outcome = code & 3;
      if (outcome === LEFT_OUT) return;
      const g = format.groupOf[ci];
      state[g] |= 16;
      if (outcome === PASS) state[g] |= 4;
      else if (outcome === NOT_EVALUABLE) state[g] |= m.required ? 8 | 2 : 8;
      else if (m.required) state[g] |= 1;
    });
    let result = FORMAT_NOT_APPLICABLE;
    for (let g = 0; g < format.groupCount; g++) {
      const s = state[g];
      if (!(s & 16)) continue;
      const group = s & 1 ? FORMAT_NO : s & 2 ? FORMAT_UNDECIDED : s & 4 ? FORMAT_YES : s & 8 ? FORMAT_UNDECIDED : FORMAT_NO;
      if (group === FORMAT_NO) {
        result = FORMAT_NO;
        break;
      }
      if (group === FORMAT_UNDECIDED || result === FORMAT_UNDECIDED) result = FORMAT_UNDECIDED;
      else result = FORMAT_YES;
    }
    formats[fi] = result;
  });
  return { conditions, formats, timedOut: timedOutCount };
}

export type ConditionResult = 'pass' | 'fail' | 'notEvaluable' | 'leftOut';
export type FormatResult = 'match' | 'noMatch' | 'undecided' | 'notApplicable';

export interface ConditionExplanation {
  name: string;
  type: string;
  required: boolean;
  negate: boolean;
  result: ConditionResult;
  reason: string;
}

export interface FormatExplanation {
  customFormatId: number;
  name: string;
  result: FormatResult;
  conditions: ConditionExplanation[];
}

/** Format outcome code -> its name in explain and scoring. */
export const FORMAT_RESULTS: readonly FormatResult[] = ['noMatch', 'match', 'undecided', 'notApplicable'];

function describe(m: ConditionModel, code: number, parsed: ParsedRelease | null): { result: ConditionResult; reason: string } {
  const outcome = code & 3;
  if (outcome === LEFT_OUT) return { result: 'leftOut', reason: `the app would not have this condition: ${m.leftOut}` };
  if (outcome === NOT_EVALUABLE) {
    if (m.notEvaluable) return { result: 'notEvaluable', reason: `not evaluable from a title: ${m.notEvaluable}` };
    if (code & OUTSIDE_BMP) {
      return { result: 'notEvaluable', reason: 'not evaluable from a title: it holds a character outside the BMP (such as an emoji), which .NET reads as two UTF-16 units, and the answer of this pattern depends on it' };
    }
    if (!parsed) return { result: 'notEvaluable', reason: 'not evaluable from a title: the title could not be parsed' };
    return { result: 'notEvaluable', reason: 'not evaluable from a title: the title names no language, or the original language decides it (the apps use the movie or series)' };
  }
  const passed = outcome === PASS;
  const raw = passed !== m.negate;
  const negated = m.negate ? ` (negated: ${passed ? 'passes' : 'fails'})` : '';
  if (code & TIMED_OUT) return { result: passed ? 'pass' : 'fail', reason: `the pattern ran past the match deadline in this database state and counts as no match${negated}` };
  const c = m.condition;
  let what: string;
  if (m.field === 'title') what = raw ? 'the pattern matches the title' : 'the pattern does not match the title';
  else if (m.field === 'group') what = parsed?.releaseGroup == null ? 'the title has no release group' : `the pattern ${raw ? 'matches' : 'does not match'} the release group "${parsed.releaseGroup}"`;
  else if (m.field === 'edition') what = parsed?.edition == null ? 'the title has no edition' : `the pattern ${raw ? 'matches' : 'does not match'} the edition "${parsed.edition}"`;
  else if (m.enumKind) what = `the parsed ${m.enumKind.replace('_', ' ')} ${raw ? 'is' : 'is not'} "${enumTextOf(c)}"`;
  else if (c.type === 'year') what = parsed?.year == null ? 'the title has no year' : `the year ${parsed.year} is ${raw ? '' : 'not '}within the range`;
  else if (c.type === 'language') what = `the title's languages (${parsed?.languages.join(', ')}) ${raw ? 'satisfy' : 'do not satisfy'} "${c.exceptLanguage ? 'except ' : ''}${c.language}"`;
  else what = raw ? 'satisfied' : 'not satisfied';
  return { result: passed ? 'pass' : 'fail', reason: `${what}${negated}` };
}

/** Per format, which conditions passed or failed and why. */
export function explainRelease(app: AppModel, parsed: ParsedRelease | null, evaluation: ReleaseEvaluation): FormatExplanation[] {
  let k = 0;
  return app.formats.map((format, fi) => ({
    customFormatId: format.id,
    name: format.name,
    result: FORMAT_RESULTS[evaluation.formats[fi]],
    conditions: format.conditions.map((m) => {
      const code = evaluation.conditions[k++];
      return { name: m.name, type: m.type, required: m.required, negate: m.negate, ...describe(m, code, parsed) };
    }),
  }));
}
