/**
 * Where the title ends and what it says: the movie title and year, the edition, and for series Sonarr's
 * season/episode conventions (S01E01, S01E01E02, S01E01-E03, 1x01, season packs, daily air dates, anime absolute numbers).
 */
import { allMatches } from './vocabulary';
import type { SeriesInfo, SeriesReleaseType } from './types';


export interface TitleParts {
  title: string;
  year: number | null;
  edition: string | null;
  /** Index in the name where the technical part (everything after the title) starts. */
  tailStart: number;
}

const LEADING_GROUP = /^(?:\[[^\]]*\][\s._-]*)+/;
const SITE_PREFIX = /^(?:\[\s*(?:www\.)?[^\]\s]+\.(?:com|org|net|info|to|tv)\s*\]|www\.[^\s]+\.(?:com|org|net|info|to|tv))\s*-?\s*/i;
const YEAR = /(?<![0-9])[([]?((?:18[89]|19\d|20\d)\d)[)\]]?(?![0-9a-z])/gi;
/** The first technical word after a title: a resolution, source, codec or audio format. */
const STRONG_STOP = new RegExp(
  '(?<=[\\s._\\-([])(?:\\d{3,4}[pi]|\\d{3,4}x\\d{3,4}|4K|UHD|M?Blu-?Ray|BD(?:Rip|Remux|ISO|25|50)?|BRRip|WEB(?:-?DL|-?Rip|Mux)?|HDTV|PDTV|SDTV|DSR|' +
    'TVRip|DVD(?:Rip|R|SCR|5|9)?|HD-?DVD|REMUX|[xh]\\.?26[45]|HEVC|AVC|XviD|DivX|HDCAM|CAMRip|TSRip|TELESYNCH?|TELECINE|WORKPRINT|' +
    'DTS|AAC|AC3|DD[P+]?5\\.1|TrueHD|Atmos|10bit|HDR)(?![a-z0-9])',
  'i',
);
/** Release flags and language tags: they end a title that has no year. */
const WEAK_STOP = /(?<=[\s._\-([])(?:PROPER|REPACK|RERIP|iNTERNAL|MULTi|TRUEFRENCH|FRENCH|VOSTFR|GERMAN|iTALiAN|SPANISH|DUBBED|SUBBED|COMPLETE|LIMITED)(?![a-z0-9])/i;
/** Editions may stand between the title and the year ("Movie.Extended.2019"), but "The Final Cut" there is a title. */
const NOT_EDITION_BEFORE_YEAR = /^(?:Final|Limited|Alternate|Assembly)/i;
const EPISODE = /(?<![0-9])S(\d{1,4})[-_. ]?E(\d{1,4})((?:(?:[-_. ]?E|-E?|[-_. ]E|[-_. ]?-?S\d{1,4}E)\d{1,4}(?![\dpi]))*)/i;
const EPISODE_CONTINUATION = /([-_. ]?E|-E?|[-_. ]?-?S\d{1,4}E)(\d{1,4})/gi;
const CROSS = /(?<![0-9a-z])(\d{1,2})x(\d{2,3})((?:-(?:\d{1,2}x)?\d{2,3})*)(?![\dp])/i;
const CROSS_CONTINUATION = /-(?:\d{1,2}x)?(\d{2,3})/g;
const SEASON = /(?<![a-z0-9])(?:S(\d{1,2})(?:[-_. ]?-[-_. ]?S?(\d{1,2}))?(?![0-9]|[-_. ]?E\d)|(?:Season|Saison|Staffel|Temporada|Stagione)s?[-_. ]?(\d{1,2})(?:[-_. ]?-[-_. ]?(\d{1,2}))?(?![0-9]))/i;
const DAILY = /(?<![0-9])((?:19|20)\d{2})[-_. ](0[1-9]|1[0-2])[-_. ](0[1-9]|[12]\d|3[01])(?![0-9])/;
const ABSOLUTE_DASH = /\s-\s(?!(?:19|20)\d{2}(?!\d))(\d{1,4})(?:v\d)?(?:\s?-\s?(\d{1,4})(?:v\d)?)?(?=[\s._[(]|$)/;
const ABSOLUTE_BARE = /[\s_.](\d{2,4})(?:v\d)?(?:-(\d{2,4})(?:v\d)?)?(?=[\s_.]*[[(]|$)/;
/** Mini-series: "Title.E05", "Title.Part.2", "Title Pt. 3" (season 1). */
const MINISERIES = /(?<![a-z0-9])(?:E(\d{1,4})|(?:Part|Pt)[-_. ]{0,2}(\d{1,2}))(?![0-9a-z])/i;
const DOTS_AND_UNDERSCORES = /[._]/g;
const BRACKETS = /[[\](){}]/g;
const SPACES = /\s+/g;
const TITLE_EDGE_PUNCTUATION = /^[\s\-:|]+|[\s\-:|,]+$/g;
const HAS_TEXT = /[\p{L}\p{N}]/u;
const ONLY_SEPARATORS = /^[\s._\-()[\]]*$/;
const TRAILING_SEPARATORS = /[\s._\-]+$/;
const EDITION = new RegExp(
  '(?<![a-z0-9])(' +
    '(?:(?:Extended|Ultimate|Recut)[-_. ])?' +
    '(?:Director\'?s|Directors|Collector\'?s|Collectors|Theatrical|Ultimate|Extended|Despecialized|Criterion|' +
    '(?:Special|Rogue|Final|Assembly|Imperial|Diamond(?:[-_. ]Luxe)?|Signature|Definitive|Limited|Deluxe|Alternate|Producer\'?s|Hunter|Rekall|Recut)(?=[-_. ](?:Cut|Edition|Version|Collection))|' +
    '\\d{1,3}(?:th|st|nd|rd)?[-_. ]Anniversary)' +
    '(?:[-_. ](?:Cut|Edition|Version|Collection))?' +
    '(?:[-_. ](?:Extended|Uncensored|Remastered|Unrated|Uncut|Open[-_. ]?Matte|IMAX|Fan[-_. ]?Edit))?' +
    '|(?:4K[-_. ])?Remaster(?:ed)?|Uncensored|Unrated|Uncut|Open[-_. ]?Matte|IMAX(?:[-_. ]Enhanced|[-_. ]Edition)?|Fan[-_. ]?Edit|Restored|[234]in1' +
    ')(?![a-z0-9])',
  'i',
);

export function stripPrefixes(name: string): { text: string; offset: number } {
  const site = SITE_PREFIX.exec(name);
  let offset = site ? site[0].length : 0;
  const lead = LEADING_GROUP.exec(name.slice(offset));
  if (lead && lead[0].length < name.length - offset) offset += lead[0].length;
  return { text: name.slice(offset), offset };
}

export function cleanTitle(raw: string): string {
  return raw
    .replace(DOTS_AND_UNDERSCORES, ' ')
    .replace(BRACKETS, ' ')
    .replace(SPACES, ' ')
    .replace(TITLE_EDGE_PUNCTUATION, '')
    .trim();
}

function normaliseEdition(text: string): string {
  return text.replace(DOTS_AND_UNDERSCORES, ' ').replace(SPACES, ' ').trim();
}

function firstIndex(re: RegExp, text: string): number {
  const m = re.exec(text);
  return m ? m.index : text.length;
}

/** Movie title, year and edition (Radarr's "Title (Year) …" convention). */
export function parseMovieTitle(name: string): TitleParts {
  const { text, offset } = stripPrefixes(name);
  const stop = firstIndex(STRONG_STOP, text);
  let yearMatch: RegExpMatchArray | null = null;
  for (const m of allMatches(YEAR, text)) {
    const index = m.index ?? 0;
    if (index > stop) break;
    if (HAS_TEXT.test(text.slice(0, index))) yearMatch = m;
  }
  const weakStop = Math.min(stop, firstIndex(WEAK_STOP, text));
  let titleEnd = yearMatch ? yearMatch.index ?? 0 : weakStop;
  let tailStart = yearMatch ? (yearMatch.index ?? 0) + yearMatch[0].length : weakStop;
  let edition: string | null = null;
  const beforeYear = text.slice(0, titleEnd);
  const titleEdition = yearMatch ? EDITION.exec(beforeYear) : null;
  if (
    titleEdition && !NOT_EDITION_BEFORE_YEAR.test(titleEdition[1]) && HAS_TEXT.test(beforeYear.slice(0, titleEdition.index))
    && ONLY_SEPARATORS.test(beforeYear.slice(titleEdition.index + titleEdition[0].length))
  ) {
    edition = normaliseEdition(titleEdition[1]);
    titleEnd = titleEdition.index;
  }
  if (!edition) {
    const tailEdition = EDITION.exec(text.slice(tailStart));
    if (tailEdition) edition = normaliseEdition(tailEdition[1]);
  }
  let title = cleanTitle(text.slice(0, titleEnd));
  if (!title) {
    title = cleanTitle(text.slice(0, Math.max(stop, titleEnd)));
    if (!title) tailStart = 0;
  }
  return { title, year: yearMatch ? Number(yearMatch[1]) : null, edition, tailStart: offset + tailStart };
}

function range(from: number, to: number): number[] {
  if (to < from || to - from > 200) return [from, to].filter((n, i, all) => all.indexOf(n) === i);
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

/** Adds continuation numbers ("E02", "-E03", "-03") to a list, ranges expanded. */
function addContinuations(episodes: number[], continuation: string, re: RegExp, isRange: (marker: string) => boolean): number[] {
  for (const m of allMatches(re, continuation)) {
    const n = Number(m[m.length - 1]);
    const last = episodes[episodes.length - 1];
    if (isRange(m[1] ?? m[0]) && n > last) episodes.push(...range(last + 1, n));
    else if (!episodes.includes(n)) episodes.push(n);
  }
  return episodes;
}

export interface SeriesMatch {
  info: SeriesInfo;
  index: number;
  end: number;
}

/** Finds the season/episode marker of a series release (Sonarr's conventions). */
export function findSeriesInfo(text: string, animeStyle: boolean): SeriesMatch | null {
  const base: SeriesInfo = { seasonNumber: null, episodeNumbers: [], absoluteEpisodeNumbers: [], fullSeason: false, airDate: null, seasonNumbers: [] };
  const episode = EPISODE.exec(text);
  if (episode) {
    const season = Number(episode[1]);
    const episodes = addContinuations([Number(episode[2])], episode[3] ?? '', EPISODE_CONTINUATION, (marker) => marker.startsWith('-'));
    return { info: { ...base, seasonNumber: season, episodeNumbers: episodes, seasonNumbers: [season] }, index: episode.index, end: episode.index + episode[0].length };
  }
  const cross = CROSS.exec(text);
  if (cross) {
    const season = Number(cross[1]);
    const episodes = addContinuations([Number(cross[2])], cross[3] ?? '', CROSS_CONTINUATION, () => true);
    return { info: { ...base, seasonNumber: season, episodeNumbers: episodes, seasonNumbers: [season] }, index: cross.index, end: cross.index + cross[0].length };
  }
  const daily = DAILY.exec(text);
  if (daily && daily.index > 0) {
    return { info: { ...base, airDate: `${daily[1]}-${daily[2]}-${daily[3]}` }, index: daily.index, end: daily.index + daily[0].length };
  }
  const absolute = ABSOLUTE_DASH.exec(text) ?? (animeStyle ? ABSOLUTE_BARE.exec(text) : null);
  // anime names number episodes absolutely, even after a season word ("Title S2 - 05")
  const absoluteMatch = absolute && absolute.index > 0 ? absoluteInfo(base, absolute) : null;
  if (animeStyle && absoluteMatch) return absoluteMatch;
  const season = SEASON.exec(text);
  if (season) {
    const first = Number(season[1] ?? season[3]);
    const lastRaw = season[2] ?? season[4];
    const seasons = lastRaw !== undefined ? range(first, Number(lastRaw)) : [first];
    return { info: { ...base, seasonNumber: first, fullSeason: true, seasonNumbers: seasons }, index: season.index, end: season.index + season[0].length };
  }
  if (absoluteMatch) return absoluteMatch;
  const mini = MINISERIES.exec(text);
  if (mini && mini.index > 0) {
    const episode = Number(mini[1] ?? mini[2]);
    return { info: { ...base, seasonNumber: 1, episodeNumbers: [episode], seasonNumbers: [1] }, index: mini.index, end: mini.index + mini[0].length };
  }
  return null;
}

function absoluteInfo(base: SeriesInfo, absolute: RegExpExecArray): SeriesMatch {
  const first = Number(absolute[1]);
  const numbers = absolute[2] !== undefined ? range(first, Number(absolute[2])) : [first];
  return { info: { ...base, absoluteEpisodeNumbers: numbers }, index: absolute.index, end: absolute.index + absolute[0].length };
}

export function seriesReleaseType(info: SeriesInfo | null): SeriesReleaseType {
  if (!info) return 'unknown';
  if (info.fullSeason) return 'seasonPack';
  const count = Math.max(info.episodeNumbers.length, info.absoluteEpisodeNumbers.length);
  if (count > 1) return 'multiEpisode';
  if (count === 1 || info.airDate) return 'singleEpisode';
  return 'unknown';
}

const TRAILING_YEAR = /[\s._([]+((?:19|20)\d{2})[)\]]?$/;

/** Series title and year from the text before the season/episode marker. */
export function parseSeriesTitle(name: string, series: SeriesMatch | null): TitleParts {
  const { text, offset } = stripPrefixes(name);
  if (!series) {
    const movie = parseMovieTitle(name);
    return { ...movie, edition: null };
  }
  const localIndex = series.index - offset;
  let raw = text.slice(0, Math.max(localIndex, 0)).replace(TRAILING_SEPARATORS, '');
  let year: number | null = null;
  const trailingYear = TRAILING_YEAR.exec(raw);
  if (trailingYear && trailingYear.index > 0) {
    year = Number(trailingYear[1]);
    raw = raw.slice(0, trailingYear.index);
  }
  return { title: cleanTitle(raw), year, edition: null, tailStart: series.end };
}
