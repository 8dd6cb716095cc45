// The parser's result types, shared by its modules (index re-exports them).

export type ReleaseKind = 'movie' | 'series';
export type QualitySource =
  | 'unknown' | 'cam' | 'telesync' | 'telecine' | 'workprint' | 'dvd' | 'tv' | 'webdl' | 'webrip' | 'bluray';
export type QualityModifier = 'none' | 'regional' | 'screener' | 'rawhd' | 'brdisk' | 'remux';
export type SeriesReleaseType = 'singleEpisode' | 'multiEpisode' | 'seasonPack' | 'unknown';

/**
 * Season/episode numbers of a series release. Beyond the four fields every caller relies on, `airDate` (daily shows,
 * YYYY-MM-DD), `seasonNumbers` (every season of a multi-season pack) and `special` are additions.
 */
export interface SeriesInfo {
  seasonNumber: number | null;
  episodeNumbers: number[];
  absoluteEpisodeNumbers: number[];
  fullSeason: boolean;
  airDate: string | null;
  seasonNumbers: number[];
  /** A special as Sonarr sees one: season 0, episode 0, a decimal episode (11.5), "Special" after a season, OVA/NCOP. */
  special: boolean;
}

export interface ParsedRelease {
  /** The parsed movie or series title. */
  title: string;
  year: number | null;
  /** Source, resolution and modifier of the quality the apps would assign (e.g. a 540p WEB-DL is WEBDL-480p: 480). */
  source: QualitySource;
  /** 480, 576, 720, 1080, 2160; for CAM/TELECINE/WORKPRINT and movie DVDs the stated one (TELESYNC: 720 by default); null when unknown. */
  resolution: number | null;
  modifier: QualityModifier;
  revision: { version: number; real: number; isRepack: boolean; isProper: boolean };
  /** The app's Language names (Radarr's rules for movies, Sonarr's for series); 'Original' for German DL/ML and an Orig/Original tag; ['Unknown'] when none is named. */
  languages: string[];
  releaseGroup: string | null;
  /** Movies: e.g. "Director's Cut", "IMAX"; null when none (always null for series). */
  edition: string | null;
  /** Series: Sonarr's release type; null for movies. */
  releaseType: SeriesReleaseType | null;
  /** Series: season/episode numbers; null for movies. */
  series: SeriesInfo | null;
}
