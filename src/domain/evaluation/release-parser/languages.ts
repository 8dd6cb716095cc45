/**
 * Languages named in a release title, read the way each app reads them: Radarr for movies, Sonarr for series.
 * The two differ (docs/evaluation.md, "Languages"), so each has its own table of how it spots a language; the
 * language names themselves come from the apps' lists (app-resources/languages.ts).
 */
import type { LanguageName } from '../../app-resources/languages';
import { stripPrefixes } from './title-common';
import type { ReleaseKind } from './types';

/**
 * How a spelling is found:
 * - `anywhere`: in any letter case, also inside a longer word ("SwissGerman", "HebDubbed");
 * - `word`: in any letter case, as a whole word, where an underscore joins words as in the apps' regexes;
 * - `loose`: like `word`, but an underscore separates ("_FRA_");
 * - `ending`: in any letter case, ending a word but starting anywhere ("SwissGerman", not "Germany");
 * - `pattern`: the spelling is a regular expression (for the few tags no word list describes).
 * In a spelling, `~` stands for at most one separator ("pl~dub": PLDUB, PL-DUB, PL.DUB).
 */
type Spotting = 'anywhere' | 'word' | 'loose' | 'ending' | 'pattern';
type Entry = readonly [LanguageName, Spotting, ...string[]];

interface AppRules {
  /** Names found anywhere, in any case, each on its own (the apps test them one by one). */
  names: Readonly<Record<string, LanguageName>>;
  /** Tags found left to right; Sonarr skips those that name subtitles (`subtitleLists`). */
  tags: readonly Entry[];
  /** Codes counted only in capitals, as whole words, and not next to "SUB" ("PL", not "SUB.PL" or "PL-SUB"). */
  capitals: Readonly<Record<string, LanguageName>>;
  /** Sonarr reads only the first capital code of a title. */
  firstCapitalOnly: boolean;
  /** Sonarr: a tag followed by more tags and then "Sub"/"Subs" ("Ger.Eng.Sub") lists subtitles, not audio. */
  subtitleLists: boolean;
}

/** What .NET's `\w` counts as part of a word: the apps' word boundaries. */
const WORD = '[\\p{L}\\p{Mn}\\p{Nd}\\p{Pc}]';
const LETTER_OR_DIGIT = '[\\p{L}\\p{Mn}\\p{Nd}]';
const SEPARATOR = '[^\\p{L}\\p{Mn}\\p{Nd}\\p{Pc}]';
const NOT_LETTER_OR_DIGIT = '[^\\p{L}\\p{Mn}\\p{Nd}]';

/** Full English names both apps find anywhere in a title. */
const SHARED_NAMES: Readonly<Record<string, LanguageName>> = {
  spanish: 'Spanish', danish: 'Danish', dutch: 'Dutch', japanese: 'Japanese', icelandic: 'Icelandic',
  mandarin: 'Chinese', cantonese: 'Chinese', chinese: 'Chinese', korean: 'Korean', russian: 'Russian', polish: 'Polish',
  vietnamese: 'Vietnamese', swedish: 'Swedish', norwegian: 'Norwegian', finnish: 'Finnish', turkish: 'Turkish',
  portuguese: 'Portuguese', brazilian: 'Portuguese (Brazil)', hungarian: 'Hungarian', hebrew: 'Hebrew', arabic: 'Arabic',
  hindi: 'Hindi', malayalam: 'Malayalam', ukrainian: 'Ukrainian', bulgarian: 'Bulgarian', slovak: 'Slovak',
  latino: 'Spanish (Latino)', latvian: 'Latvian', english: 'English',
};

/** Chinese: bracketed script tags and the characters for simplified, traditional and subtitles. */
const CHINESE_MARKS = ['\\[(?:CH[ST]|BIG5|GB)\\]', '简', '繁', '字幕'];

const RADARR: AppRules = {
  names: {
    ...SHARED_NAMES,
    romanian: 'Romanian', thai: 'Thai', persian: 'Persian', bengali: 'Bengali', tamil: 'Tamil', telugu: 'Telugu',
    kannada: 'Kannada', albanian: 'Albanian', afrikaans: 'Afrikaans', marathi: 'Marathi', tagalog: 'Tagalog',
    flemish: 'Flemish', greek: 'Greek', bgaudio: 'Bulgarian', rodubbed: 'Romanian', videomann: 'German',
    'ger.dub': 'German', 'ger dub': 'German', ukr: 'Ukrainian',
  },
  tags: [
    ['English', 'word', 'eng'],
    ['Italian', 'word', 'ita', 'italian'],
    ['German', 'ending', 'german'],
    ['German', 'word', 'ger'],
    ['Portuguese (Brazil)', 'word', 'dublado', 'pt-br'],
    ['French', 'word', 'fr', 'vo', 'vf', 'vff', 'vfq', 'vfi', 'vf2', 'truefrench', 'french', 'fre', 'fra'],
    ['Russian', 'word', 'rus', 'ru'],
    ['Hungarian', 'word', 'hundub', 'hun'],
    ['Hebrew', 'word', 'hebdub', 'hebdubbed'],
    ['Polish', 'word', 'pl~dub', 'dub~pl', 'lek~pl', 'pl~lek'],
    ['Chinese', 'pattern', ...CHINESE_MARKS],
    ['Spanish', 'word', 'español', 'castellano'],
    ['Catalan', 'word', 'catala', 'catalan', 'catalán', 'català'],
    ['Latvian', 'word', 'lat', 'lav', 'lv'],
    ['Telugu', 'word', 'tel'],
    ['Vietnamese', 'word', 'vie'],
    ['Japanese', 'word', 'jap'],
    ['Korean', 'word', 'kor'],
    ['Urdu', 'word', 'urdu'],
    ['Romansh', 'word', 'romansh', 'rumantsch', 'romansch'],
    ['Mongolian', 'word', 'mongolian', 'khalkha'],
    ['Georgian', 'word', 'georgian', 'geo', 'ka', 'kat'],
    ['Original', 'word', 'orig', 'original'],
  ],
  capitals: { EN: 'English', LT: 'Lithuanian', CZ: 'Czech', PL: 'Polish', BG: 'Bulgarian', SK: 'Slovak', DE: 'German', ES: 'Spanish' },
  firstCapitalOnly: false,
  subtitleLists: false,
};

const SONARR: AppRules = {
  names: { ...SHARED_NAMES, dublado: 'Portuguese (Brazil)', azerbaijan: 'Azerbaijani', uzbek: 'Uzbek' },
  tags: [
    ['English', 'word', 'ing', 'eng'],
    ['Italian', 'word', 'ita', 'italian'],
    ['German', 'ending', 'german'],
    ['German', 'anywhere', 'videomann', 'ger.dub', 'ger dub'],
    ['German', 'word', 'ger'],
    ['Flemish', 'anywhere', 'flemish'],
    ['Greek', 'anywhere', 'greek'],
    ['French', 'loose', 'fr', 'vf', 'vf2', 'vff', 'vfi', 'vfq', 'truefrench', 'french', 'fre', 'fra'],
    ['Russian', 'word', 'rus', 'ru'],
    ['Hungarian', 'word', 'hundub', 'hun'],
    ['Hebrew', 'word', 'hebdub'],
    ['Polish', 'word', 'pl~dub', 'dub~pl', 'lek~pl', 'pl~lek'],
    // "国语音轨": Mandarin audio track
    ['Chinese', 'pattern', ...CHINESE_MARKS, '国语音轨(?=[.+])'],
    ['Bulgarian', 'word', 'bgaudio'],
    ['Spanish', 'word', 'español', 'castellano', 'esp'],
    ['Spanish', 'pattern', `spa(?<!${WORD}spa)(?!\\(Latino\\))(?!${WORD})`],
    ['Ukrainian', 'pattern', `\\dx?ukr(?<!${WORD}\\dx?ukr)|ukr(?<!${WORD}ukr)`],
    ['Thai', 'word', 'thai'],
    ['Romanian', 'word', 'rodubbed', 'romanian'],
    // "Cat" alone is a word; as a language it stands before an audio format or "Subs" ("Esp.DD2.0,Cat.DD2.0"),
    // and the tag takes them in: "esp cat Subs" is Spanish and Catalan audio with subtitles
    ['Catalan', 'pattern', '[-,. ]cat[. ](?:DD|subs)'],
    ['Catalan', 'word', 'catalan', 'catalán'],
    ['Latvian', 'word', 'lat', 'lav', 'lv'],
    ['Turkish', 'word', 'tur'],
    ['Urdu', 'word', 'urdu'],
    ['Romansh', 'word', 'romansh', 'rumantsch', 'romansch'],
    ['Georgian', 'word', 'geo', 'ka', 'kat', 'georgian'],
    ['Japanese', 'anywhere', '(ja)', 'jap', 'jpn'],
    ['Portuguese', 'pattern', '(?<=[_. ])por(?=[_. ])'],
    ['Original', 'word', 'orig', 'original'],
  ],
  capitals: { LT: 'Lithuanian', CZ: 'Czech', PL: 'Polish', BG: 'Bulgarian', SK: 'Slovak', DE: 'German' },
  firstCapitalOnly: true,
  subtitleLists: true,
};

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const spelled = (text: string): string => text.split('~').map(escape).join(`${SEPARATOR}?`);

// Each spelling comes first and its boundaries are checked after it: a regex that starts with a lookbehind runs it at
// every position of the title, which on long titles costs more than the whole parse.
function entrySource([, spotting, ...spellings]: Entry): string {
  if (spotting === 'pattern') return spellings.join('|');
  const sources = spellings.map(spelled);
  if (spotting === 'word') return sources.map((p) => `${p}(?<!${WORD}${p})(?!${WORD})`).join('|');
  if (spotting === 'loose') return sources.map((p) => `${p}(?<!${LETTER_OR_DIGIT}${p})(?!${LETTER_OR_DIGIT})`).join('|');
  if (spotting === 'ending') return sources.map((p) => `${p}(?!${WORD})`).join('|');
  return sources.join('|');
}

interface CompiledRules {
  rules: AppRules;
  /** Every tag as one alternation, a capture group per entry (in table order, as the apps try them). */
  tags: RegExp;
  /** The same, anchored where it is run: is there a tag right here? */
  tagHere: RegExp;
  capitals: RegExp;
}

function compile(rules: AppRules): CompiledRules {
  const alternation = rules.tags.map((entry) => `(${entrySource(entry)})`).join('|');
  const codes = Object.keys(rules.capitals)
    .map((code) => `${code}(?<!${WORD}${code})(?<![Ss][Uu][Bb]${NOT_LETTER_OR_DIGIT}${code})`)
    .join('|');
  // Spanish "ES" is not the "ES" of a "DTS-ES" audio track
  const notAudioTrack = rules.capitals.ES ? '(?<!DTS[._ -]ES)' : '';
  return {
    rules,
    tags: new RegExp(alternation, 'giu'),
    tagHere: new RegExp(alternation, 'iuy'),
    capitals: new RegExp(
      `(${codes})(?!${WORD})${notAudioTrack}(?!${NOT_LETTER_OR_DIGIT}[Ss][Uu][Bb])`,
      'gu',
    ),
  };
}

const COMPILED: Readonly<Record<ReleaseKind, CompiledRules>> = { movie: compile(RADARR), series: compile(SONARR) };
const SUBTITLE_WORD = /^[-_. ]subs?/i;
const LIST_SEPARATOR = /^[-_. ]/;
/** German "DL" (dual language: German and the original), but not the "DL" of "WEB-DL". */
const DUAL_LANGUAGE = /(?<!WEB[-_. ]?)(?<![\p{L}\p{Mn}\p{Nd}\p{Pc}])DL(?![\p{L}\p{Mn}\p{Nd}\p{Pc}])/iu;
/** German "ML" (multi language: German, English and the original). */
const MULTI_LANGUAGE = /(?<![\p{L}\p{Mn}\p{Nd}\p{Pc}])ML(?![\p{L}\p{Mn}\p{Nd}\p{Pc}])/iu;

/**
 * Sonarr: the tag ending at `end` is followed by more tags and then "Sub"/"Subs". `known` remembers the answer for
 * each end already walked, so a long run of tags is walked once.
 */
function namesSubtitles(compiled: CompiledRules, text: string, end: number, known: Map<number, boolean>): boolean {
  const walked: number[] = [];
  let at = end;
  let answer: boolean;
  for (;;) {
    const remembered = known.get(at);
    if (remembered !== undefined) {
      answer = remembered;
      break;
    }
    walked.push(at);
    const rest = text.slice(at, at + 5);
    if (SUBTITLE_WORD.test(rest)) {
      answer = true;
      break;
    }
    compiled.tagHere.lastIndex = at + 1;
    const next = LIST_SEPARATOR.test(rest) ? compiled.tagHere.exec(text) : null;
    if (!next || next[0].length === 0) {
      answer = false;
      break;
    }
    at = next.index + next[0].length;
  }
  for (const position of walked) known.set(position, answer);
  return answer;
}

/**
 * The languages `text` names, as the app of `kind` reads them, in order of appearance; ['Unknown'] when it names
 * none. `Original` stands for the movie's or series' original language: a title alone cannot say which it is.
 */
export function languagesIn(text: string, kind: ReleaseKind): LanguageName[] {
  const compiled = COMPILED[kind];
  const { rules } = compiled;
  const found: { at: number; language: LanguageName }[] = [];
  const lower = text.toLowerCase();
  for (const [name, language] of Object.entries(rules.names)) {
    const at = lower.indexOf(name);
    if (at >= 0) found.push({ at, language });
  }
  compiled.capitals.lastIndex = 0;
  for (let m = compiled.capitals.exec(text); m; m = compiled.capitals.exec(text)) {
    found.push({ at: m.index, language: rules.capitals[m[1]] });
    if (rules.firstCapitalOnly) break;
  }
  const subtitleChains = new Map<number, boolean>();
  compiled.tags.lastIndex = 0;
  for (let m = compiled.tags.exec(text); m; m = compiled.tags.exec(text)) {
    if (m[0].length === 0) {
      compiled.tags.lastIndex++;
      continue;
    }
    const entry = rules.tags[m.findIndex((group, i) => i > 0 && group !== undefined) - 1];
    if (rules.subtitleLists && namesSubtitles(compiled, text, m.index + m[0].length, subtitleChains)) continue;
    found.push({ at: m.index, language: entry[0] });
  }
  const languages = [...new Set(found.sort((a, b) => a.at - b.at).map((f) => f.language))];
  if (languages.length === 0) return ['Unknown'];
  if (languages.length === 1 && languages[0] === 'German') {
    if (DUAL_LANGUAGE.test(text)) languages.push('Original');
    else if (MULTI_LANGUAGE.test(text)) languages.push('Original', 'English');
  }
  return languages;
}

/** Sonarr reads languages from the part after the first "S01"/"S01E02" marker, also within what follows the episode. */
const BEFORE_SEASON_MARKER = /^.*?[_. ](?=S\d{2}(?:E\d{2,4})*[_. ])/is;

/** A group Radarr would take out: one tag ("NOVA", "YTS.LT"), not a credit ("by Someone") or a list ("EN+FR"). */
const GROUP_TAG = /^[\p{L}\p{N}._-]+$/u;

/** Where in a release name each app looks for languages. */
export interface LanguageRegion {
  /** Index where the release's own name starts (after any folders of a path). */
  segmentStart: number;
  /** Index where the title's technical part starts (after the title, year and episode numbers). */
  tailStart: number;
  /** Whether the title parser found the release's anchor: a movie's year, a series' season or episode. */
  anchored: boolean;
  /** The release group, which Radarr leaves out. */
  releaseGroup: string | null;
}

/**
 * The languages of a release name. Radarr reads the whole name but the movie title and the release group (a title
 * without a year, which Radarr cannot parse, is read whole); Sonarr reads what follows the season and episode.
 */
export function parseLanguages(name: string, kind: ReleaseKind, region: LanguageRegion): LanguageName[] {
  if (kind === 'series') {
    return languagesIn((region.anchored ? name.slice(region.tailStart) : name).replace(BEFORE_SEASON_MARKER, ''), kind);
  }
  if (!region.anchored) return languagesIn(name, kind);
  const prefixEnd = region.segmentStart + stripPrefixes(name.slice(region.segmentStart)).offset;
  const text = `${name.slice(region.segmentStart, prefixEnd)} ${name.slice(region.tailStart)}`;
  const group = region.releaseGroup && GROUP_TAG.test(region.releaseGroup) ? region.releaseGroup : null;
  return languagesIn(group ? text.split(group).join(' ') : text, kind);
}
