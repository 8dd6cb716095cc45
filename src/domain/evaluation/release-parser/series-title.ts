/**
 * Sonarr's series-release conventions: the season/episode marker of a title (S01E01, 1x01, scene "103", season and
 * multi-season packs, daily air dates, anime absolute numbers, mini-series parts, specials) and the series title
 * before it. Markers are tried in the order Sonarr prefers them (docs/evaluation.md, "Series releases (Sonarr)").
 */
import { parseMovieTitle } from './movie-title';
import { allMatches } from './vocabulary';
import { cleanTitle, stripPrefixes, type TitleParts } from './title-common';
import type { SeriesInfo, SeriesReleaseType } from './types';

export interface SeriesMatch {
  info: SeriesInfo;
  /** Where the marker starts and ends in the name; the title is the text before `index`. */
  index: number;
  end: number;
  /** Where the title starts when it is not the name's start ("221208 Show ep34": after the broadcast date). */
  titleStart?: number;
}

const NO_SERIES_INFO: SeriesInfo = {
  seasonNumber: null, episodeNumbers: [], absoluteEpisodeNumbers: [], fullSeason: false, airDate: null, seasonNumbers: [], special: false,
};

function info(patch: Partial<SeriesInfo>): SeriesInfo {
  return { ...NO_SERIES_INFO, episodeNumbers: [], absoluteEpisodeNumbers: [], seasonNumbers: [], ...patch };
}

/** first..last, as Sonarr expands every multi-episode marker (S01E01E03 is episodes 1, 2 and 3). */
function range(first: number, last: number): number[] {
  if (last <= first || last - first > 500) return [first];
  return Array.from({ length: last - first + 1 }, (_, i) => first + i);
}

const sticky = (re: RegExp) => new RegExp(re.source, 'iy');

// ---- S01E01 and its spellings -------------------------------------------------------------------------------------

/** S01E01, S01.E01, S01 E01, S01Ep01, S01.Ep.01, S01EP01, S1-E1, S02 - E06 (a glued "zoos01e11" counts: group-titles). */
const STANDARD = /(?<![0-9])S(\d{1,4})(?:[. ]?-?[. ]?E|[. ]?EP[. ]?|[. ]?E[.])(\d{1,5})(?!\d)/gi;
/** Season 01 Episode 05, Season 1 - Episode 01, Temporada 1 Capitulo 3, Season 39 ep11. */
const WORDS = /(?<![a-z0-9])(?:Season|Saison|Temporada|Stagione|Staffel)[ .]?(\d{1,4})[ .]*-?[ .]*(?:Episode|Episodio|Capitulo|Ep\.?)[ .]?(\d{1,4})(?!\d)/i;
/** Dutch: Se.3 afl.3 (and afl.2-3-4, afl.3 en 4). */
const DUTCH = /(?<![a-z0-9])Se\.?[ ]?(\d{1,2})[ .]+afl\.?[ ]?(\d{1,3})(?!\d)/i;
/** Spanish trackers: [Cap.101] is season 1 episode 01, [Cap.111_120] episodes 11 to 20. */
const CAP = /\[Cap\.?\s?(\d{1,2})(\d{2})(?:[ _](?:\d{1,2})?(\d{2}))?\]/i;
/** After an episode: E02, -E03, -03, .S03E02, " - S07E23", " E10", "-Ep10722", " en 4". */
const STANDARD_NEXT = sticky(
  /(?:[. ]?(?:-[. ]?)?(?:S\d{1,4}[. ]?)?E[P.]?[. ]?|[. ]?-[. ]?Ep|-|\sen\s)(\d{1,5})(?![\d_]|[a-z]{2}|p\b)/,
);
/** A split episode (S06E01b), a decimal special (S01E11.5), a version (S01E01v2) right after the number. */
const EPISODE_SUFFIX = sticky(/(?:\.5(?!\d)|[ab](?![a-z])|\s?v\d(?![a-z0-9]))?/);
/** "S1E1-8 of 8": every episode of the season, which Sonarr reads as a season pack. */
const OF_TOTAL = sticky(/[ ._]?of[ ._]?(\d{1,3})(?!\d)/);

function episodeRun(text: string, start: number, first: number, next: RegExp): { episodes: number[]; end: number } {
  let last = first;
  let end = start;
  for (;;) {
    next.lastIndex = end;
    const m = next.exec(text);
    if (!m) break;
    const n = Number(m[m.length - 1]);
    if (n <= last) break;
    last = n;
    end = next.lastIndex;
  }
  return { episodes: range(first, last), end };
}

/** A marker glued inside a word on both sides ("cwnOJYks5E2WP7", a hash) is not one; "zoos01e11-1080p" is. */
function standardMatch(text: string): RegExpExecArray | null {
  return allMatches(STANDARD, text).find((m) => !(/\p{L}/u.test(text[m.index - 1] ?? '') && /[a-df-z]/i.test(text[m.index + m[0].length] ?? ''))) ?? null;
}

function standardMarker(text: string): SeriesMatch | null {
  let m = standardMatch(text);
  if (!m) {
    m = WORDS.exec(text) ?? DUTCH.exec(text);
    if (!m) return cap(text);
  }
  const season = Number(m[1]);
  const run = episodeRun(text, m.index + m[0].length, Number(m[2]), STANDARD_NEXT);
  EPISODE_SUFFIX.lastIndex = run.end;
  const suffix = EPISODE_SUFFIX.exec(text);
  const end = run.end + (suffix ? suffix[0].length : 0);
  const special = season === 0 || run.episodes[0] === 0 || suffix?.[0] === '.5';
  OF_TOTAL.lastIndex = run.end;
  const total = OF_TOTAL.exec(text);
  if (total && run.episodes.length > 1 && run.episodes[0] === 1 && run.episodes[run.episodes.length - 1] === Number(total[1])) {
    return { info: info({ seasonNumber: season, fullSeason: true, seasonNumbers: [season] }), index: m.index, end };
  }
  return { info: info({ seasonNumber: season, episodeNumbers: run.episodes, seasonNumbers: [season], special }), index: m.index, end };
}

function cap(text: string): SeriesMatch | null {
  const m = CAP.exec(text);
  if (!m) return null;
  const season = Number(m[1]);
  const episodes = m[3] !== undefined ? range(Number(m[2]), Number(m[3])) : [Number(m[2])];
  const before = /[-\s]*(?:Temporada\s?\d{1,2}[-\s]*)?(?:\[[^\]]*\])*\s*$/i.exec(text.slice(0, m.index));
  return { info: info({ seasonNumber: season, episodeNumbers: episodes, seasonNumbers: [season] }), index: before ? before.index : m.index, end: m.index + m[0].length };
}

// ---- 1x01 -----------------------------------------------------------------------------------------------------------

const CROSS = /(?<![a-z0-9])(\d{1,4})x(\d{1,3})(?![\dp])/i;
/** After a 1x01: x02, -x03, -02, -2x10, _02, .2x05, " - 2010x16". */
const CROSS_NEXT = sticky(/(?:\s?-\s?\d{1,4}x|[.-]\d{1,4}x|-?x|-|_)(\d{1,3})(?![\dp])/);
/** "11-02 The Series": a season-episode pair that opens the name. */
const LEADING_DASH = /^(\d{1,2})-(\d{2})\s/;

function isYear(n: number): boolean {
  return n >= 1900 && n <= 2099;
}

function crossMarker(text: string): SeriesMatch | null {
  const m = CROSS.exec(text);
  if (m) {
    const season = Number(m[1]);
    // 1280x720 is a frame size; a season this large is a year (2009x09)
    if (season < 100 || isYear(season)) {
      const run = episodeRun(text, m.index + m[0].length, Number(m[2]), CROSS_NEXT);
      return { info: info({ seasonNumber: season, episodeNumbers: run.episodes, seasonNumbers: [season], special: season === 0 || run.episodes[0] === 0 }), index: m.index, end: run.end };
    }
  }
  const lead = LEADING_DASH.exec(text);
  if (lead) {
    const season = Number(lead[1]);
    return { info: info({ seasonNumber: season, episodeNumbers: [Number(lead[2])], seasonNumbers: [season] }), index: 0, end: lead[0].length - 1 };
  }
  return null;
}

// ---- daily: air dates ------------------------------------------------------------------------------------------------

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const YMD = /(?<![0-9])((?:19|20)\d{2})[-. ](\d{1,2})[-. ](\d{1,2})(?![0-9])/;
const DMY = /(?<![0-9A-Za-z])(\d{1,2})[-. ](\d{1,2})[-. ]((?:19|20)\d{2})(?![0-9])/;
const YMD_GLUED = /(?<![0-9])((?:19|20)\d{2})(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])(?![0-9])/;
const YYMMDD = /(?<=[. ])(\d{2})(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])(?=[. ]|$)/;
const DAY_MONTH_NAME = /(?<![0-9])(\d{1,2})(?:st|nd|rd|th)[ .](Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*[ .]((?:19|20)\d{2})(?![0-9])/i;
/** A Korean broadcast "E56.190121": the episode number leads, the date follows. */
const EPISODE_BEFORE = /E\d{1,4}(?:-E\d{1,4})?[. ]$/i;
/** Sonarr accepts no air date before 1951. */
const FIRST_AIR_YEAR = 1951;

function validDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  return d <= new Date(Date.UTC(y, m, 0)).getUTCDate();
}

const iso = (y: number, m: number, d: number) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;

interface DateFound {
  airDate: string | null;
  index: number;
  end: number;
}

/** The air date of a daily show; `airDate` null when the date is there but Sonarr would refuse it (ambiguous, too old). */
function findDate(text: string): DateFound | null {
  const found: DateFound[] = [];
  const add = (m: RegExpExecArray | null, y: number, mo: number, d: number, ok = true) => {
    if (!m) return;
    const valid = ok && y >= FIRST_AIR_YEAR && validDate(y, mo, d);
    found.push({ airDate: valid ? iso(y, mo, d) : null, index: m.index, end: m.index + m[0].length });
  };
  const ymd = YMD.exec(text);
  if (ymd) {
    const [y, a, b] = [Number(ymd[1]), Number(ymd[2]), Number(ymd[3])];
    // 2012.16.02: Sonarr reads a day that cannot be a month as year.day.month
    if (a > 12 && b <= 12) add(ymd, y, b, a);
    else add(ymd, y, a, b);
  }
  const dmy = DMY.exec(text);
  if (dmy) {
    const [a, b, y] = [Number(dmy[1]), Number(dmy[2]), Number(dmy[3])];
    if (a > 12) add(dmy, y, b, a);
    else if (b > 12) add(dmy, y, a, b);
    else add(dmy, y, a, b, false);
  }
  const glued = YMD_GLUED.exec(text);
  if (glued) add(glued, Number(glued[1]), Number(glued[2]), Number(glued[3]));
  const short = YYMMDD.exec(text);
  if (short && short.index > 0 && !EPISODE_BEFORE.test(text.slice(0, short.index))) add(short, 2000 + Number(short[1]), Number(short[2]), Number(short[3]));
  const named = DAY_MONTH_NAME.exec(text);
  if (named) add(named, Number(named[3]), MONTHS.indexOf(named[2].slice(0, 3).toLowerCase()) + 1, Number(named[1]));
  found.sort((x, y) => x.index - y.index);
  return found[0] ?? null;
}

// ---- season packs ----------------------------------------------------------------------------------------------------

const SEASON = /(?<![a-z0-9])(?:S[ ]?(\d{1,2}|\d{4})|(?:Season|Saison|Temporada|Stagione|Staffel)[ .]?(\d{1,4})|(?<=\s-\s)Series\s(\d{1,2}))(?![0-9])/i;
/** The last season of a multi-season pack: S01-05, S01-S09, S01 - S07, Season 01 - Season 07, S01 S04, S01 04. */
const SEASON_LAST = sticky(/(?:[ .]?-[ .]?|\s)(?:S|Season\s?)?(\d{1,2})(?![0-9]|[. ]?E\d|x\d)/);
/** After a season: a part of it (S02.Part.1, S07.Vol.1, S06.P1), extras and subpacks, a special. */
const SEASON_PART = sticky(/[ .](?:Part|Vol|P)[ .]?\d{1,2}(?![0-9])/);
const SEASON_SPECIAL = sticky(/[ .-]+Special(?![a-z])/);
/** "Titles.s06.01.1999": a season and an episode with only a dot between. */
const SEASON_DOT_EPISODE = sticky(/\.(\d{2})(?=\.)/);

function seasonMarker(text: string): SeriesMatch | null {
  const m = SEASON.exec(text);
  if (!m || !/[\p{L}\p{N}]/u.test(text.slice(0, m.index))) return null;
  const first = Number(m[1] ?? m[2] ?? m[3]);
  const end = m.index + m[0].length;
  // "Anime Title S21 999": the season belongs to the title, the number is an absolute episode
  if (/^\s(?!(?:19|20)\d{2}(?!\d))\d{3,4}(?:\s|$)/.test(text.slice(end))) return null;
  SEASON_DOT_EPISODE.lastIndex = end;
  const dotted = m[1] !== undefined ? SEASON_DOT_EPISODE.exec(text) : null;
  if (dotted) {
    return { info: info({ seasonNumber: first, episodeNumbers: [Number(dotted[1])], seasonNumbers: [first] }), index: m.index, end: end + dotted[0].length };
  }
  SEASON_LAST.lastIndex = end;
  const last = SEASON_LAST.exec(text);
  if (last && Number(last[1]) > first) {
    const seasons = range(first, Number(last[1]));
    return { info: info({ seasonNumber: first, fullSeason: true, seasonNumbers: seasons }), index: m.index, end: SEASON_LAST.lastIndex };
  }
  SEASON_PART.lastIndex = end;
  if (SEASON_PART.test(text)) return { info: info({ seasonNumber: first, seasonNumbers: [first] }), index: m.index, end: SEASON_PART.lastIndex };
  SEASON_SPECIAL.lastIndex = end;
  const special = SEASON_SPECIAL.test(text);
  return { info: info({ seasonNumber: first, fullSeason: true, seasonNumbers: [first], special }), index: m.index, end };
}

// ---- scene "103": season 1 episode 03 ----------------------------------------------------------------------------------

/** A number of 3 to 6 digits between separators after a title: 103 (1x03), 1013 (10x13), 10708 (1x07-08), 010910. */
const COMPACT = /(?<=[a-z0-9!'][._-]|^[a-z0-9][._-]?)(?<![hx]\.)(?!(?:19|20)\d{2}(?!\d))(\d{3,6})((?:\.\d{3,4})*)(?=[._-]|$)/gi;
const TECHNICAL = /(?<![a-z0-9])(?:\d{3,4}[pi]|HDTV|WEB|BluRay|BDRip|DVDRip|[xh]\.?26[45]|XviD)(?![a-z0-9])/i;

function compactNumbers(digits: string): { season: number; episodes: number[] } | null {
  switch (digits.length) {
    case 3:
      return { season: Number(digits[0]), episodes: [Number(digits.slice(1))] };
    case 4:
      return isYear(Number(digits)) ? null : { season: Number(digits.slice(0, 2)), episodes: [Number(digits.slice(2))] };
    case 5:
      return { season: Number(digits[0]), episodes: [Number(digits.slice(1, 3)), Number(digits.slice(3))] };
    case 6:
      return { season: Number(digits.slice(0, 2)), episodes: [Number(digits.slice(2, 4)), Number(digits.slice(4))] };
    default:
      return null;
  }
}

/** A hexadecimal hash or GUID part ("bdc435cb"): the numbers near it are not scene numbering. */
const HEX_HASH = /(?<![a-z0-9])(?=[a-f]*\d)(?=\d*[a-f])[0-9a-f]{8,}(?![a-z0-9])/i;

function compactMarker(text: string): SeriesMatch | null {
  for (const m of allMatches(COMPACT, text)) {
    if (m.index === 0 || TECHNICAL.test(text.slice(0, m.index)) || HEX_HASH.test(text.slice(0, m.index))) return null;
    const parsed = compactNumbers(m[1]);
    if (!parsed || parsed.episodes[0] === 0) continue;
    // a continuation that is not an episode number ("1492.1955": a year) ends the chain
    const more: NonNullable<ReturnType<typeof compactNumbers>>[] = [];
    for (const d of m[2] ? m[2].split('.').filter(Boolean) : []) {
      const next = compactNumbers(d);
      if (!next) break;
      more.push(next);
    }
    const last = more.length > 0 ? more[more.length - 1].episodes.at(-1)! : parsed.episodes.at(-1)!;
    const episodes = range(parsed.episodes[0], last);
    return { info: info({ seasonNumber: parsed.season, episodeNumbers: episodes, seasonNumbers: [parsed.season] }), index: m.index, end: m.index + m[0].length };
  }
  return null;
}

// ---- anime absolute numbers ---------------------------------------------------------------------------------------------

/** " - 01", " - 09v2", " - 01~10", " - 091-123"; followed by the end, a bracket, a dot, " - " or a word. */
const DASH_ABSOLUTE = /(?:[\s.]-[\s.]+|(?<=[a-z])-(?=\d{2,4}\[))(\d{1,4})(?:v\d)?(?:\s?~\s?(\d{1,4})|(?:-\d{1,4})*-(\d{1,4})|\s-\s(\d{1,4})(?=\s*[[(]|$))?(?:v\d)?(?![\d:x-]|[pi](?![a-z])|bit|\.\d(?!\d)|\s?-\S)/gi;
/** Ep01, EP06, Episode 56, Episodio 13, #957, 第05话, Ep01-12, Episode 99-100. */
const EPISODE_WORD = /(?<![a-z0-9])(?:Episode|Episodio|Ep\.?|#|第)\s?(\d{1,4})(?:[-~](?:Ep)?(\d{1,4}))?(?:[话話集]|(?!\d|\.5(?!\d)))/i;
/** A bracketed number: [05], [12END], [01-24完], [215 Fin], {01}, [第1008話]. */
const BRACKET_ABSOLUTE = /[[{](?:第)?(\d{1,4})(?:v\d)?(?:-(\d{1,4}))?\s?(?:END|Fin|完|集|话|話)?[\]}]/gi;
/** A batch in parentheses: (01-25), (892-916). */
const PAREN_RANGE = /\((\d{1,4})-(\d{1,4})\)/;
/** Turkish: 69. Bölüm, 60.Bolum, 01 BLM. */
const TURKISH = /(?<![0-9])(\d{1,4})\.?\s?(?:Bölüm|Bolum|BLM)(?![a-z])/i;
/** E1135: a four- or three-digit episode with no season is an absolute number (E191.190121 is a Korean episode). */
const LONG_E = /(?<![a-z0-9])E(\d{3,4})(?![0-9a-z])(?![. ]\d{6}(?![0-9]))/i;
/** A bare number: "Show 214", "Show 01 Role Play", "Show 091-123", "Show 01 - 119". */
const BARE_ABSOLUTE = /(?<=[\s.])(\d{1,4})(?:v\d)?(?:\s?[-~]\s?(\d{1,4}))?(?=\s|\.|$|\[|\()(?!\s?[-:x]\S|\.\d)/g;
/** "- 12.5", "- 26.5.1": a recap between episodes, a special without an absolute number Sonarr keeps. */
const DECIMAL_SPECIAL = /\s-\s(\d{1,4})\.5(?:\.\d)?(?![0-9])/;
/** "- 01 - OVA": an absolute special. */
const SPECIAL_AFTER = /^\s-\s(?:Special|OVA|OVD|OAD)(?![a-z])/i;
/** Anime specials with no number: "Title OVA - …", "Title - NCOP". */
const SPECIAL_WORD = /\s(?:-\s)?(?:OVA|OVD|OAD|NCOP|NCED)(?![a-z0-9])/;
/** "(Season 2) - 33": the season an anime names beside its absolute number. */
const SEASON_BESIDE = /\(Season (\d{1,2})\)\s*$/i;

function absoluteInfo(m: RegExpExecArray, text: string): SeriesMatch {
  const first = Number(m[1]);
  const last = m.slice(2).find((g) => g !== undefined);
  const numbers = last !== undefined ? range(first, Number(last)) : [first];
  const end = m.index + m[0].length;
  if (SPECIAL_AFTER.test(text.slice(end))) {
    return { info: info({ seasonNumber: 0, absoluteEpisodeNumbers: numbers, seasonNumbers: [0], special: true }), index: m.index, end };
  }
  const beside = SEASON_BESIDE.exec(text.slice(0, m.index));
  if (beside) {
    const season = Number(beside[1]);
    return { info: info({ seasonNumber: season, absoluteEpisodeNumbers: numbers, seasonNumbers: [season] }), index: m.index - beside[0].length, end };
  }
  return { info: info({ absoluteEpisodeNumbers: numbers }), index: m.index, end };
}

/** "Show 01 - 119 [Batch]": in an anime title a number right before the dash opens a range. */
function batchStart(text: string, m: RegExpExecArray): RegExpExecArray {
  const before = /\s(0\d{1,3})$/.exec(text.slice(0, m.index));
  if (!before || !ANIME_GROUP.test(text) || isYear(Number(before[1])) || Number(before[1]) >= Number(m[1])) return m;
  const widened = [before[0], before[1], m[1]] as unknown as RegExpExecArray;
  widened.index = before.index + 1;
  widened[0] = text.slice(widened.index, m.index + m[0].length);
  return widened;
}

function dashAbsolute(text: string): RegExpExecArray | null {
  let fallback: RegExpExecArray | null = null;
  for (const m of allMatches(DASH_ABSOLUTE, text)) {
    if (m.index === 0 || (isYear(Number(m[1])) && m[1].length === 4)) continue;
    // "- 100 Years Quest - 01": a number that a word follows belongs to the title when a later one stands alone
    if (/^(?:\s*(?:$|[[(.]|-\s|v\d|~))/i.test(text.slice(m.index + m[0].length))) return batchStart(text, m);
    fallback ??= m;
  }
  return fallback;
}

function absoluteMarker(text: string): SeriesMatch | null {
  const dash = dashAbsolute(text);
  if (dash) return absoluteInfo(dash, text);
  for (const re of [EPISODE_WORD, TURKISH, LONG_E, PAREN_RANGE]) {
    const m = re.exec(text);
    if (m && m.index > 0) return absoluteInfo(m, text);
  }
  for (const bracket of allMatches(BRACKET_ABSOLUTE, text)) {
    if (bracket.index > 0 && !isYear(Number(bracket[1]))) return absoluteInfo(bracket, text);
  }
  return null;
}

function bareAbsolute(text: string): SeriesMatch | null {
  for (const m of allMatches(BARE_ABSOLUTE, text)) {
    // a number after the technical part ("H.264", "AAC 2.0") is not an episode
    const before = text.slice(0, m.index);
    if (TECHNICAL.test(before) || HEX_HASH.test(before) || /[hx]\.$/i.test(before)) return null;
    if (m.index === 0 || (m[1].length === 4 && isYear(Number(m[1])))) continue;
    if (m[1].length === 1 && m[2] === undefined) continue;
    return absoluteInfo(m, text);
  }
  return null;
}

/** The absolute number an anime release puts beside its S01E05: "- 05 - S01E05", "214 10x14", "S01E01 001", "(001-002)". */
const ABSOLUTE_BEFORE = /(?:\s-\s|\s\(?)(\d{2,4})(\.5)?(?:\s-\s|\s\(|\s)$/;
const ABSOLUTE_AFTER = /^(?:\s-\s|[ .])(?:\((\d{2,4}(?:-\d{2,4})*)\)|(\d{2,4}(?:-\d{2,4})*))(?=[\s.\]]|$)/;

function besideAbsolute(text: string, marker: SeriesMatch, anime: boolean): SeriesMatch {
  const before = ABSOLUTE_BEFORE.exec(text.slice(0, marker.index));
  // a bare number before the marker is the title's ("Series at Age 29 S01E03") unless it has three digits or a dash
  if (anime && before && !isYear(Number(before[1])) && (before[1].length > 2 || !/^\s\d/.test(before[0]))) {
    // "- 05.5 - S00E01": the recap number is left out, the special's S00E01 counts
    if (before[2]) return { ...marker, index: before.index };
    return { ...marker, info: { ...marker.info, absoluteEpisodeNumbers: [Number(before[1])] }, index: before.index };
  }
  const after = ABSOLUTE_AFTER.exec(text.slice(marker.end));
  if (after && (anime || after[1] !== undefined || /^0\d\d/.test(after[2]))) {
    const numbers = (after[1] ?? after[2]).split('-').map(Number);
    const absolutes = range(numbers[0], numbers[numbers.length - 1]);
    return { ...marker, info: { ...marker.info, absoluteEpisodeNumbers: absolutes }, end: marker.end + after[0].length };
  }
  return marker;
}

// ---- mini-series -----------------------------------------------------------------------------------------------------

const PART_WORDS = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];
/** Title.E05, Title.Part.2, Title Part 02, Title Part01, Title.Part.Two, Title.5of9, Title.E07-E08. */
const MINISERIES = /(?<![a-z0-9])(?:E(\d{1,4})(?:-E(\d{1,4}))?|(?<!\()(?:Part|Pt)[ .]{0,2}(\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten)|(\d{1,2})of\d{1,2})(?![0-9a-z])/i;

function miniSeriesMarker(text: string): SeriesMatch | null {
  const m = MINISERIES.exec(text);
  if (!m || m.index === 0) return null;
  const word = m[3];
  const first = Number(m[1] ?? m[4] ?? (word && /^\d/.test(word) ? word : PART_WORDS.indexOf(word?.toLowerCase() ?? '') + 1));
  const episodes = m[2] !== undefined ? range(first, Number(m[2])) : [first];
  return { info: info({ seasonNumber: 1, episodeNumbers: episodes, seasonNumbers: [1] }), index: m.index, end: m.index + m[0].length };
}

// ---- the marker of a release -----------------------------------------------------------------------------------------

/** "221208 Show ep34": a Japanese variety show's broadcast date opens the name; its episodes are season 1. */
const VARIETY = /^\d{6}\s/;
const VARIETY_EPISODE = /(?<![a-z0-9])(?:ep|#)(\d{1,4})(?![0-9])/i;
const ANIME_GROUP = /^\[[^\]]+\]/;
const ALL_BRACKETS = /^(?:\s*\[[^\]]*\])+/;

/** Underscores are spaces and full-width brackets are brackets to Sonarr; the text keeps its length (indexes stay). */
function normalise(name: string): string {
  return name
    .replace(/_/g, ' ')
    .replace(/【/g, '[')
    .replace(/】/g, ']')
    .replace(/[０-９]/g, (d) => String(d.charCodeAt(0) - 0xff10));
}

function varietyMarker(text: string): SeriesMatch | null {
  if (!VARIETY.test(text)) return null;
  let found: SeriesMatch | null = WORDS.test(text) ? standardMarker(text) : null;
  const ep = found ? null : VARIETY_EPISODE.exec(text);
  if (ep) found = { info: info({ seasonNumber: 1, episodeNumbers: [Number(ep[1])], seasonNumbers: [1] }), index: ep.index, end: ep.index + ep[0].length };
  return found && { ...found, titleStart: 7 };
}

function dailyBeats(date: DateFound, marker: SeriesMatch, text: string): boolean {
  return date.index < marker.index && /[\p{L}\p{N}]/u.test(text.slice(date.end, marker.index));
}

/** Finds the season/episode marker of a series release (Sonarr's conventions). */
export function findSeriesInfo(name: string): SeriesMatch | null {
  const text = normalise(name);
  const anime = ANIME_GROUP.test(text);
  const date = findDate(text);
  const variety = varietyMarker(text);
  if (variety) return variety;
  for (const marker of [standardMarker(text), crossMarker(name)]) {
    if (!marker) continue;
    if (date?.airDate && dailyBeats(date, marker, text)) break;
    return besideAbsolute(text, marker, anime);
  }
  // a Turkish episode names its air date beside it: "69. Bölüm (29.10.2023)"
  const turkish = TURKISH.exec(text);
  if (turkish && turkish.index > 0) return absoluteInfo(turkish, text);
  if (date) {
    if (!date.airDate) return null;
    return { info: info({ airDate: date.airDate }), index: date.index, end: date.end };
  }
  const decimal = DECIMAL_SPECIAL.exec(text);
  if (decimal && decimal.index > 0) return { info: info({ special: true }), index: decimal.index, end: decimal.index + decimal[0].length };
  const absolute = absoluteMarker(text);
  const season = seasonMarker(text);
  if (absolute && (!season || season.index < absolute.index || anime)) return absolute;
  if (season) return season;
  const mini = miniSeriesMarker(text);
  if (mini) return mini;
  if (!anime) {
    // underscores count here: "Title_209_Episode" is scene numbering, "Title S21 999" is not
    const compact = compactMarker(name);
    if (compact) return compact;
  }
  const special = anime ? SPECIAL_WORD.exec(text) : null;
  if (special && special.index > 0) return { info: info({ seasonNumber: 0, seasonNumbers: [0], special: true }), index: special.index, end: special.index + special[0].length };
  return bareAbsolute(text);
}

/** Sonarr's ParsedEpisodeInfo.ReleaseType: episodes (or absolute numbers) first, then a full season; a daily air date alone is Unknown. */
export function seriesReleaseType(info: SeriesInfo | null): SeriesReleaseType {
  if (!info) return 'unknown';
  const count = Math.max(info.episodeNumbers.length, info.absoluteEpisodeNumbers.length);
  if (count > 1) return 'multiEpisode';
  if (count === 1) return 'singleEpisode';
  if (info.fullSeason) return 'seasonPack';
  return 'unknown';
}

// ---- the series title --------------------------------------------------------------------------------------------------

const TRAILING_YEAR = /[\s._([-]+((?:19|20)\d{2})[)\]]?$/;
const HAS_LATIN = /\p{Script=Latin}/u;
const NON_LATIN_WORD = /^[^\p{Script=Latin}]*[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Cyrillic}][^\p{Script=Latin}]*$/u;
const HAN_WORD_OR_DIGITS = /^[^\p{Script=Latin}]*[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}][^\p{Script=Latin}]*$/u;
const OTHER_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Cyrillic}]/u;
/** A word in Chinese or Japanese script alone (no Latin letter, no digit), which Sonarr leaves out of a Latin title. */
const HAN_WORD = /^[^\p{Script=Latin}0-9]*[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}][^\p{Script=Latin}0-9]*$/u;
/** Words Sonarr drops from a series title: "Complete Series" before a multi-season marker, "(Miniserie)", a lone "?". */
const TITLE_NOISE = /\s*\(Miniseries?\)|\s+Complete(?:\s+Series)?\s*$|[?<>]/gi;
const TITLE_SEPARATORS = /[\s._\-/[({|·]+$/;

/** Of "A / B" titles where one is in another script, the Latin one (the last when several are). */
function latinAlternative(raw: string): string {
  const parts = raw.split(/\s[/|]\s|\s?[/·]\s?(?=\S)/);
  if (parts.length < 2 || !OTHER_SCRIPT.test(raw)) return raw;
  const latin = parts.filter((p) => HAS_LATIN.test(p));
  return latin.length > 0 ? latin[latin.length - 1] : raw;
}

/** Drops words in another script at either end of a Latin title ("我的人间烟火 Fireworks Series", "ANIME SERIES 海賊王"). */
function trimOtherScripts(raw: string): string {
  if (!HAS_LATIN.test(raw)) return raw;
  const words = raw.split(/(?<=[\s.\]])|(?=[\s.[])/);
  const isSpace = (w: string) => w.trim() === '' || /^[\s.[\]]+$/.test(w);
  // a leading word may carry digits ("全24集"), a trailing one not ("17研究所！" is a title)
  const leading = (w: string) => isSpace(w) || HAN_WORD_OR_DIGITS.test(w.replace(/[[\]]/g, ''));
  const trailing = (w: string) => isSpace(w) || HAN_WORD.test(w.replace(/[[\]]/g, ''));
  let start = 0;
  let end = words.length;
  while (start < end && leading(words[start])) start++;
  while (end > start && trailing(words[end - 1])) end--;
  return words.slice(start, end).join('');
}

/** A title inside brackets ("[Group][其他][Some Title][05]"): the first all-Latin bracket, else the first with Latin, else the last. */
function bracketedTitle(text: string): string | null {
  const segments = [...text.matchAll(/\[([^\]]*)\]/g)].map((m) => m[1].trim());
  const candidates = segments.slice(1).filter((s) => s && !/^\d{4}$/.test(s) && !/^\d{1,2}月新番$/.test(s));
  if (candidates.length === 0) return null;
  const pure = candidates.find((s) => HAS_LATIN.test(s) && !s.split(/[\s/_·]+/).some((w) => NON_LATIN_WORD.test(w)));
  return pure ?? candidates.find((s) => HAS_LATIN.test(s)) ?? candidates[candidates.length - 1];
}

/** Series title and year from the text before the season/episode marker. */
export function parseSeriesTitle(name: string, series: SeriesMatch | null): TitleParts {
  if (!series) {
    const movie = parseMovieTitle(name);
    return { ...movie, edition: null };
  }
  const text = normalise(name);
  // "★10月新番★" announces a season's new shows; a marker inside brackets leaves the bracket open before it
  const before = text
    .slice(series.titleStart ?? 0, Math.max(series.index, 0))
    .replace(/[[({]\s*$/, '')
    .replace(/\s*★[^[\]]*/g, '');
  let raw: string;
  const onlyBrackets = ALL_BRACKETS.exec(before);
  if (onlyBrackets && onlyBrackets[0].length === before.trimEnd().length && /\]\s*$/.test(before)) raw = bracketedTitle(before) ?? '';
  else raw = stripPrefixes(before).text;
  raw = trimOtherScripts(latinAlternative(raw.replace(TITLE_SEPARATORS, '')));
  raw = raw.replace(TITLE_NOISE, '').replace(TITLE_SEPARATORS, '');
  let year: number | null = null;
  const trailingYear = TRAILING_YEAR.exec(raw);
  if (trailingYear && trailingYear.index > 0) {
    year = Number(trailingYear[1]);
    raw = raw.slice(0, trailingYear.index);
  }
  // "Show 2016 02 25 S20E142": an air date right before the episode is not the title's
  raw = raw.replace(/[\s.](?:19|20)\d{2}[-. ]\d{2}[-. ]\d{2}$/, '');
  // "Show E76 2024 08 08": the episode number of a daily show is not the title's
  if (series.info.airDate) raw = raw.replace(/[\s.]E\d{1,4}$/i, '');
  let title = cleanTitle(raw);
  // anime name a later season in the title: Sonarr writes "Title S02" as "Title S2"
  if (series.info.absoluteEpisodeNumbers.length > 0 && ANIME_GROUP.test(text)) title = title.replace(/(?<=\s)S0(\d)$/, 'S$1');
  return { title, year, edition: null, tailStart: series.end };
}

export interface SeriesName {
  parts: TitleParts;
  info: SeriesInfo;
  releaseType: SeriesReleaseType;
  /** The text `parts.tailStart` indexes: the release's path segment, or the whole name when a "/" is not a path's. */
  text: string;
  /** A season/episode marker was found (the tail then starts after it). */
  marked: boolean;
}

/** "Season 2/05 Title.mkv": a file that opens with its episode number inside a season folder. */
const SEASON_FOLDER = /^(?:Season|Saison|Staffel|Temporada|Stagione)[ ._]?(\d{1,4})(?![0-9])/i;
const FILE_EPISODE = /^E?(\d{1,3})(?:-(\d{1,3}))?(?=[. ]|\s-)/i;

function inSeasonFolder(segments: string[]): SeriesMatch | null {
  if (segments.length < 2) return null;
  const season = SEASON_FOLDER.exec(segments[segments.length - 2]);
  const episode = FILE_EPISODE.exec(segments[segments.length - 1]);
  if (!season || !episode) return null;
  const number = Number(season[1]);
  const episodes = episode[2] !== undefined ? range(Number(episode[1]), Number(episode[2])) : [Number(episode[1])];
  return { info: info({ seasonNumber: number, episodeNumbers: episodes, seasonNumbers: [number] }), index: 0, end: episode[0].length };
}

/** A "/" inside parentheses or brackets, or with spaces around it, does not separate path segments. */
const NOT_A_PATH = /\s\/\s|\([^)]*\/[^)]*\)|\[[^\]]*\/[^\]]*\]/;

/**
 * Title, season/episode info and release type of a series release. `segment` is the name's release-like path segment.
 * In a path, a file numbered inside a season folder takes the folder's season; otherwise the first segment (from the
 * last) with a marker and a title wins, else the first with a marker. A name whose "/" is not a path's is read whole.
 */
export function parseSeriesName(name: string, segment: string): SeriesName {
  const segments = name.split(/[\\/]+/).filter((s) => s.trim() !== '');
  const candidates = NOT_A_PATH.test(name) ? [name] : [segment, ...[...segments].reverse().filter((s) => s !== segment)];
  const folder = candidates.length > 1 && !standardMatch(segment) && !CROSS.test(segment) ? inSeasonFolder(segments) : null;
  if (folder) {
    const file = segments[segments.length - 1];
    return { parts: { title: '', year: null, edition: null, tailStart: folder.end }, info: folder.info, releaseType: seriesReleaseType(folder.info), text: file, marked: true };
  }
  let text = candidates[0];
  let match = findSeriesInfo(text);
  let parts = parseSeriesTitle(text, match);
  for (const candidate of candidates.slice(1)) {
    if (match && parts.title) break;
    const found = SEASON_FOLDER.test(candidate) ? null : findSeriesInfo(candidate);
    if (!found) continue;
    const foundParts = parseSeriesTitle(candidate, found);
    if (!match || foundParts.title) [text, match, parts] = [candidate, found, foundParts];
  }
  // "Other Title (S2E1) / Some Title (S2E1)": the marker repeats after each alternative title; the last one names it
  if (match && /^\)?\s[/|]\s/.test(text.slice(match.end))) {
    const rest = text.slice(match.end).replace(/^\)?\s[/|]\s/, '');
    const later = findSeriesInfo(rest);
    const laterParts = parseSeriesTitle(rest, later);
    if (later && laterParts.title) [text, match, parts] = [rest, later, laterParts];
  }
  return { parts, info: match?.info ?? info({}), releaseType: seriesReleaseType(match?.info ?? null), text, marked: match !== null };
}
