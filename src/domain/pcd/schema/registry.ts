/**
 * What the engine needs to know about each table beyond its DDL: the natural key (row identity
 * independent of autoincrement ids) and the owning entity (for lineage tombstones and for telling
 * a missing target from a guard mismatch). Columns and defaults are introspected from the DDL.
 */
import Database from 'better-sqlite3';
import { PCD_ARR_TYPES } from '../../arr-types';
import { SCHEMA_DDL } from './tables';

export type SqlValue = string | number | null;

export interface OwnerRef {
  /** Column of this table naming the owning entity. */
  column: string;
  /** Table holding the owning entity. */
  table: string;
  /** Name column of the owning entity's table. */
  rootColumn: string;
}

export interface TableSpec {
  key: readonly string[];
  owner: OwnerRef | null;
}

export interface ColumnInfo {
  name: string;
  /** Constant default (null when the column defaults to NULL); undefined = no constant default (CURRENT_TIMESTAMP). */
  default: SqlValue | undefined;
  notNull: boolean;
}

/** Columns never part of portable data or lineage. */
export const BOOKKEEPING_COLUMNS: ReadonlySet<string> = new Set(['id', 'created_at', 'updated_at']);

const self = (table: string): OwnerRef => ({ column: 'name', table, rootColumn: 'name' });
const ownedBy = (column: string, table: string): OwnerRef => ({ column, table, rootColumn: 'name' });
const CF = (column = 'custom_format_name') => ownedBy(column, 'custom_formats');
const QP = () => ownedBy('quality_profile_name', 'quality_profiles');

const CONDITION_DETAIL_TABLES = [
  'condition_patterns',
  'condition_languages',
  'condition_indexer_flags',
  'condition_sources',
  'condition_resolutions',
  'condition_quality_modifiers',
  'condition_sizes',
  'condition_release_types',
  'condition_years',
];

const specs: Record<string, TableSpec> = {
  tags: { key: ['name'], owner: null },
  languages: { key: ['name'], owner: null },
  qualities: { key: ['name'], owner: null },
  quality_api_mappings: { key: ['quality_name', 'arr_type'], owner: null },
  regular_expressions: { key: ['name'], owner: self('regular_expressions') },
  regular_expression_tags: { key: ['regular_expression_name', 'tag_name'], owner: ownedBy('regular_expression_name', 'regular_expressions') },
  custom_formats: { key: ['name'], owner: self('custom_formats') },
  custom_format_tags: { key: ['custom_format_name', 'tag_name'], owner: CF() },
  custom_format_conditions: { key: ['custom_format_name', 'name'], owner: CF() },
  custom_format_tests: { key: ['custom_format_name', 'title', 'type'], owner: CF() },
  quality_profiles: { key: ['name'], owner: self('quality_profiles') },
  quality_profile_tags: { key: ['quality_profile_name', 'tag_name'], owner: QP() },
  quality_profile_languages: { key: ['quality_profile_name', 'language_name'], owner: QP() },
  quality_groups: { key: ['quality_profile_name', 'name'], owner: QP() },
  quality_group_members: { key: ['quality_profile_name', 'quality_group_name', 'quality_name'], owner: QP() },
  quality_profile_qualities: { key: ['quality_profile_name', 'quality_name', 'quality_group_name'], owner: QP() },
  quality_profile_custom_formats: { key: ['quality_profile_name', 'custom_format_name', 'arr_type'], owner: QP() },
  delay_profiles: { key: ['name'], owner: self('delay_profiles') },
  test_entities: { key: ['type', 'tmdb_id'], owner: null },
  test_releases: { key: ['entity_type', 'entity_tmdb_id', 'title'], owner: null },
  lidarr_metadata_profiles: { key: ['name'], owner: self('lidarr_metadata_profiles') },
  lidarr_metadata_profile_primary_types: {
    key: ['metadata_profile_name', 'type_name'],
    owner: ownedBy('metadata_profile_name', 'lidarr_metadata_profiles'),
  },
  lidarr_metadata_profile_secondary_types: {
    key: ['metadata_profile_name', 'type_name'],
    owner: ownedBy('metadata_profile_name', 'lidarr_metadata_profiles'),
  },
  lidarr_metadata_profile_release_statuses: {
    key: ['metadata_profile_name', 'status_name'],
    owner: ownedBy('metadata_profile_name', 'lidarr_metadata_profiles'),
  },
};
for (const table of CONDITION_DETAIL_TABLES) specs[table] = { key: ['custom_format_name', 'condition_name'], owner: CF() };
for (const app of PCD_ARR_TYPES) {
  // Quality definitions have no root row: the entity is the set of rows sharing a name.
  specs[`${app}_quality_definitions`] = { key: ['name', 'quality_name'], owner: self(`${app}_quality_definitions`) };
  specs[`${app}_naming`] = { key: ['name'], owner: self(`${app}_naming`) };
  specs[`${app}_media_settings`] = { key: ['name'], owner: self(`${app}_media_settings`) };
}

export const TABLE_SPECS: Readonly<Record<string, TableSpec>> = specs;

export function tableSpec(table: string): TableSpec | undefined {
  return TABLE_SPECS[table.toLowerCase()];
}

function parseDefault(text: string | null): SqlValue | undefined {
  if (text === null || /^null$/i.test(text)) return null;
  if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  const quoted = /^'(.*)'$/s.exec(text);
  if (quoted) return quoted[1].replace(/''/g, "'");
  return undefined;
}

let columnCache: Map<string, ColumnInfo[]> | null = null;

/** Columns (all of them, in table order) of every schema table, introspected once from the DDL. */
export function schemaColumns(): Map<string, ColumnInfo[]> {
  if (columnCache) return columnCache;
  const db = new Database(':memory:');
  try {
    db.exec(SCHEMA_DDL);
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid")
      .pluck()
      .all() as string[];
    const map = new Map<string, ColumnInfo[]>();
    for (const table of tables) {
      const info = db.prepare(`PRAGMA table_info("${table}")`).all() as { name: string; dflt_value: string | null; notnull: number }[];
      map.set(
        table,
        info.map((c) => ({ name: c.name, default: parseDefault(c.dflt_value), notNull: c.notnull === 1 })),
      );
    }
    columnCache = map;
    return map;
  } finally {
    db.close();
  }
}

/** Columns of a table that carry data (bookkeeping columns removed). */
export function dataColumns(table: string): ColumnInfo[] {
  const cols = schemaColumns().get(table);
  if (!cols) throw new Error(`unknown PCD table ${table}`);
  return cols.filter((c) => !BOOKKEEPING_COLUMNS.has(c.name));
}

/** Constant schema default of a column, or undefined. */
export function columnDefault(table: string, column: string): SqlValue | undefined {
  return schemaColumns()
    .get(table)
    ?.find((c) => c.name === column)?.default;
}
