import { ENTITY_STATE_CHANGES, PORTABLE_TYPES } from '../../domain/pcd';
import { ROLLBACK_TRIGGERS } from '../../services/snapshots/rollback-service';
import { SNAPSHOT_SUBTYPES } from '../../services/snapshots/snapshot-service';
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
    trigger: z.enum(ROLLBACK_TRIGGERS).openapi({ description: 'manual (POST .../snapshots/{snapshotId}/rollback) or undo (POST .../rollbacks/{rollbackId}/undo: back to an earlier rollback\'s pre-rollback snapshot)' }),
    opsUndone: z.array(z.number().int()).openapi({ description: 'User op ids superseded (kept, inactive) by the rollback' }),
    opsReactivated: z.array(z.number().int()).openapi({ description: 'User op ids active again after the rollback' }),
    error: z.string().nullable(),
    workflowId: z.string(),
    startedAt: z.string().datetime(),
    finishedAt: z.string().datetime().nullable(),
    instancesFed: z.array(z.number().int()).openapi({ description: 'Instances fed by the database (single rollback reads; empty in lists): preview a sync for them with POST /sync/previews to see what the rollback means for the apps' }),
  })
  .openapi('Rollback');

export const SNAPSHOT_CHANGES_LIMIT_MAX = 1000;

export const SnapshotChangesSchema = z
  .object({
    databaseId: z.number().int(),
    snapshotId: z.number().int(),
    snapshotCreatedAt: z.string().datetime(),
    sameFileLayers: z.boolean().openapi({ description: 'The base and tweak op sets are the snapshot\'s: only user ops differ' }),
    baseCommit: z.object({ snapshot: z.string().nullable(), now: z.string().nullable() }),
    userOps: z
      .object({ onlyInSnapshot: z.array(z.number().int()), onlyNow: z.array(z.number().int()) })
      .openapi({ description: 'User op ids active in the snapshot only (a rollback reactivates them) and active now only (a rollback supersedes them)' }),
    counts: z.object({ added: z.number().int(), removed: z.number().int(), changed: z.number().int() }),
    total: z.number().int().openapi({ description: 'Entities that differ in all' }),
    truncated: z.boolean().openapi({ description: 'More entities differ than limit: changes holds the first limit of them' }),
    changes: z.array(
      z.object({
        portableType: z.enum(PORTABLE_TYPES),
        name: z.string(),
        change: z.enum(ENTITY_STATE_CHANGES).openapi({ description: 'added: exists now only; removed: existed in the snapshot only; changed: exists in both with other data' }),
        fields: z.array(z.string()).openapi({ description: 'changed: the field paths that differ, at most 20' }),
        fieldCount: z.number().int().openapi({ description: 'changed: how many field paths differ in all' }),
      }),
    ),
  })
  .openapi('SnapshotChanges', { description: 'What differs between a snapshot and the database now, entity by entity (snapshot -> now), by portable type then name' });
