import type Database from 'better-sqlite3';
import { diff } from '../diff/diff';
import { entityNames, readEntity } from './entities/read';
import { PORTABLE_TYPES, type PortableType } from './entities/types';

export const ENTITY_STATE_CHANGES = ['added', 'removed', 'changed'] as const;
export type EntityStateChangeKind = (typeof ENTITY_STATE_CHANGES)[number];

export interface EntityStateChange {
  portableType: PortableType;
  name: string;
  /** added: exists now only; removed: existed then only; changed: exists in both with other data. */
  change: EntityStateChangeKind;
  /** The field paths that differ (changed only), at most `fieldLimit`. */
  fields: string[];
  /** How many field paths differ in all (changed only). */
  fieldCount: number;
}

/**
 * The entities that differ between two resolved states (then -> now), by portable type in the
 * schema's order, then by name. Entities are compared by their portable data, so two replays that
 * give the same entities agree whatever their row ids.
 */
export function resolvedStateChanges(then: Database.Database, now: Database.Database, fieldLimit = 20): EntityStateChange[] {
  const changes: EntityStateChange[] = [];
  for (const portableType of PORTABLE_TYPES) {
    const names = new Set([...entityNames(then, portableType), ...entityNames(now, portableType)]);
    for (const name of [...names].sort()) {
      const before = readEntity(then, portableType, name)?.data;
      const after = readEntity(now, portableType, name)?.data;
      if (!before) changes.push({ portableType, name, change: 'added', fields: [], fieldCount: 0 });
      else if (!after) changes.push({ portableType, name, change: 'removed', fields: [], fieldCount: 0 });
      else {
        const fields = diff(before, after).map((c) => c.field);
        if (fields.length) changes.push({ portableType, name, change: 'changed', fields: fields.slice(0, fieldLimit), fieldCount: fields.length });
      }
    }
  }
  return changes;
}
