/**
 * Reading entities of a replayed PCD by layer (GET /pcd/{id}/resolved/{entityType}).
 *
 * - base: schema + base + tweaks.
 * - user: the user layer as field-level overrides of base: every entity of base or resolved, with
 *   `overrides` = diff(base entity, resolved entity) ([] = equal to base).
 * - resolved: the full replay; with includeLineage, per-field lineage.
 */
import type Database from 'better-sqlite3';
import { validationError } from '../../errors';
import { diff, leaves, type FieldChange } from '../diff/diff';
import { entityLineage, type EntityLineageStatus, type LineageEntry } from './lineage/read';
import { entityNames, readEntity } from './entities/read';
import { modelOf, portableTypeForResolved, resolvedTypeOf, type ResolvedEntityType } from './entities/registry';
import type { PortableType } from './entities/types';
import type { PendingConflict } from './replay';

/** What listResolved needs from a replay (ReplayedPcd satisfies it). */
export interface PcdState {
  base: Database.Database;
  resolved: Database.Database;
  conflicts: readonly PendingConflict[];
}

export const LAYERS = ['base', 'user', 'resolved'] as const;
export type ResolvedLayer = (typeof LAYERS)[number];

/** One entity item of the resolved list (the caller adds databaseId). */
export interface ResolvedEntityItem {
  entityType: ResolvedEntityType;
  /** The type in portable form: what export, import and the entity edit routes take. */
  portableType: PortableType;
  name: string;
  layer: ResolvedLayer;
  /** The entity exists in the requested layer. */
  exists: boolean;
  /**
   * The entity's id in the requested layer's database (the key of evaluation results' cfMatches
   * for custom formats); null when it does not exist there or its type has no root row (quality
   * definitions). Beside the portable data, which carries no database ids.
   */
  id: number | null;
  /** Portable data in the requested layer (user: the resolved data); null when it does not exist. */
  entity: Record<string, unknown> | null;
  /** Only for layer user: field changes from base to resolved. */
  overrides?: FieldChange[];
  /** A user op on this entity no longer applies (value guard conflict); its value is not unambiguous. */
  conflict: boolean;
  /** Only with includeLineage and layer resolved. */
  lineage?: LineageEntry[];
  lineageStatus?: EntityLineageStatus;
}

export interface ListResolvedOptions {
  layer?: string;
  arrType?: string | null;
  includeLineage?: boolean;
}

function conflictNames(state: PcdState, type: PortableType): Set<string> {
  return new Set(state.conflicts.filter((c) => c.portableType === type).map((c) => c.name));
}

function parseLayer(layer: string | undefined): ResolvedLayer {
  if (layer === undefined) return 'resolved';
  if (!(LAYERS as readonly string[]).includes(layer)) throw validationError('layer: must be one of base, user, resolved');
  return layer as ResolvedLayer;
}

function item(
  state: PcdState,
  type: PortableType,
  name: string,
  layer: ResolvedLayer,
  includeLineage: boolean,
  conflicts: Set<string>,
): ResolvedEntityItem {
  const model = modelOf(type);
  const { entityType } = resolvedTypeOf(type);
  const conflict = conflicts.has(name);
  if (layer === 'base') {
    const e = readEntity(state.base, type, name);
    return { entityType, portableType: type, name, layer, exists: e !== null, id: e?.routeId ?? null, entity: e?.data ?? null, conflict };
  }
  const resolved = readEntity(state.resolved, type, name);
  if (layer === 'user') {
    const base = readEntity(state.base, type, name);
    return {
      entityType,
      portableType: type,
      name,
      layer,
      exists: resolved !== null,
      id: resolved?.routeId ?? null,
      entity: resolved?.data ?? null,
      overrides: diff(base?.data ?? null, resolved?.data ?? null, model.diffOptions),
      conflict,
    };
  }
  const out: ResolvedEntityItem = { entityType, portableType: type, name, layer, exists: resolved !== null, id: resolved?.routeId ?? null, entity: resolved?.data ?? null, conflict };
  if (includeLineage) {
    if (!resolved) {
      out.lineage = [];
      out.lineageStatus = 'unavailable';
    } else {
      out.lineage = entityLineage(state.resolved, model, resolved.data, resolved.sources, { ambiguous: conflict });
      out.lineageStatus = conflict ? 'ambiguous' : 'available';
    }
  }
  return out;
}

/**
 * Entities of one resolved-list entity type. Throws AppError('validation') for an unknown entity
 * type or layer, and for a missing/refused arrType (see portableTypeForResolved).
 */
export function listResolved(state: PcdState, entityType: string, options: ListResolvedOptions = {}): { entityType: ResolvedEntityType; layer: ResolvedLayer; entities: ResolvedEntityItem[] } {
  const type = portableTypeForResolved(entityType, options.arrType);
  const layer = parseLayer(options.layer);
  const conflicts = conflictNames(state, type);
  let names: string[];
  if (layer === 'base') names = entityNames(state.base, type);
  else if (layer === 'resolved') names = entityNames(state.resolved, type);
  else names = [...new Set([...entityNames(state.base, type), ...entityNames(state.resolved, type)])].sort();
  const includeLineage = options.includeLineage === true && layer === 'resolved';
  return {
    entityType: entityType as ResolvedEntityType,
    layer,
    entities: names.map((name) => item(state, type, name, layer, includeLineage, conflicts)),
  };
}

/** One entity by portable type and name in a layer (absent entities give exists: false). */
export function resolveEntity(
  state: PcdState,
  type: PortableType,
  name: string,
  options: { layer?: string; includeLineage?: boolean } = {},
): ResolvedEntityItem {
  const layer = parseLayer(options.layer);
  return item(state, type, name, layer, options.includeLineage === true && layer === 'resolved', conflictNames(state, type));
}

/** Every leaf field of an entity's payload with its value, in the path notation of overrides and lineage. */
export function entityFields(type: PortableType, data: Record<string, unknown> | null): { path: string; value: unknown }[] {
  return data ? leaves(data, modelOf(type).diffOptions).map(({ path, value }) => ({ path, value })) : [];
}
