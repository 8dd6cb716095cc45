import { NAMING_TOKENS, previewNaming, renderNaming, replaceColons, type NamingSample, type RenderOptions } from '../../../src/domain/naming';

// Expectations follow the apps' documented token rules (Radarr/Sonarr/Lidarr naming settings and
// the Servarr wiki's token tables), not their source.
const MOVIE: NamingSample = {
  tokens: {
    'movie title': 'The Movie: Part Two!',
    'movie cleantitle': 'The Movie Part Two',
    'release year': 2010,
    'edition tags': "Director's Cut",
    'quality full': 'Bluray-1080p Proper',
    'release group': 'GRP',
    tmdbid: 12345,
  },
};
const OPTIONS: RenderOptions = { replaceIllegalCharacters: true, colonReplacement: 'spaceDash' };
const render = (format: string, sample: NamingSample = MOVIE, options: Partial<RenderOptions> = {}) => renderNaming(format, sample, { ...OPTIONS, ...options });

describe('renderNaming: the apps\' documented token rules', () => {
  it('replaces tokens, keeps the text inside braces only with a value, and Plex edition braces', () => {
    const format = '{Movie CleanTitle} ({Release Year}) {edition-{Edition Tags}} [{Quality Full}]{-Release Group}';
    expect(render(format).name).toBe("The Movie Part Two (2010) {edition-Director's Cut} [Bluray-1080p Proper]-GRP");
    const bare = { tokens: { ...MOVIE.tokens, 'edition tags': null, 'release group': null } };
    expect(render(format, bare).name).toBe('The Movie Part Two (2010) [Bluray-1080p Proper]');
    expect(render('{Movie CleanTitle}{ - Edition Tags}{[Quality Full]}', bare).name).toBe('The Movie Part Two[Bluray-1080p Proper]');
    expect(render('{Movie CleanTitle} {tmdb-{TmdbId}}').name).toBe('The Movie Part Two {tmdb-12345}');
  });

  it('the separator of a token name replaces the value\'s spaces; its case sets the value\'s', () => {
    expect(render('{Movie.CleanTitle}.{Release.Year}').name).toBe('The.Movie.Part.Two.2010');
    expect(render('{Movie_CleanTitle}').name).toBe('The_Movie_Part_Two');
    expect(render('{Movie-CleanTitle}').name).toBe('The-Movie-Part-Two');
    expect(render('{MOVIE CLEANTITLE}').name).toBe('THE MOVIE PART TWO');
    expect(render('{movie cleantitle}').name).toBe('the movie part two');
    expect(render('{Movie.Title}').name).toBe('The.Movie.-.Part.Two!');
  });

  it('pads numbers to the zeros of the format', () => {
    const episode: NamingSample = { tokens: { season: 1, episode: 5, absolute: 12 } };
    expect(render('S{season:00}E{episode:00} {absolute:000} {season:0}x{episode:0}', episode).name).toBe('S01E05 012 1x5');
  });

  it.each([
    ['extend', 'S01E01-02-03'],
    ['duplicate', 'S01E01.S01E02.S01E03'],
    ['repeat', 'S01E01E02E03'],
    ['scene', 'S01E01-E02-E03'],
    ['range', 'S01E01-03'],
    ['prefixedRange', 'S01E01-E03'],
  ] as const)('multi-episode style %s writes %s', (style, expected) => {
    const sample: NamingSample = { tokens: { 'series title': 'Show', season: 1, episode: 1 }, episodes: [1, 2, 3] };
    expect(render('{Series Title} - S{season:00}E{episode:00} - Title', sample, { multiEpisodeStyle: style }).name).toBe(`Show - ${expected} - Title`);
  });

  it('{Air-Date} and {Air Date}', () => {
    const sample: NamingSample = { tokens: { 'air date': '2020 09 03' } };
    expect(render('{Air-Date}|{Air Date}|{Air.Date}', sample, { replaceIllegalCharacters: false }).name).toBe('2020-09-03|2020 09 03|2020.09.03');
  });

  it.each([
    ['delete', 'Movie Title', '1230'],
    ['dash', 'Movie- Title', '12-30'],
    ['spaceDash', 'Movie - Title', '12 -30'],
    ['spaceDashSpace', 'Movie - Title', '12 - 30'],
    ['smart', 'Movie - Title', '12-30'],
  ] as const)('colon replacement %s', (mode, title, time) => {
    expect(replaceColons('Movie: Title', mode)).toBe(title);
    expect(replaceColons('12:30', mode)).toBe(time);
  });

  it('Sonarr\'s custom colon replacement', () => {
    expect(replaceColons('Movie: Title', 'custom', ' ∶')).toBe('Movie ∶ Title');
  });

  it('illegal characters are replaced when asked, else removed; a folder format keeps its /', () => {
    const sample: NamingSample = { tokens: { 'movie title': 'What? Who/Why*' } };
    expect(render('{Movie Title}', sample).name).toBe('What! Who+Why-');
    expect(render('{Movie Title}', sample, { replaceIllegalCharacters: false }).name).toBe('What WhoWhy');
    expect(render('{Movie Title}/Extras', sample, { folder: true }).name).toBe('What! Who+Why-/Extras');
    expect(render('{Movie Title}/Extras', sample).name).toBe('What! Who+Why-+Extras');
  });

  it('an unknown token stays as written and is reported', () => {
    const r = render('{Movie CleanTitle} {Movie Rating}');
    expect(r).toEqual({ name: 'The Movie Part Two {Movie Rating}', unknownTokens: ['{Movie Rating}'] });
  });
});

describe('previewNaming: each format for the family\'s samples', () => {
  it('movies: the sample PCD\'s Standard naming', () => {
    const items = previewNaming({
      arrType: 'movie_app',
      naming: {
        movieFormat: '{Movie CleanTitle} ({Release Year}) {edition-{Edition Tags}} [{Quality Full}]{-Release Group}',
        movieFolderFormat: '{Movie CleanTitle} ({Release Year})',
        replaceIllegalCharacters: true,
        colonReplacementFormat: 'spaceDash',
      },
    });
    expect(items.map((i) => [i.field, i.sample, i.name])).toEqual([
      ['movieFormat', 'a movie with an edition', "The Movie Part Two (2010) {edition-Director's Cut} [Bluray-1080p Proper]-GRP"],
      ['movieFormat', 'a movie without edition or release group', 'The Movie Part Two (2010) [Bluray-1080p Proper]'],
      ['movieFolderFormat', 'a movie with an edition', 'The Movie Part Two (2010)'],
    ]);
  });

  it('series: an episode, a multi-episode file in the chosen style, daily, anime and folders', () => {
    const items = previewNaming({
      arrType: 'series_app',
      naming: {
        standardEpisodeFormat: '{Series TitleYear} - S{season:00}E{episode:00} - {Episode CleanTitle} [{Quality Full}]{-Release Group}',
        dailyEpisodeFormat: '{Series TitleYear} - {Air-Date} - {Episode CleanTitle}',
        animeEpisodeFormat: '{Series TitleYear} - S{season:00}E{episode:00} - {absolute:000} - {Episode CleanTitle}',
        seriesFolderFormat: '{Series TitleYear}',
        seasonFolderFormat: 'Season {season:00}',
        replaceIllegalCharacters: true,
        colonReplacementFormat: 4,
        customColonReplacementFormat: null,
        multiEpisodeStyle: 5,
      },
    });
    expect(items.map((i) => i.name)).toEqual([
      'The Series - Origins (2020) - S01E01 - Pilot Part 1 [WEBDL-1080p Proper]-NTb',
      'The Series - Origins (2020) - S01E01-E03 - Pilot 1 [WEBDL-1080p Proper]-NTb',
      'The Series - Origins (2020) - 2020-09-03 - Pilot Part 1',
      'The Series - Origins (2020) - S01E12 - 012 - Pilot Part 1',
      'The Series - Origins (2020)',
      'Season 01',
    ]);
  });

  it('music: track formats with folders', () => {
    const items = previewNaming({
      arrType: 'music_app',
      naming: {
        standardTrackFormat: '{Album Title} ({Release Year})/{Artist Name} - {Album Title} - {track:00} - {Track Title}',
        multiDiscTrackFormat: '{Album Title} ({Release Year})/{Medium Format} {medium:00}/{Artist Name} - {track:00} - {Track Title}',
        artistFolderFormat: '{Artist Name}',
        replaceIllegalCharacters: true,
        colonReplacementFormat: 0,
      },
    });
    expect(items.map((i) => i.name)).toEqual([
      'The Album Live! (2015)/The Artist - The Album Live! - 01 - First Song',
      'The Album Live! (2015)/CD 02/The Artist - 03 - First Song',
      'The Artist',
    ]);
  });

  it('token help lists every token the samples know, with the sample value', () => {
    const movie = NAMING_TOKENS.movie_app.flatMap((g) => g.tokens);
    expect(movie.find((t) => t.token === '{Movie CleanTitle}')?.description).toBe('The Movie Part Two');
    expect(NAMING_TOKENS.series_app.flatMap((g) => g.tokens).find((t) => t.token === '{season:00}')?.description).toBe('01');
    expect(NAMING_TOKENS.music_app.map((g) => g.group)).toContain('Track');
    for (const arrType of ['movie_app', 'series_app', 'music_app'] as const) {
      for (const t of NAMING_TOKENS[arrType].flatMap((g) => g.tokens)) expect(t.description).not.toBe('undefined');
    }
  });
});
