import { SNAPSHOT_SUBTYPES } from '../../persistence/entities';
import { int, text, z } from '../http/zod';

export const SnapshotSubtypeSchema = z.enum(SNAPSHOT_SUBTYPES).openapi('SnapshotSubtype', {
  description: 'What triggered the snapshot: pull (a pull that brought new ops), import, edit, revert, goal (goal apply), manual (POST), rollback (taken just before a rollback)',
});

export const SnapshotSchema = z
  .object({
    id: z.number().int(),
    databaseId: z.number().int(),
    databaseName: z.string(),
    subtype: SnapshotSubtypeSchema,
    note: z.string().nullable(),
    baseCommit: z.string().nullable().openapi({ description: 'The commit of the base layer the snapshot recorded (null for local sources without git)' }),
    opCounts: z.object({ base: z.number().int(), tweaks: z.number().int(), user: z.number().int() }),
    stateHash: z.string().nullable().openapi({ description: 'sha256 of the resolved state (every entity of every type); null when the cache was unavailable' }),
    checksum: z.string().openapi({ description: 'sha256 over the op sets and counts; verified before a rollback' }),
    createdAt: z.string().datetime(),
  })
  .openapi('Snapshot');

export const SnapshotDetailSchema = SnapshotSchema.extend({
  userOps: z.array(
    z.object({
      id: z.number().int(),
      seq: z.number().int(),
      kind: z.string().nullable(),
      target: z.object({ portableType: z.string().nullable(), name: z.string().nullable() }),
      summary: z.string().nullable(),
      createdAt: z.string(),
    }),
  ),
}).openapi('SnapshotDetail');

export const SnapshotCreateSchema = z
  .object({ note: text({ min: 1, max: 500, multiline: true }).optional().openapi({ description: 'At most 500 characters' }) })
  .strict()
  .openapi('SnapshotCreate');

export const SnapshotSettingsBodySchema = z
  .object({
    maxPerDatabase: int(1, 1000).openapi({ description: 'Newest snapshots kept per database, 1 to 1000 (default 50)' }),
    retentionDays: int(0, 3650).openapi({ description: 'Snapshots older than this many days are pruned; 0 (default) disables age-based pruning' }),
  })
  .strict()
  .openapi('SnapshotSettings');

export const SnapshotSettingsPatchSchema = SnapshotSettingsBodySchema.partial()
  .strict()
  .refine((v) => Object.keys(v).length > 0, 'must name at least one field to change')
  .openapi('SnapshotSettingsPatch');

export const RollbackSchema = z
  .object({
    id: z.number().int(),
    databaseId: z.number().int(),
    databaseName: z.string(),
    snapshotId: z.number().int().openapi({ description: 'The snapshot rolled back to' }),
    preSnapshotId: z.number().int().nullable().openapi({ description: 'The snapshot taken just before the restore: roll back to it to undo this rollback' }),
    status: z.enum(['running', 'success', 'failed']),
    step: z.string().nullable().openapi({ description: 'pending, verify, snapshot, restore, rebuild, verify-state, compensate, done' }),
    trigger: z.string(),
    opsUndone: z.array(z.number().int()).openapi({ description: 'User op ids superseded (kept, inactive) by the rollback' }),
    opsReactivated: z.array(z.number().int()).openapi({ description: 'User op ids active again after the rollback' }),
    error: z.string().nullable(),
    workflowId: z.string(),
    startedAt: z.string().datetime(),
    finishedAt: z.string().datetime().nullable(),
    instancesFed: z.array(z.number().int()).openapi({ description: 'Instances fed by the database (single rollback reads; empty in lists): preview a sync for them with POST /sync/previews to see what the rollback means for the apps' }),
  })
  .openapi('Rollback');
