/**
 * Renders an app's file and folder naming format for a sample, following the token rules the apps
 * document (Radarr, Sonarr and Lidarr settings pages and the Servarr wiki's naming tables; docs/naming.md):
 *
 * - `{Token Name}` is replaced by its value; an unknown token stays as written (and is reported).
 * - Text inside the braces around the name is kept only when the value is not empty: `{-Release Group}`,
 *   `{[Quality Full]}`, `{(Release Year)}`, `{ - Edition Tags}`. The prefix is made of the characters
 *   ` -._[(`, the suffix of ` -._])`.
 * - The separator between the words of a token name is the one the value's spaces become:
 *   `{Movie.Title}` -> `The.Movie`, `{Movie_Title}`, `{Movie-Title}`; a space keeps spaces.
 * - The case of the name sets the value's: `{MOVIE TITLE}` upper-case, `{movie title}` lower-case,
 *   anything else as it is.
 * - `{season:00}`, `{episode:00}`, `{absolute:000}`, `{track:00}`, `{medium:00}`: zero-padded to the
 *   number of zeros.
 * - A token inside braces with text around it, `{edition-{Edition Tags}}` (Plex editions) or
 *   `{tmdb-{TmdbId}}`, keeps its outer braces and text when the value is not empty and vanishes
 *   with them when it is.
 * - Titles go through colon replacement and, when replaceIllegalCharacters is on, the illegal
 *   characters are replaced (else removed); `/` in a folder format separates folders.
 */

/** How a colon in a value is written (Radarr's names; Sonarr and Lidarr number them 0-4, Sonarr's 5 is custom). */
export const COLON_REPLACEMENTS = ['delete', 'dash', 'spaceDash', 'spaceDashSpace', 'smart', 'custom'] as const;
export type ColonReplacement = (typeof COLON_REPLACEMENTS)[number];

/** Sonarr's multi-episode styles, in the order of its numbers (0-5). */
export const MULTI_EPISODE_STYLES = ['extend', 'duplicate', 'repeat', 'scene', 'range', 'prefixedRange'] as const;
export type MultiEpisodeStyle = (typeof MULTI_EPISODE_STYLES)[number];

export interface RenderOptions {
  replaceIllegalCharacters: boolean;
  colonReplacement: ColonReplacement;
  /** The text a colon becomes with colonReplacement custom (Sonarr). */
  customColonReplacement?: string | null;
  /** Sonarr, for a sample with several episodes. */
  multiEpisodeStyle?: MultiEpisodeStyle;
  /** A folder format: `/` separates folders and is kept. */
  folder?: boolean;
}

/** A token's value for a sample: text, a number (formatted by `:00`), or absent (the token and its text vanish). */
export type TokenValue = string | number | null;

export interface NamingSample {
  /** Values by token name, words separated by one space, case-insensitive ("movie title", "release year"). */
  tokens: Record<string, TokenValue>;
  /** Episode numbers of a multi-episode sample (the {episode} token), in order. */
  episodes?: number[];
  /** Absolute numbers of a multi-episode anime sample (the {absolute} token). */
  absolutes?: number[];
}

export interface Rendered {
  name: string;
  /** Tokens of the format the app does not know, as written; they stay in the name as text. */
  unknownTokens: string[];
}

const PREFIX = /^[ \-._[(]*/;
const SUFFIX = /[ \-._\])]*$/;
const NAME = /^([A-Za-z0-9]+(?:[ ._-][A-Za-z0-9]+)*)(?::([0-9A-Za-z+\-]*))?$/;

/** The canonical key of a token name: lower-case words joined by one space. */
export function tokenKey(name: string): string {
  return name.toLowerCase().split(/[ ._-]/).join(' ');
}

function applyCase(name: string, value: string): string {
  const letters = name.replace(/[^A-Za-z]/g, '');
  if (letters.length > 1 && letters === letters.toUpperCase()) return value.toUpperCase();
  if (letters === letters.toLowerCase()) return value.toLowerCase();
  return value;
}

function separatorOf(name: string): string {
  return /[._-]/.exec(name.replace(/:.*$/, ''))?.[0] ?? ' ';
}

function formatNumber(value: number, format: string | undefined): string {
  if (format && /^0+$/.test(format)) return String(value).padStart(format.length, '0');
  return String(value);
}

export function replaceColons(value: string, mode: ColonReplacement, custom?: string | null): string {
  switch (mode) {
    case 'delete':
      return value.replace(/:/g, '');
    case 'dash':
      return value.replace(/:/g, '-');
    case 'spaceDash':
      return value.replace(/:/g, ' -');
    case 'spaceDashSpace':
      return value.replace(/ ?: ?/g, ' - ');
    case 'smart':
      return value.replace(/: /g, ' - ').replace(/:/g, '-');
    case 'custom':
      return value.replace(/:/g, custom ?? '');
  }
}

/** Characters no file name may hold, and what they become when replaced (else they are removed). */
const ILLEGAL: Record<string, string> = { '\\': '+', '/': '+', '<': '', '>': '', '?': '!', '*': '-', '|': '', '"': "'" };

function cleanValue(value: string, options: RenderOptions): string {
  let out = replaceColons(value, options.colonReplacement, options.customColonReplacement);
  out = out.replace(/[\\/<>?*|"]/g, (ch) => (options.replaceIllegalCharacters ? ILLEGAL[ch] : ''));
  return out;
}


class Renderer {
  readonly unknown = new Set<string>();
  constructor(
    private readonly sample: NamingSample,
    private readonly options: RenderOptions,
  ) {}

  /** A token body (between its braces, without nested braces): its rendering, or null when the value is empty. */
  token(body: string): string | null {
    const prefix = PREFIX.exec(body)![0];
    const rest = body.slice(prefix.length);
    const suffix = SUFFIX.exec(rest)![0];
    const name = rest.slice(0, rest.length - suffix.length);
    const m = NAME.exec(name);
    const key = m ? tokenKey(m[1]) : null;
    if (!m || key === null || !(key in this.sample.tokens)) {
      this.unknown.add(`{${body}}`);
      return `{${body}}`;
    }
    const value = this.valueOf(key, m[2]);
    if (value === null || value === '') return null;
    const separator = separatorOf(m[1]);
    const shaped = applyCase(m[1], separator === ' ' ? value : value.replace(/ /g, separator));
    return `${prefix}${shaped}${suffix}`;
  }

  private valueOf(key: string, format: string | undefined): string | null {
    const raw = this.sample.tokens[key];
    if (raw === null || raw === undefined) return null;
    if (typeof raw === 'number') return formatNumber(raw, format);
    return cleanValue(raw, this.options);
  }
}

/** Splits a format into literal text and brace groups (one level of nesting: `{edition-{Edition Tags}}`). */
function pieces(format: string, renderer: Renderer): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < format.length) {
    const open = format.indexOf('{', i);
    if (open < 0) {
      out.push(format.slice(i));
      break;
    }
    if (open > i) out.push(format.slice(i, open));
    const close = format.indexOf('}', open + 1);
    const nested = format.indexOf('{', open + 1);
    if (close < 0) {
      out.push(format.slice(open));
      break;
    }
    if (nested >= 0 && nested < close) {
      // {outer-{Inner Token}outer}: kept with its braces when the inner token has a value.
      const innerClose = close;
      const outerClose = format.indexOf('}', innerClose + 1);
      if (outerClose < 0) {
        out.push(format.slice(open));
        break;
      }
      const inner = renderer.token(format.slice(nested + 1, innerClose));
      out.push(inner === null ? '' : `{${format.slice(open + 1, nested)}${inner}${format.slice(innerClose + 1, outerClose)}}`);
      i = outerClose + 1;
      continue;
    }
    const value = renderer.token(format.slice(open + 1, close));
    out.push(value ?? '');
    i = close + 1;
  }
  return out;
}

/** The episode part of a multi-episode name in Sonarr's styles: the first episode's text and the rest. */
function multiEpisodeFormat(format: string, sample: NamingSample, style: MultiEpisodeStyle): string {
  const episodes = sample.episodes ?? [];
  if (episodes.length < 2) return format;
  const token = /\{episode(?::(0+))?\}/i.exec(format);
  if (!token) return format;
  const pad = (n: number) => formatNumber(n, token[1]);
  const before = format.slice(0, token.index);
  const after = format.slice(token.index + token[0].length);
  // The letters just before the token ("E" in S{season:00}E{episode:00}, "x" in {season}x{episode:00}).
  const prefix = /[A-Za-z]*$/.exec(before)![0];
  const first = pad(episodes[0]);
  const rest = episodes.slice(1);
  const last = pad(episodes[episodes.length - 1]);
  let text: string;
  switch (style) {
    case 'extend':
      text = [first, ...rest.map((n) => `-${pad(n)}`)].join('');
      break;
    case 'repeat':
      text = [first, ...rest.map((n) => `${prefix}${pad(n)}`)].join('');
      break;
    case 'scene':
      text = [first, ...rest.map((n) => `-${prefix}${pad(n)}`)].join('');
      break;
    case 'range':
      text = `${first}-${last}`;
      break;
    case 'prefixedRange':
      text = `${first}-${prefix}${last}`;
      break;
    case 'duplicate': {
      // The season-and-episode part repeated per episode, joined by dots.
      const season = /[A-Za-z]*\{season(?::0+)?\}[^{]*$/i.exec(before);
      const head = season ? before.slice(0, season.index) : before;
      const part = season ? season[0] : prefix;
      text = [first, ...rest.map((n) => `.${part}${pad(n)}`)].join('');
      return `${head}${part}${text}${after}`;
    }
  }
  return `${before}${text}${after}`;
}

/** The multi-episode form of an {absolute} token: the first and last absolute numbers joined by a dash. */
function multiAbsoluteFormat(format: string, sample: NamingSample): string {
  const absolutes = sample.absolutes ?? [];
  if (absolutes.length < 2) return format;
  return format.replace(/\{absolute(?::(0+))?\}/i, (_, zeros: string | undefined) => `${formatNumber(absolutes[0], zeros)}-${formatNumber(absolutes[absolutes.length - 1], zeros)}`);
}

/** Collapses what vanished tokens leave (doubled spaces); no name or folder starts or ends with a space or ends with a dot. */
function tidy(name: string, folder: boolean): string {
  const part = (s: string) =>
    s
      .replace(/ {2,}/g, ' ')
      .replace(/^ +/, '')
      .replace(/[ .]+$/, '');
  return folder ? name.split('/').map(part).join('/') : part(name);
}

export function renderNaming(format: string, sample: NamingSample, options: RenderOptions): Rendered {
  const renderer = new Renderer(sample, options);
  let expanded = multiEpisodeFormat(format, sample, options.multiEpisodeStyle ?? 'extend');
  expanded = multiAbsoluteFormat(expanded, sample);
  const rendered = pieces(expanded, renderer).join('');
  // Literal text of the format never holds a folder separator unless the format is a folder format.
  const name = options.folder ? rendered : rendered.replace(/\//g, options.replaceIllegalCharacters ? '+' : '');
  return { name: tidy(name, options.folder ?? false), unknownTokens: [...renderer.unknown] };
}
