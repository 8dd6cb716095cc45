import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { PortableType } from '../../../api/pcd';
import type { EditorProps } from './types';

type Editor = LazyExoticComponent<ComponentType<EditorProps>>;

// Each editor is its own chunk, loaded when an entity of its type is opened.
const qualityProfile = lazy(async () => ({ default: (await import('./QualityProfileEditor')).QualityProfileEditor }));
const customFormat = lazy(async () => ({ default: (await import('./CustomFormatEditor')).CustomFormatEditor }));
const regularExpression = lazy(async () => ({ default: (await import('./RegularExpressionEditor')).RegularExpressionEditor }));
const naming = lazy(async () => ({ default: (await import('./NamingEditor')).NamingEditor }));
const mediaSettings = lazy(async () => ({ default: (await import('./MediaSettingsEditor')).MediaSettingsEditor }));
const qualityDefinitions = lazy(async () => ({ default: (await import('./QualityDefinitionsEditor')).QualityDefinitionsEditor }));
const delayProfile = lazy(async () => ({ default: (await import('./DelayProfileEditor')).DelayProfileEditor }));
const metadataProfile = lazy(async () => ({ default: (await import('./MetadataProfileEditor')).MetadataProfileEditor }));

/** The editor of each portable type (typed by the generated PortableEntityType: a new type needs an entry). */
export const EDITORS: Record<PortableType, Editor> = {
  quality_profile: qualityProfile,
  custom_format: customFormat,
  regular_expression: regularExpression,
  delay_profile: delayProfile,
  movie_app_naming: naming,
  series_app_naming: naming,
  music_app_naming: naming,
  movie_app_media_settings: mediaSettings,
  series_app_media_settings: mediaSettings,
  music_app_media_settings: mediaSettings,
  movie_app_quality_definitions: qualityDefinitions,
  series_app_quality_definitions: qualityDefinitions,
  music_app_quality_definitions: qualityDefinitions,
  music_app_metadata_profile: metadataProfile,
};
