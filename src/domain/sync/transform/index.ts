/**
 * Transform (pure): a SyncSource plus the app catalog -> the desired app entities of each section.
 * Nothing produced here is refused by the app; what cannot be expressed is left out or adjusted and
 * reported as an issue.
 */
import type { PortableType } from '../../pcd';
import type { SyncSource } from '../source';
import type { AppCatalog, SyncEntityType, SyncIssue, SyncSection } from '../types';
import { report, type TransformContext } from './context';
import { transformCustomFormat, type DesiredCustomFormat } from './custom-formats';
import { transformQualityProfile, type DesiredQualityProfile } from './quality-profiles';
import {
  transformDelayProfile,
  transformMediaSettings,
  transformMetadataProfile,
  transformNaming,
  transformQualityDefinitions,
  type DelayProfileFields,
  type DesiredMetadataProfile,
  type DesiredQualityDefinitions,
  type DesiredSettings,
} from './settings';

export interface DesiredState {
  customFormats: DesiredCustomFormat[];
  qualityProfiles: DesiredQualityProfile[];
  delayProfile: DesiredSettings<DelayProfileFields> | null;
  naming: DesiredSettings | null;
  mediaSettings: DesiredSettings | null;
  qualityDefinitions: DesiredQualityDefinitions | null;
  metadataProfile: DesiredMetadataProfile | null;
  issues: SyncIssue[];
}

export interface TransformOptions {
  namespace: string | null;
  /** Sections to transform (others stay empty/null). */
  sections: readonly SyncSection[];
}

const MISSING_TARGET: Partial<Record<PortableType, [SyncSection, SyncEntityType]>> = {
  quality_profile: ['qualityProfiles', 'qualityProfile'],
  custom_format: ['qualityProfiles', 'customFormat'],
  regular_expression: ['qualityProfiles', 'customFormat'],
  delay_profile: ['delayProfiles', 'delayProfile'],
  music_app_metadata_profile: ['metadataProfiles', 'metadataProfile'],
};

function missingTarget(type: PortableType): [SyncSection, SyncEntityType] {
  const direct = MISSING_TARGET[type];
  if (direct) return direct;
  if (type.endsWith('_naming')) return ['mediaManagement', 'naming'];
  if (type.endsWith('_media_settings')) return ['mediaManagement', 'mediaSettings'];
  return ['mediaManagement', 'qualityDefinition'];
}

export function transformSource(source: SyncSource, catalog: AppCatalog, options: TransformOptions): DesiredState {
  const ctx: TransformContext = { arrType: source.arrType, catalog, namespace: options.namespace, issues: [] };
  const has = (s: SyncSection) => options.sections.includes(s);

  for (const m of source.missing) {
    const [section, entityType] = missingTarget(m.entityType);
    if (!has(section) || m.entityType === 'regular_expression') continue;
    report(ctx, 'error', section, entityType, m.name, m.databaseName === undefined ? 'not found in the database' : `not found in database "${m.databaseName}"`);
  }

  const desired: DesiredState = {
    customFormats: [],
    qualityProfiles: [],
    delayProfile: null,
    naming: null,
    mediaSettings: null,
    qualityDefinitions: null,
    metadataProfile: null,
    issues: ctx.issues,
  };

  if (has('qualityProfiles')) {
    const formatNames = new Map<string, string>();
    for (const format of source.customFormats) {
      const out = transformCustomFormat(format, ctx, source.regularExpressions);
      if (!out) continue;
      desired.customFormats.push(out);
      formatNames.set(format.name, out.name);
    }
    for (const profile of source.qualityProfiles) {
      const out = transformQualityProfile(profile, ctx, source.qualityNames, formatNames);
      if (out) desired.qualityProfiles.push(out);
    }
  }
  if (has('delayProfiles') && source.delayProfile) desired.delayProfile = transformDelayProfile(source.delayProfile);
  if (has('mediaManagement')) {
    if (source.naming) desired.naming = transformNaming(source.arrType, source.naming);
    if (source.mediaSettings) desired.mediaSettings = transformMediaSettings(source.mediaSettings);
    if (source.qualityDefinitions) desired.qualityDefinitions = transformQualityDefinitions(source.qualityDefinitions, ctx, source.qualityNames);
  }
  if (has('metadataProfiles') && source.metadataProfile && source.arrType === 'music_app') {
    desired.metadataProfile = transformMetadataProfile(source.metadataProfile, ctx);
  }
  return desired;
}

export type { DesiredCustomFormat } from './custom-formats';
export type { DesiredQualityProfile, QualityProfileBody, QualityItemPayload } from './quality-profiles';
export { FIRST_GROUP_ID } from './quality-profiles';
export type { DelayProfileFields, DesiredMetadataProfile, DesiredQualityDefinition, DesiredQualityDefinitions, DesiredSettings } from './settings';
export { GLOBAL_DELAY_PROFILE_ID } from './settings';
