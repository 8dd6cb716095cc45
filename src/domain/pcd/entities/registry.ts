/**
 * Portable type -> entity model, and the resolved-list API entity types.
 */
import { isArrType, type ArrType } from '../../arr-types';
import { validationError } from '../../../errors';
import { customFormatModel } from './custom-format';
import { delayProfileModel } from './delay-profile';
import {
  movieMediaSettingsModel,
  movieNamingModel,
  movieQualityDefinitionsModel,
  musicMediaSettingsModel,
  musicNamingModel,
  musicQualityDefinitionsModel,
  seriesMediaSettingsModel,
  seriesNamingModel,
  seriesQualityDefinitionsModel,
} from './media';
import { metadataProfileModel } from './metadata-profile';
import { qualityProfileModel } from './quality-profile';
import { regularExpressionModel } from './regular-expression';
import { isPortableType, type EntityModel, type PortableType } from './types';

const MODELS: Record<PortableType, EntityModel> = {
  regular_expression: regularExpressionModel as EntityModel,
  custom_format: customFormatModel as EntityModel,
  quality_profile: qualityProfileModel as EntityModel,
  delay_profile: delayProfileModel as EntityModel,
  movie_app_naming: movieNamingModel as EntityModel,
  series_app_naming: seriesNamingModel as EntityModel,
  music_app_naming: musicNamingModel as EntityModel,
  movie_app_media_settings: movieMediaSettingsModel as EntityModel,
  series_app_media_settings: seriesMediaSettingsModel as EntityModel,
  music_app_media_settings: musicMediaSettingsModel as EntityModel,
  movie_app_quality_definitions: movieQualityDefinitionsModel as EntityModel,
  series_app_quality_definitions: seriesQualityDefinitionsModel as EntityModel,
  music_app_quality_definitions: musicQualityDefinitionsModel as EntityModel,
  music_app_metadata_profile: metadataProfileModel as EntityModel,
};

export function modelOf(type: PortableType): EntityModel {
  return MODELS[type];
}

/** Model of a portable type given as untrusted input; throws AppError('validation') otherwise. */
export function requireModel(type: unknown): EntityModel {
  if (!isPortableType(type)) throw validationError(`entityType: unknown portable entity type "${String(type)}"`);
  return MODELS[type];
}

/** Entity types of GET /pcd/{id}/resolved/{entityType}. */
export const RESOLVED_ENTITY_TYPES = [
  'delayProfile',
  'regularExpression',
  'customFormat',
  'qualityProfile',
  'naming',
  'mediaSettings',
  'qualityDefinitions',
  'musicAppMetadataProfile',
] as const;
export type ResolvedEntityType = (typeof RESOLVED_ENTITY_TYPES)[number];

const APP_AGNOSTIC: Partial<Record<ResolvedEntityType, PortableType>> = {
  delayProfile: 'delay_profile',
  regularExpression: 'regular_expression',
  customFormat: 'custom_format',
  qualityProfile: 'quality_profile',
  musicAppMetadataProfile: 'music_app_metadata_profile',
};
const PER_APP: Partial<Record<ResolvedEntityType, string>> = {
  naming: 'naming',
  mediaSettings: 'media_settings',
  qualityDefinitions: 'quality_definitions',
};

/**
 * The portable type behind a resolved-list entity type. arrType is required for naming,
 * mediaSettings and qualityDefinitions and refused for the others (musicAppMetadataProfile is
 * implicitly music_app). Throws AppError('validation') with the offending parameter named.
 */
export function portableTypeForResolved(entityType: string, arrType?: string | null): PortableType {
  if (!(RESOLVED_ENTITY_TYPES as readonly string[]).includes(entityType)) {
    throw validationError(`entityType: unknown entity type "${entityType}" (expected one of ${RESOLVED_ENTITY_TYPES.join(', ')})`);
  }
  const t = entityType as ResolvedEntityType;
  const agnostic = APP_AGNOSTIC[t];
  if (agnostic) {
    if (arrType !== undefined && arrType !== null) throw validationError(`arrType: not accepted for entity type ${entityType}`);
    return agnostic;
  }
  if (arrType === undefined || arrType === null) throw validationError(`arrType: required for entity type ${entityType}`);
  if (!isArrType(arrType)) throw validationError(`arrType: must be one of movie_app, series_app, music_app`);
  return `${arrType}_${PER_APP[t]}` as PortableType;
}

/** The resolved-list entity type (and arrType) of a portable type. */
export function resolvedTypeOf(type: PortableType): { entityType: ResolvedEntityType; arrType: ArrType | null } {
  for (const [k, v] of Object.entries(APP_AGNOSTIC)) if (v === type) return { entityType: k as ResolvedEntityType, arrType: null };
  const m = /^(movie_app|series_app|music_app)_(naming|media_settings|quality_definitions)$/.exec(type)!;
  const entityType = Object.entries(PER_APP).find(([, v]) => v === m[2])![0] as ResolvedEntityType;
  return { entityType, arrType: m[1] as ArrType };
}
