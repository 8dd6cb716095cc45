import path from 'node:path';
import { linkDatabase } from '../helpers/fleet';
import { startArrgo, type Harness } from '../helpers/harness';

const PREVIEW = '/naming/preview';
const SAMPLE = path.resolve(__dirname, '..', '..', 'examples', 'sample-pcd');

describe('POST /naming/preview', () => {
  let h: Harness;
  let databaseId: number;
  beforeAll(async () => {
    h = await startArrgo();
    databaseId = await linkDatabase(h, 'sample', SAMPLE);
  });
  afterAll(() => h?.close());

  /** The sample PCD's naming of a family, as the resolved layer has it. */
  async function resolvedNaming(arrType: string): Promise<Record<string, unknown>> {
    const list = await h.get(`/pcd/${databaseId}/resolved/naming?arrType=${arrType}`);
    expect(list.status).toBe(200);
    return list.body.entities[0].entity;
  }

  it('renders a resolved movie naming for the sample movies, with the token help', async () => {
    const naming = await resolvedNaming('movie_app');
    const r = await h.post(PREVIEW, { arrType: 'movie_app', naming });
    expect(r.status).toBe(200);
    expect(r.body.previews).toEqual([
      { field: 'movieFormat', sample: 'a movie with an edition', format: naming.movieFormat, name: "The Movie Part Two (2010) {edition-Director's Cut} [Bluray-1080p Proper]-GRP", unknownTokens: [] },
      { field: 'movieFormat', sample: 'a movie without edition or release group', format: naming.movieFormat, name: 'The Movie Part Two (2010) [Bluray-1080p Proper]', unknownTokens: [] },
      { field: 'movieFolderFormat', sample: 'a movie with an edition', format: naming.movieFolderFormat, name: 'The Movie Part Two (2010)', unknownTokens: [] },
    ]);
    const movie = r.body.tokens.find((g: { group: string }) => g.group === 'Movie');
    expect(movie.tokens).toContainEqual({ token: '{Movie CleanTitle}', description: 'The Movie Part Two' });
    expect(r.body.choices.colonReplacementFormat.map((c: { value: string }) => c.value)).toEqual(['delete', 'dash', 'spaceDash', 'spaceDashSpace', 'smart']);
    expect(r.body.choices.multiEpisodeStyle).toEqual([]);
  });

  it('renders series naming with its multi-episode style and reports unknown tokens', async () => {
    const naming = await resolvedNaming('series_app');
    const r = await h.post(PREVIEW, { arrType: 'series_app', naming: { ...naming, multiEpisodeStyle: 3, seasonFolderFormat: 'Season {season:00} {Season Rating}' } });
    expect(r.status).toBe(200);
    const multi = r.body.previews.find((p: { sample: string }) => p.sample === 'a file of episodes 1 to 3');
    expect(multi.name).toContain('S01E01-E02-E03');
    expect(r.body.choices.multiEpisodeStyle[3]).toEqual({ value: 3, label: 'Scene (S01E01-E02-E03)' });
    expect(r.body.choices.colonReplacementFormat[5]).toEqual({ value: 5, label: 'Custom' });
    const season = r.body.previews.find((p: { field: string }) => p.field === 'seasonFolderFormat');
    expect(season).toMatchObject({ name: 'Season 01 {Season Rating}', unknownTokens: ['{Season Rating}'] });
  });

  it('renders music naming with its folders', async () => {
    const naming = await resolvedNaming('music_app');
    const r = await h.post(PREVIEW, { arrType: 'music_app', naming });
    expect(r.status).toBe(200);
    expect(r.body.previews.map((p: { field: string }) => p.field)).toEqual(['standardTrackFormat', 'multiDiscTrackFormat', 'artistFolderFormat']);
    expect(r.body.previews[0].name.split('/')).toHaveLength(2);
  });

  it('refuses bad requests with 400 naming the field', async () => {
    const movie = { movieFormat: '{Movie Title}', movieFolderFormat: '{Movie Title}', replaceIllegalCharacters: true, colonReplacementFormat: 'smart' };
    const cases: [unknown, string][] = [
      [{}, 'Invalid request: body.arrType'],
      [{ arrType: 'book_app', naming: movie }, 'Invalid request: body.arrType'],
      [{ arrType: 'movie_app', naming: { ...movie, movieFormat: '' } }, 'Invalid request: body.naming.movieFormat must not be empty'],
      [{ arrType: 'movie_app', naming: { ...movie, movieFormat: 'x'.repeat(501) } }, 'Invalid request: body.naming.movieFormat must be at most 500 characters'],
      [{ arrType: 'movie_app', naming: { ...movie, colonReplacementFormat: 4 } }, 'Invalid request: body.naming.colonReplacementFormat'],
      [{ arrType: 'movie_app', naming: { ...movie, extra: 1 } }, 'Invalid request: body.naming has unknown field(s): extra'],
      [{ arrType: 'music_app', naming: { standardTrackFormat: 'a', multiDiscTrackFormat: 'b', artistFolderFormat: 'c', replaceIllegalCharacters: true, colonReplacementFormat: 5 } }, 'Invalid request: body.naming.colonReplacementFormat must be at most 4'],
    ];
    for (const [body, error] of cases) {
      const r = await h.post(PREVIEW, body);
      expect({ body, status: r.status }).toEqual({ body, status: 400 });
      expect(r.body.error.startsWith(error)).toBe(true);
    }
  });

  it('is documented in the OpenAPI document', async () => {
    const doc = await h.get('/openapi.json');
    const op = doc.body.paths['/api/v1/naming/preview'].post;
    expect(op.operationId).toBe('previewNaming');
    expect(op.description).toMatch(/formats of 1 to 500 characters/);
    expect(doc.body.components.schemas.NamingPreview.properties.tokens).toBeDefined();
  });
});
