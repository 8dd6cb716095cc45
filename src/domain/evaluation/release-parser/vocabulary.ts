/**
 * Shared release-title vocabulary: the technical words that are never part of a title or a release group.
 * All patterns are compiled once, here.
 */

/** Video file extensions a release name may carry; stripped before the group and title are read. */
export const FILE_EXTENSION = /\.(?:mkv|mp4|m4v|avi|divx|xvid|wmv|mpg|mpeg|m2ts|mts|ts|vob|iso|img|webm|flv|mov|ogm|rmvb|rm|3gp|strm|par2|nzb|torrent|rar|srt|sub|idx|ass|ssa|nfo|sfv|jpg|png|txt)$/i;

/** One technical word (tested against a whole token, case-insensitive). */
const TECH_WORDS = [
  // resolution
  '\\d{3,4}[pi]', '\\d{3,4}x\\d{3,4}', '4k', '8k', 'uhd', 'fhd', 'hd', 'sd', 'hr', 'ws',
  // sources
  'm?blu-?ray', 'bd(?:rip|mux|light|remux|full|iso|25|50|66|100)?', 'uhd2?bd(?:rip)?', 'br-?rip', 'br-?disk', 'hd-?dvd(?:rip)?',
  'web', 'web-?dl(?:rip)?', 'web-?rip', 'web-?hd(?:rip)?', 'webmux', 'webcap', 'itunes(?:hd)?', 'hdrip',
  'hdtv(?:rip)?', 'pdtv', 'sdtv', 'dsr(?:ip)?', 'tvrip', 'satrip', 'dvbrip', 'dth(?:rip)?', 'raw-?hd',
  'dvd(?:rip|mux|r|scr|screener|\\d)?', 'dvd-?r', 'mdvdr', 'ntsc', 'pal', 'scr', 'screener', 'r5', 'regional',
  'ts', 'tsrip', 'hdts', 'telesynch?', 'tc', 'hdtc', 'telecine', '(?:hd|hq|new)?-?cam(?:-?rip)?', 'workprint', 'wp',
  'remux', 'hybrid', 'complete', 'untouched', 'iso',
  // streaming services
  'amzn', 'nf', 'dsnp', 'dsnyp', 'atvp', 'atv', 'hmax', 'max', 'hulu', 'pcok', 'pmtp', 'stan', 'crav', 'it', 'dp', 'skysho',
  // video
  '[xh]\\.?26[456]', 'hevc', 'avc', 'xvid', 'divx', 'av1', 'vc-?1', 'mpeg-?[24]?', 'vp9', 'hi10p?', '\\d{1,2}-?bits?',
  'hdr(?:10(?:\\+|plus)?)?\\+?', 'dv', 'dovi', 'dolby', 'vision', 'sdr', 'hlg', '3d', 'sbs', 'hsbs', 'ou', 'imax',
  // audio
  'aac(?:\\d(?:\\.\\d)?)?', 'e?ac-?3d?', 'dd\\+?(?:p)?(?:\\d(?:\\.\\d)?)?', 'ddp(?:\\d(?:\\.\\d)?)?', 'dts(?:-?(?:hd|x|ma|es|hr))?',
  'truehd', 'atmos', 'flac(?:\\d(?:\\.\\d)?)?', 'opus', 'mp3', 'lpcm(?:\\d(?:\\.\\d)?)?', 'pcm', 'ma', '\\d\\.\\d', '\\dch',
  'dual', 'audio', 'dubbed', 'dub', 'subbed', 'e?subs?', 'softsubs?', 'hardsubs?', 'multi-?subs?', 'multi', 'dl', 'ml',
  // release flags
  'proper', 'repack\\d?', 'rerip\\d?', 'real', 'internal', 'limited', 'readnfo', 'nfofix', 'dirfix', 'extended', 'remastered',
  'uncut', 'unrated', 'despecialized', 'criterion', 'restored', 'theatrical', 'mkv', 'mp4', 'avi',
];

/** Language words (full names and the release tags that carry them). Shared with the language reader. */
export const LANGUAGE_WORDS = [
  'english', 'eng', 'french', 'truefrench', 'vostfr', 'vff', 'vfq', 'vfi', 'vf2', 'german', 'deutsch', 'ger', 'spanish', 'esp',
  'spa', 'castellano', 'latino', 'italian', 'ita', 'danish', 'dan', 'dutch', 'nl', 'flemish', 'japanese', 'jap', 'jpn',
  'icelandic', 'chinese', 'chi', 'mandarin', 'cantonese', 'russian', 'rus', 'polish', 'pol', 'pl', 'vietnamese', 'swedish',
  'swe', 'norwegian', 'nor', 'finnish', 'fin', 'turkish', 'tur', 'portuguese', 'por', 'brazilian', 'greek', 'korean', 'kor',
  'hungarian', 'hun', 'hebrew', 'heb', 'lithuanian', 'czech', 'cze', 'romanian', 'rum', 'hindi', 'thai', 'bulgarian', 'arabic',
  'ukrainian', 'ukr', 'persian', 'farsi', 'bengali', 'slovak', 'latvian', 'catalan', 'croatian', 'serbian', 'bosnian',
  'estonian', 'tamil', 'indonesian', 'telugu', 'macedonian', 'slovenian', 'malayalam', 'kannada', 'albanian', 'afrikaans',
  'marathi', 'tagalog', 'urdu', 'romansh', 'mongolian', 'georgian', 'nordic',
];

const TECH_TOKEN = new RegExp(`^(?:${[...TECH_WORDS, ...LANGUAGE_WORDS].join('|')})$`, 'i');

/** True when a whole token is technical vocabulary (a resolution, source, codec, audio format, flag or language). */
export function isTechToken(token: string): boolean {
  return TECH_TOKEN.test(token);
}

/** Splits a release name into its words. */
export const TOKEN_SPLIT = /[\s._()[\]{}]+/;

/**
 * Every match of a module-level global regex, without the per-call RegExp copy that String.prototype.matchAll makes.
 * Callers must not interleave two scans of the same regex (the parser is synchronous, so they never do).
 */
export function allMatches(re: RegExp, text: string): RegExpExecArray[] {
  const matches: RegExpExecArray[] = [];
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    matches.push(m);
    if (m[0] === '') re.lastIndex++;
  }
  re.lastIndex = 0;
  return matches;
}
