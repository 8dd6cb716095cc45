/**
 * Lidarr 2.14.5 facts: audio qualities, default quality definitions and profiles, languages, custom
 * format specifications, naming and media-management defaults, metadata profile types.
 */
import { w } from '../binding';
import { formatRule, mediaManagementRules } from '../validation/config';
import type { AppFacts, QualityDefinitionFact, QualityFact } from './facts';
import { enumOptions, regexSpec, RELEASE_TITLE_PRESETS, selectSpec, SIZE_LABELS, sizeSpec } from './specs';
import { APP_LANGUAGES } from '../../domain/app-resources/languages';

/** Quality.All, in the app's order. */
const QUALITIES: QualityFact[] = [
  [0, 'Unknown'], [32, 'MP3-8'], [31, 'MP3-16'], [30, 'MP3-24'], [29, 'MP3-32'], [28, 'MP3-40'], [27, 'MP3-48'], [26, 'MP3-56'],
  [25, 'MP3-64'], [24, 'MP3-80'], [23, 'MP3-96'], [33, 'MP3-112'], [22, 'MP3-128'], [5, 'MP3-160'], [1, 'MP3-192'], [34, 'MP3-224'],
  [2, 'MP3-VBR-V0'], [3, 'MP3-256'], [4, 'MP3-320'], [8, 'MP3-VBR-V2'], [9, 'AAC-192'], [10, 'AAC-256'], [11, 'AAC-320'],
  [12, 'AAC-VBR'], [20, 'WMA'], [14, 'OGG Vorbis Q10'], [15, 'OGG Vorbis Q9'], [16, 'OGG Vorbis Q8'], [17, 'OGG Vorbis Q7'],
  [18, 'OGG Vorbis Q6'], [19, 'OGG Vorbis Q5'], [6, 'FLAC'], [7, 'ALAC'], [35, 'APE'], [36, 'WavPack'], [21, 'FLAC 24bit'],
  [37, 'ALAC 24bit'], [13, 'WAV'],
].map(([id, name]) => ({ id: id as number, name: name as string }));

function d(qualityId: number, weight: number, groupKey: number, groupName: string | undefined, maxSize: number | null, preferredSize: number): QualityDefinitionFact {
  return { qualityId, weight, groupKey, groupName, minSize: 0, maxSize, preferredSize };
}

const TRASH = 'Trash Quality Lossy';
const POOR = 'Poor Quality Lossy';
const LOW = 'Low Quality Lossy';
const MID = 'Mid Quality Lossy';
const HIGH = 'High Quality Lossy';
const LOSSLESS = 'Lossless';

/** Quality.DefaultQualityDefinitions, in declaration order; Lidarr groups its default profile items by GroupWeight. */
const DEFINITIONS: QualityDefinitionFact[] = [
  d(0, 1, 1, undefined, 350, 195),
  d(32, 2, 2, TRASH, 10, 5),
  d(31, 3, 2, TRASH, 20, 15),
  d(30, 4, 2, TRASH, 30, 25),
  d(29, 5, 2, TRASH, 40, 35),
  d(28, 6, 2, TRASH, 45, 40),
  d(27, 7, 2, TRASH, 55, 50),
  d(26, 8, 2, TRASH, 65, 60),
  d(25, 9, 2, TRASH, 75, 70),
  d(24, 10, 2, TRASH, 95, 90),
  d(23, 11, 3, POOR, 110, 95),
  d(33, 12, 3, POOR, 125, 95),
  d(22, 13, 3, POOR, 140, 95),
  d(19, 14, 3, POOR, 175, 95),
  d(5, 14, 3, POOR, 175, 95),
  d(1, 15, 4, LOW, 210, 95),
  d(18, 15, 4, LOW, 210, 95),
  d(9, 15, 4, LOW, 210, 95),
  d(20, 15, 4, LOW, 350, 195),
  d(34, 16, 4, LOW, 245, 95),
  d(17, 17, 5, MID, 245, 95),
  d(8, 18, 5, MID, 280, 95),
  d(3, 18, 5, MID, 280, 95),
  d(16, 18, 5, MID, 280, 95),
  d(10, 18, 5, MID, 280, 95),
  d(2, 19, 6, HIGH, 350, 195),
  d(12, 19, 6, HIGH, 350, 195),
  d(4, 20, 6, HIGH, 350, 195),
  d(15, 20, 6, HIGH, 350, 195),
  d(11, 20, 6, HIGH, 350, 195),
  d(14, 21, 6, HIGH, 550, 295),
  d(6, 22, 7, LOSSLESS, null, 895),
  d(7, 22, 7, LOSSLESS, null, 895),
  d(35, 22, 7, LOSSLESS, null, 895),
  d(36, 22, 7, LOSSLESS, null, 895),
  d(21, 23, 7, LOSSLESS, null, 895),
  d(37, 23, 7, LOSSLESS, null, 895),
  d(13, 24, 8, undefined, null, 895),
];

const LANGUAGES = APP_LANGUAGES.music_app.map((l) => ({ ...l }));

/** Metadata profile types (PrimaryAlbumType.All, SecondaryAlbumType.All, ReleaseStatus.All). */
export const PRIMARY_ALBUM_TYPES = [
  [0, 'Album'], [1, 'EP'], [2, 'Single'], [3, 'Broadcast'], [4, 'Other'],
].map(([id, name]) => ({ id: id as number, name: name as string }));
export const SECONDARY_ALBUM_TYPES = [
  [0, 'Studio'], [1, 'Compilation'], [2, 'Soundtrack'], [3, 'Spokenword'], [4, 'Interview'], [5, 'Audiobook'], [6, 'Live'],
  [7, 'Remix'], [8, 'DJ-mix'], [9, 'Mixtape/Street'], [10, 'Demo'], [11, 'Audio drama'],
].map(([id, name]) => ({ id: id as number, name: name as string }));
export const RELEASE_STATUSES = [
  [0, 'Official'], [1, 'Promotion'], [2, 'Bootleg'], [3, 'Pseudo-Release'],
].map(([id, name]) => ({ id: id as number, name: name as string }));

/**
 * The order a fresh install lists types in its default metadata profiles (OrderByDescending(Name)
 * with the culture-aware comparer .NET uses on Linux).
 */
export const DEFAULT_METADATA_ORDER = {
  primary: [2, 4, 1, 3, 0],
  secondary: [0, 3, 2, 7, 9, 6, 4, 8, 10, 1, 5, 11],
  releaseStatus: [3, 1, 0, 2],
};

const INFO_LINK = 'https://wiki.servarr.com/lidarr/settings#custom-formats-2';
const base = (implementation: string, implementationName: string, order: number) => ({ implementation, implementationName, order, infoLink: INFO_LINK });

const INDEXER_FLAG_OPTIONS = enumOptions([['Freeleech', 1], ['Halfleech', 2], ['DoubleUpload', 4], ['Internal', 8], ['Scene', 16], ['Freeleech75', 32], ['Freeleech25', 64]]);

const TRACK_TITLE = /\{Track[- ._](?:Clean)?Title(?::[0-9-]+)?\}/i;
const TRACK = /\{track(?::0+)?\}/i;
const ARTIST_NAME = /\{Artist[- ._](?:Clean)?Name(?:The)?(?::[0-9-]+)?\}/i;
const ORIGINAL_TOKEN = /\{original[- ._](?:title|filename)\}/i;
const trackFormat = {
  ok: (v: string) => (TRACK_TITLE.test(v) && TRACK.test(v)) || ORIGINAL_TOKEN.test(v),
  message: 'Must contain Track Title and Track numbers OR Original Title',
  code: 'ValidStandardTrackFormatValidator',
};

export const LIDARR: AppFacts = {
  app: 'lidarr',
  appName: 'Lidarr',
  apiBase: '/api/v1',
  defaultVersion: '2.14.5.4836',
  system: { branch: 'master', migrationVersion: 80, runtimeVersion: '6.0.35', databaseVersion: '3.46.1' },
  qualityWire: w.object('NzbDrone.Core.Qualities.Quality', { id: w.int, name: w.string }),
  qualities: QUALITIES,
  qualityDefinitions: DEFINITIONS,
  defaultProfiles: [
    {
      name: 'Any',
      cutoffQualityId: 0,
      allowedQualityIds: [0, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 33, 22, 5, 1, 34, 3, 4, 2, 8, 9, 10, 11, 12, 19, 18, 17, 16, 15, 14, 20, 6, 7, 21, 37],
    },
    { name: 'Lossless', cutoffQualityId: 6, allowedQualityIds: [6, 7, 21, 37] },
    { name: 'Standard', cutoffQualityId: 1, allowedQualityIds: [1, 3, 4] },
  ],
  hasMinUpgradeFormatScore: false,
  languages: LANGUAGES,
  languageOrder: 'name',
  specs: [
    regexSpec(base('ReleaseTitleSpecification', 'Release Title', 1)),
    selectSpec(base('IndexerFlagSpecification', 'Indexer Flag', 4), 'Flag', INDEXER_FLAG_OPTIONS, {
      notEmpty: true,
      defined: { values: [1, 2, 4, 8, 16, 32, 64], message: (value) => `Invalid indexer flag condition value: ${value}` },
    }),
    sizeSpec(base('SizeSpecification', 'Size', 8), SIZE_LABELS, true),
    regexSpec(base('ReleaseGroupSpecification', 'Release Group', 9)),
  ],
  selectOptionDivider: false,
  releaseTitlePresets: RELEASE_TITLE_PRESETS.filter((preset) => preset.name === 'Preferred Words'),
  specificationsNotEmptyRule: true,
  naming: {
    storage: 'record',
    unstored: ['includeArtistName', 'includeAlbumTitle', 'includeQuality', 'replaceSpaces', 'separator', 'numberStyle'],
    wire: w.object('Lidarr.Api.V1.Config.NamingConfigResource', {
      id: w.int,
      renameTracks: w.bool,
      replaceIllegalCharacters: w.bool,
      colonReplacementFormat: w.int,
      standardTrackFormat: w.string,
      multiDiscTrackFormat: w.string,
      artistFolderFormat: w.string,
      includeArtistName: w.bool,
      includeAlbumTitle: w.bool,
      includeQuality: w.bool,
      replaceSpaces: w.bool,
      separator: w.string,
      numberStyle: w.string,
    }),
    defaults: {
      renameTracks: false,
      replaceIllegalCharacters: true,
      colonReplacementFormat: 4,
      standardTrackFormat: '{Album Title} ({Release Year})/{Artist Name} - {Album Title} - {track:00} - {Track Title}',
      multiDiscTrackFormat: '{Album Title} ({Release Year})/{Medium Format} {medium:00}/{Artist Name} - {Album Title} - {track:00} - {Track Title}',
      artistFolderFormat: '{Artist Name}',
      includeArtistName: false,
      includeAlbumTitle: false,
      includeQuality: false,
      replaceSpaces: false,
      separator: null,
      numberStyle: null,
    },
    validate: (r) => [
      ...formatRule('StandardTrackFormat', r.standardTrackFormat, trackFormat),
      ...formatRule('MultiDiscTrackFormat', r.multiDiscTrackFormat, trackFormat),
      ...formatRule('ArtistFolderFormat', r.artistFolderFormat, { ok: (v) => ARTIST_NAME.test(v), message: 'Must contain Artist name', code: 'RegularExpressionValidator' }),
    ],
  },
  mediaManagement: {
    storage: 'configService',
    wire: w.object('Lidarr.Api.V1.Config.MediaManagementConfigResource', {
      id: w.int,
      autoUnmonitorPreviouslyDownloadedTracks: w.bool,
      recycleBin: w.string,
      recycleBinCleanupDays: w.int,
      downloadPropersAndRepacks: w.enumOf('NzbDrone.Core.Configuration.ProperDownloadTypes', ['preferAndUpgrade', 'doNotUpgrade', 'doNotPrefer']),
      createEmptyArtistFolders: w.bool,
      deleteEmptyFolders: w.bool,
      fileDate: w.enumOf('NzbDrone.Core.MediaFiles.FileDateType', ['none', 'albumReleaseDate']),
      watchLibraryForChanges: w.bool,
      rescanAfterRefresh: w.enumOf('NzbDrone.Core.Configuration.RescanAfterRefreshType', ['always', 'afterManual', 'never']),
      allowFingerprinting: w.enumOf('NzbDrone.Core.Configuration.AllowFingerprinting', ['never', 'newFiles', 'allFiles']),
      setPermissionsLinux: w.bool,
      chmodFolder: w.string,
      chownGroup: w.string,
      skipFreeSpaceCheckWhenImporting: w.bool,
      minimumFreeSpaceWhenImporting: w.int,
      copyUsingHardlinks: w.bool,
      enableMediaInfo: w.bool,
      useScriptImport: w.bool,
      scriptImportPath: w.string,
      importExtraFiles: w.bool,
      extraFileExtensions: w.string,
    }),
    defaults: {
      autoUnmonitorPreviouslyDownloadedTracks: false,
      recycleBin: '',
      recycleBinCleanupDays: 7,
      downloadPropersAndRepacks: 'preferAndUpgrade',
      createEmptyArtistFolders: false,
      deleteEmptyFolders: false,
      fileDate: 'none',
      watchLibraryForChanges: true,
      rescanAfterRefresh: 'always',
      allowFingerprinting: 'newFiles',
      setPermissionsLinux: false,
      chmodFolder: '755',
      chownGroup: '',
      skipFreeSpaceCheckWhenImporting: false,
      minimumFreeSpaceWhenImporting: 100,
      copyUsingHardlinks: true,
      enableMediaInfo: true,
      useScriptImport: false,
      scriptImportPath: '',
      importExtraFiles: false,
      extraFileExtensions: 'srt',
    },
    validate: mediaManagementRules,
  },
  tagRule: 'notEmpty',
  uniqueTagLabels: true,
  metadataProfiles: true,
};
