/** Sonarr /api/v3 shapes that differ from the shared ones (OpenAPI 4.0.19, components.schemas). */
import type {
  ProfileFormatItemResource,
  ProperDownloadTypes,
  QualityDefinitionResource,
  QualityProfileQualityItemPayload,
  QualityProfileQualityItemResource,
  RescanAfterRefreshType,
} from './common';

export type SonarrQualitySource =
  | 'unknown'
  | 'television'
  | 'televisionRaw'
  | 'web'
  | 'webRip'
  | 'dvd'
  | 'bluray'
  | 'blurayRaw';

/** Quality (Sonarr has no modifier). */
export interface SonarrQuality {
  id: number;
  name: string;
  source: SonarrQualitySource;
  resolution: number;
}

/** QualityProfileResource */
export interface SonarrQualityProfileResource {
  id: number;
  name: string;
  upgradeAllowed: boolean;
  cutoff: number;
  items: QualityProfileQualityItemResource<SonarrQuality>[];
  minFormatScore: number;
  cutoffFormatScore: number;
  minUpgradeFormatScore: number;
  formatItems: ProfileFormatItemResource[];
}

export interface SonarrQualityProfilePayload {
  id?: number;
  name: string;
  upgradeAllowed: boolean;
  cutoff: number;
  items: QualityProfileQualityItemPayload<SonarrQuality>[];
  minFormatScore: number;
  cutoffFormatScore: number;
  minUpgradeFormatScore: number;
  formatItems: ProfileFormatItemResource[];
}

export type SonarrQualityDefinitionResource = QualityDefinitionResource<SonarrQuality>;

/**
 * NamingConfigResource. colonReplacementFormat: 0 delete, 1 dash, 2 spaceDash, 3 spaceDashSpace,
 * 4 smart, 5 custom. multiEpisodeStyle: 0 extend, 1 duplicate, 2 repeat, 3 scene, 4 range, 5 prefixedRange.
 */
export interface SonarrNamingConfigResource {
  id: number;
  renameEpisodes: boolean;
  replaceIllegalCharacters: boolean;
  colonReplacementFormat: number;
  customColonReplacementFormat?: string | null;
  multiEpisodeStyle: number;
  standardEpisodeFormat: string;
  dailyEpisodeFormat: string;
  animeEpisodeFormat: string;
  seriesFolderFormat: string;
  seasonFolderFormat: string;
  specialsFolderFormat: string;
}

export type SonarrFileDateType = 'none' | 'localAirDate' | 'utcAirDate';
export type EpisodeTitleRequiredType = 'always' | 'bulkSeasonReleases' | 'never';

/** MediaManagementConfigResource */
export interface SonarrMediaManagementConfigResource {
  id: number;
  autoUnmonitorPreviouslyDownloadedEpisodes: boolean;
  recycleBin: string;
  recycleBinCleanupDays: number;
  downloadPropersAndRepacks: ProperDownloadTypes;
  createEmptySeriesFolders: boolean;
  deleteEmptyFolders: boolean;
  fileDate: SonarrFileDateType;
  rescanAfterRefresh: RescanAfterRefreshType;
  setPermissionsLinux: boolean;
  chmodFolder: string;
  chownGroup: string;
  episodeTitleRequired: EpisodeTitleRequiredType;
  skipFreeSpaceCheckWhenImporting: boolean;
  minimumFreeSpaceWhenImporting: number;
  copyUsingHardlinks: boolean;
  useScriptImport: boolean;
  scriptImportPath: string;
  importExtraFiles: boolean;
  extraFileExtensions: string;
  enableMediaInfo: boolean;
}
