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
export type { QualitySeed } from './schema/seeds';
/** Table registry: natural keys and owning entities; introspected columns and defaults. */
export { TABLE_SPECS, tableSpec, schemaColumns, dataColumns, columnDefault } from './schema/registry';
export type { SqlValue, TableSpec, ColumnInfo } from './schema/registry';

// ---- ops, manifest, repository
/** Op model and op-file parsing (marker-delimited ops; a file without markers is one op). */
export { OP_LAYERS, parseOpFile, sortOpFiles, opFileOrder } from './ops';
export type { OpLayer, OpTarget, PcdOp, ParsedOp, ParsedOpFile, OpFileHeaders } from './ops';
/** pcd.json parsing and validation (throws AppError('validation')). */
export { parseManifest, PCD_SCHEMA_DEPENDENCY } from './manifest';
export type { PcdManifest } from './manifest';
/** Files of a repository (contents passed in) -> base and tweak ops in replay order. */
export { loadPcdRepository } from './repository';
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
  CONFLICT_REASONS,
} from './replay';
export type { ReplayInput, ReplayedPcd, ReplayedLayer, OpOutcome, ReplayProgress, ProgressCallback, UserOp, PendingConflict } from './replay';
/** Op failure reasons and their classification. */
export { FAILURE_REASONS, reasonForError, judgeNoChange, targetRootTable } from './failure';
export type { FailureReason, NoChangeVerdict } from './failure';

// ---- lineage
/** Per-field lineage of an entity read from a replayed database. */
export { entityLineage } from './lineage/read';
export type { LineageEntry, LineageStatus, EntityLineageStatus } from './lineage/read';
/** Lineage capture machinery (tables, triggers, context). */
export { LINEAGE_DDL, lineageTriggersDdl, LineageContext, COLLECTION_TABLES } from './lineage/capture';

// ---- portable entities
/** Portable entity types, models and the resolved-list entity type mapping. */
export { PORTABLE_TYPES, isPortableType } from './entities/types';
export type { PortableType, EntityModel, FieldSource, Row, Reference, OwnedTable } from './entities/types';
export { modelOf, requireModel, portableTypeForResolved, resolvedTypeOf, RESOLVED_ENTITY_TYPES } from './entities/registry';
export type { ResolvedEntityType } from './entities/registry';
/** Reading entities from a replayed database. */
export { readEntity, entityNames, entityExists } from './entities/read';
export type { ReadEntity } from './entities/read';
/** Portable payload schemas and data types. */
export { regularExpressionSchema } from './entities/regular-expression';
export type { RegularExpressionData } from './entities/regular-expression';
export { customFormatSchema, CONDITION_TYPES } from './entities/custom-format';
export type { CustomFormatData, CustomFormatCondition, CustomFormatTest } from './entities/custom-format';
export { qualityProfileSchema, SCORE_SCOPES } from './entities/quality-profile';
export type { QualityProfileData, QualityProfileItem, CustomFormatScore } from './entities/quality-profile';
export { delayProfileSchema } from './entities/delay-profile';
export type { DelayProfileData } from './entities/delay-profile';
export { movieNamingSchema, seriesNamingSchema, musicNamingSchema, mediaSettingsSchema, qualityDefinitionsSchema } from './entities/media';
export type { MovieNamingData, SeriesNamingData, MusicNamingData, MediaSettingsData, QualityDefinitionsData } from './entities/media';
export { metadataProfileSchema, METADATA_LISTS } from './entities/metadata-profile';
export type { MetadataProfileData } from './entities/metadata-profile';

// ---- resolved list, export/import, user layer
/** Entities of a type by layer (base/user/resolved), with overrides and lineage. */
export { listResolved, resolveEntity, LAYERS } from './resolved';
export type { PcdState, ResolvedLayer, ResolvedEntityItem, ListResolvedOptions } from './resolved';
/** Export of one entity and import planning with validation. */
export { exportEntity, planImport, parseMigrationMetadata, migrationMetadataSchema, PORTABLE_SCHEMA_VERSION } from './transfer';
export type { PortableEntity, PortableMigrationMetadata } from './transfer';
/** Payload validation (shape only, or shape plus references in a database). */
export { validatePortableShape, validatePortableData } from './transfer-validation';
/** Planners for user-layer ops (create, guarded update, guarded delete, field edits). */
export { planCreate, planUpdate, planDelete, planFieldEdits, applyFieldEdits, planRowChanges } from './user-layer';
export type { PlannedUserOp, FieldEdit } from './user-layer';

// ---- graph, parity, metadata profiles
/** Dependency graph with arrType/nodeKind filters and an edge cap. */
export { buildGraph, profileCompatibility, qualityDefinitionNodeName, GRAPH_NODE_KINDS, GRAPH_EDGE_KINDS, DEFAULT_GRAPH_EDGE_CAP } from './graph';
export type { PcdGraph, GraphNode, GraphEdge, GraphNodeRef, GraphNodeKind, GraphEdgeKind, GraphOptions } from './graph';
/** Parity map between app families (static data plus per-profile compatibility). */
export { parityMap, PARITY_ENTITIES, PARITY_SCOPES } from './parity';
export type { ParityMap, ParityRow, ParitySupport, SemanticDifference, ParityEntity, ParityScope } from './parity';
/** Lidarr metadata profiles with counts. */
export { listMusicAppMetadataProfiles } from './metadata-profiles';
export type { MetadataProfileSummary } from './metadata-profiles';
