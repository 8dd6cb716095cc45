import { startArrgo, type Harness } from '../helpers/harness';

describe('GET /custom-formats/condition-types', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startArrgo();
  });
  afterAll(() => h?.close());

  it('lists every condition type with the app families that have it and their values', async () => {
    const r = await h.get('/custom-formats/condition-types');
    expect(r.status).toBe(200);
    const byType = new Map<string, { apps: string[]; kind: string; fields: string[]; values: Record<string, string[]> }>(r.body.types.map((t: { type: string }) => [t.type, t]));
    expect([...byType.keys()]).toEqual(['release_title', 'release_group', 'edition', 'language', 'indexer_flag', 'source', 'resolution', 'quality_modifier', 'size', 'release_type', 'year']);
    expect(byType.get('release_title')).toEqual({ type: 'release_title', apps: ['movie_app', 'series_app', 'music_app'], kind: 'pattern', fields: ['regularExpression'], values: {} });
    expect(byType.get('edition')!.apps).toEqual(['movie_app']);
    expect(byType.get('release_type')).toMatchObject({ apps: ['series_app'], values: { series_app: ['unknown', 'single_episode', 'multi_episode', 'season_pack'] } });
    expect(byType.get('source')!.values).toEqual({
      movie_app: ['unknown', 'cam', 'telesync', 'telecine', 'workprint', 'dvd', 'television', 'web_dl', 'webrip', 'bluray'],
      series_app: ['unknown', 'television', 'television_raw', 'web_dl', 'webrip', 'dvd', 'bluray', 'bluray_raw'],
    });
    expect(byType.get('resolution')!.values.movie_app).toEqual(['unknown', '360p', '480p', '540p', '576p', '720p', '1080p', '2160p']);
    expect(byType.get('quality_modifier')).toMatchObject({ apps: ['movie_app'], values: { movie_app: ['none', 'regional', 'screener', 'raw_hd', 'brdisk', 'remux'] } });
    expect(byType.get('indexer_flag')!.apps).toEqual(['movie_app', 'series_app', 'music_app']);
    expect(byType.get('language')!.values.movie_app).toEqual(expect.arrayContaining(['English', 'Portuguese (Brazil)', 'Any', 'Original']));
    expect(byType.get('size')).toMatchObject({ kind: 'size', fields: ['minBytes', 'maxBytes'] });
    expect(byType.get('year')).toMatchObject({ apps: ['movie_app'], kind: 'year', fields: ['minYear', 'maxYear'] });
  });

  it('is documented in the OpenAPI document', async () => {
    const doc = await h.get('/openapi.json');
    expect(doc.body.paths['/api/v1/custom-formats/condition-types'].get.operationId).toBe('listConditionTypes');
  });
});
