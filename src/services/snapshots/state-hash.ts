import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import { entityNames, PORTABLE_TYPES, readEntity } from '../../domain/pcd';
import type { PcdCache } from '../pcd/cache-manager';

/** JSON with object keys sorted, so equal states always serialise to equal text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * Digest of a resolved state: every entity of every portable type, by name, as its portable data.
 * Row ids of the replay database are left out, so two replays that give the same entities agree.
 */
export function resolvedStateDigest(resolved: Database.Database): string {
  const hash = createHash('sha256');
  for (const type of PORTABLE_TYPES) {
    for (const name of [...entityNames(resolved, type)].sort()) {
      hash.update(`${type}\u0000${name}\u0000${canonicalJson(readEntity(resolved, type, name)?.data ?? null)}\n`);
    }
  }
  return hash.digest('hex');
}

/** The cache's state hash, computed once per cache state. */
export function cacheStateHash(cache: PcdCache): string {
  return cache.memo('stateHash', () => resolvedStateDigest(cache.resolved));
}
