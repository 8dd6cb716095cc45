import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { linkDatabase } from '../helpers/fleet';
import { eventually, startArrgo, type Harness } from '../helpers/harness';

const SAMPLE = path.resolve(__dirname, '..', '..', 'examples', 'sample-pcd');

/** The sample PCD with regular expressions .NET runs and arrgo either translates or refuses. */
function pcdWithPatterns(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arrgo-regex-pcd-'));
  fs.cpSync(SAMPLE, dir, { recursive: true });
  const rows: [string, string][] = [
    ['Quoted Title', '^(?<q>")?\\w+(?(q)")$'], // a conditional: translated
    ['Consonants', '[a-z-[aeiou]]+'], // class subtraction: translated
    ['Brackets', '^(?<o>\\()+(?<c-o>\\))+$'], // balancing groups: refused
    ['Repeated Test', '(?:(a)|b)+(?(1)c|d)'], // a group test .NET and JavaScript remember differently: refused
    ['Dotted', 'DV.HDR'], // . reads one UTF-16 unit in .NET
  ];
  const sql = rows.map(([name, pattern]) => `INSERT INTO regular_expressions (name, pattern) VALUES ('${name}', '${pattern.replace(/'/g, "''")}');`).join('\n');
  fs.writeFileSync(path.join(dir, 'ops', '9.regex-constructs.sql'), `${sql}\n`);
  return dir;
}

describe('.NET patterns arrgo cannot evaluate as the apps do are reported when linked or imported, naming the construct', () => {
  let h: Harness;
  let databaseId: number;
  let dir: string;

  beforeAll(async () => {
    h = await startArrgo();
    dir = pcdWithPatterns();
    databaseId = await linkDatabase(h, 'regex-sample', dir);
  });
  afterAll(async () => {
    await h?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('linking reports the refused patterns in cache.stats, by name with the construct; translated ones are not listed', async () => {
    const r = await h.get(`/databases/${databaseId}`);
    expect(r.status).toBe(200);
    expect(r.body.cache.stats.unevaluablePatterns).toBe(2);
    expect(r.body.cache.stats.firstUnevaluablePatterns).toEqual([
      { name: 'Brackets', reason: 'balancing groups (?<name1-name2>...) have no JavaScript equivalent' },
      { name: 'Repeated Test', reason: expect.stringMatching(/^conditional \(\?\(1\)yes\|no\) on a group inside a repeated quantifier is not translated/) },
    ]);
  });

  it('importing or editing a regular expression answers with a warning naming the construct, and none for a translated one', async () => {
    const regex = (name: string, pattern: string) => h.post('/pcd/import', { databaseId, layer: 'user', entityType: 'regular_expression', data: { name, pattern, regex101Id: null, description: null, tags: [] } });
    const refused = await regex('Atomic Test', '(?>a+)(?(1)b|c)');
    expect(refused.status).toBe(200);
    expect(refused.body).toEqual({ success: true, warnings: ['regular expression "Atomic Test": custom-format evaluation refuses this pattern ((?(1)) reference to undefined group); conditions that use it are not evaluable'] });
    const translated = await regex('Expression Test', '(?(\\d)\\d{3}|[a-z]{3})');
    expect(translated.body).toEqual({ success: true });
    const edited = await h.patch(`/pcd/${databaseId}/entities/regular_expression/${encodeURIComponent('Expression Test')}`, { changes: [{ path: 'pattern', value: '\\p{IsKlingon}' }] });
    expect(edited.status).toBe(200);
    expect(edited.body).toEqual({ success: true, changed: true, warnings: ['regular expression "Expression Test": custom-format evaluation refuses this pattern (unknown property \'IsKlingon\' (not a .NET Unicode category or named block)); conditions that use it are not evaluable'] });
    const fixed = await h.patch(`/pcd/${databaseId}/entities/regular_expression/${encodeURIComponent('Expression Test')}`, { changes: [{ path: 'pattern', value: '\\p{IsCyrillic}' }] });
    expect(fixed.body).toEqual({ success: true, changed: true });
  });

  it('importing a guide format answers with a warning for each pattern evaluation refuses', async () => {
    const guide = fs.mkdtempSync(path.join(os.tmpdir(), 'arrgo-regex-guide-'));
    try {
      const cf = path.join(guide, 'docs', 'json', 'radarr', 'cf');
      fs.mkdirSync(cf, { recursive: true });
      const spec = (name: string, value: string) => ({ name, implementation: 'ReleaseTitleSpecification', negate: false, required: false, fields: { value } });
      fs.writeFileSync(
        path.join(cf, 'bracketed.json'),
        JSON.stringify({ trash_id: 'aaaabbbbccccdddd0000111122223333', trash_scores: { default: 10 }, name: 'Bracketed', includeCustomFormatWhenRenaming: false, specifications: [spec('Balanced Brackets', '(?<o>\\[)+(?<c-o>\\])+'), spec('Plain', '\\bREPACK\\b')] }),
      );
      const source = await h.post('/ref-guide/sources', { name: 'Regex guide', origin: { kind: 'local', path: guide }, arrType: 'movie_app' });
      expect(source.status).toBe(201);
      await eventually(() => h.get(`/ref-guide/sources/${source.body.id}`), (r) => r.body.lastSyncedAt !== null, 60_000);
      const imported = await h.post(`/ref-guide/sources/${source.body.id}/entities/aaaabbbbccccdddd0000111122223333/import`, { databaseId });
      expect(imported.status).toBe(200);
      expect(imported.body.created.map((c: any) => c.name)).toEqual(['Balanced Brackets', 'Plain', 'Bracketed']);
      expect(imported.body.warnings).toEqual(['regular expression "Balanced Brackets": custom-format evaluation refuses this pattern (balancing groups (?<name1-name2>...) have no JavaScript equivalent); conditions that use it are not evaluable']);
    } finally {
      fs.rmSync(guide, { recursive: true, force: true });
    }
  });

  it('a translated conditional is evaluated as .NET answers it', async () => {
    const format = (name: string, regularExpression: string) =>
      h.post('/pcd/import', {
        databaseId,
        layer: 'user',
        entityType: 'custom_format',
        data: { name, description: null, includeInRename: false, tags: [], conditions: [{ name: 'title', type: 'release_title', arrType: 'all', negate: false, required: false, regularExpression }], tests: [] },
      });
    expect((await format('Quoted', 'Quoted Title')).status).toBe(200);
    expect((await format('Brackets Format', 'Brackets')).status).toBe(200);
    const titles = ['"Word"', 'Word"', 'Word'];
    const r = await h.post('/entity-testing/evaluate', { databaseId, releases: titles.map((title, i) => ({ id: i + 1, title, type: 'movie' })), explain: true });
    expect(r.status).toBe(200);
    const result = (i: number, name: string) => r.body.evaluations[i].explain.find((f: any) => f.name === name);
    // .NET: an opening quote needs its closing one, and none may close without one.
    expect(titles.map((_, i) => result(i, 'Quoted').result)).toEqual(['match', 'noMatch', 'match']);
    const brackets = result(0, 'Brackets Format');
    expect(brackets.result).toBe('undecided');
    expect(brackets.conditions[0]).toMatchObject({ result: 'notEvaluable', reason: expect.stringMatching(/balancing groups/) });
  });

  it('a title with a character outside the BMP is not evaluated by a pattern whose answer depends on it (.NET reads two UTF-16 units)', async () => {
    const created = await h.post('/pcd/import', {
      databaseId,
      layer: 'user',
      entityType: 'custom_format',
      data: { name: 'DV HDR', description: null, includeInRename: false, tags: [], conditions: [{ name: 'title', type: 'release_title', arrType: 'all', negate: false, required: false, regularExpression: 'Dotted' }], tests: [] },
    });
    expect(created.status).toBe(200);
    const titles = ['Movie.2020.DV.HDR.2160p', 'Movie.2020.DV\u{1F600}HDR.2160p'];
    const r = await h.post('/entity-testing/evaluate', { databaseId, releases: titles.map((title, i) => ({ id: i + 1, title, type: 'movie' })), explain: true });
    const format = (i: number) => r.body.evaluations[i].explain.find((f: any) => f.name === 'DV HDR');
    expect(format(0).result).toBe('match');
    // .NET: . takes the emoji's first surrogate and H cannot match the second; arrgo does not answer.
    expect(format(1).result).toBe('undecided');
    expect(format(1).conditions[0]).toMatchObject({ result: 'notEvaluable', reason: expect.stringMatching(/outside the BMP .*two UTF-16 units/) });
    const tested = await h.post('/entity-testing/regex', { pattern: 'DV.HDR', testStrings: titles });
    expect(tested.status).toBe(200);
    expect(tested.body.results.map((x: any) => x.dotnet)).toEqual(['match', null]);
  });
});
