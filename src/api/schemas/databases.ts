import { ArrTypeSchema } from './common';
import { text, z } from '../http/zod';

const name = text({ min: 1, max: 100 });

export const DatabaseSourceSchema = z
  .discriminatedUnion('kind', [
    z
      .object({
        kind: z.literal('git'),
        url: text({ min: 1, max: 1000 }).openapi({ example: 'https://github.com/Dictionarry-Hub/trash-pcd' }),
        branch: text({ min: 1, max: 200 }).optional().openapi({ description: 'Default main' }),
      })
      .strict(),
    z.object({ kind: z.literal('local'), path: text({ min: 1, max: 1000 }).openapi({ description: 'An absolute directory holding pcd.json' }) }).strict(),
  ])
  .openapi('DatabaseSource');

export const DatabaseCreateSchema = z.object({ name, source: DatabaseSourceSchema, enabled: z.boolean().optional() }).strict().openapi('DatabaseCreate');

export const DatabasePatchSchema = z
  .object({ name: name.optional(), enabled: z.boolean().optional(), branch: text({ min: 1, max: 200 }).optional() })
  .strict()
  .refine((v) => Object.keys(v).length > 0, 'must name at least one field to change')
  .openapi('DatabasePatch');

const CacheStats = z.object({
  totalOps: z.number().int(),
  applied: z.number().int(),
  failed: z.number().int(),
  conflicts: z.number().int(),
  failedByReason: z.record(z.number().int()),
  builtAt: z.string(),
  durationMs: z.number(),
});

export const DatabaseSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    enabled: z.boolean(),
    source: z.object({ kind: z.enum(['git', 'local']), url: z.string().nullable(), path: z.string().nullable(), branch: z.string().nullable() }),
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
      status: z.enum(['pending', 'building', 'ready', 'failed']),
      reason: z.string().nullable().openapi({ description: 'Sanitized reason code when the last pull failed' }),
      message: z.string().nullable(),
      stats: CacheStats.nullable(),
    }),
    schema: z.object({
      source: z.enum(['dependency', 'bundled']).nullable().openapi({ description: 'bundled: the schema dependency could not be fetched (or none is declared) and the bundled schema stands in' }),
      note: z.string().nullable(),
    }),
    contentVersion: z.number().int(),
    lastPulledAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Database');

export const PullResultSchema = z
  .object({
    workflowId: z.string(),
    status: z.enum(['started', 'ready', 'failed']),
    reason: z.string().optional(),
    database: DatabaseSchema,
  })
  .openapi('DatabasePull');
