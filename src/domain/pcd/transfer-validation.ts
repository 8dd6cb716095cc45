/**
 * Validation of portable payloads (import and update planning).
 *
 * Order: shape checks that name another family precisely (music payloads fail fast on the first
 * problem), the strict zod schema (missing and unsupported fields), the model's semantic checks,
 * then references to other entities in the target database.
 */
import type Database from 'better-sqlite3';
import { AppError, validationError } from '../../errors';
import { isPlainObject } from '../diff/diff';
import { NAMING_ONLY_FIELDS } from './entities/media';
import { modelOf } from './entities/registry';
import type { PortableType, Reference } from './entities/types';
import { ARR_TYPES, type ArrType } from '../arr-types';
import { firstZodIssue, formatZodIssues } from './validation';

const REFERENCE_TABLES: Record<Reference['kind'], { table: string; label: string }> = {
  quality: { table: 'qualities', label: 'quality' },
  language: { table: 'languages', label: 'language' },
  regular_expression: { table: 'regular_expressions', label: 'regular expression' },
  custom_format: { table: 'custom_formats', label: 'custom format' },
};

function familyOfNamingField(field: string): ArrType | null {
  for (const family of ARR_TYPES) if (NAMING_ONLY_FIELDS[family].includes(field)) return family;
  return null;
}

/** Fields of another family's naming payload mixed into this one. */
function familyMixErrors(type: PortableType, data: Record<string, unknown>): string[] {
  const m = /^(movie_app|series_app|music_app)_naming$/.exec(type);
  if (!m) return [];
  const own = m[1] as ArrType;
  const errors: string[] = [];
  for (const field of Object.keys(data)) {
    const family = familyOfNamingField(field);
    if (family && family !== own) {
      errors.push(
        family === 'music_app'
          ? `${field}: belongs to music_app_naming; music entities must use music_app_* entity types`
          : `${field}: belongs to ${family}_naming and cannot be mixed into ${type}`,
      );
    }
  }
  return errors;
}

/** Each error reads "path: problem"; the first one's path is the field the refusal names. */
function fail(type: PortableType, errors: string[]): never {
  const isMusic = type.startsWith('music_app_');
  const field = /^(.+?): /s.exec(errors[0] ?? '')?.[1];
  throw new AppError('validation', `invalid ${type} data: ${(isMusic ? errors.slice(0, 1) : errors).join('; ')}`, field && field !== '(root)' ? { payloadPath: field } : undefined);
}

/** Validates data against the portable type (no database checks). Returns the parsed data. */
export function validatePortableShape(type: PortableType, data: unknown): { name: string } & Record<string, unknown> {
  const model = modelOf(type);
  if (!isPlainObject(data)) throw validationError(`invalid ${type} data: data must be an object`);
  const mixed = familyMixErrors(type, data);
  if (mixed.length) fail(type, mixed);
  const parsed = model.schema.safeParse(data);
  if (!parsed.success) {
    const isMusic = type.startsWith('music_app_');
    fail(type, [isMusic ? firstZodIssue(parsed.error.issues) : formatZodIssues(parsed.error.issues)]);
  }
  const value = parsed.data as { name: string } & Record<string, unknown>;
  const semantic = model.validate?.(value) ?? [];
  if (semantic.length) fail(type, semantic);
  return value;
}

/** Shape validation plus: every referenced quality, language, regex and custom format exists in db. */
export function validatePortableData(db: Database.Database, type: PortableType, data: unknown): { name: string } & Record<string, unknown> {
  const value = validatePortableShape(type, data);
  const model = modelOf(type);
  const errors: string[] = [];
  const seen = new Set<string>();
  for (const ref of model.references(value)) {
    const id = `${ref.kind}\u0000${ref.name}`;
    if (seen.has(id)) continue;
    seen.add(id);
    const { table, label } = REFERENCE_TABLES[ref.kind];
    if (db.prepare(`SELECT 1 FROM "${table}" WHERE "name" = ? LIMIT 1`).get(ref.name) === undefined) {
      errors.push(`${ref.path}: ${label} "${ref.name}" does not exist`);
    }
  }
  if (errors.length) fail(type, errors.slice(0, 5));
  return value;
}
