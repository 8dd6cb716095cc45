/**
 * Reading portable entities from a replayed database.
 */
import type Database from 'better-sqlite3';
import { entityRowId, listEntityNames, readEntityRows } from './common';
import { modelOf } from './registry';
import type { FieldSource, PortableType, Row } from './types';

export interface ReadEntity {
  /** Portable data (camelCase, no ids or timestamps). */
  data: Record<string, unknown> & { name: string };
  /** Row/column behind each leaf field path (lineage input). */
  sources: Map<string, FieldSource>;
  /** Database id of the root row (route id), null for quality definitions. */
  routeId: number | null;
  rows: Row[];
}

/** One entity by portable type and name, or null when it does not exist in `db`. */
export function readEntity(db: Database.Database, type: PortableType, name: string): ReadEntity | null {
  const model = modelOf(type);
  const rows = readEntityRows(db, model, name);
  if (!rows) return null;
  const { data, sources } = model.fromRows(name, rows);
  return { data: data as ReadEntity['data'], sources, routeId: entityRowId(db, model, name), rows };
}

/** Names of every entity of a portable type, sorted. */
export function entityNames(db: Database.Database, type: PortableType): string[] {
  return listEntityNames(db, modelOf(type));
}

/** Whether an entity exists. */
export function entityExists(db: Database.Database, type: PortableType, name: string): boolean {
  const model = modelOf(type);
  return db.prepare(`SELECT 1 FROM "${model.rootTable}" WHERE "name" = ? LIMIT 1`).get(name) !== undefined;
}
