import { GRAPH_NODE_KINDS, PORTABLE_TYPES, RESOLVED_ENTITY_TYPES } from '../../domain/pcd';
import { CACHE_STATUS_HEADER } from '../../services/pcd/pcd-service';
import { ArrTypeOrAllSchema, ArrTypeSchema, entityTypeEnum } from './common';
import { idValue, text, z } from '../http/zod';

export const PortableTypeSchema = entityTypeEnum(PORTABLE_TYPES, 'Portable entity type. Music entities must use the music_app_* types.').openapi('PortableEntityType');
export const ResolvedEntityTypeSchema = entityTypeEnum(RESOLVED_ENTITY_TYPES, 'Entity type of the resolved reads.').openapi('ResolvedEntityType');
export const GraphNodeKindSchema = entityTypeEnum(GRAPH_NODE_KINDS, 'Kind of a dependency-graph node.').openapi('GraphNodeKind');
export const LayerSchema = z.enum(['base', 'user', 'resolved']);

export const FieldChangeSchema = z
  .object({
    field: z.string().openapi({ description: 'Dot-notated field path; keyed array items by name' }),
    type: z.enum(['added', 'changed', 'removed']),
    current: z.unknown().openapi({ description: 'Live or current value (null when absent)' }),
    desired: z.unknown().openapi({ description: 'Desired value (null when absent)' }),
  })
  .openapi('FieldChange');

export const LineageEntrySchema = z
  .object({
    path: z.string(),
    status: z.enum(['resolved', 'ambiguous', 'unavailable']),
    sourceLayer: z.enum(['schema', 'base', 'tweaks', 'user']).nullable(),
    sourceKind: z.enum(['operation', 'schema-default']).nullable(),
    opId: z.number().int().nullable().openapi({ description: 'Establishing op id (base and user ops)' }),
    fileOp: z.object({ file: z.string(), position: z.number().int() }).nullable().openapi({ description: 'File-layer op identity (schema, tweaks)' }),
    explicit: z.boolean().openapi({ description: 'The establishing op named the column explicitly' }),
    isSchemaDefault: z.boolean().openapi({ description: 'Display only: the value equals the schema default' }),
  })
  .openapi('LineageEntry');

export const ResolvedEntitySchema = z
  .object({
    databaseId: z.number().int(),
    entityType: z.string(),
    // The type in portable form: what GET /pcd/export, POST /pcd/import and the entity edit routes take.
    portableType: PortableTypeSchema,
    name: z.string(),
    layer: LayerSchema,
    exists: z.boolean().openapi({ description: 'The entity exists in the requested layer' }),
    id: z
      .number()
      .int()
      .nullable()
      .openapi({
        description:
          "The entity's id in the requested layer (for custom formats, the key of cfMatches in POST /entity-testing/evaluate); null when it does not exist there or its type has no root row (quality definitions). Beside entity, which carries no database ids",
      }),
    entity: z.record(z.unknown()).nullable().openapi({ description: 'Portable payload of the type' }),
    overrides: z.array(FieldChangeSchema).optional().openapi({ description: 'Layer user only; [] means equal to base' }),
    conflict: z.boolean().openapi({ description: 'A user edit no longer applies (value-guard conflict); the value is not unambiguous' }),
    lineage: z.array(LineageEntrySchema).optional(),
    lineageStatus: z.enum(['available', 'ambiguous', 'unavailable']).optional(),
  })
  .openapi('ResolvedEntity');

export const PendingConflictSchema = z
  .object({
    opId: z.number().int().openapi({ description: 'The stale user op (revert it to take upstream)' }),
    reason: z.enum(['guard_mismatch', 'missing_target', 'duplicate_key']),
    mine: z
      .record(z.unknown())
      .nullable()
      .openapi({ description: "The entity as the stale op would leave it on the current base (the payload to write to keep mine); null when it cannot be replayed (a rename or delete)" }),
    fields: z.array(FieldChangeSchema).openapi({ description: 'Fields the op would change: current is upstream, desired is mine' }),
  })
  .openapi('PendingConflict');

export const EntityDetailSchema = ResolvedEntitySchema.extend({
  arrType: ArrTypeSchema.nullable().openapi({ description: 'The app family of a per-app type (naming, media settings, quality definitions); null for the others' }),
  fields: z
    .array(z.object({ path: z.string(), value: z.unknown() }))
    .openapi({ description: "Every leaf field of entity with its value, in the path notation of overrides and lineage (the lineage entries name the same paths); [] when it does not exist in the layer" }),
  pendingConflicts: z.array(PendingConflictSchema).openapi({ description: 'One per stale user op on the entity; [] without a conflict' }),
}).openapi('EntityDetail');

/** How complete the replayed state a read answers from is (also sent as the X-Arrgo-Cache-Status header). */
export const CacheCompletenessSchema = z.enum(['ready', 'degraded', 'failed']).openapi({
  description: 'ready: every op ran; degraded: some ops failed, the state is incomplete (see the database cache.stats); failed: the replay produced no entity',
});

/** Response header naming the completeness of the replayed state (ready, degraded, failed); the service sets it. */
export const CacheStatusHeaderDoc = {
  [CACHE_STATUS_HEADER]: {
    description: 'ready, degraded (some ops failed: the state is incomplete) or failed (the replay produced no entity)',
    schema: { type: 'string' as const },
  },
};

export const ResolvedListSchema = z
  .object({
    databaseId: z.number().int(),
    entityType: z.string(),
    layer: LayerSchema,
    cacheStatus: CacheCompletenessSchema,
    entities: z.array(ResolvedEntitySchema),
  })
  .openapi('ResolvedList');

export const MigrationMetadataSchema = z
  .object({ format: z.enum(['json', 'yaml']), version: z.number().int(), source: z.string() })
  .strict()
  .openapi('PortableMigrationMetadata', { description: 'When supplied, all three keys are required' });

/** An export's database id; portable data carries none. */
const ExportedIdSchema = z.number().int().nullable().openapi({
  description:
    "The entity's id in the exported database's current state (for custom formats, the key of cfMatches in POST /entity-testing/evaluate); null for types without a root row (quality definitions). Not part of data, which carries no database ids; an import ignores it",
});

export const PortableEntitySchema = z
  .object({ entityType: PortableTypeSchema, migration: MigrationMetadataSchema.optional(), id: ExportedIdSchema, data: z.record(z.unknown()) })
  .openapi('PortableEntity');

export const ImportBodySchema = z
  .object({
    databaseId: idValue(),
    layer: z
      .enum(['base', 'user'])
      .refine((layer) => layer === 'user', { message: 'cannot be base: the base layer comes from the repository and cannot be written' })
      .openapi({ description: 'Operation layer to write: user (the base layer is refused)' }),
    entityType: PortableTypeSchema,
    migration: z.unknown().optional(),
    id: idValue().nullable().optional().openapi({ description: "An export's id, so an export can be sent back as it is: ignored (the target database assigns its own)" }),
    data: z.record(z.unknown()),
  })
  .strict()
  .openapi('PortableImport');

export const GraphSchema = z
  .object({
    databaseId: z.number().int(),
    nodes: z.array(
      z.object({
        kind: z.enum(GRAPH_NODE_KINDS),
        name: z.string(),
        routeId: z.number().int().nullable(),
        inDegree: z.number().int(),
        outDegree: z.number().int(),
        compatibleArrTypes: z.array(ArrTypeSchema).nullable().optional(),
      }),
    ),
    edges: z.array(
      z.object({
        from: z.object({ kind: z.string(), name: z.string() }),
        to: z.object({ kind: z.string(), name: z.string() }),
        edgeKind: z.string(),
        arrType: ArrTypeOrAllSchema,
        score: z.number().int().nullable(),
        groupName: z.string().nullable(),
      }),
    ),
    arrTypesPresent: z.array(ArrTypeOrAllSchema),
    truncated: z.boolean(),
    cacheStatus: CacheCompletenessSchema,
  })
  .openapi('PcdGraph');

export const MetadataProfileSummarySchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    description: z.string(),
    updated_at: z.string(),
    primaryTypeCount: z.number().int(),
    secondaryTypeCount: z.number().int(),
    releaseStatusCount: z.number().int(),
    primaryAllowedCount: z.number().int(),
    secondaryAllowedCount: z.number().int(),
    releaseStatusAllowedCount: z.number().int(),
  })
  .openapi('MusicAppMetadataProfileSummary');

export const EntityEditSchema = z
  .union([
    z.object({ data: z.record(z.unknown()) }).strict(),
    z.object({ changes: z.array(z.object({ path: text({ min: 1, max: 500, trim: false }), value: z.unknown() }).strict()).min(1).max(1000) }).strict(),
  ])
  .openapi('EntityEdit', {
    description: 'Either the whole desired payload (data) or field edits addressed by path (changes; value omitted removes). Stored as guarded user-layer ops.',
  });

export const UserOpSchema = z
  .object({
    id: z.number().int(),
    seq: z.number().int(),
    kind: z.string().nullable(),
    target: z.object({ portableType: z.string().nullable(), name: z.string().nullable() }),
    summary: z.string().nullable(),
    sql: z.string(),
    createdAt: z.string(),
    outcome: z.object({ status: z.enum(['applied', 'failed', 'conflict']), reason: z.string().nullable() }),
  })
  .openapi('UserOp');
