/** Lidarr /api/v1 shapes that differ from the shared ones (OpenAPI 2.14.5, components.schemas). */
import type {
  ProfileFormatItemResource,
  ProperDownloadTypes,
  QualityDefinitionResource,
  QualityProfileQualityItemPayload,
  QualityProfileQualityItemResource,
  RescanAfterRefreshType,
} from './common';

/** Quality (audio; id and name only). */
export interface LidarrQuality {
  id: number;
  name: string;
}

/** QualityProfileResource (Lidarr has no minUpgradeFormatScore). */
export interface LidarrQualityProfileResource {
  id: number;
  name: string;
  upgradeAllowed: boolean;
  cutoff: number;
  items: QualityProfileQualityItemResource<LidarrQuality>[];
  minFormatScore: number;
  cutoffFormatScore: number;
  formatItems: ProfileFormatItemResource[];
}

export interface LidarrQualityProfilePayload {
  id?: number;
  name: string;
  upgradeAllowed: boolean;
  cutoff: number;
  items: QualityProfileQualityItemPayload<LidarrQuality>[];
  minFormatScore: number;
  cutoffFormatScore: number;
  formatItems: ProfileFormatItemResource[];
}

export type LidarrQualityDefinitionResource = QualityDefinitionResource<LidarrQuality>;

/**
 * NamingConfigResource. colonReplacementFormat: 0 delete, 1 dash, 2 spaceDash, 3 spaceDashSpace, 4 smart.
 * The include*, replaceSpaces, separator and numberStyle properties are derived by the app on read
 * and ignored on write.
 */
export interface LidarrNamingConfigResource {
  id: number;
  renameTracks: boolean;
  replaceIllegalCharacters: boolean;
  colonReplacementFormat: number;
  standardTrackFormat: string;
  multiDiscTrackFormat: string;
  artistFolderFormat: string;
  includeArtistName: boolean;
  includeAlbumTitle: boolean;
  includeQuality: boolean;
  replaceSpaces: boolean;
  separator?: string | null;
  numberStyle?: string | null;
}

export type LidarrFileDateType = 'none' | 'albumReleaseDate';
export type AllowFingerprinting = 'never' | 'newFiles' | 'allFiles';

/** MediaManagementConfigResource */
export interface LidarrMediaManagementConfigResource {
  id: number;
  autoUnmonitorPreviouslyDownloadedTracks: boolean;
  recycleBin: string;
  recycleBinCleanupDays: number;
  downloadPropersAndRepacks: ProperDownloadTypes;
  createEmptyArtistFolders: boolean;
  deleteEmptyFolders: boolean;
  fileDate: LidarrFileDateType;
  watchLibraryForChanges: boolean;
  rescanAfterRefresh: RescanAfterRefreshType;
  allowFingerprinting: AllowFingerprinting;
  setPermissionsLinux: boolean;
  chmodFolder: string;
  chownGroup: string;
  skipFreeSpaceCheckWhenImporting: boolean;
  minimumFreeSpaceWhenImporting: number;
  copyUsingHardlinks: boolean;
  enableMediaInfo: boolean;
  useScriptImport: boolean;
  scriptImportPath: string;
  importExtraFiles: boolean;
  extraFileExtensions: string;
}

/** PrimaryAlbumType / SecondaryAlbumType / ReleaseStatus (embedded {id, name}). */
export interface AlbumTypeRef {
  id: number;
  name: string;
}

export interface ProfilePrimaryAlbumTypeItemResource {
  id?: number;
  albumType: AlbumTypeRef;
  allowed: boolean;
}

export interface ProfileSecondaryAlbumTypeItemResource {
  id?: number;
  albumType: AlbumTypeRef;
  allowed: boolean;
}

export interface ProfileReleaseStatusItemResource {
  id?: number;
  releaseStatus: AlbumTypeRef;
  allowed: boolean;
}

/** MetadataProfileResource. The name "None" is reserved for the app's empty profile. */
export interface MetadataProfileResource {
  id: number;
  name: string;
  primaryAlbumTypes: ProfilePrimaryAlbumTypeItemResource[];
  secondaryAlbumTypes: ProfileSecondaryAlbumTypeItemResource[];
  releaseStatuses: ProfileReleaseStatusItemResource[];
}

export type MetadataProfilePayload = Omit<MetadataProfileResource, 'id'> & { id?: number };
