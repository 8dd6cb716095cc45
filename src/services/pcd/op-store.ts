import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import type { PcdOp as DomainOp, UserOp } from '../../domain/pcd';
import { isPortableType } from '../../domain/pcd';
import { PcdDatabase, PcdOp, type PcdOpLayer } from '../../persistence/entities';

export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export interface ImportSummary {
  changed: boolean;
  inserted: number;
  removed: number;
  kept: number;
}

/**
 * Makes the stored file-layer ops (schema, base, tweaks; only the layers given) of a database
 * equal to the parsed repository (schema: its fetched schema dependency).
 * Unchanged ops keep their row (and id, so lineage op ids are stable across pulls); changed and
 * new ops get new rows; ops no longer in the repository are removed. Idempotent: a retried import
 * finds nothing to do. Bumps the database's contentVersion when anything changed.
 */
export async function importFileLayerOps(
  em: EntityManager,
  databaseId: number,
  layers: { schema?: DomainOp[]; base?: DomainOp[]; tweaks?: DomainOp[] },
): Promise<ImportSummary> {
  return em.transactional((tx) => replaceFileLayerOps(tx, databaseId, layers));
}

/** importFileLayerOps inside a transaction the caller holds (a rollback restores ops and user ops at once). */
export async function replaceFileLayerOps(
  tx: EntityManager,
  databaseId: number,
  layers: { schema?: DomainOp[]; base?: DomainOp[]; tweaks?: DomainOp[] },
): Promise<ImportSummary> {
  const summary: ImportSummary = { changed: false, inserted: 0, removed: 0, kept: 0 };
  for (const layer of ['schema', 'base', 'tweaks'] as const) {
    const ops = layers[layer];
    if (!ops) continue;
    const existing = await tx.find(PcdOp, { databaseId, layer });
    const byIdentity = new Map(existing.map((op) => [fileOpIdentity(op.file, op.position, op.sha256), op]));
    const keep = new Set<PcdOp>();
    ops.forEach((op, index) => {
      const hash = sha256(op.sql);
      const found = byIdentity.get(fileOpIdentity(op.file, op.position ?? index + 1, hash));
      if (found && !keep.has(found)) {
        keep.add(found);
        if (found.seq !== index + 1) found.seq = index + 1;
        summary.kept++;
        return;
      }
      tx.create(PcdOp, {
        databaseId,
        layer: layer as PcdOpLayer,
        file: op.file,
        seq: index + 1,
        position: op.position ?? index + 1,
        markerId: op.markerId ?? null,
        label: op.target ? `${op.target.verb ?? 'op'} ${op.target.entityType} "${op.target.name}"`.slice(0, 500) : null,
        sql: op.sql,
        sha256: hash,
        targetType: op.target?.entityType ?? null,
        targetName: op.target?.name ?? null,
        kind: op.target?.verb ?? null,
        createdAt: new Date(),
      });
      summary.inserted++;
    });
    for (const op of existing) {
      if (!keep.has(op)) {
        tx.remove(op);
        summary.removed++;
      }
    }
  }
  summary.changed = summary.inserted > 0 || summary.removed > 0;
  if (summary.changed) {
    const database = await tx.findOneOrFail(PcdDatabase, { id: databaseId });
    database.contentVersion += 1;
    database.updatedAt = new Date();
  }
  await tx.flush();
  return summary;
}

/** Identity of a file-layer op: the import keeps a row whose identity is unchanged. */
function fileOpIdentity(file: string | null, position: number, hash: string): string {
  return `${file}#${position}#${hash}`;
}

/** Whether importing these file-layer ops would insert or remove any stored op (a pull that brings new ops). */
export async function fileLayerOpsDiffer(em: EntityManager, databaseId: number, layers: { schema?: DomainOp[]; base?: DomainOp[]; tweaks?: DomainOp[] }): Promise<boolean> {
  for (const layer of ['schema', 'base', 'tweaks'] as const) {
    const ops = layers[layer];
    if (!ops) continue;
    const stored = await em.find(PcdOp, { databaseId, layer }, { fields: ['file', 'position', 'sha256'] });
    const wanted = ops.map((op, index) => fileOpIdentity(op.file, op.position ?? index + 1, sha256(op.sql))).sort();
    const have = stored.map((op) => fileOpIdentity(op.file, op.position, op.sha256)).sort();
    if (wanted.length !== have.length || wanted.some((w, i) => w !== have[i])) return true;
  }
  return false;
}

export interface StoredLayers {
  /** The schema dependency's ops; empty when the bundled schema stands in. */
  schema: DomainOp[];
  base: DomainOp[];
  tweaks: DomainOp[];
  user: UserOp[];
}

/** The ops a cache build replays, in order, as the domain expects them. */
export async function loadStoredLayers(em: EntityManager, databaseId: number): Promise<StoredLayers> {
  const rows = await em.find(PcdOp, { databaseId, supersededBy: null }, { orderBy: { layer: 'asc', seq: 'asc' } });
  const schema: DomainOp[] = [];
  const base: DomainOp[] = [];
  const tweaks: DomainOp[] = [];
  const user: UserOp[] = [];
  for (const row of rows) {
    const target = row.targetType && row.targetName ? { entityType: row.targetType, name: row.targetName, verb: row.kind } : null;
    if (row.layer === 'schema') {
      schema.push({ layer: 'schema', id: null, file: row.file, position: row.position, markerId: row.markerId, target, sql: row.sql });
    } else if (row.layer === 'base') {
      base.push({ layer: 'base', id: row.id, file: row.file, position: row.position, markerId: row.markerId, target, sql: row.sql });
    } else if (row.layer === 'tweaks') {
      tweaks.push({ layer: 'tweaks', id: null, file: row.file, position: row.position, markerId: row.markerId, target, sql: row.sql });
    } else if (row.layer === 'user' && row.targetType && isPortableType(row.targetType) && row.targetName) {
      user.push({ id: row.id, sql: row.sql, target: { portableType: row.targetType, name: row.targetName } });
    }
  }
  return { schema, base, tweaks, user };
}
