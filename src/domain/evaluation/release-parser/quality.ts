/**
 * Quality: source, resolution and modifier, resolved to one of Radarr's qualities (movies) or Sonarr's (series) the
 * way the apps do (e.g. a 540p WEB-DL is WEBDL-480p, a 720p remux is Bluray-720p, a disc image is Radarr's BR-DISK).
 */
import { allMatches } from './vocabulary';
import type { QualityModifier, QualitySource } from './types';

export interface ParsedQuality {
  source: QualitySource;
  /** The resolved quality's resolution; for qualities without one (CAM, TELESYNC, DVD …) the resolution the title states. */
  resolution: number | null;
  modifier: QualityModifier;
  /** The resolution written in the title (e.g. 540 for "540p"), before it is mapped onto a quality. */
  titleResolution: number | null;
}

type SourceToken =
  | 'brdisk' | 'hddvd' | 'bdrip' | 'bluray' | 'webrip' | 'webdl' | 'web' | 'rawhd' | 'hdtv' | 'spacedHdtv' | 'sdtv'
  | 'screener' | 'dvdr' | 'dvd' | 'videoStandard' | 'regional' | 'telesync' | 'telecine' | 'cam' | 'workprint';

/** Streaming services whose name glued to "HD", "UHD" or "SD" marks a WEB-DL ("AmazonHD", "DisneyHD", "AmazonSD"). */
const STREAMING_BRANDS = [
  'Amazon', 'Netflix', 'Maxdome', 'HBO-?Max', 'Max', 'Disney(?:Plus)?', 'Hulu', 'AppleTV', 'Paramount(?:Plus)?', 'Peacock',
  'Joyn', 'RTLPlus', 'TVNow', 'Magenta(?:TV)?', 'Crunchyroll', 'Funimation', 'Prime(?:Video)?',
];

const SOURCE_SCAN = new RegExp(
  '(?:(?<![a-z0-9])(?:' +
    [
      '(?<brdisk>BD-?(?:25|50|66|100)|BD[-_. ]?ISO|BR-?DISK|BDFull|BDMV|COMPLETE[-_. ](?:UHD[-_. ])?BLU-?RAY)',
      '(?<bdrip>(?:UHD)?BD[-_. ]?Rip|BR[-_. ]?Rip|UHD2?BDRip|HD[-_. ]?DVD[-_. ]?Rip)',
      '(?<hddvd>HD[-_. ]?DVD)',
      '(?<bluray>(?:M|UHD)?Blu[-_. ]?Ray|UHD2?BD|BD(?:Mux|Light|Remux)?)',
      '(?<webrip>WEB[-_. ]?Rip|WEBMux|WEB[-_. ]?Cap|WEB[-_. ]?(?:HD|DL)Rip)',
      `(?<webdl>WEB[-_. ]?DL|WEB[-_. ]?HD|iTunes(?:[-_. ]?HD)?|(?:${STREAMING_BRANDS.join('|')})(?:U?HD|SD))`,
      '(?<web>WEB)',
      '(?<rawhd>Raw[-_. ]?HD)',
      '(?<hdtv>HDTV(?:Rip)?)',
      '(?<spacedHdtv>HD[-_. ]TV)',
      '(?<sdtv>PDTV|SD[-_. ]?TV|DSR(?:ip)?|TV[-_. ]?Rip|SAT[-_. ]?Rip|DVB[-_. ]?Rip|DTH(?:Rip)?)',
      '(?<screener>(?:DVD|BD|WEB)[-_. ]?SCR(?:EENER)?|SCR(?:EENER)?)',
      '(?<dvdr>\\d?x?DVD[-_. ]?[59]|DVD[-_. ]?R|MDVDR)',
      '(?<dvd>DVD(?:[-_. ]?Rip|Mux)?)',
      '(?<videoStandard>NTSC|PAL)',
      '(?<regional>R5|R6|REGIONAL)',
      '(?<telesync>TS(?:[-_. ]?Rip)?|HD[-_. ]?TS|TELESYNCH?|PDVD)',
      '(?<telecine>TC|HD[-_. ]?TC|TELECINE)',
      '(?<cam>(?:NEW|HD|HQ)?[-_. ]?CAM(?:[-_. ]?Rip)?)',
      '(?<workprint>WORKPRINT|WP)',
    ].join('|') +
    ')|(?<=xvi)(?<gluedDvd>dvd))(?![a-z])',
  'gi',
);

/** Bare two- and three-letter source words count only when written in capitals (they are common words otherwise). */
const CAPITALS_ONLY = /^(?:TS|TC|CAM|WP|SCR|BD)$/i;
const NUMERIC_RESOLUTION = /(?<![0-9])(?:(2160|1440|1080|960|720|576|540|480|360|240)[pi]|\d{3,4}x(2160|1080|720|576|540|480|360))(?![a-z])/i;
const WORD_RESOLUTION = /(?<![a-z0-9])(4K|UHD)(?![a-z0-9])/i;
/** Sonarr reads "FHD" as 1080p (Radarr's fixtures never assert it). */
const FULL_HD = /(?<![a-z0-9])FHD(?![a-z0-9])/i;
/** "[Group-Remux]" in front of an anime title names the group, not the source. */
const LEADING_GROUP_TAG = /^\[[^\]\s]+\]/;
/** Sonarr: a bare x264 encode that names no source or resolution is SDTV. */
const X264 = /(?<![a-z0-9])x264(?![a-z0-9])/i;
const REMUX = /(?<![a-z0-9])(?:BD|UHD)?[-_. ]?REMUX(?![a-z])/i;
const GERMAN_ML_DISC_CODEC = /(?<![a-z0-9])German(?![a-z0-9]).*(?<![a-z0-9])ML(?![a-z0-9]).*(?<![a-z0-9])(?:AVC|HEVC|VC-?1|MPEG-?2)(?![a-z0-9])/i;
const DISC_CODEC = /(?<![a-z0-9])(?:AVC|VC-?1|MPEG-?2|HEVC)(?![a-z0-9])/i;
const ENCODE_MARKER = /(?<![a-z0-9])(?:[xh][-_. ]?26[456]|XviD|DivX|AV1|\d{1,2}-?bits?|Hi10p?|mkv|mp4)(?![a-z])|\.(?:mkv|mp4|avi)$/i;
const ISO = /(?<![a-z0-9])ISO(?![a-z0-9])/i;
const UNTOUCHED = /(?<![a-z0-9])UNTOUCHED(?![a-z0-9])/i;
const MPEG2 = /(?<![a-z0-9])MPEG-?2(?![a-z0-9])/i;
const INTERLACED_1080 = /(?<![0-9])1080i(?![a-z])/i;
const HIGH_RES_TV = /(?<![a-z0-9])HR(?![a-z0-9])/i;
const BRACKETED_SOURCE = /\[(?:HDTV|WEB-?DL|WEB|Web|BluRay|Blu-ray)\]/i;
const STREAMING_SERVICE = /(?<![a-z0-9])(?:AMZN|NF|DSNP|DSNY|ATVP|HMAX|HULU|PCOK|PMTP|STAN|CRAV|iT|iP|Netflix|Amazon|Hulu)(?![a-z0-9])/;
const SD_CODEC = /(?<![a-z0-9])(?:XviD|DivX)(?![a-z0-9])/i;
const SEPARATORS = /[-_. ]/g;
const OPENING_BRACKET = /[[(]/;
const CLOSING_BRACKET_OR_DIGIT = /[\])0-9]/;
const EXTENSION = /\.([a-z0-9]{2,4})$/i;

/** What a bare file extension says when the name says nothing else (own table, after the apps' documented behaviour). */
const EXTENSION_QUALITY: Readonly<Record<string, [QualitySource, number]>> = {
  avi: ['tv', 480], divx: ['tv', 480], xvid: ['tv', 480], wmv: ['tv', 480], mpg: ['tv', 480], mpeg: ['tv', 480],
  m4v: ['tv', 480], '3gp': ['tv', 480], rmvb: ['tv', 480], rm: ['tv', 480], flv: ['tv', 480], vob: ['dvd', 480],
  mkv: ['tv', 720], mp4: ['tv', 720], m2ts: ['bluray', 720], mts: ['bluray', 720],
};

const PRIORITY: readonly SourceToken[] = [
  'brdisk', 'hddvd', 'bluray', 'bdrip', 'webdl', 'webrip', 'web', 'rawhd', 'hdtv', 'spacedHdtv', 'sdtv',
  'screener', 'regional', 'dvdr', 'dvd', 'videoStandard', 'telecine', 'telesync', 'cam', 'workprint',
];

/** Sources only Radarr has qualities for: Sonarr reads none of these words (a DVD screener is still a DVD). */
const MOVIE_ONLY: ReadonlySet<SourceToken> = new Set(['regional', 'telesync', 'telecine', 'cam', 'workprint']);
const DVD_WORD = /^DVD/i;

/** "[bd]", "(bd 720p", "bd720p": a short source word in brackets or glued to a resolution is unambiguous. */
function inBracketsOrGlued(name: string, start: number, end: number): boolean {
  return OPENING_BRACKET.test(name[start - 1] ?? '') || CLOSING_BRACKET_OR_DIGIT.test(name[end] ?? '');
}

function findSources(name: string, hasResolution: boolean, series: boolean): Set<SourceToken> {
  const found = new Set<SourceToken>();
  for (const m of allMatches(SOURCE_SCAN, name)) {
    const groups = m.groups as Record<string, string | undefined>;
    const text = m[0];
    if (groups.gluedDvd) { found.add('dvd'); continue; }
    const kind = (Object.keys(groups) as SourceToken[]).find((k) => groups[k] !== undefined);
    if (!kind) continue;
    if (series ? MOVIE_ONLY.has(kind) || (kind === 'screener' && !DVD_WORD.test(text)) : kind === 'videoStandard') continue;
    const bare = text.replace(SEPARATORS, '');
    const end = (m.index ?? 0) + text.length;
    const shortWord = CAPITALS_ONLY.test(bare);
    if (shortWord && bare !== bare.toUpperCase() && !inBracketsOrGlued(name, m.index ?? 0, end)) continue;
    // a ".ts" file extension is not TELESYNC; a trailing "-BD", "-WP" … is a release group
    if (kind === 'telesync' && end === name.length && name[(m.index ?? 0) - 1] === '.') continue;
    if (shortWord && end === name.length && name[(m.index ?? 0) - 1] === '-') continue;
    if (kind === 'web' && text !== 'WEB' && !hasResolution && !OPENING_BRACKET.test(name[(m.index ?? 0) - 1] ?? '')) continue;
    found.add(kind);
  }
  return found;
}

function parseTitleResolution(name: string, series: boolean): number | null {
  const numeric = NUMERIC_RESOLUTION.exec(name);
  if (numeric) {
    const value = Number(numeric[1] ?? numeric[2]);
    if (value === 960) return 720;
    if (value === 1440) return 1080;
    if (value === 240) return 360;
    return value;
  }
  if (series && FULL_HD.test(name)) return 1080;
  return WORD_RESOLUTION.test(name) ? 2160 : null;
}

/** Maps a stated resolution onto the resolutions the apps' qualities have for a source. */
function qualityResolution(resolution: number, allow576: boolean): number {
  if (resolution >= 2160) return 2160;
  if (resolution >= 1080) return 1080;
  if (resolution >= 720) return 720;
  if (resolution === 576 && allow576) return 576;
  return 480;
}

/**
 * `series` selects Sonarr's rules, whose quality list differs from Radarr's: no BR-DISK, CAM, TELESYNC, TELECINE,
 * WORKPRINT, REGIONAL or SCREENER; DVD is always 480p; an MPEG-2 HDTV capture is Raw-HD at any resolution;
 * NTSC/PAL mean DVD; "FHD" is 1080p; 540p with no source is SDTV (Radarr: WEB-DL); a bare x264 is SDTV.
 * For movies a DVD is the resolution the title states, or null.
 */
export function parseQuality(name: string, series = false): ParsedQuality {
  const titleResolution = parseTitleResolution(name, series);
  const sources = findSources(name, titleResolution !== null, series);
  const primary = PRIORITY.find((s) => sources.has(s));
  const remux = REMUX.test(name.replace(LEADING_GROUP_TAG, ''));
  const result = (source: QualitySource, resolution: number | null, modifier: QualityModifier = 'none'): ParsedQuality =>
    ({ source, resolution, modifier, titleResolution });

  const blurayFamily = primary === 'brdisk' || primary === 'hddvd' || primary === 'bluray' || primary === 'bdrip';
  if (blurayFamily || (!primary && remux)) {
    const encoded = ENCODE_MARKER.test(name);
    if (remux || (primary !== 'bdrip' && !encoded && GERMAN_ML_DISC_CODEC.test(name))) {
      if (titleResolution === null || titleResolution >= 1080) return result('bluray', titleResolution === 2160 ? 2160 : 1080, 'remux');
      return result('bluray', qualityResolution(titleResolution, true));
    }
    const isDisc = primary === 'brdisk'
      || (!encoded && primary !== 'bdrip' && (ISO.test(name) || UNTOUCHED.test(name) || DISC_CODEC.test(name)));
    if (isDisc && !series) return result('bluray', 1080, 'brdisk');
    if (titleResolution !== null) return result('bluray', qualityResolution(titleResolution, true));
    // an XviD/DivX encode of a Blu-ray is standard definition
    return result('bluray', primary === 'bdrip' || SD_CODEC.test(name) ? 480 : 720);
  }
  switch (primary) {
    case 'webdl':
    case 'web':
      if (titleResolution !== null) return result('webdl', qualityResolution(titleResolution, false));
      return result('webdl', BRACKETED_SOURCE.test(name) ? 720 : 480);
    case 'webrip':
      return result('webrip', titleResolution !== null ? qualityResolution(titleResolution, false) : 480);
    case 'rawhd':
      return result('tv', 1080, 'rawhd');
    case 'hdtv':
    case 'spacedHdtv':
    case 'sdtv': {
      if (MPEG2.test(name) && (series || INTERLACED_1080.test(name))) return result('tv', 1080, 'rawhd');
      if (titleResolution !== null) return result('tv', qualityResolution(titleResolution, false));
      // "HD TV" written apart is the apps' other-source spelling of HDTV-720p; "HDTV" alone is SDTV
      if (primary === 'spacedHdtv' || HIGH_RES_TV.test(name) || BRACKETED_SOURCE.test(name)) return result('tv', 720);
      if (primary === 'hdtv' && EXTENSION_QUALITY[EXTENSION.exec(name)?.[1]?.toLowerCase() ?? '']?.[1] === 720) return result('tv', 720);
      return result('tv', 480);
    }
    case 'screener':
      return series ? result('dvd', 480) : result('dvd', 480, 'screener');
    case 'regional':
      return result('dvd', 480, 'regional');
    case 'dvdr':
      return series ? result('dvd', 480) : result('dvd', 480, 'remux');
    case 'dvd':
    case 'videoStandard':
      return result('dvd', series ? 480 : titleResolution);
    case 'telesync':
      // Radarr's fixtures expect TELESYNC at 720p; a TS that states no resolution is taken as 720p
      return result('telesync', titleResolution ?? 720);
    case 'telecine':
    case 'cam':
    case 'workprint':
      return result(primary, titleResolution);
    default:
      break;
  }
  // no source word: a streaming service (or, for Radarr, the streaming-only 540p) means WEB-DL; a resolution alone means HDTV
  if (titleResolution !== null) {
    if (STREAMING_SERVICE.test(name) || (titleResolution === 540 && !series)) return result('webdl', qualityResolution(titleResolution, false));
    return result('tv', qualityResolution(titleResolution, false));
  }
  const byExtension = EXTENSION_QUALITY[EXTENSION.exec(name)?.[1]?.toLowerCase() ?? ''];
  if (byExtension) return result(byExtension[0], byExtension[1]);
  if (SD_CODEC.test(name) || (series && X264.test(name))) return result('tv', 480);
  return result('unknown', null);
}
