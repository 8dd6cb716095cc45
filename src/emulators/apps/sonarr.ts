/**
 * Sonarr 4.0.19 facts: qualities, default quality definitions and profiles, languages, custom format
 * specifications, naming and media-management defaults (a fresh install's values).
 */
import { w } from '../binding';
import { formatRule, illegalCharacters, inclusiveBetween, mediaManagementRules } from '../validation/config';
import { failure } from '../validation/failures';
import type { AppFacts, QualityDefinitionFact, QualityFact } from './facts';
import { enumOptions, languageSpec, regexSpec, RELEASE_TITLE_PRESETS, selectSpec, SIZE_LABELS, sizeSpec } from './specs';
import { APP_LANGUAGES } from '../../domain/app-resources/languages';

const SOURCES = ['unknown', 'television', 'televisionRaw', 'web', 'webRip', 'dvd', 'bluray', 'blurayRaw'] as const;

function q(id: number, name: string, source: (typeof SOURCES)[number], resolution: number): QualityFact {
  return { id, name, source, resolution };
}

/** Quality.All, in the app's order. */
const QUALITIES: QualityFact[] = [
  q(0, 'Unknown', 'unknown', 0),
  q(1, 'SDTV', 'television', 480),
  q(2, 'DVD', 'dvd', 480),
  q(12, 'WEBRip-480p', 'webRip', 480),
  q(8, 'WEBDL-480p', 'web', 480),
  q(13, 'Bluray-480p', 'bluray', 480),
  q(22, 'Bluray-576p', 'bluray', 576),
  q(4, 'HDTV-720p', 'television', 720),
  q(14, 'WEBRip-720p', 'webRip', 720),
  q(5, 'WEBDL-720p', 'web', 720),
  q(6, 'Bluray-720p', 'bluray', 720),
  q(7, 'Bluray-1080p', 'bluray', 1080),
  q(9, 'HDTV-1080p', 'television', 1080),
  q(15, 'WEBRip-1080p', 'webRip', 1080),
  q(3, 'WEBDL-1080p', 'web', 1080),
  q(10, 'Raw-HD', 'televisionRaw', 1080),
  q(16, 'HDTV-2160p', 'television', 2160),
  q(17, 'WEBRip-2160p', 'webRip', 2160),
  q(18, 'WEBDL-2160p', 'web', 2160),
  q(19, 'Bluray-2160p', 'bluray', 2160),
  q(20, 'Bluray-1080p Remux', 'blurayRaw', 1080),
  q(21, 'Bluray-2160p Remux', 'blurayRaw', 2160),
];

function d(qualityId: number, weight: number, minSize: number, maxSize: number | null, groupName?: string): QualityDefinitionFact {
  return { qualityId, weight, groupKey: weight, groupName, minSize, maxSize, preferredSize: 95 };
}

/** Quality.DefaultQualityDefinitions, in declaration order (also the order of their database ids). */
const DEFINITIONS: QualityDefinitionFact[] = [
  d(0, 1, 1, 199.9),
  d(1, 2, 2, 100),
  d(12, 3, 2, 100, 'WEB 480p'),
  d(8, 3, 2, 100, 'WEB 480p'),
  d(2, 4, 2, 100),
  d(13, 5, 2, 100),
  d(22, 6, 2, 100),
  d(4, 7, 3, 125),
  d(9, 8, 4, 125),
  d(10, 9, 4, null),
  d(14, 10, 3, 130, 'WEB 720p'),
  d(5, 10, 3, 130, 'WEB 720p'),
  d(6, 11, 4, 130),
  d(15, 12, 4, 130, 'WEB 1080p'),
  d(3, 12, 4, 130, 'WEB 1080p'),
  d(7, 13, 4, 155),
  d(20, 14, 35, null),
  d(16, 15, 35, 199.9),
  d(17, 16, 35, null, 'WEB 2160p'),
  d(18, 16, 35, null, 'WEB 2160p'),
  d(19, 17, 35, null),
  d(21, 18, 35, null),
];

const LANGUAGES = APP_LANGUAGES.series_app.map((l) => ({ ...l }));

const INFO_LINK = 'https://wiki.servarr.com/sonarr/settings#custom-formats-2';
const base = (implementation: string, implementationName: string, order: number) => ({ implementation, implementationName, order, infoLink: INFO_LINK });

const RESOLUTION_OPTIONS = enumOptions([['R360p', 360], ['R480p', 480], ['R540p', 540], ['R576p', 576], ['R720p', 720], ['R1080p', 1080], ['R2160p', 2160], ['Unknown', 0]]);
const SOURCE_OPTIONS = enumOptions(['Unknown', 'Television', 'TelevisionRaw', 'Web', 'WebRip', 'DVD', 'Bluray', 'BlurayRaw'].map((name, value) => [name, value]));
const INDEXER_FLAG_OPTIONS = enumOptions([
  ['Freeleech', 1], ['Halfleech', 2], ['DoubleUpload', 4], ['Internal', 8], ['Scene', 16], ['Freeleech75', 32], ['Freeleech25', 64], ['Nuked', 128],
]);
/** ReleaseType: FieldOption labels, orders (source line numbers) and "(value)" hints. */
const RELEASE_TYPE_OPTIONS = enumOptions([
  ['Unknown', 0],
  ['Single Episode', 1, 9, '(1)'],
  ['Multi-Episode', 2, 12, '(2)'],
  ['Season Pack', 3, 15, '(3)'],
]);

const SEASON_EPISODE = /s?\{season(?::0+)?\}[- ._]?[ex]\{episode(?::0+)?\}/i;
const SEASON = /\{season(?::0+)?\}/i;
const EPISODE = /\{episode(?::0+)?\}/i;
const AIR_DATE = /\{Air(?:\s|\W|_)Date\}/i;
const ABSOLUTE = /\{absolute(?::0+)?\}/i;
const SERIES_TITLE = /\{Series[- ._](?:Clean)?Title(?:The)?(?:Without)?(?:Year)?(?::[0-9-]+)?\}/i;
const SEASON_FOLDER = /\{season(?::\d+)?\}/i;
const ORIGINAL_TOKEN = /\{original[- ._](?:title|filename)\}/i;
const hasSeasonAndEpisode = (v: string) => SEASON_EPISODE.test(v) || (SEASON.test(v) && EPISODE.test(v));
const COLON_BAD_CHARACTERS = ['\\', '/', '<', '>', '?', '*', '|', '"', ':'];

export const SONARR: AppFacts = {
  app: 'sonarr',
  appName: 'Sonarr',
  apiBase: '/api/v3',
  defaultVersion: '4.0.19.2796',
  system: { branch: 'main', migrationVersion: 217, runtimeVersion: '6.0.35', databaseVersion: '3.46.1', sqliteVersion: '3.46.1' },
  qualityWire: w.object('NzbDrone.Core.Qualities.Quality', {
    id: w.int,
    name: w.string,
    source: w.enumOf('NzbDrone.Core.Qualities.QualitySource', SOURCES),
    resolution: w.int,
  }),
  qualities: QUALITIES,
  qualityDefinitions: DEFINITIONS,
  qualityDefinitionLimits: { min: 0, max: 1000 },
  defaultProfiles: [
    { name: 'Any', cutoffQualityId: 1, allowedQualityIds: [1, 12, 8, 2, 13, 22, 4, 9, 14, 5, 15, 3, 6, 7] },
    { name: 'SD', cutoffQualityId: 1, allowedQualityIds: [1, 12, 8, 2, 13, 22] },
    { name: 'HD-720p', cutoffQualityId: 4, allowedQualityIds: [4, 14, 5, 6] },
    { name: 'HD-1080p', cutoffQualityId: 9, allowedQualityIds: [9, 15, 3, 7] },
    { name: 'Ultra-HD', cutoffQualityId: 16, allowedQualityIds: [16, 17, 18, 19] },
    { name: 'HD - 720p/1080p', cutoffQualityId: 4, allowedQualityIds: [4, 9, 14, 5, 15, 3, 6, 7] },
  ],
  hasMinUpgradeFormatScore: true,
  languages: LANGUAGES,
  languageOrder: 'nonPositiveFirstThenName',
  specs: [
    regexSpec(base('ReleaseTitleSpecification', 'Release Title', 1)),
    languageSpec(base('LanguageSpecification', 'Language', 3), LANGUAGES, false),
    selectSpec(base('IndexerFlagSpecification', 'Indexer Flag', 4), 'Flag', INDEXER_FLAG_OPTIONS, {
      notEmpty: true,
      defined: { values: [1, 2, 4, 8, 16, 32, 64, 128], message: (value) => `Invalid indexer flag condition value: ${value}` },
    }),
    selectSpec(base('SourceSpecification', 'Source', 5), 'Source', SOURCE_OPTIONS, { notEmpty: true }),
    selectSpec(base('ResolutionSpecification', 'Resolution', 6), 'Resolution', RESOLUTION_OPTIONS, { notEmpty: true }),
    sizeSpec(base('SizeSpecification', 'Size', 8), SIZE_LABELS, false),
    regexSpec(base('ReleaseGroupSpecification', 'Release Group', 9)),
    selectSpec(base('ReleaseTypeSpecification', 'Release Type', 10), 'Release Type', RELEASE_TYPE_OPTIONS, {
      notEmpty: false,
      defined: { values: [0, 1, 2, 3], message: (value) => `Invalid release type condition value: ${value}` },
    }),
  ],
  selectOptionDivider: false,
  releaseTitlePresets: RELEASE_TITLE_PRESETS,
  specificationsNotEmptyRule: true,
  naming: {
    storage: 'record',
    wire: w.object('Sonarr.Api.V3.Config.NamingConfigResource', {
      id: w.int,
      renameEpisodes: w.bool,
      replaceIllegalCharacters: w.bool,
      colonReplacementFormat: w.int,
      customColonReplacementFormat: w.string,
      multiEpisodeStyle: w.int,
      standardEpisodeFormat: w.string,
      dailyEpisodeFormat: w.string,
      animeEpisodeFormat: w.string,
      seriesFolderFormat: w.string,
      seasonFolderFormat: w.string,
      specialsFolderFormat: w.string,
    }),
    defaults: {
      renameEpisodes: false,
      replaceIllegalCharacters: true,
      colonReplacementFormat: 4,
      customColonReplacementFormat: '',
      multiEpisodeStyle: 5,
      standardEpisodeFormat: '{Series Title} - S{season:00}E{episode:00} - {Episode Title} {Quality Full}',
      dailyEpisodeFormat: '{Series Title} - {Air-Date} - {Episode Title} {Quality Full}',
      animeEpisodeFormat: '{Series Title} - S{season:00}E{episode:00} - {Episode Title} {Quality Full}',
      seriesFolderFormat: '{Series Title}',
      seasonFolderFormat: 'Season {season}',
      specialsFolderFormat: 'Specials',
    },
    validate: (r) => {
      const failures = [
        ...inclusiveBetween('MultiEpisodeStyle', r.multiEpisodeStyle as number, 0, 5),
        ...formatRule('StandardEpisodeFormat', r.standardEpisodeFormat, {
          ok: (v) => hasSeasonAndEpisode(v) || ORIGINAL_TOKEN.test(v),
          message: 'Must contain season and episode numbers OR Original Title',
          code: 'ValidStandardEpisodeFormatValidator',
        }),
        ...formatRule('DailyEpisodeFormat', r.dailyEpisodeFormat, {
          ok: (v) => hasSeasonAndEpisode(v) || AIR_DATE.test(v) || ORIGINAL_TOKEN.test(v),
          message: 'Must contain Air Date OR Season and Episode OR Original Title',
          code: 'ValidDailyEpisodeFormatValidator',
        }),
        ...formatRule('AnimeEpisodeFormat', r.animeEpisodeFormat, {
          ok: (v) => hasSeasonAndEpisode(v) || ABSOLUTE.test(v) || ORIGINAL_TOKEN.test(v),
          message: 'Must contain Absolute Episode number OR Season and Episode OR Original Title',
          code: 'ValidAnimeEpisodeFormatValidator',
        }),
        ...formatRule('SeriesFolderFormat', r.seriesFolderFormat, { ok: (v) => SERIES_TITLE.test(v), message: 'Must contain series title', code: 'RegularExpressionValidator' }),
        ...formatRule('SeasonFolderFormat', r.seasonFolderFormat, { ok: (v) => SEASON_FOLDER.test(v), message: 'Must contain season number', code: 'RegularExpressionValidator' }),
        ...formatRule('SpecialsFolderFormat', r.specialsFolderFormat),
      ];
      if (r.colonReplacementFormat === 5) {
        const custom = r.customColonReplacementFormat;
        if (typeof custom === 'string' && custom.trim() !== '') {
          const bad = COLON_BAD_CHARACTERS.filter((char) => custom.includes(char));
          if (bad.length) {
            failures.push(failure('CustomColonReplacementFormat', `Contains illegal characters: ${bad.join('')}`, custom, 'IllegalColonCharactersValidator'));
          }
        }
        failures.push(...illegalCharacters('CustomColonReplacementFormat', custom));
      }
      return failures;
    },
  },
  mediaManagement: {
    storage: 'configService',
    wire: w.object('Sonarr.Api.V3.Config.MediaManagementConfigResource', {
      id: w.int,
      autoUnmonitorPreviouslyDownloadedEpisodes: w.bool,
      recycleBin: w.string,
      recycleBinCleanupDays: w.int,
      downloadPropersAndRepacks: w.enumOf('NzbDrone.Core.Configuration.ProperDownloadTypes', ['preferAndUpgrade', 'doNotUpgrade', 'doNotPrefer']),
      createEmptySeriesFolders: w.bool,
      deleteEmptyFolders: w.bool,
      fileDate: w.enumOf('NzbDrone.Core.MediaFiles.FileDateType', ['none', 'localAirDate', 'utcAirDate']),
      rescanAfterRefresh: w.enumOf('NzbDrone.Core.Configuration.RescanAfterRefreshType', ['always', 'afterManual', 'never']),
      setPermissionsLinux: w.bool,
      chmodFolder: w.string,
      chownGroup: w.string,
      episodeTitleRequired: w.enumOf('NzbDrone.Core.Configuration.EpisodeTitleRequiredType', ['always', 'bulkSeasonReleases', 'never']),
      skipFreeSpaceCheckWhenImporting: w.bool,
      minimumFreeSpaceWhenImporting: w.int,
      copyUsingHardlinks: w.bool,
      useScriptImport: w.bool,
      scriptImportPath: w.string,
      importExtraFiles: w.bool,
      extraFileExtensions: w.string,
      enableMediaInfo: w.bool,
    }),
    defaults: {
      autoUnmonitorPreviouslyDownloadedEpisodes: false,
      recycleBin: '',
      recycleBinCleanupDays: 7,
      downloadPropersAndRepacks: 'preferAndUpgrade',
      createEmptySeriesFolders: false,
      deleteEmptyFolders: false,
      fileDate: 'none',
      rescanAfterRefresh: 'always',
      setPermissionsLinux: false,
      chmodFolder: '755',
      chownGroup: '',
      episodeTitleRequired: 'always',
      skipFreeSpaceCheckWhenImporting: false,
      minimumFreeSpaceWhenImporting: 100,
      copyUsingHardlinks: true,
      useScriptImport: false,
      scriptImportPath: '',
      importExtraFiles: false,
      extraFileExtensions: 'srt',
      enableMediaInfo: true,
    },
    validate: mediaManagementRules,
  },
  tagRule: 'none',
  uniqueTagLabels: false,
  metadataProfiles: false,
};
