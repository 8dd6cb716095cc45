/**
 * Radarr 6.1 facts: qualities, default quality definitions and profiles, languages, custom format
 * specifications, naming and media-management defaults (a fresh install's values).
 */
import { w } from '../binding';
import { formatRule, illegalCharacters, mediaManagementRules } from '../validation/config';
import { failure, rules } from '../validation/failures';
import type { AppFacts, QualityDefinitionFact, QualityFact } from './facts';
import { enumOptions, languageSpec, regexSpec, RELEASE_TITLE_PRESETS, selectSpec, SIZE_LABELS, sizeSpec, withDividers, yearSpec } from './specs';
import { APP_LANGUAGES } from '../../domain/app-resources/languages';

const SOURCES = ['unknown', 'cam', 'telesync', 'telecine', 'workprint', 'dvd', 'tv', 'webdl', 'webrip', 'bluray'] as const;
const MODIFIERS = ['none', 'regional', 'screener', 'rawhd', 'brdisk', 'remux'] as const;

function q(id: number, name: string, source: (typeof SOURCES)[number], resolution: number, modifier: (typeof MODIFIERS)[number] = 'none'): QualityFact {
  return { id, name, source, resolution, modifier };
}

/** Quality.All, in the app's order. */
const QUALITIES: QualityFact[] = [
  q(0, 'Unknown', 'unknown', 0),
  q(24, 'WORKPRINT', 'workprint', 0),
  q(25, 'CAM', 'cam', 0),
  q(26, 'TELESYNC', 'telesync', 0),
  q(27, 'TELECINE', 'telecine', 0),
  q(28, 'DVDSCR', 'dvd', 480, 'screener'),
  q(29, 'REGIONAL', 'dvd', 480, 'regional'),
  q(1, 'SDTV', 'tv', 480),
  q(2, 'DVD', 'dvd', 0),
  q(23, 'DVD-R', 'dvd', 480, 'remux'),
  q(4, 'HDTV-720p', 'tv', 720),
  q(9, 'HDTV-1080p', 'tv', 1080),
  q(16, 'HDTV-2160p', 'tv', 2160),
  q(8, 'WEBDL-480p', 'webdl', 480),
  q(5, 'WEBDL-720p', 'webdl', 720),
  q(3, 'WEBDL-1080p', 'webdl', 1080),
  q(18, 'WEBDL-2160p', 'webdl', 2160),
  q(12, 'WEBRip-480p', 'webrip', 480),
  q(14, 'WEBRip-720p', 'webrip', 720),
  q(15, 'WEBRip-1080p', 'webrip', 1080),
  q(17, 'WEBRip-2160p', 'webrip', 2160),
  q(20, 'Bluray-480p', 'bluray', 480),
  q(21, 'Bluray-576p', 'bluray', 576),
  q(6, 'Bluray-720p', 'bluray', 720),
  q(7, 'Bluray-1080p', 'bluray', 1080),
  q(19, 'Bluray-2160p', 'bluray', 2160),
  q(30, 'Remux-1080p', 'bluray', 1080, 'remux'),
  q(31, 'Remux-2160p', 'bluray', 2160, 'remux'),
  q(22, 'BR-DISK', 'bluray', 1080, 'brdisk'),
  q(10, 'Raw-HD', 'tv', 1080, 'rawhd'),
];

function d(qualityId: number, weight: number, groupName?: string, sizes: [number, number | null, number | null] = [0, 100, 95]): QualityDefinitionFact {
  return { qualityId, weight, groupKey: weight, groupName, minSize: sizes[0], maxSize: sizes[1], preferredSize: sizes[2] };
}

const UNLIMITED: [number, null, null] = [0, null, null];

/** Quality.DefaultQualityDefinitions, in declaration order (also the order of their database ids). */
const DEFINITIONS: QualityDefinitionFact[] = [
  d(0, 1),
  d(24, 2),
  d(25, 3),
  d(26, 4),
  d(27, 5),
  d(29, 6),
  d(28, 7),
  d(1, 8),
  d(2, 9),
  d(23, 10),
  d(8, 11, 'WEB 480p'),
  d(12, 11, 'WEB 480p'),
  d(20, 12),
  d(21, 13),
  d(4, 14),
  d(5, 15, 'WEB 720p'),
  d(14, 15, 'WEB 720p'),
  d(6, 16),
  d(9, 17),
  d(3, 18, 'WEB 1080p'),
  d(15, 18, 'WEB 1080p'),
  d(7, 19, undefined, UNLIMITED),
  d(30, 20, undefined, UNLIMITED),
  d(16, 21, undefined, UNLIMITED),
  d(18, 22, 'WEB 2160p', UNLIMITED),
  d(17, 22, 'WEB 2160p', UNLIMITED),
  d(19, 23, undefined, UNLIMITED),
  d(31, 24, undefined, UNLIMITED),
  d(22, 25, undefined, UNLIMITED),
  d(10, 26, undefined, UNLIMITED),
];

const LANGUAGES = APP_LANGUAGES.movie_app.map((l) => ({ ...l }));

const INFO_LINK = 'https://wiki.servarr.com/radarr/settings#custom-formats-2';
const base = (implementation: string, implementationName: string, order: number) => ({ implementation, implementationName, order, infoLink: INFO_LINK });

const RESOLUTION_OPTIONS = withDividers(enumOptions([['Unknown', 0], ['R360p', 360], ['R480p', 480], ['R540p', 540], ['R576p', 576], ['R720p', 720], ['R1080p', 1080], ['R2160p', 2160]]));
const SOURCE_OPTIONS = withDividers(enumOptions(['UNKNOWN', 'CAM', 'TELESYNC', 'TELECINE', 'WORKPRINT', 'DVD', 'TV', 'WEBDL', 'WEBRIP', 'BLURAY'].map((name, value) => [name, value])));
const MODIFIER_OPTIONS = withDividers(enumOptions(['NONE', 'REGIONAL', 'SCREENER', 'RAWHD', 'BRDISK', 'REMUX'].map((name, value) => [name, value])));
/** IndexerFlags; the obsolete AHD_Internal (64) and AHD_UserRelease (1024) are valid values but not offered. */
const INDEXER_FLAG_OPTIONS = withDividers(enumOptions([
  ['G_Freeleech', 1], ['G_Halfleech', 2], ['G_DoubleUpload', 4], ['PTP_Golden', 8], ['PTP_Approved', 16], ['G_Internal', 32],
  ['G_Scene', 128], ['G_Freeleech75', 256], ['G_Freeleech25', 512], ['Nuked', 2048],
]));
const ALL_INDEXER_FLAG_VALUES = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048];

const MOVIE_TITLE = /\{Movie[- ._](?:Clean)?(?:OriginalTitle|Title(?:The)?)(?::[a-z0-9|-]+)?\}/i;
const RELEASE_YEAR = /\{[-{ ._[(]*Release[- ._]Year[-} ._)\]]*\}/i;
const ORIGINAL_TOKEN = /\{Original[- ._](?:Title|Filename)\}/i;
const DEPRECATED_FOLDER_TOKENS =
  /\{[- ._[(]?(?:Original[- ._](?:Title|Filename)|Release[- ._]Group|Edition[- ._]Tags|Quality[- ._](?:Full|Title|Proper|Real)|MediaInfo[- ._](?:Video|VideoCodec|VideoBitDepth|Audio|AudioCodec|AudioChannels|AudioLanguages|AudioLanguagesAll|SubtitleLanguages|SubtitleLanguagesAll|3D|Simple|Full|VideoDynamicRange|VideoDynamicRangeType))[- ._\])]?\}/gi;

export const RADARR: AppFacts = {
  app: 'radarr',
  appName: 'Radarr',
  apiBase: '/api/v3',
  defaultVersion: '6.1.0.10293',
  system: { branch: 'master', migrationVersion: 242, runtimeVersion: '8.0.12', databaseVersion: '3.46.1' },
  qualityWire: w.object('NzbDrone.Core.Qualities.Quality', {
    id: w.int,
    name: w.string,
    source: w.enumOf('NzbDrone.Core.Qualities.QualitySource', SOURCES),
    resolution: w.int,
    modifier: w.enumOf('NzbDrone.Core.Qualities.Modifier', MODIFIERS),
  }),
  qualities: QUALITIES,
  qualityDefinitions: DEFINITIONS,
  qualityDefinitionLimits: { min: 0, max: 2000 },
  defaultProfiles: [
    { name: 'Any', cutoffQualityId: 20, allowedQualityIds: [24, 25, 26, 27, 28, 29, 1, 2, 23, 4, 9, 16, 8, 12, 5, 14, 3, 15, 18, 17, 20, 21, 6, 7, 19, 30, 31, 22] },
    { name: 'SD', cutoffQualityId: 20, allowedQualityIds: [24, 25, 26, 27, 28, 29, 1, 2, 8, 12, 20, 21] },
    { name: 'HD-720p', cutoffQualityId: 6, allowedQualityIds: [4, 5, 14, 6] },
    { name: 'HD-1080p', cutoffQualityId: 7, allowedQualityIds: [9, 3, 15, 7, 30] },
    { name: 'Ultra-HD', cutoffQualityId: 31, allowedQualityIds: [16, 18, 17, 19, 31] },
    { name: 'HD - 720p/1080p', cutoffQualityId: 6, allowedQualityIds: [4, 9, 5, 14, 3, 15, 6, 7, 30] },
  ],
  hasMinUpgradeFormatScore: true,
  profileLanguage: { id: -2, name: 'Original' },
  languages: LANGUAGES,
  languageOrder: 'nonPositiveFirstThenName',
  specs: [
    regexSpec(base('ReleaseTitleSpecification', 'Release Title', 1)),
    regexSpec(base('EditionSpecification', 'Edition', 2)),
    languageSpec(base('LanguageSpecification', 'Language', 3), LANGUAGES, true),
    selectSpec(base('IndexerFlagSpecification', 'Indexer Flag', 4), 'Flag', INDEXER_FLAG_OPTIONS, {
      notEmpty: true,
      defined: { values: ALL_INDEXER_FLAG_VALUES, message: (value) => `Invalid indexer flag condition value: ${value}` },
    }),
    selectSpec(base('SourceSpecification', 'Source', 5), 'Source', SOURCE_OPTIONS, { notEmpty: true }),
    selectSpec(base('ResolutionSpecification', 'Resolution', 6), 'Resolution', RESOLUTION_OPTIONS, { notEmpty: true }),
    selectSpec(base('QualityModifierSpecification', 'Quality Modifier', 7), 'Quality Modifier', MODIFIER_OPTIONS, {
      notEmpty: true,
      defined: { values: [0, 1, 2, 3, 4, 5], message: (value) => `Invalid quality modifier condition value: ${value}` },
    }),
    sizeSpec(base('SizeSpecification', 'Size', 8), SIZE_LABELS, true),
    regexSpec(base('ReleaseGroupSpecification', 'Release Group', 9)),
    yearSpec(base('YearSpecification', 'Year', 10)),
  ],
  selectOptionDivider: true,
  releaseTitlePresets: RELEASE_TITLE_PRESETS,
  specificationsNotEmptyRule: false,
  naming: {
    storage: 'record',
    wire: w.object('Radarr.Api.V3.Config.NamingConfigResource', {
      id: w.int,
      renameMovies: w.bool,
      replaceIllegalCharacters: w.bool,
      colonReplacementFormat: w.enumOf('NzbDrone.Core.Organizer.ColonReplacementFormat', ['delete', 'dash', 'spaceDash', 'spaceDashSpace', 'smart']),
      standardMovieFormat: w.string,
      movieFolderFormat: w.string,
    }),
    defaults: {
      renameMovies: false,
      replaceIllegalCharacters: true,
      colonReplacementFormat: 'smart',
      standardMovieFormat: '{Movie Title} ({Release Year}) {Quality Full}',
      movieFolderFormat: '{Movie Title} ({Release Year})',
    },
    validate: (r) => {
      const failures = formatRule('StandardMovieFormat', r.standardMovieFormat, {
        ok: (v) => (MOVIE_TITLE.test(v) && RELEASE_YEAR.test(v) && !ORIGINAL_TOKEN.test(v)) || ORIGINAL_TOKEN.test(v),
        message: 'Must contain either movie title and release year OR Original Title/Filename',
        code: 'ValidMovieFormatValidator',
      });
      const folder = r.movieFolderFormat;
      failures.push(...rules.notEmpty('MovieFolderFormat', folder), ...illegalCharacters('MovieFolderFormat', folder));
      const deprecated = typeof folder === 'string' ? (folder.match(DEPRECATED_FOLDER_TOKENS) ?? []) : [];
      if (typeof folder !== 'string' || deprecated.length > 0) {
        failures.push(
          failure('MovieFolderFormat', `Must not contain deprecated tokens derived from file properties: ${deprecated.join(', ')}`, folder, 'IllegalMovieFolderTokensValidator'),
        );
      }
      if (!(typeof folder === 'string' && MOVIE_TITLE.test(folder))) {
        failures.push(failure('MovieFolderFormat', 'Must contain movie title', folder, 'ValidMovieFolderFormatValidator'));
      }
      return failures;
    },
  },
  mediaManagement: {
    storage: 'configService',
    unstored: ['pathsDefaultStatic'],
    wire: w.object('Radarr.Api.V3.Config.MediaManagementConfigResource', {
      id: w.int,
      autoUnmonitorPreviouslyDownloadedMovies: w.bool,
      recycleBin: w.string,
      recycleBinCleanupDays: w.int,
      downloadPropersAndRepacks: w.enumOf('NzbDrone.Core.Configuration.ProperDownloadTypes', ['preferAndUpgrade', 'doNotUpgrade', 'doNotPrefer']),
      createEmptyMovieFolders: w.bool,
      deleteEmptyFolders: w.bool,
      fileDate: w.enumOf('NzbDrone.Core.MediaFiles.FileDateType', ['none', 'cinemas', 'release']),
      rescanAfterRefresh: w.enumOf('NzbDrone.Core.Configuration.RescanAfterRefreshType', ['always', 'afterManual', 'never']),
      autoRenameFolders: w.bool,
      pathsDefaultStatic: w.bool,
      setPermissionsLinux: w.bool,
      chmodFolder: w.string,
      chownGroup: w.string,
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
      autoUnmonitorPreviouslyDownloadedMovies: false,
      recycleBin: '',
      recycleBinCleanupDays: 7,
      downloadPropersAndRepacks: 'preferAndUpgrade',
      createEmptyMovieFolders: false,
      deleteEmptyFolders: false,
      fileDate: 'none',
      rescanAfterRefresh: 'always',
      autoRenameFolders: false,
      pathsDefaultStatic: false,
      setPermissionsLinux: false,
      chmodFolder: '755',
      chownGroup: '',
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
  tagRule: 'radarr',
  uniqueTagLabels: true,
  metadataProfiles: false,
};
