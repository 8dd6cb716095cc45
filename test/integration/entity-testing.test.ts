import { linkDatabase } from '../helpers/fleet';
import { eventually, startArrgo, type Harness } from '../helpers/harness';
import { describeWithShared, sharedPath } from '../helpers/shared-data';

const EVALUATE = '/entity-testing/evaluate';

/**
 * Hand-checked against the TRaSH Guides descriptions of each format: what a release carries
 * (HDR, audio, streaming service, group tier, edition) must match, and unwanted formats must flag
 * low-quality groups, 3D and cams. `none` lists formats that must not match.
 */
const SAMPLE: { title: string; type: 'movie' | 'series'; match: string[]; none?: string[] }[] = [
  { title: 'Oppenheimer.2023.2160p.UHD.BluRay.REMUX.HDR10.HEVC.DTS-HD.MA.5.1-FGT', type: 'movie', match: ['2160p', 'HDR10', 'DTS-HD MA', '5.1 Surround', 'LQ'], none: ['DV Boost', 'x264 (Codec)'] },
  { title: 'Blade.Runner.1982.Final.Cut.1080p.BluRay.x264.DTS-HD.MA.5.1-SiDMUX', type: 'movie', match: ['Special Edition', 'DTS-HD MA', '1080p', 'x264 (Codec)'], none: ['LQ'] },
  { title: 'Aliens.1986.Special.Edition.2160p.UHD.BluRay.x265.HDR.DTS-X.7.1-DON', type: 'movie', match: ['Special Edition', 'DTS X', '7.1 Surround', 'HDR10', 'UHD Bluray Tier 01'], none: ['DTS-HD MA'] },
  { title: 'Movie.2021.2160p.WEB-DL.DV.HDR10Plus.DDP5.1.Atmos.H.265-CMRG', type: 'movie', match: ['DV Boost', 'HDR10+ Boost', 'DD+ ATMOS', 'WEB Tier 01'], none: ['DD+', 'LQ'] },
  { title: 'Movie.2021.1080p.DSNP.WEB-DL.DDP5.1.H.264-EVO', type: 'movie', match: ['DSNP', 'DD+'], none: ['AMZN', 'WEB Tier 01'] },
  { title: 'Movie.2021.1080p.ATVP.WEB-DL.DDP5.1.Atmos.H.264-TOMMY', type: 'movie', match: ['ATVP', 'DD+ ATMOS', 'WEB Tier 02'] },
  { title: 'Movie.2021.1080p.HMAX.WEB-DL.DD5.1.H.264-NOSiViD', type: 'movie', match: ['HMAX', 'DD', 'WEB Tier 01'], none: ['DD+'] },
  { title: 'Movie.2019.720p.BluRay.x264-RARBG', type: 'movie', match: ['LQ', '720p'] },
  { title: 'Movie.2019.1080p.HDCAM.x264-NoGroup', type: 'movie', match: ['LQ'] },
  { title: 'Movie.2019.3D.HSBS.1080p.BluRay.x264-XYZ', type: 'movie', match: ['3D'] },
  { title: 'Movie.2010.Remastered.1080p.BluRay.FLAC.2.0.x264-HiFi', type: 'movie', match: ['Remaster', 'FLAC', '2.0 Stereo', 'HD Bluray Tier 03'] },
  { title: 'Movie.2010.IMAX.2160p.DSNP.WEB-DL.DDP5.1.Atmos.DV.HDR.H.265-FLUX', type: 'movie', match: ['IMAX Enhanced', 'DSNP', 'FLUX', 'DV Boost', 'x265 (Codec)'] },
  { title: 'Movie.2010.Criterion.1080p.BluRay.REMUX.AVC.LPCM.1.0-BLURANiUM', type: 'movie', match: ['Criterion Collection', 'PCM', '1.0 Mono', 'Remux Tier 01'] },
  { title: 'Movie.2010.1080p.BluRay.x265.10bit.AAC.5.1-Tigole', type: 'movie', match: ['LQ', 'x265 (HD)', 'AAC', '10bit'] },
  { title: 'Movie.2010.1080p.BluRay.x264.TrueHD.Atmos.7.1-HiDt', type: 'movie', match: ['TrueHD ATMOS', '7.1 Surround', 'HD Bluray Tier 02'], none: ['TrueHD'] },
  { title: 'Movie.2010.2160p.UHD.BluRay.x265.10bit.HDR.DTS-HD.MA.5.1-SWTYBLZ', type: 'movie', match: ['LQ (Release Title)', 'HDR10'] },
  { title: 'Movie.2010.1080p.PCOK.WEB-DL.DDP5.1.H.264-SMURF', type: 'movie', match: ['PCOK', 'WEB Tier 02'] },
  { title: 'Movie.2010.1080p.PMTP.WEB-DL.DDP5.1.H.264-playWEB', type: 'movie', match: ['PMTP', 'WEB Tier 02'] },
  { title: 'Movie.2010.1080p.BluRay.DTS.x264-CtrlHD', type: 'movie', match: ['DTS', 'HD Bluray Tier 01'], none: ['DTS-HD MA', 'LQ'] },
  { title: 'Movie.2010.1080p.BluRay.Opus.5.1.x265-QxR', type: 'movie', match: ['Opus', 'x265 (HD)'] },
  { title: 'Movie.2010.Open.Matte.1080p.WEB-DL.DDP5.1.H.264-GROUP', type: 'movie', match: ['Open Matte'] },
  { title: 'Movie.2010.1080p.BluRay.x264.DTS-ES-GROUP', type: 'movie', match: ['DTS-ES'], none: ['DTS'] },
  { title: 'Movie.2010.Hybrid.1080p.BluRay.REMUX.AVC.DTS-HD.MA.5.1-GROUP', type: 'movie', match: ['Hybrid', 'DTS-HD MA'] },
  { title: 'Movie.2010.1080p.AMZN.WEB-DL.DDP5.1.H.264.Repack-GROUP', type: 'movie', match: ['Repack/Proper', 'AMZN'] },
  { title: 'Movie.2010.1080p.BluRay.x264.MULTi.GERMAN.DL-GROUP', type: 'movie', match: ['MULTi'] },
  { title: 'Movie.2010.720p.BluRay.x264-EVO', type: 'movie', match: ['LQ (Release Title)'] },
  { title: 'Movie.2019.1080p.BluRay.x264.AAC-YTS.MX', type: 'movie', match: ['AAC'] },
  { title: 'Show.S02E05.2160p.HULU.WEB-DL.DDP5.1.HDR.H.265-NTb', type: 'series', match: ['Hulu', 'HDR10', 'WEB Tier 01', 'DD+'] },
  { title: 'Show.S01.1080p.AMZN.WEB-DL.DDP2.0.H.264-NTb', type: 'series', match: ['AMZN', 'WEB Tier 01'] },
  { title: 'Show.S03E01.1080p.NF.WEB-DL.DDP5.1.H.264-NTb', type: 'series', match: ['NF', 'WEB Tier 01', 'DD+'], none: ['AMZN'] },
  { title: 'Movie.2010.2160p.WEB-DL.HLG.DDP5.1.H.265-GROUP', type: 'movie', match: ['2160p', 'x265 (Codec)'], none: ['DV Boost'] },
  { title: 'Show.S02.1080p.AMZN.WEB-DL.DDP2.0.H.264-NTb', type: 'series', match: ['Season Pack', 'AMZN'], none: ['Single Episode', 'Multi-Episode'] },
  { title: 'Show.S01E01E02.720p.HDTV.x264-KILLERS', type: 'series', match: ['Multi-Episode', '720p'], none: ['Season Pack', 'Single Episode'] },
  { title: 'Movie.2010.FRENCH.1080p.BluRay.x264-GROUP', type: 'movie', match: ['Language: Not English', '1080p'] },
  { title: 'Movie.2010.ENGLISH.1080p.BluRay.x264-GROUP', type: 'movie', match: ['1080p'], none: ['Language: Not English'] },
];

describeWithShared(['data', 'pcd', 'trash-pcd'], 'POST /entity-testing/evaluate against trash-pcd', () => {
  let h: Harness;
  let databaseId: number;
  const formatIds = new Map<string, number>();

  beforeAll(async () => {
    h = await startArrgo();
    databaseId = await linkDatabase(h, 'trash', sharedPath('data', 'pcd', 'trash-pcd'));
    const list = await h.get(`/pcd/${databaseId}/resolved/customFormat`);
    expect(list.status).toBe(200);
  });
  afterAll(() => h?.close());

  const evaluate = (body: unknown) => h.post(EVALUATE, body);

  it('without a database, only parses: cfMatches and customFormats are {}', async () => {
    const r = await evaluate({ releases: [{ id: 7, title: 'Movie.Title.2010.1080p.BluRay.x264-GROUP', type: 'movie' }] });
    expect(r.status).toBe(200);
    expect(r.body.parserAvailable).toBe(true);
    expect(r.body.customFormats).toEqual({});
    expect(r.body.evaluations).toHaveLength(1);
    const e = r.body.evaluations[0];
    expect(e).toMatchObject({ releaseId: 7, title: 'Movie.Title.2010.1080p.BluRay.x264-GROUP', cfMatches: {}, cfUndecided: [] });
    expect(e.parsed).toMatchObject({ source: 'bluray', resolution: 1080, year: 2010, releaseGroup: 'GROUP' });
  });

  it(`matches what the guides intend on ${SAMPLE.length} hand-checked titles (cfMatches keyed by format id)`, async () => {
    expect(SAMPLE.length).toBeGreaterThanOrEqual(30);
    // explain gives the id of every format name (at most 50 releases a request with explain).
    const r = await evaluate({ databaseId, releases: SAMPLE.map((s, i) => ({ id: i + 1, title: s.title, type: s.type })), explain: true });
    expect(r.status).toBe(200);
    for (const f of r.body.evaluations[0].explain) formatIds.set(f.name, f.customFormatId);
    expect(formatIds.size).toBe(200);
    // The response names every format it reports, as explain does.
    expect(Object.keys(r.body.customFormats)).toHaveLength(200);
    for (const [name, id] of formatIds) expect(r.body.customFormats[String(id)]).toBe(name);
    const failures: string[] = [];
    r.body.evaluations.forEach((e: any, i: number) => {
      const sample = SAMPLE[i];
      expect(e.releaseId).toBe(i + 1);
      expect(Object.keys(e.cfMatches)).toHaveLength(200);
      for (const name of sample.match) if (e.cfMatches[String(formatIds.get(name))] !== true) failures.push(`${sample.title}: expected ${name}`);
      for (const name of sample.none ?? []) if (e.cfMatches[String(formatIds.get(name))] !== false) failures.push(`${sample.title}: unexpected ${name}`);
    });
    expect(failures).toEqual([]);
  });

  it('explain says which conditions passed or failed and why, including conditions a title cannot decide', async () => {
    const r = await evaluate({ databaseId, releases: [{ id: 1, title: 'Movie.2021.1080p.DSNP.WEB-DL.DDP5.1.H.264-EVO', type: 'movie' }], explain: true });
    expect(r.status).toBe(200);
    const e = r.body.evaluations[0];
    const byName = new Map<string, any>(e.explain.map((f: any) => [f.name, f]));
    const dsnp = byName.get('DSNP');
    expect(dsnp.result).toBe('match');
    expect(dsnp.conditions.some((c: any) => c.type === 'release_title' && c.result === 'pass' && /matches the title/.test(c.reason))).toBe(true);
    const amzn = byName.get('AMZN');
    expect(amzn.result).toBe('noMatch');
    expect(amzn.conditions.find((c: any) => c.type === 'release_title').result).toBe('fail');
    // FreeLeech is an indexer flag: undecided, false in cfMatches, listed in cfUndecided.
    const freeleech = byName.get('FreeLeech');
    expect(freeleech.result).toBe('undecided');
    expect(freeleech.conditions[0]).toMatchObject({ type: 'indexer_flag', result: 'notEvaluable' });
    expect(freeleech.conditions[0].reason).toMatch(/not evaluable from a title/);
    expect(e.cfMatches[String(freeleech.customFormatId)]).toBe(false);
    expect(e.cfUndecided).toContain(freeleech.customFormatId);
    // Sonarr-only conditions are left out of a movie's evaluation.
    const season = byName.get('Season Pack');
    expect(season.result).toBe('notApplicable');
    expect(season.conditions.every((c: any) => c.result === 'leftOut' || c.result === undefined)).toBe(true);
  });

  it('profileName scores the release in that profile and says whether it reaches the minimum and upgrade-until scores', async () => {
    const profiles = await h.get(`/pcd/${databaseId}/resolved/qualityProfile`);
    const profile = profiles.body.entities.find((p: any) => p.name === 'HD Bluray + WEB').entity;
    const scores = new Map<string, number>();
    for (const s of profile.customFormats.all) scores.set(s.name, s.score);
    for (const s of profile.customFormats.movie_app) scores.set(s.name, s.score);
    const r = await evaluate({
      databaseId,
      profileName: 'HD Bluray + WEB',
      explain: true,
      releases: [
        { id: 1, title: 'Movie.2010.1080p.BluRay.DTS.x264-CtrlHD', type: 'movie' },
        { id: 2, title: 'Movie.2019.720p.BluRay.x264-RARBG', type: 'movie' },
      ],
    });
    expect(r.status).toBe(200);
    for (const e of r.body.evaluations) {
      const expected = e.explain.filter((f: any) => f.result === 'match').reduce((sum: number, f: any) => sum + (scores.get(f.name) ?? 0), 0);
      expect(e.score).toMatchObject({ profileName: 'HD Bluray + WEB', arrType: 'movie_app', score: expected, minimumCustomFormatScore: profile.minimumCustomFormatScore, upgradeUntilScore: profile.upgradeUntilScore });
      expect(e.score.meetsMinimum).toBe(expected >= profile.minimumCustomFormatScore);
    }
    const [good, bad] = r.body.evaluations;
    expect(good.score.score).toBeGreaterThan(0);
    expect(bad.score.score).toBeLessThan(0); // LQ group: the guides score it -10000
    expect(bad.score.meetsMinimum).toBe(false);

    const missing = await evaluate({ databaseId, profileName: 'No Such Profile', releases: [{ id: 1, title: 'x', type: 'movie' }] });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe(`Quality profile "No Such Profile" not found in database ${databaseId}`);
  });

  it('repeats are answered from the cache with the same results', async () => {
    const body = { databaseId, releases: SAMPLE.slice(0, 5).map((s, i) => ({ id: i, title: s.title, type: s.type })) };
    const first = await evaluate(body);
    const second = await evaluate(body);
    expect(second.body).toEqual(first.body);
  });

  it('a user edit rebuilds the cache state, and cached results of the old state are not served', async () => {
    const body = { databaseId, releases: [{ id: 1, title: 'Movie.2021.1080p.DSNP.WEB-DL.DDP5.1.H.264-EVO', type: 'movie' }] };
    const dsnp = String(formatIds.get('DSNP'));
    expect((await evaluate(body)).body.evaluations[0].cfMatches[dsnp]).toBe(true);
    const edit = await h.patch(`/pcd/${databaseId}/entities/regular_expression/${encodeURIComponent('Disney+')}`, { changes: [{ path: 'pattern', value: '\\b(disneyplus)\\b' }] });
    expect(edit.status).toBe(200);
    expect((await evaluate(body)).body.evaluations[0].cfMatches[dsnp]).toBe(false);
    const undo = await h.patch(`/pcd/${databaseId}/entities/regular_expression/${encodeURIComponent('Disney+')}`, { changes: [{ path: 'pattern', value: '\\b(dsnp|dsny|disney|Disney\\+)\\b' }] });
    expect(undo.status).toBe(200);
    expect((await evaluate(body)).body.evaluations[0].cfMatches[dsnp]).toBe(true);
  });

  it('every new cache state is warmed in the background: an edit builds and compiles the evaluation model before any request', async () => {
    const warmed = async () => {
      const text = await (await fetch(`${h.baseUrl}/metrics`, { headers: { 'X-Api-Key': h.apiKey } })).text();
      return Number(/^arrgo_evaluation_states_warmed_total\{result="warmed"\} (\d+)$/m.exec(text)?.[1] ?? 0);
    };
    const failed = async () => {
      const text = await (await fetch(`${h.baseUrl}/metrics`, { headers: { 'X-Api-Key': h.apiKey } })).text();
      return Number(/^arrgo_evaluation_states_warmed_total\{result="failed"\} (\d+)$/m.exec(text)?.[1] ?? 0);
    };
    // The link's pull and the edits above each made a state.
    const before = await warmed();
    expect(before).toBeGreaterThanOrEqual(1);
    const edit = await h.patch(`/pcd/${databaseId}/entities/regular_expression/${encodeURIComponent('Disney+')}`, { changes: [{ path: 'description', value: 'Disney+, warmed' }] });
    expect(edit.status).toBe(200);
    expect(await eventually(warmed, (n) => n > before, 20_000)).toBeGreaterThan(before);
    expect(await failed()).toBe(0);
  });

  it('a pattern that backtracks past the match deadline counts as no match and is reported; an untranslatable one is not evaluable', async () => {
    const importEntity = (entityType: string, data: unknown) => h.post('/pcd/import', { databaseId, layer: 'user', entityType, data });
    const regex = (name: string, pattern: string) => importEntity('regular_expression', { name, pattern, regex101Id: null, description: null, tags: [] });
    const format = (name: string, regularExpression: string, negate: boolean) =>
      importEntity('custom_format', {
        name,
        description: null,
        includeInRename: false,
        tags: [],
        conditions: [{ name: 'title', type: 'release_title', arrType: 'all', negate, required: false, regularExpression }],
        tests: [],
      });
    for (const r of [await regex('Evil Backtracking', '(a+)+$'), await regex('Balancing', '(?<o>a)(?<c-o>b)'), await format('Evil', 'Evil Backtracking', false), await format('Not Evil', 'Evil Backtracking', true), await format('Balanced', 'Balancing', false)]) {
      expect(r.status).toBe(200);
    }
    const title = `${'a'.repeat(40)}!`;
    const r = await evaluate({ databaseId, releases: [{ id: 1, title, type: 'movie' }], explain: true });
    expect(r.status).toBe(200);
    const e = r.body.evaluations[0];
    const byName = new Map<string, any>(e.explain.map((f: any) => [f.name, f]));
    expect(byName.get('Evil').result).toBe('noMatch');
    expect(byName.get('Evil').conditions[0].reason).toMatch(/ran past the match deadline in this database state and counts as no match/);
    expect(byName.get('Not Evil').result).toBe('match'); // no match, then negate
    expect(e.warnings).toEqual(
      expect.arrayContaining([
        'condition "title" of custom format "Evil" ran past the 100 ms match deadline in this database state and counted as no match',
        'condition "title" of custom format "Not Evil" ran past the 100 ms match deadline in this database state and counted as no match',
      ]),
    );
    const balanced = byName.get('Balanced');
    expect(balanced.result).toBe('undecided');
    expect(balanced.conditions[0]).toMatchObject({ result: 'notEvaluable' });
    expect(balanced.conditions[0].reason).toMatch(/cannot be translated: balancing groups/);
    expect(e.cfUndecided).toContain(balanced.customFormatId);
    expect(h.logs.some((l) => l.includes('ran past the match deadline'))).toBe(true);
    // The worker was replaced; evaluation goes on.
    const next = await evaluate({ databaseId, releases: [{ id: 1, title: 'Movie.2021.1080p.DSNP.WEB-DL.DDP5.1.H.264-EVO', type: 'movie' }] });
    expect(next.body.evaluations[0].cfMatches[String(formatIds.get('DSNP'))]).toBe(true);
  });

  it('refuses bad requests with 400 naming the field', async () => {
    const ok = { id: 1, title: 'Movie.2010.1080p.BluRay.x264-GROUP', type: 'movie' };
    const cases: [unknown, string][] = [
      [{}, 'Invalid request: body.releases is required'],
      [{ releases: [] }, 'Invalid request: body.releases must have at least 1 item(s)'],
      [{ releases: Array.from({ length: 1001 }, (_, i) => ({ ...ok, id: i })) }, 'Invalid request: body.releases must have at most 1000 item(s)'],
      [{ releases: [{ ...ok, title: 'x'.repeat(1001) }] }, 'Invalid request: body.releases.0.title must be at most 1000 characters'],
      [{ releases: [{ ...ok, title: '' }] }, 'Invalid request: body.releases.0.title must not be empty'],
      [{ releases: [{ ...ok, title: 'a\u0000b' }] }, 'Invalid request: body.releases.0.title must not contain control characters'],
      [{ releases: [ok, { ...ok }] }, 'Invalid request: body.releases.1.id duplicates the id of releases.0 (ids must be unique)'],
      [{ releases: [{ ...ok, type: 'album' }] }, 'Invalid request: body.releases.0.type must be one of: movie, series'],
      [{ releases: [{ ...ok, id: 1.5 }] }, 'Invalid request: body.releases.0.id must be an integer, got float'],
      [{ databaseId: 'x', releases: [ok] }, 'Invalid request: body.databaseId must be a number, got string'],
      [{ releases: [ok], profileName: 'HD Bluray + WEB' }, 'Invalid request: body.profileName needs databaseId'],
      [{ releases: [ok], explain: true }, 'Invalid request: body.explain needs databaseId (explain describes custom-format matching)'],
      [{ databaseId, releases: Array.from({ length: 51 }, (_, i) => ({ ...ok, id: i })), explain: true }, 'Invalid request: body.explain is allowed with at most 50 releases (got 51)'],
      [{ releases: [ok], extra: 1 }, 'Invalid request: body has unknown field(s): extra'],
    ];
    for (const [body, error] of cases) {
      const r = await evaluate(body);
      expect({ body, status: r.status, error: r.body.error }).toEqual({ body, status: 400, error });
    }
    const unknown = await evaluate({ databaseId: 999999, releases: [ok] });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'Database 999999 not found' });
  });

  it('is documented in the OpenAPI document', async () => {
    const doc = await h.get('/openapi.json');
    const op = doc.body.paths['/api/v1/entity-testing/evaluate'].post;
    expect(op.operationId).toBe('evaluateReleases');
    expect(op.description).toMatch(/Up to 1000 releases/);
    expect(Object.keys(op.responses).sort()).toEqual(['200', '400', '401', '403', '404', '413', '415', '500', '503']);
    expect(op.requestBody.content['application/json'].schema).toBeDefined();
  });
});
