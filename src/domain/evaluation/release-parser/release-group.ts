/**
 * Release group: the scene's "-GROUP" suffix, with the conventions the apps recognise besides it:
 * anime "[Group] Title", "Softsubs (Group)", a trailing "[Group]" tag, P2P encoders who sign inside the final
 * technical block ("(1080p BluRay x265 HEVC 10bit AAC 7.1 Group)"), and reposters' suffixes that are not the group.
 */
import { SITE_PREFIX } from './title-common';
import { FILE_EXTENSION, isTechToken, LANGUAGE_WORDS } from './vocabulary';

/** Suffixes added by reposters, indexers and obfuscation tools (never the group itself). */
const REPOSTER_SUFFIX = new RegExp(
  '-(?:Pre|RP|Obfuscat(?:ed|ion)|NZBgeek|sample|Scrambled|postbot|xpost|Rakuv[a-z0-9]*|WhiteRev|BUYMORE|AsRequested|' +
    'AlternativeToRequested|GEROV|Z0iDS3N|Chamele0n|4P|4Planet|AlteZachen|RePACKPOST)$',
  'i',
);
const NUMBERED_SUFFIX = /(-[^\s.\-[\]()]+)-\d{1,2}$/;
const ARCHIVE_PART = /\.(?:part|vol)\d+(?:\+\d+)?$/i;
const SITE_TAG = /\s*-?\s*\[\s*(?:(?:eztv|ettv|rarbg|rartv|PublicHD|TGx|EtHD)(?:\.[a-z]{2,4})?|[^\]\s]+\.(?:com|org|net|info|to|tv))\s*\]$/i;
const NOISE_PAREN = /\s+\([^()]*[,:/][^()]*\)$/;
const TRAILING_LANGUAGE = new RegExp(
  `(-[^\\s.\\-[\\]()]+)(?:[ ._](?:${LANGUAGE_WORDS.filter((w) => w.length > 3).join('|')})|-(?:${LANGUAGE_WORDS.filter((w) => w.length === 3).join('|')}))$`,
  'i',
);
const SOFTSUBS = /(?:Soft|Hard)[-_. ]?subs?\s*\(([^()\s]+)\)/i;
const LEADING_BRACKET = /^\[([^\]]+)\]/;
const ANIME_HASH = /\[[0-9A-F]{8}\]/;
const DOT_DASH_GROUP = /\.-([^\s.[\]()]+)$/;
const AFTER_PAREN_WORD = /\)\s+([^\s()[\]]+)$/;
const CODEC_NUMBER = /^[xh]26[456]$/i;
const TRAILING_DASHES = /-+$/;
const BRACKET = /[[\]()]/;
const SPACE = /\s/;
const SPACES = /\s+/;
const ENDS_WITH_SPACE = /\s$/;
const STARTS_WITH_SPACE = /^\s/;
const DASH_WORD_AT_END = /-([^\s\-[\]()]+)$/;
const NUMERIC = /^\d+$/;
const YEAR = /^(?:19|20)\d{2}$/;
const VERSION_OR_HASH = /^(?:v\d|[0-9A-F]{8})$/i;
const PART_SPLIT = /[-._]+/;
const WORD_SPLIT = /[\s._]+/;
const WORD_BREAK = /[\s._()[\]{}]/;

/** Groups known to sign with a space or dot instead of the dash, or with a dash inside (the apps recognise these by name). */
const KNOWN_DASHLESS_GROUPS = ['D-Z0N3', 'KRaLiMaRKo', 'BluDragon', 'LMain', 'TMd', 'TAoE', 'KCRT', 'Fight-BB'];
const KNOWN_DASHLESS = new RegExp(`(?:^|[\\s.-])(${KNOWN_DASHLESS_GROUPS.join('|')})$`);

/** A single token that names nothing technical (parts split on "-", "." and "_" are all non-technical). */
function isPlainToken(token: string): boolean {
  if (!token || NUMERIC.test(token) || VERSION_OR_HASH.test(token) || isTechToken(token)) return false;
  return token.split(PART_SPLIT).every((part) => !part || (!isTechToken(part) && !YEAR.test(part)));
}

function endsWithTechToken(text: string): boolean {
  const words = text.trimEnd().split(WORD_SPLIT).filter(Boolean);
  const last = words[words.length - 1] ?? '';
  const pair = words.length >= 2 ? `${words[words.length - 2]}.${last}` : '';
  return isTechToken(last) || (pair !== '' && isTechToken(pair)) || CODEC_NUMBER.test(last);
}

function techCount(text: string): number {
  return text.split(WORD_SPLIT).filter((w) => w && isTechToken(w)).length;
}

/** "GRP-NZBgeek" drops the reposter; "x264-NZBgeek" (straight after a technical word) is all there is: the group. */
function withoutReposterSuffix(s: string): string {
  const m = REPOSTER_SUFFIX.exec(s);
  if (!m) return s;
  const before = s.slice(0, m.index);
  const lastWord = before.split(WORD_SPLIT).pop() ?? '';
  return endsWithTechToken(before) && !FILE_EXTENSION.test(`.${lastWord}`) ? s : before;
}

function stripNoise(name: string): string {
  let s = name.trim();
  for (let i = 0; i < 12; i++) {
    const before = s;
    s = withoutReposterSuffix(s.replace(FILE_EXTENSION, '').replace(ARCHIVE_PART, '')).replace(SITE_TAG, '').replace(NOISE_PAREN, '')
      .replace(NUMBERED_SUFFIX, '$1').replace(TRAILING_LANGUAGE, '$1').trim();
    if (s === before) break;
  }
  return s.replace(SITE_PREFIX, '');
}

/** The last word's technical part ("x264", "8-Bit"), as the number of its leading dash-separated parts; 0 when none. */
function techPrefixLength(parts: readonly string[]): number {
  for (let i = parts.length - 1; i >= 0; i--) {
    if (isTechToken(parts[i]) || (i > 0 && isTechToken(`${parts[i - 1]}-${parts[i]}`))) return i + 1;
  }
  return 0;
}

/**
 * A hyphenated group name of two plain parts dashed onto a technical word ("x264-Erai-raws", "HDTV-720p-Anime-Koi").
 * A hyphenated word after a dot or space is not one name: "XviD.SK-GRP" and "Atmos Encoder-GRP" name GRP.
 */
function hyphenatedGroup(s: string): string | null {
  let start = s.length;
  while (start > 0 && !WORD_BREAK.test(s[start - 1])) start--;
  const parts = s.slice(start).split('-');
  if (parts.length < 3) return null;
  const techParts = techPrefixLength(parts);
  if (techParts === 0) return null;
  const name = parts.slice(techParts);
  if (name.length !== 2 || !name.every((p) => p.length > 0 && isPlainToken(p) && !NUMERIC.test(p))) return null;
  return name.join('-');
}

/** "… (1080p BDRip x265) - Group": the text before the dash ends with a bracketed technical block. */
function endsWithTechBlock(text: string): boolean {
  const s = text.trimEnd();
  if (!s.endsWith(')') && !s.endsWith(']')) return false;
  const open = matchingOpen(s);
  return open >= 0 && techCount(s.slice(open + 1, -1)) >= 2;
}

/**
 * The group after the last dash, when what follows the dash looks like a group name. `inBlock`: inside a technical
 * bracket, where "- Encoder Group" is a credit list and the group is its last word.
 */
function dashGroup(s: string, inBlock = false): string | null {
  const dotDash = DOT_DASH_GROUP.exec(s);
  if (dotDash && isPlainToken(dotDash[1])) return dotDash[1];
  const hyphenated = hyphenatedGroup(s);
  if (hyphenated) return hyphenated;
  const trimmed = s.replace(TRAILING_DASHES, '');
  const dash = trimmed.lastIndexOf('-');
  if (dash <= 0) return null;
  const pre = trimmed.slice(0, dash);
  const raw = trimmed.slice(dash + 1);
  const candidate = raw.trim();
  if (!candidate || BRACKET.test(candidate)) return null;
  // "BR-DISK", "DVD-R", "WEB-DL": the dash is inside a technical word
  const preWords = pre.split(WORD_SPLIT);
  if (isTechToken(`${preWords[preWords.length - 1]}-${candidate}`)) return null;
  const spaced = ENDS_WITH_SPACE.test(pre) || STARTS_WITH_SPACE.test(raw);
  if (candidate.includes(' ')) {
    const words = candidate.split(SPACES);
    if (words.length > 4 || !words.every((w) => isPlainToken(w) || NUMERIC.test(w)) || !endsWithTechToken(pre)) return null;
    return inBlock ? words[words.length - 1] : candidate;
  }
  if (spaced && !endsWithTechToken(pre) && !endsWithTechBlock(pre)) return null;
  if (candidate.includes('.')) {
    const parts = candidate.split('.');
    if (parts.length > 4 || !parts.every((p) => p.length > 0 && p.length <= 4 && isPlainToken(p))) return null;
    return candidate;
  }
  if (NUMERIC.test(candidate)) return candidate.length >= 3 ? candidate : null;
  return candidate.length >= 2 && isPlainToken(candidate) ? candidate : null;
}

function matchingOpen(s: string): number {
  const close = s[s.length - 1];
  const open = close === ']' ? '[' : '(';
  let depth = 0;
  for (let i = s.length - 1; i >= 0; i--) {
    if (s[i] === close) depth++;
    else if (s[i] === open && --depth === 0) return i;
  }
  return -1;
}

/** Reads the group from the end of a name; `inBlock` when the name is the inside of a technical bracket. */
function groupFromEnd(s: string, inBlock: boolean, depth = 0): string | null {
  s = s.trim();
  if (!s || depth > 8) return null;
  if (s.endsWith(']') || s.endsWith(')')) {
    const open = matchingOpen(s);
    const inner = s.slice(open + 1, -1).trim();
    const before = s.slice(0, Math.max(open, 0));
    // a one-word [Tag] is a group; a one-word (Note) is a comment
    if (s.endsWith(']') && !SPACE.test(inner) && isPlainToken(inner)) {
      if (ENDS_WITH_SPACE.test(before)) {
        const dashed = DASH_WORD_AT_END.exec(before.trimEnd());
        if (dashed && isPlainToken(dashed[1])) return dashed[1];
      }
      return inner;
    }
    if (techCount(inner) > 0) {
      const fromBlock = groupFromEnd(inner, true, depth + 1);
      if (fromBlock) return fromBlock;
    }
    return open > 0 ? groupFromEnd(before, inBlock, depth + 1) : null;
  }
  const known = KNOWN_DASHLESS.exec(s);
  if (known) return known[1];
  const dashed = dashGroup(s, inBlock);
  if (dashed) return dashed;
  const afterParen = AFTER_PAREN_WORD.exec(s);
  if (afterParen && isPlainToken(afterParen[1])) return afterParen[1];
  if (inBlock && techCount(s) >= 2) {
    const words = s.split(WORD_SPLIT).filter(Boolean);
    const last = words[words.length - 1];
    if (last && isPlainToken(last)) return last;
  }
  return null;
}

/** A word of a group name in front: plain, or hyphenated with a plain first part ("Some-Subs", not "Site-Name.pl"). */
function isLeadingGroupWord(word: string): boolean {
  return isPlainToken(word) || (!word.includes('.') && !isTechToken(word) && isPlainToken(word.split('-')[0]));
}

/** "[Group]", "[Fan-Subs]" or "[Anime Time]" in front: up to three words that name something. */
function leadingGroup(s: string): string | null {
  const m = LEADING_BRACKET.exec(s);
  if (!m) return null;
  const inner = m[1].trim();
  const words = inner.split(SPACES);
  return words.length <= 3 && words.every(isLeadingGroupWord) ? inner : null;
}

export function parseReleaseGroup(name: string): string | null {
  const s = stripNoise(name);
  const softsubs = SOFTSUBS.exec(s);
  if (softsubs) return softsubs[1];
  const leading = leadingGroup(s);
  // "[Group] Title - 01 [720p]" (anime) names the group in front; a scene "-GROUP" at the end still wins ("[TGx] Movie…-EVO")
  if (leading) return (s.endsWith(']') || s.endsWith(')') ? null : dashGroup(s)) ?? leading;
  // anime naming ("… [v3] [6AFFEF6B]") puts the group in front; without it there is none
  if (ANIME_HASH.test(s)) return null;
  return groupFromEnd(s, false);
}
