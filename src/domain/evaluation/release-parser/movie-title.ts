/** Movie title, year and edition (Radarr's conventions). */
import { allMatches, FILE_EXTENSION, LANGUAGE_WORDS } from './vocabulary';
import { DOTS_AND_UNDERSCORES, firstIndex, HAS_TEXT, SPACES, stripPrefixes, type TitleParts } from './title-common';

const YEAR = /(?<![0-9])[([]?((?:1[89]|20)\d\d)[)\]]?(?![0-9a-z])/gi;
const YEAR_FOLLOWS = /^[\s._\-()[\]]*(?:1[89]|20)\d\d(?![0-9a-z])/i;
const YEAR_ANYWHERE = /(?:19|20)\d\d/;
const TRACKER_LANGUAGE = /(?<=[\s._-])(?:German|TrueFrench)(?![\p{L}\p{N}])/giu;
const ARTICLE_BEFORE = /(?<![\p{L}\p{N}])(?:The|Good)[\s._-]$/iu;
/** A folder named "(Year) Title": the year comes first. */
const LEADING_YEAR = /^\(((?:1[89]|20)\d\d)\)[\s._-]*(?=[\p{L}\p{N}])/u;
/** The first technical word after a title: a resolution, source, codec or audio format. */
const STRONG_STOP = new RegExp(
  '(?<=[\\s._\\-([])(?:\\d{3,4}[pi]|\\d{3,4}x\\d{3,4}|4K|UHD|M?Blu-?Ray|BD(?:Rip|Remux|ISO|25|50)?|BRRip|WEB(?:-?DL|-?Rip|Mux)?|HDTV|PDTV|SDTV|DSR|' +
    'TVRip|DVD(?:Rip|R|SCR|5|9)?|HD-?DVD|REMUX|[xh]\\.?26[45]|HEVC|AVC|XviD|DivX|HDCAM|CAMRip|TSRip|TELESYNCH?|TELECINE|WORKPRINT|' +
    'DTS|AAC|AC3|DD[P+]?5\\.1|TrueHD|Atmos|10bit|HDR|HDRip)(?![a-z0-9])',
  'i',
);
/**
 * Where an anime-style name's title ends: a bracket after the title (`[Dual-Audio]`, `[CRC32]`), a parenthesis that
 * holds technical words (`(1080p BD HEVC)`), or a `v2` release version before one of them or the end.
 */
const BRACKET_STOP = new RegExp(
  '[\\p{L}\\p{N}!?\'.)][\\s._-]*(\\[|\\((?=[^)]*(?:\\d{3,4}[pi]|\\d{3,4}x\\d{3,4}|BD|Blu-?Ray|WEB|DVD|HEVC|AVC|x26[45]|FLAC|AAC|Hi10)))' +
    '|[\\s._](v\\d{1,2})(?=[\\s._]*(?:[[(]|$))',
  'iu',
);
const FLAG_WORDS = 'PROPER|REPACK|RERIP|iNTERNAL|MULTi|DUAL|DL|DUBBED|SUBBED|COMPLETE|LIMITED|AC3D|MULTiSUBS';
/** Release flags and language tags: they end a title that has no year, and one that the year follows only later. */
const WEAK_STOP = new RegExp(`(?<=[\\s._\\-([])(?:${FLAG_WORDS}|${LANGUAGE_WORDS.join('|')})(?![\\p{L}\\p{N}])`, 'iu');
/** Text made only of separators and flag or language words (what may stand between an edition and the year). */
const ONLY_FLAGS = new RegExp(`^(?:[\\s._\\-()[\\]]|(?:${FLAG_WORDS}|${LANGUAGE_WORDS.join('|')})(?![\\p{L}\\p{N}]))*$`, 'iu');
const EDITION = new RegExp(
  '(?<![a-z0-9])(' +
    '(?:(?:Extended|Ultimate|Recut)[-_. ])?' +
    "(?:Director['’]?s|Collector['’]?s|" +
    'Theatrical|Ultimate|Extended|Despecialized|Criterion|' +
    '(?:Special|Rogue|Final|Assembly|Imperial|Diamond(?:[-_. ]Luxe)?|Signature|Definitive|Limited|Deluxe|Alternate|Producer\'?s|Hunter|Rekall|Recut)(?=[-_. ](?:Cut|Edition|Version|Collection))|' +
    '\\d{1,3}(?:th|st|nd|rd)?[-_. ]Anniversary)' +
    '(?:[-_. ](?:Cut|Edition|Version|Collection))?' +
    '(?:[-_. ](?:Extended|Uncensored|Remastered|Unrated|Uncut|Open[-_. ]?Matte|IMAX|Fan[-_. ]?Edit|' +
    "Director['’]?s[-_. ]Cut))*" +
    '|(?:4K[-_. ])?Remaster(?:ed)?|Uncensored|Unrated|Uncut|Open[-_. ]?Matte|IMAX(?:[-_. ]Enhanced|[-_. ]Edition)?|Fan[-_. ]?Edit|Restored|[234]in1' +
    ')(?![a-z0-9])',
  'gi',
);

/** Single letters each followed by a dot (`U.N.C.L.E.`, `L.A.`): the apps keep them as written. */
const DOTTED_ACRONYM = /(?<![\p{L}\p{N}])(?:\p{L}\.){2,}/gu;
/** "a.k.a." between two titles is written "AKA". */
const DOTTED_AKA = /(?<![\p{L}\p{N}])a\.k\.a\.?(?![\p{L}\p{N}])/giu;
/** "Dr" keeps its dot ("Dr. Name"); other abbreviations do not. */
const ABBREVIATION = /(?<![\p{L}\p{N}])Dr\.(?=[\p{L}])/giu;
const PLACEHOLDER_DOT = '\u0000';
const PLACEHOLDERS = /\u0000/g;
/** Square and curly brackets, with the spaces around them: one space in all. */
const SQUARE_AND_CURLY = /(?:\s*[[\]{}])+\s*/g;
const PARENTHESES = /[()]/g;
const LEADING_PUNCTUATION = /^[\s\-:|,)]+/;
const TRAILING_PUNCTUATION = /[\s\-:|,(]+$/;

/**
 * A movie title as Radarr prints it: dots and underscores become spaces one for one, except in dotted acronyms and
 * abbreviations; parentheses inside the title are kept (`(500) Days`), other brackets dropped.
 */
function cleanMovieTitle(raw: string): string {
  let text = raw.replace(DOTTED_AKA, 'AKA');
  text = text.replace(DOTTED_ACRONYM, (acronym, index: number) => {
    const glued = /[\p{L}\p{N}]/u.test(text.charAt(index + acronym.length));
    return acronym.replace(/\./g, PLACEHOLDER_DOT) + (glued ? ' ' : '');
  });
  text = text.replace(ABBREVIATION, (abbreviation) => `${abbreviation.slice(0, -1)}${PLACEHOLDER_DOT} `);
  text = text.replace(DOTS_AND_UNDERSCORES, ' ').replace(SQUARE_AND_CURLY, ' ').replace(PLACEHOLDERS, '.');
  text = text.replace(TRAILING_PUNCTUATION, '').replace(LEADING_PUNCTUATION, '');
  if (!parenthesesBalance(text)) text = text.replace(PARENTHESES, ' ').replace(TRAILING_PUNCTUATION, '').replace(LEADING_PUNCTUATION, '');
  return text.trim();
}

function parenthesesBalance(text: string): boolean {
  let depth = 0;
  for (const c of text) {
    if (c === '(') depth++;
    else if (c === ')' && --depth < 0) return false;
  }
  return depth === 0;
}

function normaliseEdition(text: string): string {
  return text.replace(DOTS_AND_UNDERSCORES, ' ').replace(SPACES, ' ').trim();
}

interface EditionMatch {
  index: number;
  end: number;
  edition: string;
}

/** The first edition in `text` that has title text before it and only flag or language words between it and `end`. */
function editionEndingTitle(text: string, end: number): EditionMatch | null {
  for (const m of allMatches(EDITION, text.slice(0, end))) {
    const matchEnd = m.index + m[0].length;
    if (HAS_TEXT.test(text.slice(0, m.index)) && ONLY_FLAGS.test(text.slice(matchEnd, end))) {
      return { index: m.index, end: matchEnd, edition: normaliseEdition(m[1]) };
    }
  }
  return null;
}

/** Where BRACKET_STOP's bracket or version starts (it ends the match), or the text's length. */
function bracketStopIndex(text: string): number {
  const m = BRACKET_STOP.exec(text);
  return m ? m.index + m[0].length - (m[1] ?? m[2]).length : text.length;
}

/** The years that can date the film: after title text, and not followed at once by another year ("Class.of.1999.2004"). */
function candidateYears(text: string): RegExpExecArray[] {
  const textStart = text.search(HAS_TEXT);
  if (textStart < 0) return [];
  return allMatches(YEAR, text).filter((m) => m.index > textStart && !YEAR_FOLLOWS.test(text.slice(m.index + m[0].length)));
}

/** A year right after an edition that has title text before it ("Title 2035 Directors 2012" is 2012): Radarr tries this first. */
function yearAfterEdition(text: string, years: RegExpExecArray[]): RegExpExecArray | null {
  if (years.length === 0) return null;
  const textStart = text.search(HAS_TEXT);
  for (const m of allMatches(EDITION, text)) {
    const end = m.index + m[0].length;
    const year = m.index > textStart ? years.find((y) => y.index >= end) : undefined;
    if (year && ONLY_FLAGS.test(text.slice(end, year.index))) return year;
  }
  return null;
}

/**
 * German and French tracker names ("Title.German.DL.720p", "Title TRUEFRENCH BluRay 2016"): the language word ends the
 * title unless it starts the name, a year comes before it, or it follows "The" or "Good" ("The Good German" is a film).
 */
function trackerLanguageWord(text: string): number {
  for (const m of allMatches(TRACKER_LANGUAGE, text)) {
    const before = text.slice(0, m.index);
    if (!HAS_TEXT.test(before) || YEAR_ANYWHERE.test(before) || ARTICLE_BEFORE.test(before)) continue;
    return m.index;
  }
  return -1;
}

/** Movie title, year and edition (Radarr's "Title (Year) …" convention). */
export function parseMovieTitle(name: string): TitleParts {
  const prefixes = stripPrefixes(name);
  let offset = prefixes.offset;
  let text = prefixes.text.replace(FILE_EXTENSION, '');
  let leadingYear: number | null = null;
  const leading = LEADING_YEAR.exec(text);
  if (leading) {
    leadingYear = Number(leading[1]);
    offset += leading[0].length;
    text = text.slice(leading[0].length);
  }
  const bracketStop = bracketStopIndex(text);
  const strongStop = Math.min(firstIndex(STRONG_STOP, text), bracketStop);
  const weakStop = Math.min(strongStop, firstIndex(WEAK_STOP, text));
  const tracker = trackerLanguageWord(text);
  const years = candidateYears(text);
  const yearMatch = (tracker < 0 ? yearAfterEdition(text, years) : null) ?? years.find((y) => y.index >= tracker) ?? null;
  // Radarr's title runs to the year, technical words included ("Title FRENCH BluRay 720p 2016" keeps them).
  let titleEnd = tracker >= 0 ? tracker : yearMatch ? Math.min(yearMatch.index, bracketStop) : weakStop;
  let edition: string | null = null;
  const before = editionEndingTitle(text, tracker >= 0 ? tracker : yearMatch ? yearMatch.index : strongStop);
  if (before) {
    edition = before.edition;
    titleEnd = Math.min(titleEnd, before.index);
  } else {
    const after = allMatches(EDITION, text.slice(titleEnd))[0];
    if (after) edition = normaliseEdition(after[1]);
  }
  // The technical part starts where the title ends, or at the first flag word when the title ran past a technical word.
  let tailStart = strongStop < titleEnd ? weakStop : titleEnd;
  let title = cleanMovieTitle(text.slice(0, titleEnd));
  if (!title) {
    title = cleanMovieTitle(text.slice(0, Math.max(strongStop, titleEnd)));
    if (!title) tailStart = 0;
  }
  const year = yearMatch ? Number(yearMatch[1]) : leadingYear;
  return { title, year, edition, tailStart: offset + tailStart };
}
