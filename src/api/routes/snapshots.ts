import { RollbackService } from '../../services/snapshots/rollback-service';
import { SnapshotService, toSnapshotView } from '../../services/snapshots/snapshot-service';
import { conflict } from '../../errors';
import type { ApiDeps } from '../deps';
import { page, paginated, paginationQuery } from '../http/pagination';
import type { ApiRouter } from '../http/route';
import { waitedResponse, waitMs, waitQuery } from '../http/wait';
import { idParam, integerQuery, z } from '../http/zod';
import { RollbackSchema, SNAPSHOT_CHANGES_LIMIT_MAX, SnapshotChangesSchema, SnapshotCreateSchema, SnapshotDetailSchema, SnapshotSchema, SnapshotSettingsBodySchema, SnapshotSettingsPatchSchema } from '../schemas/snapshots';

const tags = ['Snapshots'];
const DatabaseParams = z.object({ id: idParam() });
const SnapshotParams = z.object({ id: idParam(), snapshotId: idParam() });

export function registerSnapshotRoutes(router: ApiRouter, deps: ApiDeps): void {
  const snapshots = SnapshotService.of(deps);
  const rollbacks = RollbackService.of(deps);

  router.add({
    method: 'post',
    path: '/databases/{id}/snapshots',
    operationId: 'createSnapshot',
    summary: 'Take a snapshot of a database now (subtype manual)',
    description:
      'Snapshots are also taken automatically before every change of state: a pull that brings new ops (pull), an import, an edit, a revert, a goal apply (goal) and a rollback (rollback). A snapshot records the base commit, the base/tweak op set, the user op set, op counts and the resolved-state hash.',
    tags,
    params: DatabaseParams,
    body: SnapshotCreateSchema,
    responses: {
      201: { description: 'The snapshot', schema: SnapshotSchema },
      404: { description: 'No such database' },
      409: { description: 'The database has never been pulled: there is no state to snapshot' },
    },
    handler: async ({ params, body }) => {
      const snapshot = await snapshots.takeSnapshot(params.id, 'manual', body.note ?? null);
      if (!snapshot) throw conflict(`Database ${params.id} has not been pulled yet: there is no state to snapshot`);
      return { status: 201, body: toSnapshotView(snapshot) };
    },
  });

  router.add({
    method: 'get',
    path: '/databases/{id}/snapshots',
    operationId: 'listSnapshots',
    summary: 'Snapshots of a database, newest first',
    tags,
    params: DatabaseParams,
    query: z.object({ ...paginationQuery }).strict(),
    responses: { 200: { description: 'A page of snapshots', schema: paginated(SnapshotSchema) }, 404: { description: 'No such database' } },
    handler: async ({ params, query }) => {
      const { items, total } = await snapshots.list(params.id, query.page, query.pageSize);
      return { body: page(items, total, query.page, query.pageSize) };
    },
  });

  router.add({
    method: 'get',
    path: '/databases/{id}/snapshots/{snapshotId}',
    operationId: 'getSnapshot',
    summary: 'One snapshot with its user op set',
    tags,
    params: SnapshotParams,
    responses: { 200: { description: 'The snapshot', schema: SnapshotDetailSchema }, 404: { description: 'No such database or snapshot' } },
    handler: async ({ params }) => ({ body: await snapshots.get(params.id, params.snapshotId) }),
  });

  router.add({
    method: 'get',
    path: '/databases/{id}/snapshots/{snapshotId}/changes',
    operationId: 'getSnapshotChanges',
    summary: 'What differs between a snapshot and the database now, by entity (what a rollback to it would change)',
    description:
      'The snapshot\'s op set is replayed (on the current base when the file layers are the same, else from the schema up) and its resolved state compared, entity by entity, with the current one. Beyond the spec.',
    tags,
    params: SnapshotParams,
    query: z
      .object({
        limit: integerQuery(1, SNAPSHOT_CHANGES_LIMIT_MAX)
          .optional()
          .default('200')
          .openapi({ description: `Entities listed at most, 1 to ${SNAPSHOT_CHANGES_LIMIT_MAX} (default 200); total and truncated say how many differ in all` }),
      })
      .strict(),
    responses: {
      200: { description: 'The entities that differ', schema: SnapshotChangesSchema },
      404: { description: 'No such database or snapshot' },
      409: { description: 'The snapshot failed its integrity check (snapshot_corrupt)' },
      503: { description: 'The database cache is not available' },
    },
    handler: async ({ params, query }) => ({ body: await snapshots.changes(params.id, params.snapshotId, query.limit) }),
  });

  router.add({
    method: 'post',
    path: '/databases/{id}/snapshots/{snapshotId}/rollback',
    operationId: 'rollbackToSnapshot',
    summary: 'Roll the database back to a snapshot (a Temporal workflow)',
    description: [
      'Steps, in order: verify the snapshot integrity; take a pre-rollback snapshot (subtype rollback); restore the op set (user ops newer than the snapshot are superseded, never deleted, so the rollback can itself be rolled back to its pre-rollback snapshot; the database is pinned to the snapshot base until the next pull); rebuild the cache; verify that the cache state hash equals the snapshot one; record the rollback.',
      'A failure part-way puts the database back as it was before the rollback and the record says failed.',
      'To see what the rollback means for the apps, preview a sync (POST /sync/previews) for the instances fed by the database.',
    ].join(' '),
    tags,
    params: SnapshotParams,
    query: z.object(waitQuery('the rollback has finished')).strict(),
    responses: {
      200: { description: 'Finished (wait=true): the rollback record, status success or failed', schema: RollbackSchema },
      202: { description: 'Started (not waited for, or the wait bound passed): follow GET /databases/{id}/rollbacks/{rollbackId}', schema: RollbackSchema },
      404: { description: 'No such database or snapshot' },
      409: { description: 'A pull or another rollback of the database is in flight' },
    },
    handler: async ({ params, query }) => waitedResponse(await rollbacks.start(params.id, params.snapshotId, waitMs(query))),
  });

  router.add({
    method: 'get',
    path: '/databases/{id}/rollbacks',
    operationId: 'listRollbacks',
    summary: 'Rollbacks of a database, newest first',
    tags,
    params: DatabaseParams,
    query: z.object({ ...paginationQuery }).strict(),
    responses: { 200: { description: 'A page of rollbacks', schema: paginated(RollbackSchema) }, 404: { description: 'No such database' } },
    handler: async ({ params, query }) => {
      const { items, total } = await rollbacks.list(params.id, query.page, query.pageSize);
      return { body: page(items, total, query.page, query.pageSize) };
    },
  });

  router.add({
    method: 'get',
    path: '/databases/{id}/rollbacks/{rollbackId}',
    operationId: 'getRollback',
    summary: 'One rollback: status, step reached, ops undone and reactivated, and its two snapshots',
    tags,
    params: z.object({ id: idParam(), rollbackId: idParam() }),
    responses: { 200: { description: 'The rollback', schema: RollbackSchema }, 404: { description: 'No such database or rollback' } },
    handler: async ({ params }) => ({ body: await rollbacks.get(params.id, params.rollbackId) }),
  });

  router.add({
    method: 'post',
    path: '/databases/{id}/rollbacks/{rollbackId}/undo',
    operationId: 'undoRollback',
    summary: 'Undo a finished rollback: roll the database back to the snapshot taken just before it (a new rollback, trigger undo)',
    description:
      'Runs the rollback workflow to the rollback\'s preSnapshotId, with all its steps (a pre-rollback snapshot of its own, so an undo can itself be undone). Beyond the spec.',
    tags,
    params: z.object({ id: idParam(), rollbackId: idParam() }),
    query: z.object(waitQuery('the undo has finished')).strict(),
    responses: {
      200: { description: 'Finished (wait=true): the new rollback record, status success or failed', schema: RollbackSchema },
      202: { description: 'Started (not waited for, or the wait bound passed): follow GET /databases/{id}/rollbacks/{rollbackId} with the new id', schema: RollbackSchema },
      404: { description: 'No such database or rollback' },
      409: { description: 'The rollback is still running, failed (nothing to undo: rollback_not_undoable), its pre-rollback snapshot was pruned, or a pull or another rollback of the database is in flight' },
    },
    handler: async ({ params, query }) => waitedResponse(await rollbacks.undo(params.id, params.rollbackId, waitMs(query))),
  });

  router.add({
    method: 'get',
    path: '/snapshots/settings',
    operationId: 'getSnapshotSettings',
    summary: 'Snapshot retention',
    tags,
    responses: { 200: { description: 'The settings', schema: SnapshotSettingsBodySchema } },
    handler: async () => ({ body: await snapshots.settings() }),
  });

  router.add({
    method: 'patch',
    path: '/snapshots/settings',
    operationId: 'updateSnapshotSettings',
    summary: 'Change snapshot retention (applied after each new snapshot; snapshots a rollback refers to are kept)',
    tags,
    body: SnapshotSettingsPatchSchema,
    responses: { 200: { description: 'The settings now in force', schema: SnapshotSettingsBodySchema } },
    handler: async ({ body }) => ({ body: await snapshots.updateSettings(body) }),
  });
}
