/**
 * Shapes of the sync domain: sections, the spec's SyncChange, the per-instance preview groups, the
 * live state a preview is computed against, and transform issues.
 *
 * App payload types are the typed clients' (type-only imports: nothing of src/clients runs here).
 */
import type { ArrType } from '../arr-types';
import type { FieldChange } from '../diff';
import type {
  CustomFormatResource,
  DelayProfileResource,
  MetadataProfileResource,
  ProfileFormatItemResource,
  QualityDefinitionResource,
  QualityProfileQualityItemResource,
} from '../app-resources';

export type { FieldChange };

// ---------------------------------------------------------------- sections and SyncChange

export const SYNC_SECTIONS = ['qualityProfiles', 'delayProfiles', 'mediaManagement', 'metadataProfiles'] as const;
export type SyncSection = (typeof SYNC_SECTIONS)[number];

export const SYNC_ENTITY_TYPES = [
  'customFormat',
  'qualityProfile',
  'delayProfile',
  'naming',
  'mediaSettings',
  'qualityDefinition',
  'metadataProfile',
] as const;
export type SyncEntityType = (typeof SYNC_ENTITY_TYPES)[number];

export const SYNC_ACTIONS = ['create', 'update', 'delete', 'unchanged'] as const;
export type SyncAction = (typeof SYNC_ACTIONS)[number];

/** Why an app entity is unmanaged: arrgo created it and no longer selects it (the ledger says so), or not. */
export const UNMANAGED_REASONS = ['notManaged', 'noLongerSelected'] as const;
export type UnmanagedReason = (typeof UNMANAGED_REASONS)[number];

export const DRIFT_CATEGORIES = ['drift', 'missing', 'unmanaged'] as const;
export type DriftCategory = (typeof DRIFT_CATEGORIES)[number];

/**
 * One entity-level change, shaped as the spec's SyncChange. `section` is set on drift entries only
 * (preview entries sit inside their section's group); `category` is set on drift entries and, in a
 * preview, on entities arrgo does not manage (`unmanaged`).
 */
export interface SyncChange {
  section?: SyncSection;
  entityType: SyncEntityType;
  /** Display name: the app's name with the namespace stripped. */
  name: string;
  action: SyncAction;
  category?: DriftCategory;
  /** The app's id of the entity; null when it is to be created (missing). */
  remoteId: number | null;
  /** Dot-notated field changes (live -> desired); empty for create, delete and unchanged. */
  fields: FieldChange[];
  /** Unmanaged custom formats and quality profiles: whether arrgo created it and no longer selects it (ledger). */
  unmanagedReason?: UnmanagedReason;
  /** Unmanaged entries: the reason in words. */
  reason?: string;
  /** The database the synced entity came from (absent on unmanaged and drift entries). */
  databaseId?: number;
}

export interface ActionCounts {
  create: number;
  update: number;
  delete: number;
  unchanged: number;
}

/** The per-instance preview groups of the spec (`GET /canary/rollouts/{id}`); null when the section is not previewed. */
export interface SyncPreviewGroups {
  qualityProfiles: { section: 'qualityProfiles'; customFormats: SyncChange[]; qualityProfiles: SyncChange[] } | null;
  delayProfiles: { section: 'delayProfiles'; profile: SyncChange } | null;
  mediaManagement: {
    section: 'mediaManagement';
    /** Null when the selection syncs no naming. */
    naming: SyncChange | null;
    qualityDefinitions: SyncChange[];
    /** Null when the selection syncs no media settings. */
    mediaSettings: SyncChange | null;
  } | null;
  metadataProfiles: { section: 'metadataProfiles'; profile: SyncChange } | null;
}

export interface SectionOutcome {
  section: SyncSection;
  /** True when the selection gives the section nothing to sync (or the app family has no such section). */
  skipped: boolean;
}

export interface SyncPreview extends SyncPreviewGroups {
  arrType: ArrType;
  /** The sections that were previewed (requested and not skipped). */
  sections: SyncSection[];
  sectionOutcomes: SectionOutcome[];
  counts: ActionCounts;
  /** What the transform left out or adjusted to keep every payload acceptable to the app. */
  issues: SyncIssue[];
}

// ---------------------------------------------------------------- issues

export type SyncIssueSeverity = 'error' | 'warning';

/**
 * Something the transform could not carry over as written. `error`: the entity (or condition) is
 * left out; `warning`: a value was adjusted or a setting the app lacks was dropped. Messages name
 * PCD entities and values only.
 */
export interface SyncIssue {
  severity: SyncIssueSeverity;
  section: SyncSection;
  entityType: SyncEntityType;
  /** Display name of the entity concerned (PCD name). */
  name: string;
  message: string;
}

// ---------------------------------------------------------------- live state and catalog

/**
 * A quality as the app defines it. Radarr and Sonarr objects also carry source, resolution (and
 * Radarr modifier); those properties are kept at runtime and sent back as read.
 */
export interface AppQuality {
  id: number;
  name: string;
}

export interface NamedId {
  id: number;
  name: string;
}

/** A quality profile as any of the three apps returns it. */
export interface LiveQualityProfile {
  id: number;
  name: string;
  upgradeAllowed: boolean;
  cutoff: number;
  items: QualityProfileQualityItemResource<AppQuality>[];
  minFormatScore: number;
  cutoffFormatScore: number;
  /** Radarr and Sonarr. */
  minUpgradeFormatScore?: number;
  formatItems: ProfileFormatItemResource[];
  /** Radarr. */
  language?: NamedId | null;
}

/**
 * What a preview is computed against: the app's current entities, as its API returns them. Only
 * the parts the previewed sections need must be present (see liveNeeds).
 */
export interface LiveState {
  customFormats?: CustomFormatResource[];
  qualityProfiles?: LiveQualityProfile[];
  /** Also the app's quality catalog (every quality, ordered by weight). */
  qualityDefinitions?: QualityDefinitionResource<AppQuality>[];
  /** Radarr and Sonarr (GET /qualitydefinition/limits); the documented defaults apply when absent. */
  qualityDefinitionLimits?: { min: number; max: number } | null;
  /** GET /language (Radarr and Sonarr language conditions and Radarr profile languages). */
  languages?: NamedId[];
  delayProfiles?: DelayProfileResource[];
  naming?: Record<string, unknown> & { id?: number };
  mediaManagement?: Record<string, unknown> & { id?: number };
  /** Lidarr. */
  metadataProfiles?: MetadataProfileResource[];
}

/** The app facts a transform needs, derived from live state (catalogFromLive). */
export interface AppCatalog {
  arrType: ArrType;
  /** Every quality of the app, lowest first. */
  qualities: AppQuality[];
  languages: NamedId[];
  /** Size limits of quality definitions (Radarr, Sonarr); null = not checked (Lidarr). */
  qualityDefinitionLimits: { min: number; max: number } | null;
}
