import { startArrgo, type Harness } from '../helpers/harness';

const REGEX = '/entity-testing/regex';

describe('POST /entity-testing/regex', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startArrgo();
  });
  afterAll(() => h?.close());

  const test = (body: unknown) => h.post(REGEX, body);

  it('matches the .NET way and the JavaScript way, and flags where they differ (\\b around a non-ASCII letter)', async () => {
    const r = await test({ pattern: '\\bNEHD\\b', testStrings: ['Movie.2010.1080p.BluRay.x264-ZØNEHD', 'Movie.2010.1080p.BluRay.x264-NEHD', 'nehd'] });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ pattern: '\\bNEHD\\b', valid: true, reason: null, offset: null, javascriptCompiles: true, deadlineMs: 100 });
    expect(r.body.results).toEqual([
      { text: 'Movie.2010.1080p.BluRay.x264-ZØNEHD', dotnet: 'noMatch', javascript: 'match', differs: true },
      { text: 'Movie.2010.1080p.BluRay.x264-NEHD', dotnet: 'match', javascript: 'match', differs: false },
      { text: 'nehd', dotnet: 'match', javascript: 'match', differs: false },
    ]);
    expect(r.body.differences.map((d: { construct: string }) => d.construct)).toEqual(['wordBoundary']);
    expect(r.body.differences[0]).toEqual({
      construct: 'wordBoundary',
      syntax: '\\b \\B',
      dotnet: 'a boundary between Unicode word characters and others (\\bNEHD\\b does not match inside ZØNEHD)',
      javascript: 'an ASCII word boundary (\\bNEHD\\b matches inside ZØNEHD)',
    });
  });

  it('a pattern JavaScript cannot compile is still matched the .NET way (inline options, \\Z)', async () => {
    const r = await test({ pattern: '(?-i:WEB)[ .-]?DL\\Z', testStrings: ['Movie.WEB-DL', 'Movie.web-dl', 'Movie.WEBDL.x264'] });
    expect(r.status).toBe(200);
    expect(r.body.valid).toBe(true);
    expect(r.body.javascriptCompiles).toBe(false);
    expect(r.body.results).toEqual([
      { text: 'Movie.WEB-DL', dotnet: 'match', javascript: null, differs: false },
      { text: 'Movie.web-dl', dotnet: 'noMatch', javascript: null, differs: false },
      { text: 'Movie.WEBDL.x264', dotnet: 'noMatch', javascript: null, differs: false },
    ]);
    expect(r.body.differences.map((d: { construct: string }) => d.construct)).toEqual(['inlineOptions', 'endAnchor']);
  });

  it('a pattern with no dialect difference answers the same both ways', async () => {
    const r = await test({ pattern: '[xh][ ._-]?265', testStrings: ['Movie.x265', 'Movie.H 265', 'Movie.x264'] });
    expect(r.body.differences).toEqual([]);
    expect(r.body.results.map((x: { dotnet: string; javascript: string }) => [x.dotnet, x.javascript])).toEqual([
      ['match', 'match'],
      ['match', 'match'],
      ['noMatch', 'noMatch'],
    ]);
  });

  it('a pattern .NET refuses or arrgo cannot translate is answered with the reason, not a 400', async () => {
    const balancing = await test({ pattern: '(?<o>a)(?<c-o>b)', testStrings: ['ab'] });
    expect(balancing.status).toBe(200);
    expect(balancing.body).toMatchObject({ valid: false, reason: 'balancing groups (?<name1-name2>...) have no JavaScript equivalent', offset: 7, javascriptCompiles: false });
    expect(balancing.body.results).toEqual([{ text: 'ab', dotnet: null, javascript: null, differs: false }]);
    const unbalanced = await test({ pattern: 'a)b', testStrings: [] });
    expect(unbalanced.body).toMatchObject({ valid: false, reason: 'too many )', offset: 1, results: [] });
  });

  it('a match that backtracks past the deadline is stopped and reported as timedOut, and so are the pattern\'s later strings; the next request is answered', async () => {
    const r = await test({ pattern: '(a+)+$', testStrings: ['aaa', `${'a'.repeat(40)}!`, 'aaaa'] });
    expect(r.status).toBe(200);
    expect(r.body.results).toEqual([
      { text: 'aaa', dotnet: 'match', javascript: 'match', differs: false },
      { text: `${'a'.repeat(40)}!`, dotnet: 'timedOut', javascript: 'timedOut', differs: false },
      { text: 'aaaa', dotnet: 'timedOut', javascript: 'timedOut', differs: false },
    ]);
    const next = await test({ pattern: 'a', testStrings: ['A'] });
    expect(next.body.results[0]).toEqual({ text: 'A', dotnet: 'match', javascript: 'match', differs: false });
  });

  it('refuses bad requests with 400 naming the field', async () => {
    const cases: [unknown, string][] = [
      [{}, 'Invalid request: body.pattern is required'],
      [{ pattern: '' }, 'Invalid request: body.pattern must not be empty'],
      [{ pattern: 'x'.repeat(1001) }, 'Invalid request: body.pattern must be at most 1000 characters'],
      [{ pattern: 'a\nb' }, 'Invalid request: body.pattern must not contain control characters'],
      [{ pattern: 'a', testStrings: Array.from({ length: 101 }, () => 'a') }, 'Invalid request: body.testStrings must have at most 100 item(s)'],
      [{ pattern: 'a', testStrings: [''] }, 'Invalid request: body.testStrings.0 must not be empty'],
      [{ pattern: 'a', testStrings: ['y'.repeat(1001)] }, 'Invalid request: body.testStrings.0 must be at most 1000 characters'],
      [{ pattern: 'a', extra: 1 }, 'Invalid request: body has unknown field(s): extra'],
    ];
    for (const [body, error] of cases) {
      const r = await test(body);
      expect({ body, status: r.status, error: r.body.error }).toEqual({ body, status: 400, error });
    }
  });

  it('is documented in the OpenAPI document', async () => {
    const doc = await h.get('/openapi.json');
    const op = doc.body.paths['/api/v1/entity-testing/regex'].post;
    expect(op.operationId).toBe('testRegex');
    expect(op.description).toMatch(/up to 100 test strings/);
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '400']));
    expect(doc.body.components.schemas.RegexTestResponse.properties.differences).toBeDefined();
  });
});
