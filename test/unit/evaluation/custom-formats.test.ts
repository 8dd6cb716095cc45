import { buildEvaluationModel, CompiledRegex, evaluateRelease, explainRelease, FORMAT_RESULTS, releaseTitleSubject, type RegexLookup } from '../../../src/domain/evaluation';
import type { ParsedRelease } from '../../../src/domain/evaluation/release-parser';
import type { CustomFormatCondition, CustomFormatData } from '../../../src/domain/pcd';

const base = { arrType: 'all' as const, negate: false, required: false };
const title = (name: string, regularExpression: string, extra: Partial<CustomFormatCondition> = {}) =>
  ({ ...base, name, type: 'release_title', regularExpression, ...extra }) as CustomFormatCondition;
const format = (name: string, conditions: CustomFormatCondition[]): CustomFormatData => ({ name, description: null, includeInRename: false, tags: [], conditions, tests: [] });

const PATTERNS: Record<string, string> = { WEB: '\\bWEB[ ._-]?DL\\b', REMUX: '\\bremux\\b', HDR: '\\bHDR(10)?\\b', DV: '\\b(DV|dovi)\\b', GROUP: '^(FLUX|NTb)$', Balancing: '(?<a-b>x)' };

const FORMATS: CustomFormatData[] = [
  // Two groups (title, source): both must pass.
  format('WEB 1080p', [title('web', 'WEB'), { ...base, name: 'src', type: 'source', source: 'web_dl' }, { ...base, name: 'res', type: 'resolution', resolution: '1080p' }]),
  // One group: a required condition fails the group even when another passes.
  format('HDR not DV', [title('hdr', 'HDR'), title('not dv', 'DV', { negate: true, required: true })]),
  // Negate first: "not remux" passes on a title without REMUX.
  format('Not Remux', [title('remux', 'REMUX', { negate: true })]),
  format('Group', [{ ...base, name: 'g', type: 'release_group', regularExpression: 'GROUP' }]),
  format('Big', [{ ...base, name: 'size', type: 'size', minBytes: 1, maxBytes: null }]),
  format('Big WEB', [title('web', 'WEB'), { ...base, name: 'size', type: 'size', minBytes: 1, maxBytes: null, required: true }]),
  // Same type: one passing condition passes the group even when a sibling cannot be evaluated.
  format('WEB or big', [title('web', 'WEB'), title('bal', 'Balancing')]),
  // Different types: an undecidable group (indexer flags) leaves the format undecided.
  format('WEB and flag', [title('web', 'WEB'), { ...base, name: 'flag', type: 'indexer_flag', flag: 'freeleech' }]),
  format('Sonarr only', [{ ...base, arrType: 'series_app', name: 'pack', type: 'release_type', releaseType: 'season_pack' }]),
  format('Bluray raw', [{ ...base, name: 'raw', type: 'source', source: 'bluray_raw' }]),
  format('Untranslatable', [title('bal', 'Balancing')]),
  format('Years', [{ ...base, name: 'y', type: 'year', minYear: 2000, maxYear: 2010 }]),
  format('French', [{ ...base, name: 'fr', type: 'language', language: 'French', exceptLanguage: false }]),
];

const model = buildEvaluationModel(
  FORMATS.map((data, i) => ({ id: 100 + i, data })),
  PATTERNS,
);
const compiled = model.patterns.map((p) => new CompiledRegex(p));

function parsed(overrides: Partial<ParsedRelease> = {}): ParsedRelease {
  return {
    title: 'Movie',
    year: 2008,
    source: 'webdl',
    resolution: 1080,
    modifier: 'none',
    revision: { version: 1, real: 0, isRepack: false, isProper: false },
    languages: ['Unknown'],
    releaseGroup: 'FLUX',
    edition: null,
    releaseType: null,
    series: null,
    ...overrides,
  };
}

function results(releaseTitle: string, p: ParsedRelease | null, kind: 'movie_app' | 'series_app' = 'movie_app'): Record<string, string> {
  const app = model.apps[kind];
  const lookup: RegexLookup = (field, pattern) => {
    const subject = field === 'title' ? releaseTitleSubject(releaseTitle) : field === 'group' ? p?.releaseGroup : p?.edition;
    return subject == null ? 0 : compiled[pattern].test(subject) ? 1 : 0;
  };
  const evaluation = evaluateRelease(app, p, lookup);
  return Object.fromEntries(app.formats.map((f, i) => [f.name, FORMAT_RESULTS[evaluation.formats[i]]]));
}

describe('custom-format matching: the apps rule, three-valued', () => {
  const movie = 'Movie.2008.1080p.WEB-DL.HDR.DDP5.1-FLUX';

  it('groups by type, required and negate first, parsed fields and enums mapped like the sync', () => {
    expect(results(movie, parsed())).toEqual({
      'WEB 1080p': 'match',
      'HDR not DV': 'match',
      'Not Remux': 'match',
      Group: 'match',
      Big: 'undecided',
      'Big WEB': 'undecided',
      'WEB or big': 'match',
      'WEB and flag': 'undecided',
      'Sonarr only': 'notApplicable',
      'Bluray raw': 'notApplicable',
      Untranslatable: 'undecided',
      Years: 'match',
      French: 'undecided',
    });
  });

  it('a required condition failing fails its group; other results follow', () => {
    const r = results('Movie.2012.2160p.BluRay.REMUX.HDR.DV-Other', parsed({ source: 'bluray', resolution: 2160, modifier: 'remux', year: 2012, releaseGroup: 'Other', languages: ['French'] }));
    expect(r).toMatchObject({ 'WEB 1080p': 'noMatch', 'HDR not DV': 'noMatch', 'Not Remux': 'noMatch', Group: 'noMatch', 'Big WEB': 'noMatch', 'WEB or big': 'undecided', 'WEB and flag': 'noMatch', Years: 'noMatch', French: 'match' });
  });

  it("Sonarr's sources: Blu-ray remux is BlurayRaw, and release types apply to series only", () => {
    const r = results('Show.S01.1080p.BluRay.REMUX-FLUX', parsed({ source: 'bluray', modifier: 'remux', releaseType: 'seasonPack' }), 'series_app');
    expect(r).toMatchObject({ 'Bluray raw': 'match', 'Sonarr only': 'match' });
  });

  it('an unparsed title still decides release-title conditions; the rest is undecided', () => {
    expect(results(movie, null)).toMatchObject({ 'Not Remux': 'match', 'HDR not DV': 'match', 'WEB 1080p': 'undecided', Group: 'undecided' });
  });

  it('explain gives a reason per condition', () => {
    const app = model.apps.movie_app;
    const p = parsed();
    const evaluation = evaluateRelease(app, p, (field, pattern) => (compiled[pattern].test(field === 'title' ? movie : p.releaseGroup!) ? 1 : 0));
    const byName = new Map(explainRelease(app, p, evaluation).map((f) => [f.name, f]));
    expect(byName.get('HDR not DV')!.conditions).toEqual([
      { name: 'hdr', type: 'release_title', required: false, negate: false, result: 'pass', reason: 'the pattern matches the title' },
      { name: 'not dv', type: 'release_title', required: true, negate: true, result: 'pass', reason: 'the pattern does not match the title (negated: passes)' },
    ]);
    expect(byName.get('Bluray raw')!.conditions[0]).toMatchObject({ result: 'leftOut', reason: 'the app would not have this condition: Radarr has no source "bluray_raw"' });
    expect(byName.get('Sonarr only')!.conditions).toEqual([]);
    expect(byName.get('Untranslatable')!.conditions[0].reason).toMatch(/^not evaluable from a title: the pattern cannot be translated: balancing groups/);
    expect(byName.get('Big')!.conditions[0].reason).toBe('not evaluable from a title: a release size is not part of its title');
    expect(byName.get('WEB 1080p')!.conditions[1]).toMatchObject({ result: 'pass', reason: 'the parsed source is "web_dl"' });
  });
});
