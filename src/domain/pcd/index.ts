/**
 * PCD domain engine: replay of Profilarr-compatible databases into in-memory SQLite with
 * per-field lineage, portable entities (read, export, import, edit planning), the dependency graph,
 * the app parity map and metadata profile listing. Pure: callers pass file contents in and store
 * user ops themselves. See docs/pcd.md for shapes and the path notation.
 */

// ---- schema layer
/** Schema DDL (PCD 1.x compatible, with music_app tables) and its version. */
export { SCHEMA_DDL, SCHEMA_VERSION, LIDARR_PRIMARY_ALBUM_TYPES, LIDARR_SECONDARY_ALBUM_TYPES, LIDARR_RELEASE_STATUSES } from './schema/tables';
/** Seed data: canonical qualities with per-app API names, languages; and the seed SQL files. */
export { QUALITY_SEEDS, LANGUAGE_SEEDS, seedFiles } from './schema/seeds';
/** One seeded canonical quality and its API name per app. */
export type { QualitySeed } from './schema/seeds';
/** Table registry: natural keys and owning entities; introspected columns and defaults. */
export { TABLE_SPECS, tableSpec, schemaColumns, dataColumns, columnDefault } from './schema/registry';
/** Stored values, table specs and introspected columns. */
export type { SqlValue, TableSpec, ColumnInfo } from './schema/registry';

// ---- ops, manifest, repository
/** Op model and op-file parsing (marker-delimited ops; a file without markers is one op). */
export { OP_LAYERS, parseOpFile, sortOpFiles, opFileOrder } from './ops';
/** Op, target and parsed-file shapes. */
export type { OpLayer, OpTarget, PcdOp, ParsedOp, ParsedOpFile, OpFileHeaders } from './ops';
/** pcd.json parsing and validation (throws AppError('validation')). */
export { parseManifest, PCD_SCHEMA_DEPENDENCY } from './manifest';
/** Parsed manifest (arrTypes in API vocabulary, raw kept). */
export type { PcdManifest } from './manifest';
/** Files of a repository (contents passed in) -> base and tweak ops in replay order. */
export { loadPcdRepository } from './repository';
/** Repository file input and loaded result. */
export type { PcdFile, LoadedPcdRepository } from './repository';
/** SQL statement splitting (quotes and comments aware). */
export { splitStatements, statementRanges } from './sql/split';

// ---- replay
/** Replay of schema, base, tweaks and user layers with lineage; two databases out (base, resolved). */
export {
  replayPcd,
  replayBase,
  replayUserLayer,
  replayOps,
  conflictsOf,
  createSchemaDatabase,
  createSeededDatabase,
  copyDatabase,
  schemaSeedOps,
  replayCounts,
  CONFLICT_REASONS,
} from './replay';
/** Replay inputs, outcomes (per op, with skipped writes), progress, user ops, pending conflicts, schema layer origin. */
export type {
  ReplayInput,
  ReplayedPcd,
  ReplayedLayer,
  OpOutcome,
  SkippedWrite,
  SchemaLayerInfo,
  ReplayProgress,
  ProgressCallback,
  UserOp,
  PendingConflict,
} from './replay';
/** Cache status of a replay: ready, degraded (failed ops, schema gaps) or failed (no entity from a non-empty repository). */
export { assessReplay, countEntities, FIRST_FAILED_LIMIT } from './replay-health';
/** Replay health and the failed ops it names. */
export type { ReplayHealth, ReplayHealthStatus, ReplayHealthReason, FailedOpRef, SkippedWriteRef } from './replay-health';
/** arrgo's additions on top of a schema dependency (missing bundled tables, additive seeds, reader gaps). */
export { addMissingBundledTables, additiveSeedSql, schemaGaps } from './schema/dependency';
/** Op failure reasons and their classification. */
export { FAILURE_REASONS, reasonForError, judgeNoChange, targetRootTable } from './failure';
/** duplicate_key | missing_target | guard_mismatch | invalid. */
export type { FailureReason, NoChangeVerdict } from './failure';

// ---- lineage
/** Per-field lineage of an entity read from a replayed database. */
export { entityLineage } from './lineage/read';
/** Lineage entry (per field) and statuses. */
export type { LineageEntry, LineageStatus, EntityLineageStatus } from './lineage/read';
/** Lineage capture machinery (tables, triggers, context). */
export { LINEAGE_DDL, lineageTriggersDdl, LineageContext, COLLECTION_TABLES } from './lineage/capture';
/** Identity of custom formats and quality profiles across renames (the name before the first rename). */
export { entityIdentity, renamedEntities, IDENTITY_TABLES } from './identity';
export type { IdentityType } from './identity';

// ---- portable entities
/** Portable entity types, models and the resolved-list entity type mapping. */
export { PORTABLE_TYPES, isPortableType } from './entities/types';
/** Portable type names and the entity model contract (rows <-> portable data). */
export type { PortableType, EntityModel, FieldSource, Row, Reference, OwnedTable } from './entities/types';
/** Model lookup; resolved-list entityType (+arrType) <-> portable type. */
export { modelOf, requireModel, portableTypeForResolved, resolvedTypeOf, RESOLVED_ENTITY_TYPES } from './entities/registry';
/** delayProfile | regularExpression | customFormat | qualityProfile | naming | mediaSettings | qualityDefinitions | musicAppMetadataProfile. */
export type { ResolvedEntityType } from './entities/registry';
/** Reading entities from a replayed database. */
export { readEntity, entityNames, entityExists } from './entities/read';
/** An entity read from a database: data, field sources, route id. */
export type { ReadEntity } from './entities/read';
/** Portable payload schemas and data types. */
/** regular_expression payload. */
export { regularExpressionPatterns, regularExpressionSchema } from './entities/regular-expression';
export type { RegularExpressionData } from './entities/regular-expression';
/** custom_format payload; condition types with their detail tables and supporting apps. */
export { customFormatSchema, CONDITION_TYPES, familyScopedConditionName, specificationNames } from './entities/custom-format';
export type { CustomFormatData, CustomFormatCondition, CustomFormatTest } from './entities/custom-format';
/** quality_profile payload; score scopes (all + families). */
export { qualityProfileSchema, SCORE_SCOPES } from './entities/quality-profile';
export type { QualityProfileData, QualityProfileItem, CustomFormatScore } from './entities/quality-profile';
/** delay_profile payload. */
export { delayProfileSchema } from './entities/delay-profile';
export type { DelayProfileData } from './entities/delay-profile';
/** Naming (per family), media settings and quality definitions payloads. */
export { movieNamingSchema, seriesNamingSchema, musicNamingSchema, mediaSettingsSchema, qualityDefinitionsSchema } from './entities/media';
export type { MovieNamingData, SeriesNamingData, MusicNamingData, MediaSettingsData, QualityDefinitionsData } from './entities/media';
/** music_app_metadata_profile payload; its three lists and Lidarr value sets. */
export { metadataProfileSchema, METADATA_LISTS } from './entities/metadata-profile';
export type { MetadataProfileData } from './entities/metadata-profile';

// ---- resolved list, export/import, user layer
/** Entities of a type by layer (base/user/resolved), with overrides and lineage. */
export { listResolved, resolveEntity, entityFields, LAYERS } from './resolved';
/** What a pending value-guard conflict is about: the fields, the user's value and upstream's. */
export { conflictDetails, type ConflictDetail } from './conflict-detail';
/** Replay state, layers and resolved-list items. */
export type { PcdState, ResolvedLayer, ResolvedEntityItem, ListResolvedOptions } from './resolved';
/** Export of one entity and import planning with validation. */
export { exportEntity, planImport, parseMigrationMetadata, migrationMetadataSchema, PORTABLE_SCHEMA_VERSION } from './transfer';
/** Portable entity envelope and migration metadata. */
export type { PortableEntity, PortableMigrationMetadata } from './transfer';
/** Payload validation (shape only, or shape plus references in a database). */
export { validatePortableShape, validatePortableData } from './transfer-validation';
/** Planners for user-layer ops (create, guarded update, guarded delete, field edits). */
export { planCreate, planUpdate, planDelete, planFieldEdits, applyFieldEdits, planRowChanges, planRowStatements, runPlannedStatements, statementText, type PlannedStatement } from './user-layer';
/** A planned user op (caller assigns the id) and a field edit. */
export type { PlannedUserOp, FieldEdit } from './user-layer';

// ---- graph, parity, metadata profiles
/** Dependency graph with arrType/nodeKind filters and an edge cap. */
export { buildGraph, profileCompatibility, qualityDefinitionNodeName, GRAPH_NODE_KINDS, GRAPH_EDGE_KINDS, DEFAULT_GRAPH_EDGE_CAP } from './graph';
/** Graph shapes and options. */
export type { PcdGraph, GraphNode, GraphNodeEntity, GraphEdge, GraphNodeRef, GraphNodeKind, GraphEdgeKind, GraphOptions } from './graph';
/** Parity map between app families (static data plus per-profile compatibility). */
export { parityMap, PARITY_ENTITIES, PARITY_SCOPES, PARITY_SUPPORTS } from './parity';
/** Parity map shapes. */
export type { ParityMap, ParityRow, ParitySupport, SemanticDifference, ParityEntity, ParityScope } from './parity';
/** Lidarr metadata profiles with counts. */
export { listMusicAppMetadataProfiles } from './metadata-profiles';
/** One listed metadata profile (counts only). */
export type { MetadataProfileSummary } from './metadata-profiles';

// ---- state changes
/** The entities that differ between two resolved states (what changed since a snapshot). */
export { resolvedStateChanges, ENTITY_STATE_CHANGES } from './state-changes';
export type { EntityStateChange, EntityStateChangeKind } from './state-changes';
