import { compilesAsJavascript, dialectReport, DIALECT_DIFFERENCES } from '../../../src/domain/evaluation';

const constructs = (pattern: string) => dialectReport(pattern).differences.map((d) => d.construct);

describe('dialectReport: the constructs .NET and JavaScript read differently', () => {
  it.each<[string, string[]]>([
    ['x265', []],
    ['[xh][ ._-]?265|HEVC', []],
    ['\\bNEHD\\b', ['wordBoundary']],
    ['\\w+\\d', ['unicodeWordDigit']],
    ['[\\w.]+', ['unicodeWordDigit']],
    ['a\\sb', ['whitespace']],
    ['a.b', ['dot']],
    ['DL$', ['endAnchor']],
    ['DL\\Z', ['endAnchor']],
    ['\\AMovie\\z', ['stringAnchor']],
    ['(?i)web', ['inlineOptions']],
    ['(?-i:WEB)', ['inlineOptions']],
    ['a(?#note)b', ['comment']],
    ["(?'grp'a)", ['quotedGroupName']],
    ['(a)(?<n>b)', ['groupNumbering']],
    ['(?<n>a)|(?<n>b)', ['groupNumbering']],
    ['(?<n>a)(?<m>b)', []],
    ['(a)\\1', ['backreference']],
    ['(?>a+)b', ['atomicGroup']],
    ['a{b}', ['literalBrace']],
    ['a{2}', []],
    ['[]a]', ['bracketFirstInClass']],
    ['\\e\\a', ['escape']],
    ['[\\1]', ['escape']],
    ['\\p{Lu}', ['unicodeCategory']],
    ['(?i)\\b(DV|DoVi)\\b.', ['inlineOptions', 'wordBoundary', 'dot']],
  ])('%s -> %j', (pattern, expected) => {
    expect(constructs(pattern)).toEqual(expected);
  });

  it('every construct has its .NET and JavaScript reading', () => {
    for (const construct of DIALECT_DIFFERENCES) {
      const note = dialectReport(
        {
          inlineOptions: '(?i)a',
          comment: '(?#c)a',
          unicodeWordDigit: '\\w',
          wordBoundary: '\\b',
          whitespace: '\\s',
          dot: '.',
          endAnchor: '$',
          stringAnchor: '\\A',
          quotedGroupName: "(?'n'a)",
          groupNumbering: '(a)(?<n>b)',
          backreference: '(a)\\1',
          atomicGroup: '(?>a)',
          literalBrace: '{',
          bracketFirstInClass: '[]]',
          escape: '\\e',
          unicodeCategory: '\\p{L}',
          unicodeBlock: '\\p{IsGreek}',
          classSubtraction: '[a-z-[aeiou]]',
          conditional: '(a)?(?(1)b|c)',
          contiguousMatch: '\\Gx',
        }[construct],
      ).differences.find((d) => d.construct === construct);
      expect(note).toBeDefined();
      expect(note!.dotnet).not.toBe('');
      expect(note!.javascript).not.toBe('');
      expect(note!.dotnet).not.toBe(note!.javascript);
    }
  });

  it('a pattern .NET refuses carries the reason and offset; one it accepts but arrgo cannot translate has the reason', () => {
    expect(dialectReport('a)b')).toMatchObject({ valid: false, reason: 'too many )', offset: 1 });
    expect(dialectReport('\\q')).toMatchObject({ valid: false, reason: 'unrecognized escape sequence \\q', offset: 1 });
    const balancing = dialectReport('(?<o>a)(?<c-o>b)');
    expect(balancing).toMatchObject({ valid: false, reason: 'balancing groups (?<name1-name2>...) have no JavaScript equivalent', offset: 7 });
    const valid = dialectReport('\\bHDR\\b');
    expect(valid.valid).toBe(true);
    if (valid.valid) expect(valid.translated.pattern).toBe('\\bHDR\\b');
  });

  it('says whether the pattern compiles as JavaScript', () => {
    expect(compilesAsJavascript('\\bHDR(10)?\\b')).toBe(true);
    expect(compilesAsJavascript('(?i)HDR')).toBe(false);
    expect(compilesAsJavascript("(?'n'a)")).toBe(false);
    expect(dialectReport('(?>a)').javascriptCompiles).toBe(false);
  });
});
