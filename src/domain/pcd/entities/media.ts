/**
 * Per-app media management entities: naming, media settings and quality definitions, one model per
 * app family (movie_app = radarr_*, series_app = sonarr_*, music_app = lidarr_* tables).
 */
import { z } from 'zod';
import { formatPath } from '../../diff/path';
import { toPcdArrType, type ArrType } from '../../arr-types';
import { QUALITY_SEEDS } from '../schema/seeds';
import { asBool, asNum, asText, asTextOrNull, entityName, num, rowsOf, singleRowCodec, Sources, str, uniqueStrings } from './common';
import type { EntityModel, PortableType, Row } from './types';

// ---------------------------------------------------------------- naming

const format = z.string().min(1, 'must not be empty');

export const movieNamingSchema = z
  .object({
    name: entityName,
    rename: z.boolean(),
    movieFormat: format,
    movieFolderFormat: format,
    replaceIllegalCharacters: z.boolean(),
    colonReplacementFormat: z.enum(['delete', 'dash', 'spaceDash', 'spaceDashSpace', 'smart']),
  })
  .strict();

export const seriesNamingSchema = z
  .object({
    name: entityName,
    rename: z.boolean(),
    standardEpisodeFormat: format,
    dailyEpisodeFormat: format,
    animeEpisodeFormat: format,
    seriesFolderFormat: format,
    seasonFolderFormat: format,
    replaceIllegalCharacters: z.boolean(),
    colonReplacementFormat: z.number().int().min(0),
    customColonReplacementFormat: z.string().nullable(),
    multiEpisodeStyle: z.number().int().min(0),
  })
  .strict();

/** Same shape as series naming, with Lidarr's artist/album/track tokens. colonReplacementFormat: 0 delete .. 4 smart. */
export const musicNamingSchema = z
  .object({
    name: entityName,
    rename: z.boolean(),
    standardTrackFormat: format,
    multiDiscTrackFormat: format,
    artistFolderFormat: format,
    replaceIllegalCharacters: z.boolean(),
    colonReplacementFormat: z.number().int().min(0).max(4),
  })
  .strict();

export type MovieNamingData = z.infer<typeof movieNamingSchema>;
export type SeriesNamingData = z.infer<typeof seriesNamingSchema>;
export type MusicNamingData = z.infer<typeof musicNamingSchema>;

function singleRowModel<T extends { name: string }>(
  type: PortableType,
  family: ArrType,
  table: string,
  schema: z.ZodType<T, z.ZodTypeDef, unknown>,
  codec: ReturnType<typeof singleRowCodec<T>>,
): EntityModel<T> {
  return {
    type,
    family,
    rootTable: table,
    rootless: false,
    tables: [{ table, ownerColumn: 'name' }],
    schema,
    diffOptions: {},
    ...codec,
    references: () => [],
  };
}

export const movieNamingModel = singleRowModel<MovieNamingData>(
  'movie_app_naming',
  'movie_app',
  'radarr_naming',
  movieNamingSchema,
  singleRowCodec('radarr_naming', [
    asBool('rename', 'rename'),
    asText('movieFormat', 'movie_format'),
    asText('movieFolderFormat', 'movie_folder_format'),
    asBool('replaceIllegalCharacters', 'replace_illegal_characters'),
    asText('colonReplacementFormat', 'colon_replacement_format'),
  ]),
);

export const seriesNamingModel = singleRowModel<SeriesNamingData>(
  'series_app_naming',
  'series_app',
  'sonarr_naming',
  seriesNamingSchema,
  singleRowCodec('sonarr_naming', [
    asBool('rename', 'rename'),
    asText('standardEpisodeFormat', 'standard_episode_format'),
    asText('dailyEpisodeFormat', 'daily_episode_format'),
    asText('animeEpisodeFormat', 'anime_episode_format'),
    asText('seriesFolderFormat', 'series_folder_format'),
    asText('seasonFolderFormat', 'season_folder_format'),
    asBool('replaceIllegalCharacters', 'replace_illegal_characters'),
    asNum('colonReplacementFormat', 'colon_replacement_format'),
    asTextOrNull('customColonReplacementFormat', 'custom_colon_replacement_format'),
    asNum('multiEpisodeStyle', 'multi_episode_style'),
  ]),
);

export const musicNamingModel = singleRowModel<MusicNamingData>(
  'music_app_naming',
  'music_app',
  'lidarr_naming',
  musicNamingSchema,
  singleRowCodec('lidarr_naming', [
    asBool('rename', 'rename'),
    asText('standardTrackFormat', 'standard_track_format'),
    asText('multiDiscTrackFormat', 'multi_disc_track_format'),
    asText('artistFolderFormat', 'artist_folder_format'),
    asBool('replaceIllegalCharacters', 'replace_illegal_characters'),
    asNum('colonReplacementFormat', 'colon_replacement_format'),
  ]),
);

/** Fields that only one family's naming payload has (used to name mixed-in fields precisely). */
export const NAMING_ONLY_FIELDS: Record<ArrType, readonly string[]> = {
  movie_app: ['movieFormat', 'movieFolderFormat'],
  series_app: ['standardEpisodeFormat', 'dailyEpisodeFormat', 'animeEpisodeFormat', 'seriesFolderFormat', 'seasonFolderFormat', 'customColonReplacementFormat', 'multiEpisodeStyle'],
  music_app: ['standardTrackFormat', 'multiDiscTrackFormat', 'artistFolderFormat'],
};

// ---------------------------------------------------------------- media settings

/** Shared by the three families. */
export const mediaSettingsSchema = z
  .object({
    name: entityName,
    propersRepacks: z.enum(['doNotPrefer', 'preferAndUpgrade', 'doNotUpgradeAutomatically']),
    enableMediaInfo: z.boolean(),
  })
  .strict();
export type MediaSettingsData = z.infer<typeof mediaSettingsSchema>;

function mediaSettingsModel(family: ArrType): EntityModel<MediaSettingsData> {
  const table = `${toPcdArrType(family)}_media_settings`;
  return singleRowModel<MediaSettingsData>(
    `${family}_media_settings` as PortableType,
    family,
    table,
    mediaSettingsSchema,
    singleRowCodec(table, [asText('propersRepacks', 'propers_repacks'), asBool('enableMediaInfo', 'enable_media_info')]),
  );
}

export const movieMediaSettingsModel = mediaSettingsModel('movie_app');
export const seriesMediaSettingsModel = mediaSettingsModel('series_app');
export const musicMediaSettingsModel = mediaSettingsModel('music_app');

// ---------------------------------------------------------------- quality definitions

const size = z.number().nonnegative();

/** Shared by the three families; entries are keyed by canonical quality name. */
export const qualityDefinitionsSchema = z
  .object({
    name: entityName,
    entries: z
      .array(z.object({ quality: z.string().min(1).max(100), minSize: size, maxSize: size, preferredSize: size }).strict())
      .min(1, 'at least one entry is required'),
  })
  .strict();
export type QualityDefinitionsData = z.infer<typeof qualityDefinitionsSchema>;

const seedOrder = new Map(QUALITY_SEEDS.map((q, i) => [q.name, i]));
const bySeedOrder = (a: string, b: string) =>
  (seedOrder.get(a) ?? Number.MAX_SAFE_INTEGER) - (seedOrder.get(b) ?? Number.MAX_SAFE_INTEGER) || (a < b ? -1 : a > b ? 1 : 0);

function qualityDefinitionsModel(family: ArrType): EntityModel<QualityDefinitionsData> {
  const app = toPcdArrType(family);
  const table = `${app}_quality_definitions`;
  return {
    type: `${family}_quality_definitions` as PortableType,
    family,
    rootTable: table,
    rootless: true,
    tables: [{ table, ownerColumn: 'name' }],
    schema: qualityDefinitionsSchema,
    diffOptions: { arrays: { entries: { key: 'quality' } } },
    toRows(d) {
      return d.entries.map(
        (e): Row => ({
          table,
          values: { name: d.name, quality_name: e.quality, min_size: e.minSize, max_size: e.maxSize, preferred_size: e.preferredSize },
        }),
      );
    },
    fromRows(name, rows) {
      const s = new Sources();
      const mine = rowsOf(rows, table).sort((a, b) => bySeedOrder(str(a.values.quality_name), str(b.values.quality_name)));
      s.column('name', mine[0], 'name');
      const entries = mine.map((r) => {
        const quality = str(r.values.quality_name);
        s.column(formatPath(['entries', quality, 'minSize']), r, 'min_size');
        s.column(formatPath(['entries', quality, 'maxSize']), r, 'max_size');
        s.column(formatPath(['entries', quality, 'preferredSize']), r, 'preferred_size');
        return { quality, minSize: num(r.values.min_size), maxSize: num(r.values.max_size), preferredSize: num(r.values.preferred_size) };
      });
      return { data: { name, entries }, sources: s.map };
    },
    references: (d) => d.entries.map((e) => ({ kind: 'quality' as const, name: e.quality, path: formatPath(['entries', e.quality]) })),
    validate(d) {
      const errors = uniqueStrings(
        d.entries.map((e) => e.quality),
        'entries',
      );
      d.entries.forEach((e, i) => {
        const seed = QUALITY_SEEDS.find((q) => q.name === e.quality);
        if (seed && !seed.api[app]) errors.push(`entries.${i}.quality: "${e.quality}" is not a ${family} quality`);
      });
      return errors;
    },
  };
}

export const movieQualityDefinitionsModel = qualityDefinitionsModel('movie_app');
export const seriesQualityDefinitionsModel = qualityDefinitionsModel('series_app');
export const musicQualityDefinitionsModel = qualityDefinitionsModel('music_app');
