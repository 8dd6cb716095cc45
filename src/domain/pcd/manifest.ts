/**
 * `pcd.json`, the manifest of a PCD repository.
 */
import { z } from 'zod';
import { fromPcdArrType, PCD_ARR_TYPES, type ArrType, type PcdArrType } from '../arr-types';
import { validationError } from '../../errors';
import { formatZodIssues } from './validation';

/** URL of the PCD schema this engine is compatible with (major version 1). */
export const PCD_SCHEMA_DEPENDENCY = 'https://github.com/Dictionarry-Hub/schema';

const manifestSchema = z
  .object({
    name: z.string().trim().min(1).max(100),
    version: z.string().trim().min(1).max(50),
    description: z.string().optional(),
    arr_types: z.array(z.enum(PCD_ARR_TYPES)).min(1),
    dependencies: z.record(z.string()).optional(),
  })
  .passthrough();

export interface PcdManifest {
  name: string;
  version: string;
  description: string | null;
  /** App families the repository targets. */
  arrTypes: ArrType[];
  /** The same, as spelled in the manifest. */
  pcdArrTypes: PcdArrType[];
  dependencies: Record<string, string>;
  /** Version of the PCD schema dependency, when declared. */
  schemaVersion: string | null;
  /** The manifest as given (unknown keys kept). */
  raw: Record<string, unknown>;
}

/** Parses and validates `pcd.json` (text or parsed object). Throws AppError('validation'). */
export function parseManifest(input: string | unknown): PcdManifest {
  let value: unknown = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch {
      throw validationError('pcd.json is not valid JSON');
    }
  }
  const parsed = manifestSchema.safeParse(value);
  if (!parsed.success) throw validationError(`pcd.json: ${formatZodIssues(parsed.error.issues)}`);
  const m = parsed.data;
  const dependencies = m.dependencies ?? {};
  const schemaVersion = dependencies[PCD_SCHEMA_DEPENDENCY] ?? null;
  if (schemaVersion !== null && !/^1(\.|$)/.test(schemaVersion)) {
    throw validationError(`pcd.json: dependency ${PCD_SCHEMA_DEPENDENCY} ${schemaVersion} is not supported (schema 1.x only)`);
  }
  const pcdArrTypes = [...new Set(m.arr_types)];
  return {
    name: m.name,
    version: m.version,
    description: m.description ?? null,
    arrTypes: pcdArrTypes.map((t) => fromPcdArrType(t) as ArrType),
    pcdArrTypes,
    dependencies,
    schemaVersion,
    raw: value as Record<string, unknown>,
  };
}
