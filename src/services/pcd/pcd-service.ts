import {
  buildGraph,
  exportEntity,
  listMusicAppMetadataProfiles,
  listResolved,
  parityMap,
  planDelete,
  planFieldEdits,
  planImport,
  planUpdate,
  type GraphOptions,
  type ListResolvedOptions,
  type PortableType,
} from '../../domain/pcd';
import { AppError } from '../../errors';
import type { ServiceDeps } from '../deps';
import { locate, locateDomainErrors, notReadyAsBadRequest, type FieldPlacement } from '../field-errors';
import type { PcdCache } from './cache-manager';
import { assertEntityExists, listUserOps, UserLayerWriter, type StoredUserOp } from './user-ops';

/** An edit of one entity: its whole portable payload, or field-level changes. */
export type EntityEdit = { data: Record<string, unknown> } | { changes: { path: string; value?: unknown }[] };

export type UserOpStatus = 'applied' | 'failed' | 'conflict';

/**
 * The PCD use cases: reading layers, exporting, importing and editing entities in the user layer,
 * the user ops and their replay status, the dependency graph and parity. One instance per process
 * (it serialises user-layer writes per database). Domain validation errors are placed in the
 * request by the caller's FieldPlacement ("query.", "body.data.", ...).
 */
export class PcdService {
  private readonly userLayer: UserLayerWriter;

  constructor(private readonly deps: Pick<ServiceDeps, 'orm' | 'pcdCaches'>) {
    this.userLayer = new UserLayerWriter(deps.orm, deps.pcdCaches);
  }

  /** The cache of a database; "not ready" is a 400 on the read endpoints the spec lists it for. */
  private async readyCache(databaseId: number): Promise<PcdCache> {
    try {
      return await this.deps.pcdCaches.get(databaseId);
    } catch (error) {
      throw notReadyAsBadRequest(error);
    }
  }

  async listResolved(databaseId: number, entityType: string, options: ListResolvedOptions, placement: FieldPlacement) {
    const cache = await this.readyCache(databaseId);
    const list = locateDomainErrors(placement, () => listResolved(cache, entityType, options));
    return { databaseId, entityType: list.entityType, layer: list.layer, cacheStatus: cache.health.status, entities: list.entities.map((e) => ({ databaseId, ...e })) };
  }

  /** The portable entity, and whether the state it comes from is complete (cacheStatus). */
  async exportEntity(databaseId: number, entityType: PortableType, name: string, placement: FieldPlacement) {
    const cache = await this.deps.pcdCaches.get(databaseId);
    try {
      return { entity: exportEntity(cache.resolved, entityType, name), cacheStatus: cache.health.status };
    } catch (error) {
      if (error instanceof AppError && error.kind === 'not_found') throw error;
      throw locate(placement, error);
    }
  }

  async importEntity(request: { databaseId: number; entityType: PortableType; data: Record<string, unknown>; migration?: unknown }, placement: FieldPlacement): Promise<void> {
    await this.userLayer.write(request.databaseId, 'create', (cache) =>
      locateDomainErrors(placement, () => planImport(cache.resolved, { entityType: request.entityType, data: request.data, migration: request.migration })),
    );
  }

  /** Returns false when the edit changes nothing. */
  editEntity(databaseId: number, type: PortableType, name: string, edit: EntityEdit, placement: FieldPlacement): Promise<boolean> {
    return this.userLayer.write(databaseId, 'update', (cache) => {
      assertEntityExists(cache, type, name);
      return locateDomainErrors(placement, () =>
        'data' in edit ? planUpdate(cache.resolved, type, name, edit.data) : planFieldEdits(cache.resolved, type, name, edit.changes.map((c) => ({ path: c.path, value: c.value }))),
      );
    });
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

  async graph(databaseId: number, options: GraphOptions, placement: FieldPlacement) {
    const cache = await this.readyCache(databaseId);
    return { databaseId, ...locateDomainErrors(placement, () => buildGraph(cache.resolved, options)), cacheStatus: cache.health.status };
  }

  async musicAppMetadataProfiles(databaseId: number) {
    return listMusicAppMetadataProfiles((await this.deps.pcdCaches.get(databaseId)).resolved);
  }

  /** The parity map, with per-profile compatibility when a database is given. */
  async parity(databaseId: number | undefined) {
    const cache = databaseId ? await this.readyCache(databaseId) : null;
    return parityMap(cache?.resolved ?? null);
  }
}
