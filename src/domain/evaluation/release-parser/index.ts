/**
 * Release-title parser: what Radarr (movies) and Sonarr (series) would read from a release title.
 * Pure TypeScript, no I/O. Every regex is compiled once at module load.
 * Vocabulary follows the apps' enums (see docs/evaluation.md, "Release parser").
 */
import { parseLanguages } from './languages';
import { parseQuality } from './quality';
import { parseReleaseGroup } from './release-group';
import { parseRevision } from './revision';
import { parseMovieTitle } from './movie-title';
import { parseSeriesName } from './series-title';
import { HAS_TEXT } from './title-common';
import { FILE_EXTENSION } from './vocabulary';

/** Bump on any behaviour change: cached parse results are keyed by it. */
export const PARSER_VERSION = '2.0.2';

export type { ParsedRelease, QualityModifier, QualitySource, ReleaseKind, SeriesInfo, SeriesReleaseType } from './types';
import type { ParsedRelease, ReleaseKind } from './types';

const PATH_SEPARATOR = /[\\/]+/;
/** For movies, not a slash with spaces around it ("Original / English Title") or between language codes ("Ger/Ita"). */
const MOVIE_PATH_SEPARATOR = /\\+|\/+(?!(?<=\s\/+)\s)(?!(?<=(?<!\p{L})\p{Lu}\p{L}{1,2}\/+)\p{Lu}\p{L}{1,2}(?!\p{L}))/u;
const NAMES_A_RELEASE = /(?<![0-9])(?:(?:18[89]|19\d|20\d)\d)(?![0-9])|S\d{1,4}[-_. ]?E\d{1,4}|\d{3,4}[pi](?![a-z])/i;

/** A path ("dir/Release.Name/file.mkv") names the release in its last segment that looks like one. */
function releaseSegment(name: string, separator: RegExp): string {
  const segments = name.split(separator).map((s) => s.trim()).filter((s) => HAS_TEXT.test(s));
  for (let i = segments.length - 1; i >= 0; i--) {
    if (NAMES_A_RELEASE.test(segments[i].replace(FILE_EXTENSION, ''))) return segments[i];
  }
  return segments[segments.length - 1] ?? name;
}

/**
 * Parses a release title. `kind` selects the title conventions: Radarr's for movies, Sonarr's for series.
 * Returns null only when the title has no letter or digit at all.
 */
export function parseRelease(title: string, kind: ReleaseKind): ParsedRelease | null {
  if (typeof title !== 'string') return null;
  const name = title.trim();
  if (!HAS_TEXT.test(name)) return null;
  const segment = releaseSegment(name, kind === 'series' ? PATH_SEPARATOR : MOVIE_PATH_SEPARATOR);
  const quality = parseQuality(name, kind === 'series');
  if (kind === 'series') {
    // the text the series title came from: the segment, or the whole name when its "/" is not a path's
    const { parts, info, releaseType, text, marked } = parseSeriesName(name, segment);
    const tail = text.slice(parts.tailStart);
    const textStart = name.lastIndexOf(text);
    const releaseGroup = parseReleaseGroup(text);
    return {
      title: parts.title,
      year: parts.year,
      source: quality.source,
      resolution: quality.resolution,
      modifier: quality.modifier,
      revision: parseRevision(name, tail, true),
      languages: parseLanguages(name, kind, { segmentStart: textStart, tailStart: textStart + parts.tailStart, anchored: marked, releaseGroup }),
      releaseGroup,
      edition: null,
      releaseType,
      series: info,
    };
  }
  const releaseGroup = parseReleaseGroup(segment);
  // languages may follow the segment: "Hun/Ger/Ita" and "2xUkr/Eng" are not paths
  const segmentStart = name.lastIndexOf(segment);
  const parts = parseMovieTitle(segment);
  const tail = segment.slice(parts.tailStart);
  return {
    title: parts.title,
    year: parts.year,
    source: quality.source,
    resolution: quality.resolution,
    modifier: quality.modifier,
    revision: parseRevision(name, tail, false),
    languages: parseLanguages(name, kind, { segmentStart, tailStart: segmentStart + parts.tailStart, anchored: parts.year !== null, releaseGroup }),
    releaseGroup,
    edition: parts.edition,
    releaseType: null,
    series: null,
  };
}
