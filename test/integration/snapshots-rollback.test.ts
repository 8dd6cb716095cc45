import fs from 'node:fs';
import path from 'node:path';
import { sortOpFiles } from '../../src/domain/pcd';
import { PcdSnapshot, PcdSnapshotBase } from '../../src/persistence/entities';
import { snapshotChecksum } from '../../src/services/snapshots/snapshot-service';
import { dbKinds } from '../helpers/databases';
import { linkDatabase, SAMPLE_PCD } from '../helpers/fleet';
import { makeGitRepo, type TestGitRepo } from '../helpers/git-repo';
import { eventually, startArrgo, type Harness } from '../helpers/harness';
import { describeWithShared, sharedPath } from '../helpers/shared-data';
import { resolvedState } from '../helpers/resolved-state';

const TRASH = ['data', 'pcd', 'trash-pcd'];

for (const db of dbKinds()) {
  describeWithShared(TRASH, `snapshots and rollback on trash-pcd (${db})`, () => {
    let h: Harness;
    let repo: TestGitRepo;
    let dbId: number;
    let heldBack: string;

    beforeAll(async () => {
      h = await startArrgo({ db });
      const source = sharedPath(...TRASH);
      const opFiles = sortOpFiles(fs.readdirSync(path.join(source, 'ops')));
      heldBack = opFiles[opFiles.length - 1];
      // The repository starts one op file behind; a later commit brings it (a pull with new ops).
      repo = makeGitRepo(source, { only: (rel) => rel !== path.join('ops', heldBack) });
      const linked = await h.post('/databases', { name: 'trash', source: { kind: 'git', url: repo.url, branch: 'main' } });
      expect(linked.status).toBe(201);
      dbId = linked.body.id;
      await eventually(() => h.get(`/databases/${dbId}`), (r) => ['ready', 'failed'].includes(r.body.cache.status), 120_000);
    }, 180_000);
    afterAll(async () => {
      await h?.close();
      repo?.remove();
    });

    it('snapshots every change, rolls back to the first snapshot exactly, and rolls that rollback back', async () => {
      expect((await h.get(`/databases/${dbId}`)).body.cache.status).toBe('ready');
      // The first pull takes no snapshot: there was no state before it.
      expect((await h.get(`/databases/${dbId}/snapshots`)).body.totalRecords).toBe(0);
      const before = await resolvedState(h, dbId);

      // 1. An edit of a profile.
      const profiles = (await h.get(`/pcd/${dbId}/resolved/qualityProfile`)).body.entities;
      const profile = profiles[0].name as string;
      const edit = await h.patch(`/pcd/${dbId}/entities/quality_profile/${encodeURIComponent(profile)}`, { changes: [{ path: 'description', value: 'Edited before a rollback test' }] });
      expect(edit.body).toEqual({ success: true, changed: true });

      // 2. A pull of a new commit with new ops.
      repo.commit({ [path.join('ops', heldBack)]: fs.readFileSync(sharedPath(...TRASH, 'ops', heldBack), 'utf8') }, 'new ops');
      const pulled = await h.post(`/databases/${dbId}/pull?wait=true`);
      expect(pulled.body).toMatchObject({ status: 'ready' });
      expect(pulled.body.database.commit).toBe(repo.head());

      // 3. An import of a format.
      const formats = (await h.get(`/pcd/${dbId}/resolved/customFormat`)).body.entities;
      const exported = await h.get(`/pcd/export?databaseId=${dbId}&entityType=custom_format&name=${encodeURIComponent(formats[0].name)}`);
      expect(exported.status).toBe(200);
      const imported = await h.post('/pcd/import', { databaseId: dbId, layer: 'user', entityType: 'custom_format', data: { ...exported.body.data, name: 'Imported by the rollback test' } });
      expect(imported.body).toEqual({ success: true });
      const after = await resolvedState(h, dbId);
      expect(after).not.toEqual(before);

      const list = await h.get(`/databases/${dbId}/snapshots?pageSize=2`);
      expect(list.body).toMatchObject({ totalRecords: 3, totalPages: 2, hasNext: true, page: 1, pageSize: 2 });
      const all = (await h.get(`/databases/${dbId}/snapshots`)).body.items;
      expect(all.map((s: { subtype: string }) => s.subtype)).toEqual(['import', 'pull', 'edit']);
      const first = all[2];
      expect(first).toMatchObject({ databaseId: dbId, databaseName: 'trash', opCounts: { user: 0 }, stateHash: expect.stringMatching(/^[0-9a-f]{64}$/) });
      expect(all[1].opCounts.user).toBe(1);
      expect(all[0].opCounts.base).toBeGreaterThan(all[2].opCounts.base);
      const detail = await h.get(`/databases/${dbId}/snapshots/${all[0].id}`);
      expect(detail.body.userOps).toHaveLength(1);
      expect(detail.body.userOps[0]).toMatchObject({ kind: 'update', target: { portableType: 'quality_profile', name: profile } });
      const userOps = (await h.get(`/pcd/${dbId}/user-ops`)).body.map((op: { id: number }) => op.id);
      expect(userOps).toHaveLength(2);

      // Roll back to the first snapshot: the state before the edits, entity for entity.
      const rolled = await h.post(`/databases/${dbId}/snapshots/${first.id}/rollback?wait=true`);
      expect(rolled.status).toBe(200);
      expect(rolled.body).toMatchObject({ status: 'success', step: 'done', snapshotId: first.id, error: null, opsReactivated: [] });
      expect(rolled.body.opsUndone).toEqual([...userOps].sort((a, b) => a - b));
      expect(await resolvedState(h, dbId)).toEqual(before);
      const database = (await h.get(`/databases/${dbId}`)).body;
      expect(database.commit).toBe(first.baseCommit);
      // Superseded, not deleted: the user layer is empty but the ops are kept for the way back.
      expect((await h.get(`/pcd/${dbId}/user-ops`)).body).toEqual([]);
      const pre = await h.get(`/databases/${dbId}/snapshots/${rolled.body.preSnapshotId}`);
      expect(pre.body).toMatchObject({ subtype: 'rollback', opCounts: { user: 2 } });

      // Roll the rollback back: the state after the edits returns.
      const undo = await h.post(`/databases/${dbId}/snapshots/${rolled.body.preSnapshotId}/rollback?wait=true`);
      expect(undo.body).toMatchObject({ status: 'success', opsUndone: [] });
      expect(undo.body.opsReactivated).toEqual([...userOps].sort((a, b) => a - b));
      expect(await resolvedState(h, dbId)).toEqual(after);
      expect((await h.get(`/databases/${dbId}`)).body.commit).toBe(repo.head());

      const rollbacks = await h.get(`/databases/${dbId}/rollbacks`);
      expect(rollbacks.body.items.map((r: { id: number; status: string }) => [r.id, r.status])).toEqual([
        [undo.body.id, 'success'],
        [rolled.body.id, 'success'],
      ]);
      // Operators find rollbacks in the Temporal Web UI by kind and database.
      const workflows = await eventually(async () => {
        const found: string[] = [];
        for await (const wf of h.service.temporal.client.workflow.list({ query: `ArrgoKind = 'pcd-rollback' AND ArrgoDatabaseId = ${dbId} AND TaskQueue = '${h.taskQueue}'` })) found.push(wf.workflowId);
        return found;
      }, (found) => found.length === 2);
      expect(workflows).toHaveLength(2);
    }, 300_000);

    it('refuses a rollback while a pull or another rollback is in flight, and a corrupt snapshot fails leaving the database untouched', async () => {
      const snapshots = (await h.get(`/databases/${dbId}/snapshots`)).body.items;
      const target = snapshots[snapshots.length - 1];
      // A workflow of an unregistered type stays running: it holds the pull's (then the rollback's) id.
      const hold = async (workflowId: string, check: () => Promise<void>) => {
        const handle = await h.service.temporal.client.workflow.start('heldForTest', { taskQueue: h.taskQueue, workflowId, args: [] });
        try {
          await check();
        } finally {
          await handle.terminate();
        }
      };
      await hold(`${h.taskQueue}-pcd-pull-${dbId}`, async () => {
        const refused = await h.post(`/databases/${dbId}/snapshots/${target.id}/rollback`);
        expect(refused.status).toBe(409);
        expect(refused.body.error).toBe(`Database ${dbId} is being pulled; roll back once the pull has finished`);
      });
      await hold(`${h.taskQueue}-pcd-rollback-${dbId}`, async () => {
        const refused = await h.post(`/databases/${dbId}/snapshots/${target.id}/rollback`);
        expect(refused.status).toBe(409);
        expect(refused.body.error).toBe(`A rollback of database ${dbId} is already running`);
        const pull = await h.post(`/databases/${dbId}/pull`);
        expect(pull.status).toBe(409);
        expect(pull.body.error).toBe(`A rollback of database ${dbId} is running; pull once it has finished`);
      });
      // Refused rollbacks leave no record.
      expect((await h.get(`/databases/${dbId}/rollbacks`)).body.totalRecords).toBe(2);

      // A revert is a change of state too: snapshotted first.
      const ops = (await h.get(`/pcd/${dbId}/user-ops`)).body;
      expect((await h.del(`/pcd/${dbId}/user-ops/${ops[1].id}`)).status).toBe(204);
      const afterRevert = (await h.get(`/databases/${dbId}/snapshots`)).body.items[0];
      expect(afterRevert).toMatchObject({ subtype: 'revert', opCounts: { user: 2 } });
      // Edits wait for a running rollback (409).
      const em = h.service.orm.em.fork();
      await em.getConnection().execute(`update pcd_rollbacks set status = 'running' where id = ${(await h.get(`/databases/${dbId}/rollbacks`)).body.items[0].id}`);
      const blocked = await h.del(`/pcd/${dbId}/user-ops/${ops[0].id}`);
      expect(blocked.status).toBe(409);
      expect(blocked.body.error).toBe(`A rollback of database ${dbId} is running; edit once it has finished`);
      await em.getConnection().execute(`update pcd_rollbacks set status = 'success' where status = 'running'`);

      const manual = await h.post(`/databases/${dbId}/snapshots`, { note: 'before the corrupt test' });
      expect(manual.status).toBe(201);
      expect(manual.body).toMatchObject({ subtype: 'manual', note: 'before the corrupt test' });
      const state = await resolvedState(h, dbId);
      await h.service.orm.em.fork().getConnection().execute(`update pcd_snapshots set checksum = '${'0'.repeat(64)}' where id = ${target.id}`);
      const failed = await h.post(`/databases/${dbId}/snapshots/${target.id}/rollback?wait=true`);
      expect(failed.body).toMatchObject({ status: 'failed', error: 'The snapshot failed its integrity check; nothing was changed', preSnapshotId: null, opsUndone: [], opsReactivated: [] });
      expect(await resolvedState(h, dbId)).toEqual(state);
    }, 300_000);

    it('validates input and applies retention', async () => {
      expect((await h.post(`/databases/${dbId}/snapshots`, { note: 'x'.repeat(501) })).status).toBe(400);
      expect((await h.post(`/databases/999999/snapshots`, {})).status).toBe(404);
      expect((await h.get(`/databases/${dbId}/snapshots/999999`)).status).toBe(404);
      expect((await h.post(`/databases/${dbId}/snapshots/999999/rollback`)).status).toBe(404);
      expect((await h.patch('/snapshots/settings', { maxPerDatabase: 0 })).status).toBe(400);
      const settings = await h.patch('/snapshots/settings', { maxPerDatabase: 2 });
      expect(settings.body).toEqual({ maxPerDatabase: 2, retentionDays: 0 });
      const newest = await h.post(`/databases/${dbId}/snapshots`, { note: 'newest' });
      const list = await h.get(`/databases/${dbId}/snapshots`);
      // The two newest are kept, and the snapshot the database is pinned to by the last rollback.
      const pinned = (await h.get(`/databases/${dbId}`)).body.pinnedSnapshotId;
      expect(pinned).toEqual(expect.any(Number));
      expect(list.body.items.map((s: { id: number }) => s.id)).toEqual([newest.body.id, newest.body.id - 1, pinned]);
      // A pull ends the pin; the next snapshot prunes the formerly pinned one.
      await h.post(`/databases/${dbId}/pull?wait=true`);
      expect((await h.get(`/databases/${dbId}`)).body.pinnedSnapshotId).toBeNull();
      await h.post(`/databases/${dbId}/snapshots`, {});
      expect((await h.get(`/databases/${dbId}/snapshots`)).body.totalRecords).toBe(2);
      // Age: snapshots older than retentionDays go at the next snapshot.
      expect((await h.patch('/snapshots/settings', { maxPerDatabase: 10, retentionDays: 30 })).body).toEqual({ maxPerDatabase: 10, retentionDays: 30 });
      const old = (await h.get(`/databases/${dbId}/snapshots`)).body.items[1].id;
      await h.service.orm.em.fork().nativeUpdate(PcdSnapshot, { id: old }, { createdAt: new Date(Date.now() - 31 * 86_400_000) });
      const latest = await h.post(`/databases/${dbId}/snapshots`, {});
      const kept = (await h.get(`/databases/${dbId}/snapshots`)).body.items.map((x: { id: number }) => x.id);
      expect(kept).toHaveLength(2);
      expect(kept).not.toContain(old);
      expect(kept[0]).toBe(latest.body.id);
      expect((await h.get('/snapshots/settings')).body).toEqual({ maxPerDatabase: 10, retentionDays: 30 });
    }, 120_000);
  });
}

for (const db of dbKinds()) {
  describe(`a rollback that fails after restoring (${db})`, () => {
    let h: Harness;
    let dbId: number;

    beforeAll(async () => {
      h = await startArrgo({ db });
      dbId = await linkDatabase(h, 'sample', SAMPLE_PCD);
    }, 120_000);
    afterAll(async () => {
      await h?.close();
    });

    it('puts the database back as it was and records failed', async () => {
      const snapshot = await h.post(`/databases/${dbId}/snapshots`, {});
      const edit = await h.patch(`/pcd/${dbId}/entities/regular_expression/Atmos`, { changes: [{ path: 'description', value: 'Edited after the snapshot' }] });
      expect(edit.body.changed).toBe(true);
      const before = await resolvedState(h, dbId);
      const userOps = (await h.get(`/pcd/${dbId}/user-ops`)).body;

      // A snapshot whose recorded state hash no rebuild can match (sealed again, so it passes the integrity check).
      const em = h.service.orm.em.fork();
      const row = await em.findOneOrFail(PcdSnapshot, { id: snapshot.body.id }, { populate: ['userOps'] });
      const base = await em.findOneOrFail(PcdSnapshotBase, { id: row.baseId });
      row.stateHash = 'f'.repeat(64);
      row.checksum = snapshotChecksum({ baseDigest: base.digest, baseCommit: row.baseCommit, userOps: row.userOps, baseOpCount: row.baseOpCount, tweakOpCount: row.tweakOpCount, userOpCount: row.userOpCount, stateHash: row.stateHash });
      await em.flush();

      const failed = await h.post(`/databases/${dbId}/snapshots/${snapshot.body.id}/rollback?wait=true`);
      expect(failed.status).toBe(200);
      expect(failed.body).toMatchObject({
        status: 'failed',
        step: 'done',
        error: 'The rebuilt state did not match the snapshot; the database was put back as it was before the rollback',
        opsUndone: [],
        opsReactivated: [],
        preSnapshotId: expect.any(Number),
      });
      expect(await resolvedState(h, dbId)).toEqual(before);
      expect((await h.get(`/pcd/${dbId}/user-ops`)).body.map((op: { id: number }) => op.id)).toEqual(userOps.map((op: { id: number }) => op.id));
      expect((await h.get(`/databases/${dbId}`)).body.pinnedSnapshotId).toBeNull();
    }, 120_000);

    it('brings back a reverted edit with its id when rolling back to a snapshot that had it', async () => {
      const [edit] = (await h.get(`/pcd/${dbId}/user-ops`)).body;
      const withEdit = await resolvedState(h, dbId);
      const snapshot = await h.post(`/databases/${dbId}/snapshots`, { note: 'with the edit' });
      expect((await h.del(`/pcd/${dbId}/user-ops/${edit.id}`)).status).toBe(204);
      expect((await h.get(`/pcd/${dbId}/user-ops`)).body).toEqual([]);
      expect((await h.get(`/databases/${dbId}/snapshots`)).body.items[0]).toMatchObject({ subtype: 'revert', opCounts: { user: 1 } });
      const rolled = await h.post(`/databases/${dbId}/snapshots/${snapshot.body.id}/rollback?wait=true`);
      expect(rolled.body).toMatchObject({ status: 'success', opsUndone: [], opsReactivated: [edit.id] });
      expect((await h.get(`/pcd/${dbId}/user-ops`)).body.map((op: { id: number; sql: string }) => [op.id, op.sql])).toEqual([[edit.id, edit.sql]]);
      expect(await resolvedState(h, dbId)).toEqual(withEdit);
    }, 120_000);
  });
}
