/**
 * Sonarr's season/episode conventions (S01E01, S01E01E02, S01E01-E03, 1x01, season packs, daily air dates,
 * anime absolute numbers) and the series title before them.
 */
import { allMatches } from './vocabulary';
import { parseMovieTitle } from './movie-title';
import { cleanTitle, stripPrefixes, TRAILING_SEPARATORS, type TitleParts } from './title-common';
import type { SeriesInfo, SeriesReleaseType } from './types';

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
