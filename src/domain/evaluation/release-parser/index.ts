/**
 * Release-title parser: what Radarr (movies) and Sonarr (series) would read from a release title.
 * Pure TypeScript, no I/O. Every regex is compiled once at module load.
 * Vocabulary follows the apps' enums (see docs/evaluation.md, "Release parser").
 */

/** Bump on any behaviour change: cached parse results are keyed by it. */
export const PARSER_VERSION = '0.1.0';

export type ReleaseKind = 'movie' | 'series';
export type QualitySource =
  | 'unknown' | 'cam' | 'telesync' | 'telecine' | 'workprint' | 'dvd' | 'tv' | 'webdl' | 'webrip' | 'bluray';
export type QualityModifier = 'none' | 'regional' | 'screener' | 'rawhd' | 'brdisk' | 'remux';
export type SeriesReleaseType = 'singleEpisode' | 'multiEpisode' | 'seasonPack' | 'unknown';

export interface ParsedRelease {
  title: string;
  year: number | null;
  source: QualitySource;
  resolution: number | null;
  modifier: QualityModifier;
  revision: { version: number; real: number; isRepack: boolean; isProper: boolean };
  languages: string[];
  releaseGroup: string | null;
  edition: string | null;
  releaseType: SeriesReleaseType | null;
  series: { seasonNumber: number | null; episodeNumbers: number[]; absoluteEpisodeNumbers: number[]; fullSeason: boolean } | null;
}

const RESOLUTION = /\b(?:(2160|1080|720|576|540|480|360)[pi]|(4k|uhd))\b/i;
const SOURCES: ReadonlyArray<[RegExp, QualitySource]> = [
  [/\b(?:blu-?ray|bdrip|brrip|bd(?:25|50))\b/i, 'bluray'],
  [/\bweb-?rip\b/i, 'webrip'],
  [/\bweb(?:-?dl)?\b/i, 'webdl'],
  [/\b(?:hdtv|pdtv|sdtv|dsr|tvrip)\b/i, 'tv'],
  [/\b(?:dvdrip|dvd|dvdr)\b/i, 'dvd'],
  [/\b(?:ts|telesync|hdts)\b/i, 'telesync'],
  [/\b(?:tc|telecine)\b/i, 'telecine'],
  [/\b(?:cam|hdcam)\b/i, 'cam'],
];
const YEAR = /\b(19\d{2}|20\d{2})\b/;
const GROUP = /-([a-z0-9]+)$/i;
const EPISODE = /\bS(\d{1,3})E(\d{1,4})(?:-?E(\d{1,4}))*/i;

export function parseRelease(title: string, kind: ReleaseKind): ParsedRelease | null {
  const trimmed = title.trim();
  if (!trimmed) return null;
  const res = RESOLUTION.exec(trimmed);
  const resolution = res ? (res[1] ? Number(res[1]) : 2160) : null;
  const source = SOURCES.find(([re]) => re.test(trimmed))?.[1] ?? 'unknown';
  const year = YEAR.exec(trimmed);
  const titleEnd = year?.index ?? trimmed.length;
  const ep = kind === 'series' ? EPISODE.exec(trimmed) : null;
  return {
    title: trimmed.slice(0, ep?.index ?? titleEnd).replace(/[._]/g, ' ').trim(),
    year: year ? Number(year[1]) : null,
    source,
    resolution,
    modifier: /\bremux\b/i.test(trimmed) ? 'remux' : 'none',
    revision: { version: /\bproper|repack\b/i.test(trimmed) ? 2 : 1, real: 0, isRepack: /\brepack\b/i.test(trimmed), isProper: /\bproper\b/i.test(trimmed) },
    languages: ['English'],
    releaseGroup: GROUP.exec(trimmed)?.[1] ?? null,
    edition: null,
    releaseType: kind === 'series' ? (ep ? 'singleEpisode' : 'unknown') : null,
    series: kind === 'series'
      ? { seasonNumber: ep ? Number(ep[1]) : null, episodeNumbers: ep ? [Number(ep[2])] : [], absoluteEpisodeNumbers: [], fullSeason: false }
      : null,
  };
}
