/** What every title parser shares: the parts it returns, site and group prefixes, and title cleaning. */

export interface TitleParts {
  title: string;
  year: number | null;
  edition: string | null;
  /** Index in the name where the technical part (everything after the title) starts. */
  tailStart: number;
}

const LEADING_GROUP = /^(?:\[[^\]]*\][\s._-]*)+/;
const TLD = '(?:com|org|net|info|biz|to|tv|tc|cc|ws|io|me|co|uk|au|nz|za|ca|de|fr|nl|se|ru|lt|in|us|eu|es|it|pl|xyz|club|site|online)';
/**
 * A website before the release name: `[site.com]`, `[ www.site.co.uk ] -`, `(site.com)`, `www.site.tc - `, `site.net.au - `.
 * Without brackets or `www.` it needs ` - ` after it, so a dotted release name is never taken for one.
 */
export const SITE_PREFIX = new RegExp(
  `^(?:[[(]\\s*(?:www\\.)?[a-z0-9-]+(?:\\.[a-z0-9-]+){0,2}\\.${TLD}\\s*[\\])]|\\[\\s*www\\.[^\\]\\s]+\\.[a-z]{2,6}\\s*\\]` +
    `|www\\.[^\\s]+\\.[a-z]{2,6}(?=[\\s._-])|[a-z0-9-]+(?:\\.[a-z0-9-]+)?\\.${TLD}(?=\\s+-\\s))\\s*-?\\s*`,
  'i',
);
export const DOTS_AND_UNDERSCORES = /[._]/g;
const BRACKETS = /[[\](){}]/g;
export const SPACES = /\s+/g;
const TITLE_EDGE_PUNCTUATION = /^[\s\-:|]+|[\s\-:|,]+$/g;
export const HAS_TEXT = /[\p{L}\p{N}]/u;
export const ONLY_SEPARATORS = /^[\s._\-()[\]]*$/;
export const TRAILING_SEPARATORS = /[\s._\-]+$/;

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

export function firstIndex(re: RegExp, text: string): number {
  const m = re.exec(text);
  return m ? m.index : text.length;
}
