/**
 * The naming editor's preview: each format of an app family's naming rendered for sample movies,
 * episodes and tracks, and the tokens the family's formats may use (the token help).
 */
import type { ArrType } from '../arr-types';
import type { MovieNamingData, MusicNamingData, SeriesNamingData } from '../pcd';
import { COLON_REPLACEMENTS, MULTI_EPISODE_STYLES, renderNaming, tokenKey, type NamingSample, type RenderOptions, type TokenValue } from './render';

export interface NamingToken {
  /** As written in a format, e.g. "{Movie CleanTitle}". */
  token: string;
  description: string;
}

export interface NamingTokenGroup {
  group: string;
  tokens: NamingToken[];
}

export interface NamingPreviewItem {
  /** The naming field rendered (movieFormat, standardEpisodeFormat, ...). */
  field: string;
  /** What the sample is ("a movie with an edition", "a multi-episode file"). */
  sample: string;
  format: string;
  name: string;
  unknownTokens: string[];
}

type Tokens = Record<string, TokenValue>;

function keyed(tokens: Tokens): Tokens {
  return Object.fromEntries(Object.entries(tokens).map(([k, v]) => [tokenKey(k), v]));
}

/** Title variants the apps document for a title token family ("Movie", "Series", "Episode", "Album", ...). */
function titleTokens(owner: string, title: string, year: number | null, word = 'Title'): Tokens {
  const clean = title.replace(/[:;,!?"*<>|\\/()[\]{}]/g, '').replace(/ {2,}/g, ' ').trim();
  const the = /^(The|A|An) (.+)$/.exec(title);
  const withoutArticle = the ? the[2] : title;
  return {
    [`${owner} ${word}`]: title,
    [`${owner} Clean${word}`]: clean,
    [`${owner} ${word}The`]: the ? `${the[2]}, ${the[1]}` : title,
    [`${owner} ${word}FirstCharacter`]: withoutArticle.charAt(0).toUpperCase(),
    ...(year === null
      ? {}
      : {
          [`${owner} ${word}Year`]: `${title} (${year})`,
          [`${owner} Clean${word}Year`]: `${clean} ${year}`,
        }),
  };
}

const MOVIE_BASE: Tokens = {
  ...titleTokens('Movie', 'The Movie: Part Two!', 2010),
  'Movie OriginalTitle': 'The Movie: Part Two!',
  'Release Year': 2010,
  'Movie Collection': 'The Movie Collection',
  'Movie Certification': 'PG-13',
  ImdbId: 'tt0123456',
  TmdbId: 12345,
  'Quality Full': 'Bluray-1080p Proper',
  'Quality Title': 'Bluray-1080p',
  'MediaInfo Simple': 'x264 DTS',
  'MediaInfo Full': 'x264 DTS [EN+DE]',
  'MediaInfo VideoCodec': 'x264',
  'MediaInfo VideoBitDepth': 8,
  'MediaInfo VideoDynamicRange': 'HDR',
  'MediaInfo VideoDynamicRangeType': 'DV HDR10',
  'MediaInfo AudioCodec': 'DTS',
  'MediaInfo AudioChannels': '5.1',
  'MediaInfo AudioLanguages': '[EN+DE]',
  'MediaInfo SubtitleLanguages': '[EN]',
  'MediaInfo 3D': null,
  'Custom Formats': 'HDR Atmos',
  'Release Group': 'GRP',
  'Edition Tags': "Director's Cut",
  'Original Title': 'The.Movie.Part.Two.2010.DC.1080p.BluRay.x264-GRP',
  'Original Filename': 'the.movie.part.two.2010.dc.1080p.bluray.x264-grp',
};

const SERIES_BASE: Tokens = {
  ...titleTokens('Series', 'The Series: Origins', 2020),
  ...titleTokens('Episode', "Pilot: Part 1", null),
  ImdbId: 'tt7654321',
  TvdbId: 54321,
  TmdbId: 98765,
  TvMazeId: 4321,
  season: 1,
  episode: 1,
  absolute: 1,
  'Air Date': '2020 09 03',
  'Quality Full': 'WEBDL-1080p Proper',
  'Quality Title': 'WEBDL-1080p',
  'MediaInfo Simple': 'x264 EAC3',
  'MediaInfo Full': 'x264 EAC3 [EN]',
  'MediaInfo VideoCodec': 'x264',
  'MediaInfo VideoBitDepth': 8,
  'MediaInfo VideoDynamicRange': null,
  'MediaInfo VideoDynamicRangeType': null,
  'MediaInfo AudioCodec': 'EAC3',
  'MediaInfo AudioChannels': '5.1',
  'MediaInfo AudioLanguages': null,
  'MediaInfo SubtitleLanguages': '[EN]',
  'Custom Formats': 'AMZN',
  'Release Group': 'NTb',
  'Release Hash': null,
  'Original Title': 'The.Series.Origins.S01E01.1080p.AMZN.WEB-DL.DDP5.1.H.264-NTb',
  'Original Filename': 'the.series.origins.s01e01.1080p.amzn.web-dl.ddp5.1.h.264-ntb',
};

const MUSIC_BASE: Tokens = {
  ...titleTokens('Artist', 'The Artist', null, 'Name'),
  'Artist Disambiguation': null,
  'Artist Genre': 'Rock',
  ...titleTokens('Album', 'The Album: Live!', null),
  'Album Type': 'Album',
  'Album Disambiguation': null,
  'Album Genre': 'Rock',
  'Release Year': 2015,
  'Release Date': '2015-06-01',
  ...titleTokens('Track', 'First Song', null),
  'Track ArtistName': 'The Artist',
  'Track ArtistCleanName': 'The Artist',
  track: 1,
  medium: 1,
  'Medium Name': null,
  'Medium Format': 'CD',
  'Quality Full': 'FLAC',
  'Quality Title': 'FLAC',
  'MediaInfo AudioCodec': 'FLAC',
  'MediaInfo AudioBitRate': '1411 kbps',
  'MediaInfo AudioChannels': '2.0',
  'MediaInfo AudioBitsPerSample': 24,
  'MediaInfo AudioSampleRate': '96 kHz',
  'Custom Formats': 'FLAC 24bit',
  'Release Group': 'SampleTunes',
  'Original Title': 'The.Artist-The.Album.Live-24BIT-FLAC-2015-SampleTunes',
  'Original Filename': '01-the_artist-first_song',
};

/** Token help: each family's tokens in groups, with the sample's value as the example. */
function groups(base: Tokens, layout: [string, string[]][], formatted: Record<string, string> = {}): NamingTokenGroup[] {
  return layout.map(([group, names]) => ({
    group,
    tokens: names.map((name) => {
      const value = base[name];
      const shown = formatted[name] ?? (value === null || value === undefined ? '(empty for this sample)' : String(value));
      return { token: `{${name}}`, description: shown };
    }),
  }));
}

export const NAMING_TOKENS: Record<ArrType, NamingTokenGroup[]> = {
  movie_app: groups(MOVIE_BASE, [
    ['Movie', ['Movie Title', 'Movie CleanTitle', 'Movie TitleThe', 'Movie TitleFirstCharacter', 'Movie TitleYear', 'Movie CleanTitleYear', 'Movie OriginalTitle', 'Movie Collection', 'Movie Certification', 'Release Year']],
    ['Movie ids', ['ImdbId', 'TmdbId']],
    ['Quality', ['Quality Full', 'Quality Title']],
    ['Media info', ['MediaInfo Simple', 'MediaInfo Full', 'MediaInfo VideoCodec', 'MediaInfo VideoBitDepth', 'MediaInfo VideoDynamicRange', 'MediaInfo VideoDynamicRangeType', 'MediaInfo AudioCodec', 'MediaInfo AudioChannels', 'MediaInfo AudioLanguages', 'MediaInfo SubtitleLanguages', 'MediaInfo 3D']],
    ['Release', ['Release Group', 'Edition Tags', 'Custom Formats', 'Original Title', 'Original Filename']],
  ]),
  series_app: groups(
    SERIES_BASE,
    [
      ['Series', ['Series Title', 'Series CleanTitle', 'Series TitleThe', 'Series TitleFirstCharacter', 'Series TitleYear', 'Series CleanTitleYear']],
      ['Series ids', ['ImdbId', 'TvdbId', 'TmdbId', 'TvMazeId']],
      ['Season and episode', ['season:00', 'episode:00', 'absolute:000', 'Air-Date', 'Air Date']],
      ['Episode', ['Episode Title', 'Episode CleanTitle']],
      ['Quality', ['Quality Full', 'Quality Title']],
      ['Media info', ['MediaInfo Simple', 'MediaInfo Full', 'MediaInfo VideoCodec', 'MediaInfo VideoBitDepth', 'MediaInfo VideoDynamicRange', 'MediaInfo VideoDynamicRangeType', 'MediaInfo AudioCodec', 'MediaInfo AudioChannels', 'MediaInfo AudioLanguages', 'MediaInfo SubtitleLanguages']],
      ['Release', ['Release Group', 'Custom Formats', 'Original Title', 'Original Filename']],
    ],
    { 'season:00': '01', 'episode:00': '01', 'absolute:000': '001', 'Air-Date': '2020-09-03', 'Air Date': '2020 09 03' },
  ),
  music_app: groups(
    MUSIC_BASE,
    [
      ['Artist', ['Artist Name', 'Artist CleanName', 'Artist NameThe', 'Artist NameFirstCharacter', 'Artist Disambiguation', 'Artist Genre']],
      ['Album', ['Album Title', 'Album CleanTitle', 'Album TitleThe', 'Album Type', 'Album Disambiguation', 'Album Genre', 'Release Year', 'Release Date']],
      ['Medium', ['medium:00', 'Medium Name', 'Medium Format']],
      ['Track', ['Track Title', 'Track CleanTitle', 'track:00', 'Track ArtistName', 'Track ArtistCleanName']],
      ['Quality and media info', ['Quality Full', 'Quality Title', 'MediaInfo AudioCodec', 'MediaInfo AudioBitRate', 'MediaInfo AudioChannels', 'MediaInfo AudioBitsPerSample', 'MediaInfo AudioSampleRate']],
      ['Release', ['Release Group', 'Custom Formats', 'Original Title', 'Original Filename']],
    ],
    { 'medium:00': '01', 'track:00': '01' },
  ),
};

export type NamingInput =
  | { arrType: 'movie_app'; naming: Omit<MovieNamingData, 'name' | 'rename'> }
  | { arrType: 'series_app'; naming: Omit<SeriesNamingData, 'name' | 'rename'> }
  | { arrType: 'music_app'; naming: Omit<MusicNamingData, 'name' | 'rename'> };

const MOVIE_SAMPLES: { sample: string; tokens: Tokens }[] = [
  { sample: 'a movie with an edition', tokens: MOVIE_BASE },
  { sample: 'a movie without edition or release group', tokens: { ...MOVIE_BASE, 'Edition Tags': null, 'Release Group': null, 'Custom Formats': null } },
];

/** Renders every format of a naming for the family's samples. */
export function previewNaming(input: NamingInput): NamingPreviewItem[] {
  const items: NamingPreviewItem[] = [];
  const add = (field: string, format: string, sample: string, data: NamingSample, options: RenderOptions) => {
    const rendered = renderNaming(format, { ...data, tokens: keyed(data.tokens) }, options);
    items.push({ field, sample, format, name: rendered.name, unknownTokens: rendered.unknownTokens });
  };
  switch (input.arrType) {
    case 'movie_app': {
      const n = input.naming;
      const options: RenderOptions = { replaceIllegalCharacters: n.replaceIllegalCharacters, colonReplacement: n.colonReplacementFormat };
      for (const s of MOVIE_SAMPLES) add('movieFormat', n.movieFormat, s.sample, { tokens: s.tokens }, options);
      add('movieFolderFormat', n.movieFolderFormat, MOVIE_SAMPLES[0].sample, { tokens: MOVIE_BASE }, { ...options, folder: true });
      return items;
    }
    case 'series_app': {
      const n = input.naming;
      const options: RenderOptions = {
        replaceIllegalCharacters: n.replaceIllegalCharacters,
        colonReplacement: COLON_REPLACEMENTS[n.colonReplacementFormat] ?? 'delete',
        customColonReplacement: n.customColonReplacementFormat,
        multiEpisodeStyle: MULTI_EPISODE_STYLES[n.multiEpisodeStyle] ?? 'extend',
      };
      add('standardEpisodeFormat', n.standardEpisodeFormat, 'an episode', { tokens: SERIES_BASE }, options);
      add('standardEpisodeFormat', n.standardEpisodeFormat, 'a file of episodes 1 to 3', { tokens: { ...SERIES_BASE, 'Episode Title': 'Pilot (1)', 'Episode CleanTitle': 'Pilot 1' }, episodes: [1, 2, 3] }, options);
      add('dailyEpisodeFormat', n.dailyEpisodeFormat, 'a daily episode', { tokens: SERIES_BASE }, options);
      add('animeEpisodeFormat', n.animeEpisodeFormat, 'an anime episode', { tokens: { ...SERIES_BASE, absolute: 12, episode: 12 } }, options);
      add('seriesFolderFormat', n.seriesFolderFormat, 'a series', { tokens: SERIES_BASE }, { ...options, folder: true });
      add('seasonFolderFormat', n.seasonFolderFormat, 'season 1', { tokens: SERIES_BASE }, { ...options, folder: true });
      return items;
    }
    case 'music_app': {
      const n = input.naming;
      // Lidarr's track formats may hold folders ("{Album Title} ({Release Year})/{track:00} ...").
      const options: RenderOptions = { replaceIllegalCharacters: n.replaceIllegalCharacters, colonReplacement: COLON_REPLACEMENTS[n.colonReplacementFormat] ?? 'delete', folder: true };
      add('standardTrackFormat', n.standardTrackFormat, 'a track', { tokens: MUSIC_BASE }, options);
      add('multiDiscTrackFormat', n.multiDiscTrackFormat, 'track 3 of disc 2', { tokens: { ...MUSIC_BASE, track: 3, medium: 2, 'Medium Name': 'Bonus Disc' } }, options);
      add('artistFolderFormat', n.artistFolderFormat, 'an artist', { tokens: MUSIC_BASE }, options);
      return items;
    }
  }
}

export interface NamingChoice {
  value: string | number;
  label: string;
}

const COLON_LABELS: Record<(typeof COLON_REPLACEMENTS)[number], string> = {
  delete: 'Delete (Movie Title)',
  dash: 'Replace with dash (Movie- Title)',
  spaceDash: 'Replace with space dash (Movie - Title)',
  spaceDashSpace: 'Replace with space dash space (Movie - Title)',
  smart: 'Smart replace (Movie - Title, 12-30)',
  custom: 'Custom',
};

const MULTI_EPISODE_LABELS: Record<(typeof MULTI_EPISODE_STYLES)[number], string> = {
  extend: 'Extend (S01E01-02-03)',
  duplicate: 'Duplicate (S01E01.S01E02.S01E03)',
  repeat: 'Repeat (S01E01E02E03)',
  scene: 'Scene (S01E01-E02-E03)',
  range: 'Range (S01E01-03)',
  prefixedRange: 'Prefixed range (S01E01-E03)',
};

/** The values a family's colonReplacementFormat (and Sonarr's multiEpisodeStyle) may take, with what each does. */
export function namingChoices(arrType: ArrType): { colonReplacementFormat: NamingChoice[]; multiEpisodeStyle: NamingChoice[] } {
  const colons = arrType === 'series_app' ? COLON_REPLACEMENTS : COLON_REPLACEMENTS.slice(0, 5);
  return {
    colonReplacementFormat: colons.map((c, i) => ({ value: arrType === 'movie_app' ? c : i, label: COLON_LABELS[c] })),
    multiEpisodeStyle: arrType === 'series_app' ? MULTI_EPISODE_STYLES.map((s, i) => ({ value: i, label: MULTI_EPISODE_LABELS[s] })) : [],
  };
}
