import { ADOPTION_STATUSES } from '../../domain/sync/adopt';
import { idValue, z } from '../http/zod';
import { ArrTypeSchema } from './common';
import { FieldChangeSchema, PortableTypeSchema } from './pcd';
import { FailureEvidenceSchema } from './previews';
import { SyncConfigSchema, SyncSectionSchema } from './sync';

export const AdoptionCreateSchema = z
  .object({
    databaseId: idValue().openapi({ description: 'The database whose user layer receives the adopted configuration' }),
    sections: z.array(SyncSectionSchema).min(1).max(4).optional().openapi({ description: "Sections to adopt; default every section of the instance's app family" }),
    select: z.boolean().optional().openapi({
      description: "After the apply, put this database first in the instance's sync configuration with the adopted entities selected (its other databases follow in their order), so a following sync preview shows no change for them (default true)",
    }),
  })
  .strict()
  .openapi('AdoptionInput');

const Entry = z.object({ entityType: PortableTypeSchema, name: z.string() });

export const AdoptionSchema = z
  .object({
    id: z.number().int(),
    instanceId: z.number().int(),
    instanceName: z.string(),
    arrType: ArrTypeSchema,
    databaseId: z.number().int(),
    sections: z.array(SyncSectionSchema),
    select: z.boolean(),
    status: z.enum(ADOPTION_STATUSES).openapi({
      description: 'generating, ready (apply or discard it), applying, applied, failed (failure says why), expired (the TTL passed, or the database moved since the preview), discarded',
    }),
    counts: z.object({ create: z.number().int(), override: z.number().int(), skipped: z.number().int(), unchanged: z.number().int() }),
    creates: z.array(Entry).openapi({ description: 'Entities the database lacks, created in its user layer (regular expressions included)' }),
    overrides: z.array(Entry.extend({ fields: z.array(FieldChangeSchema) })).openapi({
      description: "Entities of the same name: field-level user overrides (current = the database's value, desired = the app's), only for fields that sync differently",
    }),
    skipped: z.array(Entry.extend({ reason: z.string() })).openapi({ description: "What is not adopted and why (a pattern arrgo's .NET translator refuses, a value PCD cannot hold); nothing is altered to fit" }),
    unchanged: z.array(Entry).openapi({ description: 'Entities the database already has as the app holds them' }),
    selection: SyncConfigSchema.pick({ qualityProfiles: true, delayProfile: true, naming: true, mediaSettings: true, qualityDefinitions: true, metadataProfile: true, namespace: true, deleteUnmanaged: true })
      .nullable()
      .openapi({ description: 'The sync selection of the adopted entities (set on the instance after the apply when select is true)' }),
    appliedOpIds: z.array(z.number().int()).openapi({ description: 'The user ops written by the apply; each is revertible with DELETE /pcd/{databaseId}/user-ops/{opId}' }),
    snapshotId: z.number().int().nullable().openapi({ description: 'The snapshot of the database taken before the ops (GET /databases/{id}/snapshots/{snapshotId})' }),
    failure: FailureEvidenceSchema.nullable(),
    createdAt: z.string(),
    expiresAt: z.string().nullable(),
    appliedAt: z.string().nullable(),
  })
  .openapi('Adoption');
