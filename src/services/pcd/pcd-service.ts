import { editEffects } from '../drift/drift-after-edit';
import {
  buildGraph,
  entityExists,
  entityFields,
  conflictDetails,
  exportEntity,
  listMusicAppMetadataProfiles,
  listResolved,
  parityMap,
  planDelete,
  planFieldEdits,
  planImport,
  planUpdate,
  readEntity,
  resolveEntity,
  resolvedTypeOf,
  type GraphOptions,
  type ListResolvedOptions,
  type PortableType,
} from '../../domain/pcd';
import { unevaluablePatternWarning } from '../../domain/evaluation';
import { AppError, notFound } from '../../errors';
import type { ServiceDeps } from '../deps';
import { locate, locateDomainErrors, notReadyAsBadRequest, type FieldPlacement } from '../field-errors';
import type { PcdCache } from './cache-manager';
import { ReadViewMemo, serializeView, type SerializedView } from './read-views';
import { assertEntityExists, listUserOps, UserLayerWriter, type StoredUserOp } from './user-ops';

/** An edit of one entity: its whole portable payload, or field-level changes. */
export type EntityEdit = { data: Record<string, unknown> } | { changes: { path: string; value?: unknown }[] };

export type UserOpStatus = 'applied' | 'failed' | 'conflict';

/** Header saying whether the state a read comes from is complete (ready, degraded or failed). */
export const CACHE_STATUS_HEADER = 'X-Arrgo-Cache-Status';

/**
 * The PCD use cases: reading layers, exporting, importing and editing entities in the user layer,
 * the user ops and their replay status, the dependency graph and parity. One instance per process
 * (it serialises user-layer writes per database). Domain validation errors are placed in the
 * request by the caller's FieldPlacement ("query.", "body.data.", ...).
 *
 * Reads over the cache (resolved lists, export, graph, metadata profiles, parity) answer serialized
 * views memoized per cache state (ReadViewMemo), keyed by the normalized query.
 */
export class PcdService {
  private readonly userLayer: UserLayerWriter;
  private readonly views: ReadViewMemo;
  private plainParity: SerializedView | null = null;

  constructor(private readonly deps: Pick<ServiceDeps, 'orm' | 'pcdCaches' | 'config' | 'outbox'>) {
    this.userLayer = new UserLayerWriter(deps.orm, deps.pcdCaches, editEffects(deps));
    this.views = new ReadViewMemo(deps.config.readViewCacheBytes);
  }

  /** The cache of a database; "not ready" is a 400 on the read endpoints the spec lists it for. */
  private async readyCache(databaseId: number): Promise<PcdCache> {
    try {
      return await this.deps.pcdCaches.get(databaseId);
    } catch (error) {
      throw notReadyAsBadRequest(error);
    }
  }

  async listResolved(databaseId: number, entityType: string, options: ListResolvedOptions, placement: FieldPlacement): Promise<SerializedView> {
    const cache = await this.readyCache(databaseId);
    const key = `resolved:${entityType}:${options.layer ?? 'resolved'}:${options.arrType ?? ''}:${options.includeLineage ? 1 : 0}`;
    return this.views.view(cache, key, () => {
      const list = locateDomainErrors(placement, () => listResolved(cache, entityType, options));
      return {
        body: { databaseId, entityType: list.entityType, layer: list.layer, cacheStatus: cache.health.status, entities: list.entities.map((e) => ({ databaseId, ...e })) },
        headers: cacheStatusHeader(cache),
      };
    });
  }

  /**
   * One entity in a layer (lineage with layer resolved), and on a pending conflict what each stale
   * op would change: the user's value beside upstream's, so a client can keep either.
   */
  async entity(databaseId: number, type: PortableType, name: string, options: { layer?: string; includeLineage?: boolean }, placement: FieldPlacement): Promise<SerializedView> {
    const cache = await this.readyCache(databaseId);
    const item = locateDomainErrors(placement, () => resolveEntity(cache, type, name, options));
    if (!entityExists(cache.resolved, type, name) && !entityExists(cache.base, type, name)) throw notFound(`${type} "${name}" not found in database ${databaseId}`);
    const ops = item.conflict ? await listUserOps(this.deps.orm.em.fork(), databaseId) : [];
    const kinds = new Map(ops.map((op) => [op.id, op.kind]));
    const pendingConflicts = conflictDetails(cache, type, name, new Map(ops.map((op) => [op.id, op.sql]))).map((c) => ({ ...c, kind: kinds.get(c.opId) ?? null }));
    return serializeView({ databaseId, ...item, arrType: resolvedTypeOf(type).arrType, fields: entityFields(type, item.entity), pendingConflicts }, cacheStatusHeader(cache));
  }

  /** The portable entity; the cache-status header says whether the state it comes from is complete. */
  async exportEntity(databaseId: number, entityType: PortableType, name: string, placement: FieldPlacement): Promise<SerializedView> {
    const cache = await this.deps.pcdCaches.get(databaseId);
    return this.views.view(cache, `export:${entityType}:${name}`, () => {
      try {
        return { body: exportEntity(cache.resolved, entityType, name), headers: cacheStatusHeader(cache) };
      } catch (error) {
        if (error instanceof AppError && error.kind === 'not_found') throw error;
        throw locate(placement, error);
      }
    });
  }

  /** Returns the warnings of the stored entity (a regular expression custom-format evaluation refuses). */
  async importEntity(request: { databaseId: number; entityType: PortableType; data: Record<string, unknown>; migration?: unknown }, placement: FieldPlacement): Promise<{ warnings: string[] }> {
    await this.userLayer.write(request.databaseId, 'create', (cache) =>
      locateDomainErrors(placement, () => planImport(cache.resolved, { entityType: request.entityType, data: request.data, migration: request.migration })),
    );
    return { warnings: request.entityType === 'regular_expression' ? await this.patternWarnings(request.databaseId, String(request.data.name)) : [] };
  }

  /** changed false when the edit changes nothing; warnings as for importEntity. */
  async editEntity(databaseId: number, type: PortableType, name: string, edit: EntityEdit, placement: FieldPlacement): Promise<{ changed: boolean; warnings: string[] }> {
    const changed = await this.userLayer.write(databaseId, 'update', (cache) => {
      assertEntityExists(cache, type, name);
      return locateDomainErrors(placement, () =>
        'data' in edit ? planUpdate(cache.resolved, type, name, edit.data) : planFieldEdits(cache.resolved, type, name, edit.changes.map((c) => ({ path: c.path, value: c.value }))),
      );
    });
    if (type !== 'regular_expression' || !changed) return { changed, warnings: [] };
    const renamed = 'data' in edit ? edit.data.name : edit.changes.find((c) => c.path === 'name')?.value;
    return { changed, warnings: await this.patternWarnings(databaseId, typeof renamed === 'string' ? renamed : name) };
  }

  /**
   * A stored pattern that custom-format evaluation cannot answer as the apps do is reported when it
   * is imported or edited, with the construct named (docs/evaluation.md, ".NET regular expressions").
   */
  private async patternWarnings(databaseId: number, name: string): Promise<string[]> {
    const cache = await this.deps.pcdCaches.get(databaseId);
    const entity = readEntity(cache.resolved, 'regular_expression', name);
    const pattern = entity && 'pattern' in entity.data ? String(entity.data.pattern) : null;
    const warning = pattern === null ? null : unevaluablePatternWarning(name, pattern);
    return warning === null ? [] : [warning];
  }

  async deleteEntity(databaseId: number, type: PortableType, name: string): Promise<void> {
    await this.userLayer.write(databaseId, 'delete', (cache) => {
      assertEntityExists(cache, type, name);
      return planDelete(cache.resolved, type, name);
    });
  }

  /** The user layer in order, each op with how it replays on the current base. */
  async userOps(databaseId: number): Promise<(StoredUserOp & { outcome: { status: UserOpStatus; reason: string | null } })[]> {
    const cache = await this.deps.pcdCaches.get(databaseId);
    const outcomes = new Map(cache.outcomes.filter((o) => o.layer === 'user').map((o) => [o.id, o]));
    const conflicts = new Set(cache.conflicts.map((c) => c.opId));
    const ops = await listUserOps(this.deps.orm.em, databaseId);
    return ops.map((op) => {
      const outcome = outcomes.get(op.id);
      const status: UserOpStatus = conflicts.has(op.id) ? 'conflict' : outcome?.status === 'failed' ? 'failed' : 'applied';
      return { ...op, outcome: { status, reason: outcome?.reason ?? null } };
    });
  }

  revertUserOp(databaseId: number, opId: number): Promise<void> {
    return this.userLayer.revert(databaseId, opId);
  }

  async graph(databaseId: number, options: GraphOptions, placement: FieldPlacement): Promise<SerializedView> {
    const cache = await this.readyCache(databaseId);
    return this.views.view(cache, `graph:${options.arrType ?? ''}:${options.nodeKind ?? ''}:${options.maxEdges}`, () => ({
      body: { databaseId, ...locateDomainErrors(placement, () => buildGraph(cache.resolved, options)), cacheStatus: cache.health.status },
      headers: cacheStatusHeader(cache),
    }));
  }

  async musicAppMetadataProfiles(databaseId: number): Promise<SerializedView> {
    const cache = await this.deps.pcdCaches.get(databaseId);
    return this.views.view(cache, 'music-app-metadata-profiles', () => ({ body: listMusicAppMetadataProfiles(cache.resolved) }));
  }

  /** The parity map, with per-profile compatibility when a database is given. */
  async parity(databaseId: number | undefined): Promise<SerializedView> {
    if (!databaseId) return (this.plainParity ??= serializeView(parityMap(null)));
    const cache = await this.readyCache(databaseId);
    return this.views.view(cache, 'parity', () => ({ body: parityMap(cache.resolved) }));
  }
}

function cacheStatusHeader(cache: PcdCache): Record<string, string> {
  return { [CACHE_STATUS_HEADER]: cache.health.status };
}
