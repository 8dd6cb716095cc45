/**
 * How a .NET pattern reads in JavaScript: whether .NET accepts it (and arrgo can run it the .NET
 * way), whether it compiles as a JavaScript RegExp at all, and which of its constructs the two
 * dialects read differently. The regular-expression editor warns with this (POST
 * /entity-testing/regex); the texts follow docs/evaluation.md, ".NET regular expressions".
 */
import { parseDotnetPattern, RegexRefusal, type DialectDifference } from './dotnet-syntax';
import { translateDotnetRegex, type TranslatedRegex } from './translate';

export interface DialectNote {
  construct: DialectDifference;
  /** The construct as a person would spot it in a pattern. */
  syntax: string;
  dotnet: string;
  javascript: string;
}

const NOTES: Record<DialectDifference, Omit<DialectNote, 'construct'>> = {
  inlineOptions: {
    syntax: '(?i) (?-i:…) (?x)',
    dotnet: 'inline options switch case-insensitivity, multiline, singleline, explicit capture and free spacing for part of the pattern',
    javascript: 'not supported (Node 20 and most browsers): a syntax error',
  },
  comment: {
    syntax: '(?#…), free-spacing # comments',
    dotnet: 'comments and (with x) white space are ignored',
    javascript: 'not supported: (?#…) is a syntax error and white space is matched literally',
  },
  unicodeWordDigit: {
    syntax: '\\w \\W \\d \\D',
    dotnet: 'Unicode-aware: \\w includes letters such as é and Ø, \\d every decimal digit',
    javascript: 'ASCII only: [A-Za-z0-9_] and [0-9]',
  },
  wordBoundary: {
    syntax: '\\b \\B',
    dotnet: 'a boundary between Unicode word characters and others (\\bNEHD\\b does not match inside ZØNEHD)',
    javascript: 'an ASCII word boundary (\\bNEHD\\b matches inside ZØNEHD)',
  },
  whitespace: {
    syntax: '\\s \\S',
    dotnet: 'includes U+0085 (next line), excludes U+FEFF',
    javascript: 'excludes U+0085, includes U+FEFF',
  },
  dot: {
    syntax: '.',
    dotnet: 'any character but \\n',
    javascript: 'any character but \\n, \\r, U+2028 and U+2029',
  },
  endAnchor: {
    syntax: '$ \\Z',
    dotnet: 'the end, or just before a final \\n',
    javascript: '$ is the very end only; \\Z is the letter Z (or a syntax error with the u flag)',
  },
  stringAnchor: {
    syntax: '\\A \\z',
    dotnet: 'the start and the very end of the text',
    javascript: 'the letters A and z (or a syntax error with the u flag)',
  },
  quotedGroupName: {
    syntax: "(?'name'…)",
    dotnet: 'a named group',
    javascript: 'not supported: a syntax error',
  },
  groupNumbering: {
    syntax: '(?<name>…) with unnamed groups, or a name used twice',
    dotnet: 'unnamed groups are numbered first, then named ones; a repeated name is one group',
    javascript: 'groups are numbered left to right; a repeated name is a syntax error',
  },
  backreference: {
    syntax: '\\1 \\k<name>',
    dotnet: 'a reference to a group that has not matched fails',
    javascript: 'a reference to a group that has not matched matches the empty string',
  },
  atomicGroup: {
    syntax: '(?>…)',
    dotnet: 'an atomic group: no backtracking into it',
    javascript: 'not supported: a syntax error',
  },
  literalBrace: {
    syntax: '{ } outside a quantifier',
    dotnet: 'a literal brace',
    javascript: 'a literal brace without the u flag, a syntax error with it',
  },
  bracketFirstInClass: {
    syntax: '[]…] [^]…]',
    dotnet: '] first in a class is a literal ]',
    javascript: '[] is an empty class that never matches ([^] matches anything)',
  },
  escape: {
    syntax: '\\a \\e \\0oo, \\1-\\7 in a class',
    dotnet: 'bell, escape and octal character escapes',
    javascript: 'the letters a and e; \\0 is NUL only when no digit follows; octal escapes are a syntax error with the u flag',
  },
  unicodeCategory: {
    syntax: '\\p{L} \\P{Lu}',
    dotnet: 'Unicode general categories of UTF-16 units; with IgnoreCase \\p{Lu}, \\p{Ll} and \\p{Lt} each stand for all three, other categories are not widened',
    javascript: 'only with the u or v flag (without it \\p is the letter p); with the i flag every category is closed under case folding',
  },
  unicodeBlock: {
    syntax: '\\p{IsCyrillic} \\P{IsBasicLatin}',
    dotnet: 'a named Unicode block: a range of characters',
    javascript: 'no named blocks: a syntax error with the u or v flag',
  },
  classSubtraction: {
    syntax: '[a-z-[aeiou]]',
    dotnet: 'character class subtraction: the base class without the nested one',
    javascript: 'a class holding "-" and "[", followed by a literal "]" (the v flag writes subtraction as [[a-z]--[aeiou]])',
  },
  conditional: {
    syntax: '(?(1)yes|no) (?(name)yes|no) (?(expression)yes|no)',
    dotnet: 'a conditional: yes when the group has captured (or the expression matches here), otherwise no',
    javascript: 'not supported: a syntax error',
  },
  contiguousMatch: {
    syntax: '\\G',
    dotnet: 'where the match attempt started: for one match test, the start of the text',
    javascript: 'the letter G (a syntax error with the u flag)',
  },
};

export type DialectReport =
  | { valid: true; translated: TranslatedRegex; javascriptCompiles: boolean; differences: DialectNote[] }
  | { valid: false; reason: string; offset: number | null; javascriptCompiles: boolean; differences: DialectNote[] };

/** Whether the pattern compiles as JavaScript reads it where a pattern is usually pasted (the i flag, as the apps match). */
export function compilesAsJavascript(pattern: string): boolean {
  try {
    new RegExp(pattern, 'i');
    return true;
  } catch {
    return false;
  }
}

/** The constructs of a .NET pattern whose meaning differs in JavaScript, and whether arrgo runs it the .NET way. */
export function dialectReport(pattern: string): DialectReport {
  const javascriptCompiles = compilesAsJavascript(pattern);
  let differences: DialectNote[] = [];
  try {
    differences = parseDotnetPattern(pattern, { i: true }).differences.map((construct) => ({ construct, ...NOTES[construct] }));
  } catch (error) {
    if (!(error instanceof RegexRefusal)) throw error;
    return { valid: false, reason: error.reason, offset: error.offset, javascriptCompiles, differences };
  }
  const translation = translateDotnetRegex(pattern);
  if (!translation.ok) return { valid: false, reason: translation.reason, offset: null, javascriptCompiles, differences };
  return { valid: true, translated: translation.regex, javascriptCompiles, differences };
}
