/**
 * Sync domain (pure): what an instance syncs, the transform of resolved PCD entities into each
 * app's payloads, the diff of desired against live state into the spec's SyncChange groups, the
 * ordered and idempotent write plan, and drift classification. See docs/sync.md.
 */

// ---- selection and sections
export { syncSelectionSchema, emptySelection, appSections, sectionSelected, selectedSections, NAMESPACE_PATTERN } from './selection';
export type { SyncSelection } from './selection';
export { SYNC_SECTIONS, SYNC_ENTITY_TYPES, SYNC_ACTIONS, DRIFT_CATEGORIES, UNMANAGED_REASONS } from './types';
export type {
  SyncSection,
  SyncEntityType,
  SyncAction,
  DriftCategory,
  SyncChange,
  UnmanagedReason,
  FieldChange,
  ActionCounts,
  SyncPreview,
  SyncPreviewGroups,
  SectionOutcome,
  SyncIssue,
  SyncIssueSeverity,
  LiveState,
  LiveQualityProfile,
  AppCatalog,
  AppQuality,
  NamedId,
} from './types';

// ---- namespace
export { appName, displayName, hasNamespace, namespaceSuffix } from './namespace';

// ---- source (replayed PCD -> portable entities of one instance)
export { readSyncSource, qualityNamesOf, scoresFor, patternsOf, scopeIdentities, identityDatabase } from './source';
export type { SyncSource, NamingData, EntityIdentities } from './source';

// ---- the ledger (app id <-> PCD identity per instance)
export { LEDGER_ENTITY_TYPES, UNMANAGED_REASON_TEXT, matchEntities, unmanagedReason, ledgerWrites } from './ledger';
export type { LedgerEntityType, LedgerEntry, IdentityBinding, IdentitySummary, LedgerWrite } from './ledger';

// ---- several databases per instance
export { mergeSyncSources, effectiveSelection, annotateOrigins, MAX_SYNC_DATABASES, SOURCE_COLLISION_KINDS } from './merge';
export type { DatabaseSource, DatabaseRef, SourceCollision, SourceCollisionKind, EntityOrigins, MergedSource } from './merge';

// ---- catalog and app facts
export { catalogFromLive, qualityByName, languageByName } from './catalog';
export {
  APP_CONDITION_TYPES,
  IMPLEMENTATIONS,
  enumValue,
  enumText,
  enumKey,
  DEFAULT_SIZE_LIMITS,
  LIDARR_METADATA_TYPES,
  RESERVED_METADATA_PROFILE,
  BYTES_PER_GB,
  UNBOUNDED_SIZE_GB,
  YEAR_BOUNDS,
} from './enums';
export type { ConditionType, EnumKind } from './enums';

// ---- transform
export { transformSource, FIRST_GROUP_ID, GLOBAL_DELAY_PROFILE_ID } from './transform';
export type {
  DesiredState,
  TransformOptions,
  DesiredCustomFormat,
  DesiredQualityProfile,
  QualityProfileBody,
  QualityItemPayload,
  DelayProfileFields,
  DesiredMetadataProfile,
  DesiredQualityDefinition,
  DesiredQualityDefinitions,
  DesiredSettings,
} from './transform';

// ---- views (what is compared)
export {
  customFormatView,
  qualityProfileView,
  formatScoresOf,
  settingsView,
  qualityDefinitionView,
  metadataProfileView,
  CUSTOM_FORMAT_DIFF,
  QUALITY_PROFILE_DIFF,
  SETTINGS_DIFF,
} from './views';

// ---- diff and plan
export { planSync, liveNeeds, WRITE_PLAN_VERSION } from './plan';
export { previewChanges, countActions } from './preview';
export type { PreviewStatus, SyncRunStatus } from './preview';
export type {
  PlanInput,
  SyncPlan,
  WritePlan,
  PlanStep,
  CustomFormatUpsertStep,
  QualityProfileUpsertStep,
  MetadataProfileUpsertStep,
  DelayProfileMergeStep,
  ConfigMergeStep,
  QualityDefinitionsMergeStep,
  DeleteStep,
} from './plan';

// ---- execution through a port
export { applyPlan, AppMovedDuringApply, completeFormatItems, qualityProfileWriteBody, mergeSettings, mergeDelayProfile, mergeQualityDefinitions } from './execute';
export type { SyncWriter, QualityProfileWrite, StepOutcome, StepOutcomeKind, ApplyOptions } from './execute';

// ---- drift
export { classifyDrift } from './drift';
export { completeRun } from './run-completion';
export { verifyPlan, verificationNeeds, writtenSteps, unreadableVerification, verificationFailure, mismatchList, summarizeVerification, VERIFICATION_STATUSES, MISMATCH_CODES, NAMED_MISMATCHES_MAX } from './verify';
export type { ApplyVerification, VerificationMismatch, VerificationStatus, VerificationSummary, MismatchCode } from './verify';
export type { RunCompletion } from './run-completion';
export type { DriftClassification } from './drift';
export { conditionTypeCatalog, type ConditionTypeInfo, type ConditionValueKind } from './condition-catalog';
