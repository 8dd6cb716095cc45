/**
 * The single-entity sections: the global delay profile, naming, media settings, quality definitions
 * and Lidarr metadata profiles. Config-like targets (delay profile 1, naming, media management,
 * quality definitions) are expressed as the fields arrgo owns; the executor merges them into the
 * live resource, so settings arrgo does not manage are kept.
 */
import type { ArrType } from '../../arr-types';
import type {
  DelayProfileData,
  MediaSettingsData,
  MetadataProfileData,
  MovieNamingData,
  MusicNamingData,
  QualityDefinitionsData,
  SeriesNamingData,
} from '../../pcd';
import type { DelayProfileResource, MetadataProfilePayload, ProperDownloadTypes } from '../../app-resources';
import { qualityByName } from '../catalog';
import { LIDARR_METADATA_TYPES, RESERVED_METADATA_PROFILE } from '../enums';
import { appName } from '../namespace';
import type { NamingData } from '../source';
import { appLabel, report, type TransformContext } from './context';

/** Fields arrgo owns in a config-like resource, with the PCD entity's name. */
export interface DesiredSettings<F extends Record<string, unknown> = Record<string, unknown>> {
  displayName: string;
  fields: F;
}

// ---------------------------------------------------------------- delay profile

/** The delay-profile fields arrgo manages: the app's resource without id, order and tags. */
export interface DelayProfileFields extends Omit<DelayProfileResource, 'id' | 'order' | 'tags'>, Record<string, unknown> {}

/** The global delay profile (id 1): tags stay empty and its order is kept. */
export const GLOBAL_DELAY_PROFILE_ID = 1;

export function transformDelayProfile(profile: DelayProfileData): DesiredSettings<DelayProfileFields> {
  const p = profile.preferredProtocol;
  return {
    displayName: profile.name,
    fields: {
      enableUsenet: p !== 'only_torrent',
      enableTorrent: p !== 'only_usenet',
      preferredProtocol: p === 'prefer_usenet' || p === 'only_usenet' ? 'usenet' : 'torrent',
      usenetDelay: profile.usenetDelay ?? 0,
      torrentDelay: profile.torrentDelay ?? 0,
      bypassIfHighestQuality: profile.bypassIfHighestQuality,
      bypassIfAboveCustomFormatScore: profile.bypassIfAboveCustomFormatScore,
      minimumCustomFormatScore: profile.minimumCustomFormatScore ?? 0,
    },
  };
}

// ---------------------------------------------------------------- naming

export function transformNaming(arrType: ArrType, naming: NamingData): DesiredSettings {
  switch (arrType) {
    case 'movie_app': {
      const n = naming as MovieNamingData;
      return {
        displayName: n.name,
        fields: {
          renameMovies: n.rename,
          standardMovieFormat: n.movieFormat,
          movieFolderFormat: n.movieFolderFormat,
          replaceIllegalCharacters: n.replaceIllegalCharacters,
          colonReplacementFormat: n.colonReplacementFormat,
        },
      };
    }
    case 'series_app': {
      const n = naming as SeriesNamingData;
      return {
        displayName: n.name,
        fields: {
          renameEpisodes: n.rename,
          standardEpisodeFormat: n.standardEpisodeFormat,
          dailyEpisodeFormat: n.dailyEpisodeFormat,
          animeEpisodeFormat: n.animeEpisodeFormat,
          seriesFolderFormat: n.seriesFolderFormat,
          seasonFolderFormat: n.seasonFolderFormat,
          replaceIllegalCharacters: n.replaceIllegalCharacters,
          colonReplacementFormat: n.colonReplacementFormat,
          customColonReplacementFormat: n.customColonReplacementFormat ?? '',
          multiEpisodeStyle: n.multiEpisodeStyle,
        },
      };
    }
    case 'music_app': {
      const n = naming as MusicNamingData;
      return {
        displayName: n.name,
        fields: {
          renameTracks: n.rename,
          standardTrackFormat: n.standardTrackFormat,
          multiDiscTrackFormat: n.multiDiscTrackFormat,
          artistFolderFormat: n.artistFolderFormat,
          replaceIllegalCharacters: n.replaceIllegalCharacters,
          colonReplacementFormat: n.colonReplacementFormat,
        },
      };
    }
  }
}

// ---------------------------------------------------------------- media settings

const PROPERS: Record<MediaSettingsData['propersRepacks'], ProperDownloadTypes> = {
  doNotPrefer: 'doNotPrefer',
  preferAndUpgrade: 'preferAndUpgrade',
  doNotUpgradeAutomatically: 'doNotUpgrade',
};

export function transformMediaSettings(settings: MediaSettingsData): DesiredSettings {
  return {
    displayName: settings.name,
    fields: { downloadPropersAndRepacks: PROPERS[settings.propersRepacks], enableMediaInfo: settings.enableMediaInfo },
  };
}

// ---------------------------------------------------------------- quality definitions

export interface DesiredQualityDefinition {
  /** The app's quality name. */
  quality: string;
  minSize: number;
  /** null: no limit. */
  maxSize: number | null;
  preferredSize: number | null;
}

export interface DesiredQualityDefinitions {
  displayName: string;
  entries: DesiredQualityDefinition[];
}

/**
 * PCD entries by canonical quality -> the app's definitions. A maximum of 0 means "no limit" (null
 * in the apps). Sizes are kept inside the app's limits with min <= preferred <= max, which Radarr
 * and Sonarr enforce.
 */
export function transformQualityDefinitions(
  definitions: QualityDefinitionsData,
  ctx: TransformContext,
  qualityNames: Record<string, string>,
): DesiredQualityDefinitions {
  const warn = (message: string) => report(ctx, 'warning', 'mediaManagement', 'qualityDefinition', definitions.name, message);
  const limits = ctx.catalog.qualityDefinitionLimits;
  const entries: DesiredQualityDefinition[] = [];
  const seen = new Set<string>();
  for (const entry of definitions.entries) {
    const apiName = qualityNames[entry.quality];
    const quality = apiName === undefined ? undefined : qualityByName(ctx.catalog, apiName);
    if (!quality) {
      warn(`"${entry.quality}" left out: ${appLabel(ctx.arrType)} has no such quality`);
      continue;
    }
    if (seen.has(quality.name)) continue;
    seen.add(quality.name);
    let min = entry.minSize;
    let max: number | null = entry.maxSize === 0 ? null : entry.maxSize;
    let preferred: number | null = entry.preferredSize;
    if (limits) {
      const clamp = (v: number) => Math.min(Math.max(v, limits.min), limits.max);
      const [a, b, c] = [clamp(min), max === null ? null : clamp(max), clamp(preferred)];
      if (a !== min || b !== max || c !== preferred) warn(`sizes of "${entry.quality}" kept within ${appLabel(ctx.arrType)}'s limits (${limits.min}..${limits.max})`);
      [min, max, preferred] = [a, b, c];
      if (max !== null && min > max) {
        warn(`minimum size of "${entry.quality}" lowered to its maximum`);
        min = max;
      }
      const upper = max ?? limits.max;
      if (preferred > upper || preferred < min) {
        warn(`preferred size of "${entry.quality}" kept between its minimum and maximum`);
        preferred = Math.min(Math.max(preferred, min), upper);
      }
    }
    entries.push({ quality: quality.name, minSize: min, maxSize: max, preferredSize: preferred });
  }
  return { displayName: definitions.name, entries };
}

// ---------------------------------------------------------------- metadata profiles (Lidarr)

export interface DesiredMetadataProfile {
  name: string;
  displayName: string;
  payload: MetadataProfilePayload;
}

export function transformMetadataProfile(profile: MetadataProfileData, ctx: TransformContext): DesiredMetadataProfile | null {
  const fail = (message: string) => {
    report(ctx, 'error', 'metadataProfiles', 'metadataProfile', profile.name, message);
    return null;
  };
  const name = appName(profile.name, ctx.namespace);
  if (name === RESERVED_METADATA_PROFILE) return fail('left out: the name "None" is reserved by Lidarr');
  const list = (field: keyof typeof LIDARR_METADATA_TYPES) => {
    const listed = new Map(profile[field].map((t) => [t.name, t.allowed]));
    // PCD order first, then any type the profile does not list (disallowed).
    const ordered = [...profile[field].map((t) => t.name), ...LIDARR_METADATA_TYPES[field].map(([, n]) => n).filter((n) => !listed.has(n))];
    return ordered.flatMap((typeName) => {
      const known = LIDARR_METADATA_TYPES[field].find(([, n]) => n === typeName);
      return known ? [{ ref: { id: known[0], name: known[1] }, allowed: listed.get(typeName) ?? false }] : [];
    });
  };
  const primary = list('primaryAlbumTypes');
  const secondary = list('secondaryAlbumTypes');
  const statuses = list('releaseStatuses');
  for (const [label, items] of [
    ['primary album type', primary],
    ['secondary album type', secondary],
    ['release status', statuses],
  ] as const) {
    if (!items.some((i) => i.allowed)) return fail(`left out: Lidarr needs at least one allowed ${label}`);
  }
  return {
    name,
    displayName: profile.name,
    payload: {
      name,
      primaryAlbumTypes: primary.map((i) => ({ albumType: i.ref, allowed: i.allowed })),
      secondaryAlbumTypes: secondary.map((i) => ({ albumType: i.ref, allowed: i.allowed })),
      releaseStatuses: statuses.map((i) => ({ releaseStatus: i.ref, allowed: i.allowed })),
    },
  };
}
