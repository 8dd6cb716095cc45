/**
 * Export and import of single entities in the portable JSON form.
 */
import type Database from 'better-sqlite3';
import { z } from 'zod';
import { notFound, validationError } from '../../errors';
import { isPlainObject } from '../diff/diff';
import { entityExists, readEntity } from './entities/read';
import { requireModel } from './entities/registry';
import type { PortableType } from './entities/types';
import { planCreate, type PlannedUserOp } from './user-layer';
import { validatePortableData } from './transfer-validation';
import { formatZodIssues } from './validation';

/** Migration metadata: when supplied, all three keys are required. */
export const migrationMetadataSchema = z
  .object({
    format: z.enum(['json', 'yaml']),
    version: z.number().int(),
    source: z.string().min(1, 'must not be empty'),
  })
  .strict();
export type PortableMigrationMetadata = z.infer<typeof migrationMetadataSchema>;

/**
 * Export response and import body core. `id` (exports only) is the entity's id in the exported
 * database's current state, beside the portable data, which carries no database ids; it is the
 * key evaluation results use (cfMatches), and imports ignore it.
 */
export interface PortableEntity {
  entityType: PortableType;
  migration?: PortableMigrationMetadata;
  id?: number | null;
  data: Record<string, unknown>;
}

/** Current portable schema contract version (migration.version of exports). */
export const PORTABLE_SCHEMA_VERSION = 1;

/** Exports one entity; throws AppError('not_found') when absent and AppError('validation') for an unknown type. */
export function exportEntity(db: Database.Database, entityType: string, name: string): PortableEntity {
  const model = requireModel(entityType);
  if (typeof name !== 'string' || name === '') throw validationError('name: required');
  const entity = readEntity(db, model.type, name);
  if (!entity) throw notFound(`${model.type} "${name}" does not exist`);
  return { entityType: model.type, id: entity.routeId, data: entity.data };
}

/** Validates migration metadata (undefined allowed); throws AppError('validation'). */
export function parseMigrationMetadata(value: unknown): PortableMigrationMetadata | undefined {
  if (value === undefined) return undefined;
  const parsed = migrationMetadataSchema.safeParse(value);
  if (!parsed.success) {
    throw validationError(formatZodIssues(parsed.error.issues.map((i) => ({ ...i, path: ['migration', ...i.path] }))));
  }
  return parsed.data;
}

/**
 * Validates an import into the database whose current state is `db` (the resolved state of the
 * target) and plans the op creating it. Rejections are AppError('validation'): unknown entity
 * type, invalid migration metadata, invalid data (missing/unsupported/other-family fields; music
 * payloads fail fast), references to missing entities, and an existing name. Refusing the base
 * layer is the caller's job.
 */
export function planImport(db: Database.Database, input: { entityType: unknown; data: unknown; migration?: unknown }): PlannedUserOp {
  const model = requireModel(input.entityType);
  parseMigrationMetadata(input.migration);
  if (!isPlainObject(input.data)) throw validationError('data: must be an object');
  const data = validatePortableData(db, model.type, input.data);
  if (entityExists(db, model.type, data.name)) throw validationError(`name: ${model.type} "${data.name}" already exists`);
  return planCreate(model.type, data);
}
