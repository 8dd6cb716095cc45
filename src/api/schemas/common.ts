import { ARR_TYPE_ALIASES, ARR_TYPES } from '../../domain/arr-types';
import { entityTypeAliases } from '../../domain/entity-type-aliases';
import { aliasedEnum, z } from '../http/zod';

/** An app-family enum of requests: also takes the PCD's names (radarr, sonarr, lidarr). */
export function arrTypeEnum<T extends string>(values: readonly [T, ...T[]], description?: string) {
  const aliases = Object.fromEntries(Object.entries(ARR_TYPE_ALIASES).filter(([, value]) => (values as readonly string[]).includes(value))) as Record<string, T>;
  return aliasedEnum(values, aliases, description);
}

/** An entity-type enum of requests: also takes the other spelling (quality_profile for qualityProfile, and back). */
export function entityTypeEnum<T extends string>(values: readonly [T, ...T[]], description?: string) {
  return aliasedEnum(values, entityTypeAliases(values), description);
}

export const ArrTypeSchema = arrTypeEnum(ARR_TYPES, 'App family: movie_app (Radarr), series_app (Sonarr), music_app (Lidarr).').openapi('ArrType');
export const ArrTypeOrAllSchema = arrTypeEnum([...ARR_TYPES, 'all'] as const, 'An app family, or all.').openapi('ArrTypeOrAll');
