import type { Language, SelectOption } from '../../domain/app-resources';
import type { Wire } from '../binding';
import type { Failure } from '../validation/failures';

export type EmulatorApp = 'radarr' | 'sonarr' | 'lidarr';

/** One quality as the app defines it (Quality.All order). Extra keys are app-specific (source, resolution, modifier). */
export interface QualityFact {
  id: number;
  name: string;
  [key: string]: unknown;
}

/** One row of the app's DefaultQualityDefinitions, in declaration order. */
export interface QualityDefinitionFact {
  qualityId: number;
  weight: number;
  /** Definitions sharing a group key form one group in the default profile items (weight, or Lidarr's GroupWeight). */
  groupKey: number;
  groupName?: string;
  minSize: number | null;
  maxSize: number | null;
  preferredSize: number | null;
}

export interface DefaultProfileFact {
  name: string;
  cutoffQualityId: number;
  allowedQualityIds: number[];
}

export type SpecClr = 'string' | 'int' | 'double' | 'bool';

export interface SpecFieldFact {
  name: string;
  label: string;
  helpText?: string;
  unit?: string;
  type: 'textbox' | 'select' | 'number' | 'checkbox';
  clr: SpecClr;
  selectOptions?: SelectOption[];
}

/** One custom format specification implementation (ICustomFormatSpecification). */
export interface SpecFact {
  implementation: string;
  implementationName: string;
  order: number;
  infoLink: string;
  fields: SpecFieldFact[];
  /** The implementation's own validator (spec.Validate()); values are keyed by field name. */
  validate(values: Record<string, unknown>): Failure[];
}

/**
 * A config resource (naming, media management): wire shape, defaults, validation and how the app
 * stores it. `record`: the whole resource is saved as one row (naming). `configService`: each property
 * is a key/value setting; null values are skipped on save and an empty stored string reads back as
 * the default (the apps' ConfigService).
 */
export interface ConfigFact {
  wire: Wire & { kind: 'object' };
  defaults: Record<string, unknown>;
  validate(resource: Record<string, unknown>): Failure[];
  storage: 'record' | 'configService';
  /** Resource properties the app does not store; they always read back as their default. */
  unstored?: string[];
}

/** Everything the emulator knows about one app. */
export interface AppFacts {
  app: EmulatorApp;
  appName: 'Radarr' | 'Sonarr' | 'Lidarr';
  apiBase: '/api/v3' | '/api/v1';
  defaultVersion: string;
  system: {
    branch: string;
    migrationVersion: number;
    runtimeVersion: string;
    databaseVersion: string;
    /** Sonarr also reports sqliteVersion. */
    sqliteVersion?: string;
  };
  qualityWire: Wire & { kind: 'object' };
  qualities: QualityFact[];
  qualityDefinitions: QualityDefinitionFact[];
  qualityDefinitionLimits?: { min: number; max: number };
  defaultProfiles: DefaultProfileFact[];
  /** Radarr and Sonarr: minUpgradeFormatScore exists and must be >= 1. */
  hasMinUpgradeFormatScore: boolean;
  /** Radarr: quality profiles carry a language (default Original). */
  profileLanguage?: Language;
  /** Language.All in declaration order. */
  languages: Language[];
  /** How GET /language orders them. */
  languageOrder: 'nonPositiveFirstThenName' | 'name';
  specs: SpecFact[];
  /** Radarr's SelectOption has dividerAfter; Sonarr's and Lidarr's do not. */
  selectOptionDivider: boolean;
  /** Built-in release-title presets offered by GET customformat/schema. */
  releaseTitlePresets: { name: string; value: string }[];
  /** Sonarr and Lidarr also require a non-empty specifications list. */
  specificationsNotEmptyRule: boolean;
  naming: ConfigFact;
  mediaManagement: ConfigFact;
  /** Tag label rule: Radarr validates the characters, Lidarr only non-empty, Sonarr nothing. */
  tagRule: 'radarr' | 'notEmpty' | 'none';
  /** Radarr and Lidarr have a unique index on Tags.Label; Sonarr does not. */
  uniqueTagLabels: boolean;
  metadataProfiles: boolean;
}
