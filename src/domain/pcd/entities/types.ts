/**
 * Portable entity types and the contract every entity model implements.
 *
 * An entity is stored as a set of rows across a few tables. Each model converts between the
 * portable data (camelCase, no database ids or timestamps) and those rows, in both directions:
 * `toRows` for writing and diffing, `fromRows` for reading (with the row/column behind each field,
 * which lineage needs). fromRows(toRows(x)) equals x for valid data.
 */
import type { z } from 'zod';
import type { ArrType } from '../../arr-types';
import type { DiffOptions } from '../../diff/diff';
import type { SqlValue } from '../schema/registry';

export const PORTABLE_TYPES = [
  'regular_expression',
  'custom_format',
  'quality_profile',
  'delay_profile',
  'movie_app_naming',
  'series_app_naming',
  'music_app_naming',
  'movie_app_media_settings',
  'series_app_media_settings',
  'music_app_media_settings',
  'movie_app_quality_definitions',
  'series_app_quality_definitions',
  'music_app_quality_definitions',
  'music_app_metadata_profile',
] as const;
export type PortableType = (typeof PORTABLE_TYPES)[number];

export function isPortableType(value: unknown): value is PortableType {
  return typeof value === 'string' && (PORTABLE_TYPES as readonly string[]).includes(value);
}

/** One stored row: data columns only (no id/created_at/updated_at). rowid is set when read from a database. */
export interface Row {
  table: string;
  values: Record<string, SqlValue>;
  rowid?: number;
}

/** Where a portable field comes from. */
export type FieldSource =
  /** One column of one row. */
  | { kind: 'column'; table: string; rowid: number; column: string; value: SqlValue }
  /**
   * A collection of rows (tags, group members, item order): the latest op that inserted one of
   * the rows, wrote one of `columns` (all when omitted), or deleted a row of `table` owned by `owner`.
   */
  | { kind: 'rows'; table: string; rowids: number[]; owner: string | null; columns?: string[] };

/** A name another entity must provide (checked on import). */
export interface Reference {
  kind: 'quality' | 'language' | 'regular_expression' | 'custom_format';
  name: string;
  /** Field path of the reference in the payload, for error messages. */
  path: string;
}

export interface OwnedTable {
  table: string;
  /** Column naming the owning entity. */
  ownerColumn: string;
  /** ORDER BY used when reading (default rowid). */
  orderBy?: string;
}

export interface EntityModel<T extends { name: string } = { name: string }> {
  type: PortableType;
  /** App family for per-app types; null for app-agnostic ones. */
  family: ArrType | null;
  /** Table with one row per entity, or (quality definitions) the table whose rows share the entity name. */
  rootTable: string;
  /** True when the entity has no root row (quality definitions). */
  rootless: boolean;
  /** Tables holding the entity, parents before children (insert order). */
  tables: OwnedTable[];
  /** Strict payload schema. */
  schema: z.ZodType<T, z.ZodTypeDef, unknown>;
  /** How the generic diff addresses this type's arrays (shared by overrides and lineage paths). */
  diffOptions: DiffOptions;
  toRows(data: T): Row[];
  fromRows(name: string, rows: Row[]): { data: T; sources: Map<string, FieldSource> };
  /** Names of other entities the data refers to. */
  references(data: T): Reference[];
  /** Semantic checks beyond the schema; returns messages naming the field. */
  validate?(data: T): string[];
  /** Shared rows the entity needs before its own rows can be inserted (e.g. tags). */
  prerequisites?(data: T): string[];
}
