import { PULL_PHASES } from '../../domain/pcd/pull-phases';
import { ArrTypeSchema } from './common';
import { text, z } from '../http/zod';
import { gitToken, gitTokenUsername, gitUrlDescription, tokenSet } from './git-source';

const name = text({ min: 1, max: 100 });

export const DatabaseSourceSchema = z
  .discriminatedUnion('kind', [
    z
      .object({
        kind: z.literal('git'),
        url: text({ min: 1, max: 1000 }).openapi({ example: 'https://github.com/Dictionarry-Hub/trash-pcd', description: gitUrlDescription }),
        branch: text({ min: 1, max: 200 }).optional().openapi({ description: 'Default main' }),
        token: gitToken.optional(),
        tokenUsername: gitTokenUsername.optional(),
      })
      .strict(),
    z.object({ kind: z.literal('local'), path: text({ min: 1, max: 1000 }).openapi({ description: 'An absolute directory holding pcd.json' }) }).strict(),
  ])
  .openapi('DatabaseSource');

export const DatabaseCreateSchema = z.object({ name, source: DatabaseSourceSchema, enabled: z.boolean().optional() }).strict().openapi('DatabaseCreate');

export const DatabasePatchSchema = z
  .object({
    name: name.optional(),
    enabled: z.boolean().optional(),
    branch: text({ min: 1, max: 200 }).optional(),
    token: gitToken.nullable().optional().openapi({ description: 'A new token for the git source (see DatabaseSource.token); null removes the stored one. Write-only.', writeOnly: true }),
    tokenUsername: gitTokenUsername.optional(),
  })
  .strict()
  .refine((v) => Object.keys(v).length > 0, 'must name at least one field to change')
  .openapi('DatabasePatch');

const OpIdentity = {
  layer: z.enum(['schema', 'base', 'tweaks', 'user']),
  opId: z.number().int().nullable().openapi({ description: 'Database op id (base and user ops); null for file layers' }),
  file: z.string().nullable(),
  position: z.number().int().nullable().openapi({ description: '1-based position of the op within its file' }),
  markerId: z.string().nullable().openapi({ description: 'Op id of the marker comment, when the file has markers' }),
  target: z.object({ entityType: z.string(), name: z.string() }).nullable(),
};

const FailedOp = z.object({ ...OpIdentity, reason: z.enum(['duplicate_key', 'missing_target', 'guard_mismatch', 'invalid']) }).openapi('FailedOp');

const SkippedWrite = z
  .object({
    ...OpIdentity,
    statement: z.number().int().openapi({ description: '1-based ordinal of the statement within its op' }),
    kind: z.enum(['insert', 'update', 'delete']),
    table: z.string().nullable(),
  })
  .openapi('SkippedWrite');

const CacheStats = z.object({
  totalOps: z.number().int(),
  applied: z.number().int().openapi({ description: 'Ops that changed rows' }),
  skipped: z.number().int().optional().openapi({ description: "Schema, base and tweak ops that ran but changed nothing (Profilarr's skipped)" }),
  skippedWrites: z.number().int().optional().openapi({ description: 'Statements of schema, base and tweak ops that changed no row; never a failure' }),
  firstSkippedWrites: z.array(SkippedWrite).max(5).optional().openapi({ description: 'The first skipped writes (at most 5), with their op and statement' }),
  failed: z.number().int().openapi({ description: 'Every failed op, pending user-op conflicts included' }),
  conflicts: z.number().int(),
  failedByReason: z.record(z.number().int()),
  failedOps: z.number().int().optional().openapi({ description: 'Failed ops that make the database degraded (user-op conflicts excluded)' }),
  failedOpsByReason: z.record(z.number().int()).optional(),
  firstFailed: z.array(FailedOp).max(5).optional().openapi({ description: 'The first failed ops (at most 5), in replay order' }),
  entities: z.number().int().optional().openapi({ description: 'Entities in the base state' }),
  schemaGaps: z.array(z.string()).max(20).optional().openapi({ description: 'Columns arrgo reads that the schema dependency lacks (table.column)' }),
  unevaluablePatterns: z
    .number()
    .int()
    .optional()
    .openapi({ description: 'Regular expressions custom-format evaluation (POST /entity-testing/evaluate) refuses: a .NET construct without a faithful JavaScript translation (docs/evaluation.md, ".NET regular expressions"). Conditions using them are not evaluable, never answered differently from the apps' }),
  firstUnevaluablePatterns: z
    .array(z.object({ name: z.string(), reason: z.string().openapi({ description: 'Names the construct, e.g. "balancing groups (?<name1-name2>...) have no JavaScript equivalent"' }) }))
    .max(20)
    .optional()
    .openapi({ description: 'The first of them (at most 20) by regular-expression name' }),
  builtAt: z.string(),
  durationMs: z.number(),
});

export const DatabaseSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    enabled: z.boolean(),
    source: z.object({ kind: z.enum(['git', 'local']), url: z.string().nullable(), path: z.string().nullable(), branch: z.string().nullable(), tokenSet }),
    manifest: z
      .object({
        name: z.string(),
        version: z.string(),
        description: z.string().nullable(),
        arrTypes: z.array(ArrTypeSchema),
        dependencies: z.record(z.string()),
      })
      .nullable()
      .openapi({ description: 'pcd.json as of the last pull (arr types in the API vocabulary)' }),
    commit: z.string().nullable().openapi({ description: 'The commit the clone is at (git sources, or a local directory that is a git work tree)' }),
    cache: z.object({
      status: z.enum(['pending', 'building', 'ready', 'degraded', 'failed']).openapi({
        description:
          'ready: every op ran; degraded: some ops failed and the state is incomplete (still served, marked so); failed: the pull failed, the replay produced no entity from a repository with ops, or the schema dependency lacks columns arrgo reads',
      }),
      reason: z.string().nullable().openapi({
        description:
          'Sanitized reason code: why the last pull failed, or ops_failed (degraded), replay_empty or schema_gaps (failed). branch_not_found is cleared when the branch is changed (until the next pull)',
      }),
      message: z.string().nullable().openapi({ description: 'The reason in words, pre-authored (never git output); branch_not_found names the branch tried' }),
      stats: CacheStats.nullable(),
    }),
    schema: z.object({
      source: z.enum(['dependency', 'bundled']).nullable().openapi({
        description:
          "dependency: the schema layer is the manifest's schema dependency at its pinned version; bundled: none is declared, fetching is off (PCD_SCHEMA_FETCH=off), or it could not be fetched, and the bundled schema stands in",
      }),
      note: z.string().nullable(),
    }),
    contentVersion: z.number().int(),
    pinnedSnapshotId: z.number().int().nullable().openapi({ description: 'Set by a rollback: the database stays on this snapshot base until the next pull' }),
    lastPulledAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Database');

export const PullResultSchema = z
  .object({
    workflowId: z.string(),
    status: z.enum(['started', 'ready', 'failed']).openapi({ description: 'started: running (not waited for, or the wait bound passed); ready: the pull ran (see cacheStatus); failed: the pull failed (see reason)' }),
    cacheStatus: z.enum(['ready', 'degraded', 'failed']).optional().openapi({ description: 'With wait=true and a pull that ran: how complete the replay is' }),
    reason: z.string().optional(),
    database: DatabaseSchema,
  })
  .openapi('DatabasePull');

export const PullStateSchema = z
  .object({
    workflowId: z.string(),
    running: z.boolean(),
    phase: z.enum(PULL_PHASES).nullable().openapi({
      description: 'fetching the source, importing its ops, replaying them into the cache; done or failed once it ended. null: never pulled (or pulled by an arrgo before this field existed)',
    }),
    commit: z.string().nullable().openapi({ description: 'The commit fetched (git sources, or a local git work tree); null before the fetch' }),
    inserted: z.number().int().nullable().openapi({ description: 'Ops the import added (null before the import)' }),
    removed: z.number().int().nullable().openapi({ description: 'Ops the import removed (null before the import)' }),
    startedAt: z.string().nullable(),
    closedAt: z.string().nullable().openapi({ description: 'null while it runs' }),
  })
  .openapi('DatabasePullState');
