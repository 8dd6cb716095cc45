/**
 * The parser conformance suite (test/fixtures/parser-conformance, format in its README): the project's own
 * cases, each naming the app and the rule it pins. Every case must agree; each group must have cases.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseRelease, type ParsedRelease } from '../../../src/domain/evaluation/release-parser';

const DIR = path.resolve(__dirname, '..', '..', 'fixtures', 'parser-conformance');
const GROUPS = ['languages', 'movie-titles', 'editions', 'series', 'series-quality', 'release-groups'];
const SIMPLE_FIELDS = ['title', 'year', 'edition', 'source', 'resolution', 'modifier', 'releaseGroup', 'releaseType'] as const;

interface ConformanceCase {
  app: 'radarr' | 'sonarr';
  title: string;
  rule: string;
  expect: Partial<Record<(typeof SIMPLE_FIELDS)[number], unknown>> & {
    languages?: string[];
    languagesInclude?: string[];
    languagesExclude?: string[];
    series?: Record<string, unknown>;
  };
}

const sorted = (list: readonly string[]) => [...list].sort();

/** The fields of `parsed` that disagree with the case, as "field: got …, want …". */
function disagreements(c: ConformanceCase, parsed: ParsedRelease | null): string[] {
  const out: string[] = [];
  const differ = (field: string, got: unknown, want: unknown) => {
    if (JSON.stringify(got) !== JSON.stringify(want)) out.push(`${field}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
  };
  for (const field of SIMPLE_FIELDS) if (field in c.expect) differ(field, parsed?.[field] ?? null, c.expect[field]);
  const languages = parsed?.languages ?? [];
  if (c.expect.languages) differ('languages', sorted(languages), sorted(c.expect.languages));
  for (const l of c.expect.languagesInclude ?? []) if (!languages.includes(l)) out.push(`languages: ${JSON.stringify(languages)} lacks ${l}`);
  for (const l of c.expect.languagesExclude ?? []) if (languages.includes(l)) out.push(`languages: ${JSON.stringify(languages)} has ${l}`);
  for (const [key, want] of Object.entries(c.expect.series ?? {})) differ(`series.${key}`, (parsed?.series as Record<string, unknown> | null)?.[key] ?? null, want);
  return out;
}

const files = fs.readdirSync(DIR).filter((f) => f.endsWith('.json'));
const suite = files.map((file) => ({ group: file.replace(/\.json$/, ''), cases: JSON.parse(fs.readFileSync(path.join(DIR, file), 'utf8')) as ConformanceCase[] }));

describe('release parser conformance suite', () => {
  it('has every group, at least 600 cases, and every case names its app and rule', () => {
    expect(suite.map((s) => s.group).sort()).toEqual([...GROUPS].sort());
    const all = suite.flatMap((s) => s.cases);
    expect(all.length).toBeGreaterThanOrEqual(600);
    const unnamed = all.filter((c) => !['radarr', 'sonarr'].includes(c.app) || typeof c.rule !== 'string' || c.rule.trim().length < 8);
    expect(unnamed.map((c) => c.title)).toEqual([]);
    const duplicated = all.map((c) => `${c.app}|${c.title}`).filter((key, i, keys) => keys.indexOf(key) !== i);
    expect(duplicated).toEqual([]);
  });

  describe.each(suite)('$group', ({ cases }) => {
    it('agrees with the app on every case', () => {
      expect(cases.length).toBeGreaterThan(0);
      const misses = cases
        .map((c) => ({ c, diff: disagreements(c, parseRelease(c.title, c.app === 'sonarr' ? 'series' : 'movie')) }))
        .filter((r) => r.diff.length > 0)
        .map((r) => `[${r.c.app}] ${r.c.title}\n    ${r.diff.join('\n    ')}\n    rule: ${r.c.rule}`);
      expect(misses).toEqual([]);
    });
  });
});
