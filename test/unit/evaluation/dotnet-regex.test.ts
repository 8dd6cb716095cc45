import fs from 'node:fs';
import path from 'node:path';
import { CompiledRegex, translateDotnetRegex } from '../../../src/domain/evaluation';
import { describeWithShared, sharedPath } from '../../helpers/shared-data';

/*
 * .NET versus JavaScript. Every expected answer is .NET's, as Microsoft documents it:
 * OPTIONS  https://learn.microsoft.com/en-us/dotnet/standard/base-types/regular-expression-options
 * MISC     https://learn.microsoft.com/en-us/dotnet/standard/base-types/miscellaneous-constructs-in-regular-expressions
 *          ("Any change in regular expression options defined by the (?imnsx-imnsx) construct remains in effect until the end of the enclosing group")
 * CLASSES  https://learn.microsoft.com/en-us/dotnet/standard/base-types/character-classes-in-regular-expressions
 *          (\w is [\p{L}\p{Mn}\p{Nd}\p{Pc}]; \d is \p{Nd}; \s is [\f\n\r\t\v\x85\p{Z}]; "." matches any character except \n)
 * ANCHORS  https://learn.microsoft.com/en-us/dotnet/standard/base-types/anchors-in-regular-expressions
 *          (\A start only; \Z end or before a final \n; \z end only; $ like \Z without Multiline; \b between \w and \W)
 * GROUPS   https://learn.microsoft.com/en-us/dotnet/standard/base-types/grouping-constructs-in-regular-expressions
 *          ((?<name>) and (?'name'), atomic groups (?>) do not backtrack, balancing groups)
 * BACKREF  https://learn.microsoft.com/en-us/dotnet/standard/base-types/backreference-constructs-in-regular-expressions
 * QUANT    https://learn.microsoft.com/en-us/dotnet/standard/base-types/quantifiers-in-regular-expressions
 * ALT      https://learn.microsoft.com/en-us/dotnet/standard/base-types/alternation-constructs-in-regular-expressions (conditionals)
 * ESCAPES  https://learn.microsoft.com/en-us/dotnet/standard/base-types/character-escapes-in-regular-expressions
 * The apps construct every custom-format regex with RegexOptions.IgnoreCase, so patterns here run
 * case-insensitively unless a case says otherwise.
 */
interface Case {
  pattern: string;
  subject: string;
  dotnet: boolean;
  doc: string;
  ignoreCase?: boolean;
  /** What plain `new RegExp(pattern, 'i')` answers (or 'SyntaxError'), where it differs. */
  naiveJs?: boolean | 'SyntaxError';
}

const CASES: Case[] = [
  // Inline options (MISC, OPTIONS)
  { pattern: '(?i)\\bgerman\\b', subject: 'Movie.2020.GERMAN.1080p', dotnet: true, doc: 'MISC', naiveJs: 'SyntaxError' },
  { pattern: '(?i)web', subject: 'WEB', dotnet: true, doc: 'MISC', ignoreCase: false, naiveJs: 'SyntaxError' },
  { pattern: '(?-i:WEB)', subject: 'Movie.web.1080p', dotnet: false, doc: 'MISC', naiveJs: 'SyntaxError' },
  { pattern: '(?-i:WEB)', subject: 'Movie.WEB.1080p', dotnet: true, doc: 'MISC' },
  { pattern: '(?-i:WEB)-dl', subject: 'Movie.WEB-DL', dotnet: true, doc: 'MISC (the option ends with its group: -dl stays case-insensitive)' },
  { pattern: 'a(?-i)b', subject: 'AB', dotnet: false, doc: 'MISC (an unscoped option applies to the rest of the enclosing group)' },
  { pattern: 'a(?-i)b', subject: 'Ab', dotnet: true, doc: 'MISC' },
  { pattern: '(x(?-i)y)z', subject: 'XyZ', dotnet: true, doc: 'MISC (the change ends with the enclosing group: z is case-insensitive again)' },
  { pattern: '(?x) web \\- dl # comment', subject: 'WEB-DL', dotnet: true, doc: 'OPTIONS (x: unescaped white space and # comments are ignored)', naiveJs: 'SyntaxError' },
  { pattern: '(?s)a.b', subject: 'a\nb', dotnet: true, doc: 'OPTIONS (s: . matches \\n)' },
  { pattern: 'a.b', subject: 'a\nb', dotnet: false, doc: 'CLASSES (. matches any character except \\n)' },
  { pattern: 'a.b', subject: 'a\rb', dotnet: true, doc: 'CLASSES (. matches \\r: only \\n is excluded)', naiveJs: false },
  { pattern: '(?m)^dl$', subject: 'web\ndl\nx', dotnet: true, doc: 'OPTIONS (m: ^ and $ at every line)' },
  // A ] first in a class is a literal (CLASSES: a positive character group lists its characters; .NET reads a leading ] as one)
  { pattern: '[]]', subject: 'a]b', dotnet: true, doc: 'CLASSES', naiveJs: false },
  { pattern: '[([]dual[])]', subject: 'Movie [Dual] 1080p', dotnet: true, doc: 'CLASSES', naiveJs: 'SyntaxError' },
  { pattern: '[([]dual[])]', subject: 'Movie (Dual) 1080p', dotnet: true, doc: 'CLASSES', naiveJs: 'SyntaxError' },
  { pattern: '[^]]x', subject: ']x', dotnet: false, doc: 'CLASSES (negative group with a leading ])' },
  { pattern: '[^]]x', subject: 'ax', dotnet: true, doc: 'CLASSES' },
  { pattern: '[]a-c]+$', subject: 'b]a', dotnet: true, doc: 'CLASSES' },
  // Unicode-aware \b, \w, \d (CLASSES, ANCHORS)
  { pattern: '\\bNEHD\\b', subject: 'Movie.ZØNEHD.1080p', dotnet: false, doc: 'ANCHORS (Ø is \\p{L}, so no boundary before N)', naiveJs: true },
  { pattern: '\\bNEHD\\b', subject: 'Movie.NEHD.1080p', dotnet: true, doc: 'ANCHORS' },
  { pattern: '\\bamélie\\b', subject: 'Amélie.2001.1080p', dotnet: true, doc: 'ANCHORS (é is a word character, so a boundary follows the last e)' },
  { pattern: '\\blie\\b', subject: 'Amélie.2001', dotnet: false, doc: 'ANCHORS (é before l is a word character: no boundary)', naiveJs: true },
  { pattern: '^\\w+$', subject: 'Amélie', dotnet: true, doc: 'CLASSES (\\w includes \\p{L})', naiveJs: false },
  { pattern: '^\\w+$', subject: '千と千尋の神隠し', dotnet: true, doc: 'CLASSES (CJK ideographs are \\p{Lo})', naiveJs: false },
  { pattern: '\\b千尋\\b', subject: '千と千尋の神隠し', dotnet: false, doc: 'ANCHORS (CJK letters on both sides: no boundary)' },
  { pattern: '\\b千と千尋の神隠し\\b', subject: 'Spirited.Away.千と千尋の神隠し.2001', dotnet: true, doc: 'ANCHORS', naiveJs: false },
  { pattern: '^\\d+$', subject: '١٢٣', dotnet: true, doc: 'CLASSES (\\d is \\p{Nd}: Arabic-Indic digits)', naiveJs: false },
  { pattern: '^\\d+$', subject: '２０２０', dotnet: true, doc: 'CLASSES (full-width digits are \\p{Nd})', naiveJs: false },
  { pattern: '\\W', subject: 'Ñandú', dotnet: false, doc: 'CLASSES (\\W excludes letters of every script)', naiveJs: true },
  { pattern: 'a\\Bé', subject: 'aé', dotnet: true, doc: 'ANCHORS (\\B between two word characters)', naiveJs: false },
  { pattern: '[\\w-]+x', subject: 'ü-x', dotnet: true, doc: 'CLASSES (\\w inside a class)' },
  { pattern: '^\\s$', subject: '\u0085', dotnet: true, doc: 'CLASSES (\\s includes \\x85)', naiveJs: false },
  { pattern: '^\\s$', subject: '\ufeff', dotnet: false, doc: 'CLASSES (\\s is [\\f\\n\\r\\t\\v\\x85\\p{Z}]; U+FEFF is Cf)', naiveJs: true },
  // \A, \Z, \z, $ (ANCHORS)
  { pattern: '\\Aweb', subject: 'WEB-DL', dotnet: true, doc: 'ANCHORS', naiveJs: false },
  { pattern: '\\Adl', subject: 'WEB-DL', dotnet: false, doc: 'ANCHORS' },
  { pattern: 'dl\\z', subject: 'WEB-DL', dotnet: true, doc: 'ANCHORS' },
  { pattern: 'dl\\z', subject: 'WEB-DL\n', dotnet: false, doc: 'ANCHORS (\\z: the very end only)' },
  { pattern: 'dl\\Z', subject: 'WEB-DL\n', dotnet: true, doc: 'ANCHORS (\\Z: the end or before a final \\n)', naiveJs: false },
  { pattern: 'dl$', subject: 'WEB-DL\n', dotnet: true, doc: 'ANCHORS ($ without Multiline matches before a final \\n)', naiveJs: false },
  { pattern: '-TVS$', subject: 'Show.iTunes.-TVS.mkv', dotnet: false, doc: 'ANCHORS' },
  // Named groups, duplicates, back references (GROUPS, BACKREF)
  { pattern: '(?<sep>[._-])web\\k<sep>dl', subject: 'Movie.WEB.DL', dotnet: true, doc: 'GROUPS, BACKREF' },
  { pattern: "(?'sep'[._-])web\\k'sep'dl", subject: 'Movie.WEB-DL', dotnet: false, doc: "GROUPS ((?'name') form), BACKREF", naiveJs: 'SyntaxError' },
  { pattern: '(?<x>hdr)|(?<x>dv)', subject: 'Movie.DV.2160p', dotnet: true, doc: 'GROUPS (a name may be used more than once)', naiveJs: 'SyntaxError' },
  { pattern: '([._-])iTunes(?:HD|SD)?\\1.+?-TVS$', subject: 'Show.S01.iTunesHD.1080p-TVS', dotnet: true, doc: 'BACKREF' },
  { pattern: '([._-])iTunes(?:HD|SD)?\\1.+?-TVS$', subject: 'Show.S01-iTunesHD.1080p-TVS', dotnet: false, doc: 'BACKREF' },
  // Atomic groups (GROUPS: "(?>subexpression)" does not backtrack)
  { pattern: '(?>a+)ab', subject: 'aaab', dotnet: false, doc: 'GROUPS (atomic: a+ keeps every a, so ab cannot follow)', naiveJs: 'SyntaxError' },
  { pattern: '(?:a+)ab', subject: 'aaab', dotnet: true, doc: 'GROUPS (a non-atomic group backtracks)' },
  { pattern: '(?>web|web-dl)$', subject: 'web-dl', dotnet: false, doc: 'GROUPS (atomic: the first alternative that matches is kept)' },
  { pattern: '(?>x+)y', subject: 'xxy', dotnet: true, doc: 'GROUPS' },
  // Quantifier and escape syntax (QUANT, ESCAPES)
  { pattern: 'a{,2}', subject: 'a{,2}', dotnet: true, doc: 'QUANT ({,n} is not a quantifier in .NET: literal text)' },
  { pattern: 'x{2}', subject: 'xx', dotnet: true, doc: 'QUANT' },
  { pattern: '\\x41\\u0042', subject: 'ab', dotnet: true, doc: 'ESCAPES (case-insensitive)' },
  { pattern: '5\\.1', subject: 'DD5.1', dotnet: true, doc: 'ESCAPES' },
  { pattern: '5\\.1', subject: 'DD501', dotnet: false, doc: 'ESCAPES' },
];

describe('.NET regex translation: answers as .NET documents them', () => {
  it('has at least 40 cases', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(40);
  });

  it.each(CASES.map((c) => [`${c.pattern} on ${JSON.stringify(c.subject)}`, c] as const))('%s', (_name, c) => {
    const t = translateDotnetRegex(c.pattern, c.ignoreCase ?? true);
    if (!t.ok) throw new Error(`refused: ${t.reason}`);
    expect(new CompiledRegex(t.regex).test(c.subject)).toBe(c.dotnet);
  });

  it('the cases marked with a plain-JavaScript answer really differ without translation', () => {
    const differing = CASES.filter((c) => c.naiveJs !== undefined);
    expect(differing.length).toBeGreaterThanOrEqual(20);
    for (const c of differing) {
      let naive: boolean | 'SyntaxError';
      try {
        naive = new RegExp(c.pattern, c.ignoreCase === false ? '' : 'i').test(c.subject);
      } catch {
        naive = 'SyntaxError';
      }
      expect({ pattern: c.pattern, naive }).toEqual({ pattern: c.pattern, naive: c.naiveJs });
      expect(naive).not.toBe(c.dotnet);
    }
  });
});

describe('constructs without a faithful translation are refused with a reason', () => {
  it.each([
    ['(?<open>\\()(?<close-open>\\))', /balancing groups/],
    ['(?:(a)|b)+(?(1)c|d)', /conditional \(\?\(1\)yes\|no\) on a group inside a repeated quantifier/],
    ['\\p{IsKlingon}', /unknown property 'IsKlingon'/],
    ['[a-z-[aeiou]x]', /subtraction must be the last element/],
    ['(-)?\\1', /may not have matched/],
    ['(a)\\1', /case-insensitive back reference/],
    ['(?<n>a)|(?<n>b)\\k<n>', /may not have matched|more than once/],
    ['\\q', /unrecognized escape/],
    ['(abc', /not enough \)/],
    ['a**', /nested quantifier/],
    ['\\2(a)', /undefined group|may not have matched/],
  ])('%s', (pattern, reason) => {
    const t = translateDotnetRegex(pattern);
    expect(t.ok).toBe(false);
    if (!t.ok) expect(t.reason).toMatch(reason);
  });
});

function trashGuidePatterns(): { file: string; value: string }[] {
  const out: { file: string; value: string }[] = [];
  const walk = (dir: string) => {
    for (const name of fs.readdirSync(dir)) {
      const p = path.join(dir, name);
      if (fs.statSync(p).isDirectory()) walk(p);
      else if (p.endsWith('.json') && p.split(path.sep).includes('cf')) {
        const json = JSON.parse(fs.readFileSync(p, 'utf8')) as { specifications?: { implementation: string; fields: unknown }[] };
        for (const spec of json.specifications ?? []) {
          if (!['ReleaseTitleSpecification', 'ReleaseGroupSpecification', 'EditionSpecification'].includes(spec.implementation)) continue;
          const fields = spec.fields as { name: string; value: unknown }[] | { value: unknown };
          const value = Array.isArray(fields) ? fields.find((f) => f.name === 'value')?.value : fields.value;
          out.push({ file: path.relative(sharedPath('data', 'trash-guides'), p), value: String(value) });
        }
      }
    }
  };
  walk(sharedPath('data', 'trash-guides', 'docs', 'json'));
  return out;
}

describeWithShared(['data', 'trash-guides', 'docs', 'json'], 'TRaSH Guides patterns', () => {
  it('all 2,790 title, group and edition patterns translate', () => {
    const patterns = trashGuidePatterns();
    expect(patterns).toHaveLength(2790);
    const refused = patterns.map((p) => ({ ...p, t: translateDotnetRegex(p.value) })).filter((p) => !p.t.ok);
    expect(refused).toEqual([]);
  });
});
