/** Radarr /api/v3 shapes that differ from the shared ones (OpenAPI 6.1, components.schemas). */
import type {
  Language,
  ProfileFormatItemResource,
  ProperDownloadTypes,
  QualityDefinitionResource,
  QualityProfileQualityItemPayload,
  QualityProfileQualityItemResource,
  RescanAfterRefreshType,
} from './common';

export type RadarrQualitySource =
  | 'unknown'
  | 'cam'
  | 'telesync'
  | 'telecine'
  | 'workprint'
  | 'dvd'
  | 'tv'
  | 'webdl'
  | 'webrip'
  | 'bluray';
export type RadarrModifier = 'none' | 'regional' | 'screener' | 'rawhd' | 'brdisk' | 'remux';

/** Quality */
export interface RadarrQuality {
  id: number;
  name: string;
  source: RadarrQualitySource;
  resolution: number;
  modifier: RadarrModifier;
}

/** QualityProfileResource (Radarr adds `language`). */
export interface RadarrQualityProfileResource {
  id: number;
  name: string;
  upgradeAllowed: boolean;
  cutoff: number;
  items: QualityProfileQualityItemResource<RadarrQuality>[];
  minFormatScore: number;
  cutoffFormatScore: number;
  minUpgradeFormatScore: number;
  formatItems: ProfileFormatItemResource[];
  language: Language;
}

export interface RadarrQualityProfilePayload {
  id?: number;
  name: string;
  upgradeAllowed: boolean;
  cutoff: number;
  items: QualityProfileQualityItemPayload<RadarrQuality>[];
  minFormatScore: number;
  cutoffFormatScore: number;
  minUpgradeFormatScore: number;
  formatItems: ProfileFormatItemResource[];
  language?: Language | null;
}

export type RadarrQualityDefinitionResource = QualityDefinitionResource<RadarrQuality>;

export type RadarrColonReplacementFormat = 'delete' | 'dash' | 'spaceDash' | 'spaceDashSpace' | 'smart';

/** NamingConfigResource */
export interface RadarrNamingConfigResource {
  id: number;
  renameMovies: boolean;
  replaceIllegalCharacters: boolean;
  colonReplacementFormat: RadarrColonReplacementFormat;
  standardMovieFormat: string;
  movieFolderFormat: string;
}

export type RadarrFileDateType = 'none' | 'cinemas' | 'release';

/** MediaManagementConfigResource */
export interface RadarrMediaManagementConfigResource {
  id: number;
  autoUnmonitorPreviouslyDownloadedMovies: boolean;
  recycleBin: string;
  recycleBinCleanupDays: number;
  downloadPropersAndRepacks: ProperDownloadTypes;
  createEmptyMovieFolders: boolean;
  deleteEmptyFolders: boolean;
  fileDate: RadarrFileDateType;
  rescanAfterRefresh: RescanAfterRefreshType;
  autoRenameFolders: boolean;
  pathsDefaultStatic: boolean;
  setPermissionsLinux: boolean;
  chmodFolder: string;
  chownGroup: string;
  skipFreeSpaceCheckWhenImporting: boolean;
  minimumFreeSpaceWhenImporting: number;
  copyUsingHardlinks: boolean;
  useScriptImport: boolean;
  scriptImportPath: string;
  importExtraFiles: boolean;
  extraFileExtensions: string;
  enableMediaInfo: boolean;
}
