export * from './common';
export * from './radarr';
export * from './sonarr';
export * from './lidarr';

import type {
  LidarrMediaManagementConfigResource,
  LidarrNamingConfigResource,
  LidarrQuality,
  LidarrQualityProfilePayload,
  LidarrQualityProfileResource,
} from './lidarr';
import type {
  RadarrMediaManagementConfigResource,
  RadarrNamingConfigResource,
  RadarrQuality,
  RadarrQualityProfilePayload,
  RadarrQualityProfileResource,
} from './radarr';
import type {
  SonarrMediaManagementConfigResource,
  SonarrNamingConfigResource,
  SonarrQuality,
  SonarrQualityProfilePayload,
  SonarrQualityProfileResource,
} from './sonarr';

/** The payload types that differ per app, keyed by app; the shared ones live in ./common. */
export interface AppPayloads {
  quality: unknown;
  qualityProfile: { id: number; name: string };
  qualityProfilePayload: { name: string };
  naming: { id: number };
  mediaManagement: { id: number };
}

export interface RadarrPayloads extends AppPayloads {
  quality: RadarrQuality;
  qualityProfile: RadarrQualityProfileResource;
  qualityProfilePayload: RadarrQualityProfilePayload;
  naming: RadarrNamingConfigResource;
  mediaManagement: RadarrMediaManagementConfigResource;
}

export interface SonarrPayloads extends AppPayloads {
  quality: SonarrQuality;
  qualityProfile: SonarrQualityProfileResource;
  qualityProfilePayload: SonarrQualityProfilePayload;
  naming: SonarrNamingConfigResource;
  mediaManagement: SonarrMediaManagementConfigResource;
}

export interface LidarrPayloads extends AppPayloads {
  quality: LidarrQuality;
  qualityProfile: LidarrQualityProfileResource;
  qualityProfilePayload: LidarrQualityProfilePayload;
  naming: LidarrNamingConfigResource;
  mediaManagement: LidarrMediaManagementConfigResource;
}

/** Any app: what a client that does not know the app at compile time works with. */
export interface AnyAppPayloads extends AppPayloads {
  quality: RadarrQuality | SonarrQuality | LidarrQuality;
  qualityProfile: RadarrQualityProfileResource | SonarrQualityProfileResource | LidarrQualityProfileResource;
  qualityProfilePayload: RadarrQualityProfilePayload | SonarrQualityProfilePayload | LidarrQualityProfilePayload;
  naming: RadarrNamingConfigResource | SonarrNamingConfigResource | LidarrNamingConfigResource;
  mediaManagement: RadarrMediaManagementConfigResource | SonarrMediaManagementConfigResource | LidarrMediaManagementConfigResource;
}
