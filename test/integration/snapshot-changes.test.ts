import fs from 'node:fs';
import path from 'node:path';
import { linkDatabase, SAMPLE_PCD } from '../helpers/fleet';
import { makeGitRepo } from '../helpers/git-repo';
import { eventually, startArrgo, type Harness } from '../helpers/harness';
import { resolvedState } from '../helpers/resolved-state';

describe('what changed since a snapshot, and undoing a rollback', () => {
  let h: Harness;
  let dbId: number;

  beforeAll(async () => {
    h = await startArrgo();
    dbId = await linkDatabase(h, 'sample', SAMPLE_PCD);
  });
  afterAll(async () => h?.close());

  it('lists the entities that differ by type and name, rolls back to no difference, and the undo brings the edits back', async () => {
    const taken = await h.post(`/databases/${dbId}/snapshots`, { note: 'before the edits' });
    expect(taken.status).toBe(201);
    const snapshotId = taken.body.id as number;
    const before = await resolvedState(h, dbId);
    const changes = (query = '') => h.get(`/databases/${dbId}/snapshots/${snapshotId}/changes${query}`);
    expect((await changes()).body).toMatchObject({ databaseId: dbId, snapshotId, sameFileLayers: true, total: 0, truncated: false, changes: [], counts: { added: 0, removed: 0, changed: 0 } });

    const edit = await h.patch(`/pcd/${dbId}/entities/quality_profile/${encodeURIComponent('Movies 1080p')}`, { changes: [{ path: 'description', value: 'Edited after the snapshot' }] });
    expect(edit.body).toEqual({ success: true, changed: true });
    const exported = await h.get(`/pcd/export?databaseId=${dbId}&entityType=custom_format&name=Atmos`);
    expect((await h.post('/pcd/import', { databaseId: dbId, layer: 'user', entityType: 'custom_format', data: { ...exported.body.data, name: 'Atmos copy' } })).body).toEqual({ success: true });
    expect((await h.del(`/pcd/${dbId}/entities/custom_format/Cam`)).status).toBeLessThan(300);
    const after = await resolvedState(h, dbId);
    const userOps = ((await h.get(`/pcd/${dbId}/user-ops`)).body as { id: number }[]).map((op) => op.id).sort((a, b) => a - b);
    expect(userOps).toHaveLength(3);

    const listed = await changes();
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ total: 3, truncated: false, counts: { added: 1, removed: 1, changed: 1 }, userOps: { onlyInSnapshot: [], onlyNow: userOps } });
    expect(listed.body.changes).toEqual([
      { portableType: 'custom_format', name: 'Atmos copy', change: 'added', fields: [], fieldCount: 0 },
      { portableType: 'custom_format', name: 'Cam', change: 'removed', fields: [], fieldCount: 0 },
      // Deleting Cam also took its score out of the profile that scored it.
      { portableType: 'quality_profile', name: 'Movies 1080p', change: 'changed', fields: ['description', 'customFormats.movie_app.Cam'], fieldCount: 2 },
    ]);
    const first = await changes('?limit=1');
    expect(first.body).toMatchObject({ total: 3, truncated: true, changes: [listed.body.changes[0]] });

    const rolled = await h.post(`/databases/${dbId}/snapshots/${snapshotId}/rollback?wait=true`);
    expect(rolled.body).toMatchObject({ status: 'success', trigger: 'manual', snapshotId });
    expect(await resolvedState(h, dbId)).toEqual(before);
    expect((await changes()).body).toMatchObject({ total: 0, changes: [], userOps: { onlyInSnapshot: [], onlyNow: [] } });

    const undone = await h.post(`/databases/${dbId}/rollbacks/${rolled.body.id}/undo?wait=true`);
    expect(undone.status).toBe(200);
    expect(undone.body).toMatchObject({ status: 'success', trigger: 'undo', snapshotId: rolled.body.preSnapshotId, opsUndone: [], opsReactivated: userOps });
    expect(undone.body.id).not.toBe(rolled.body.id);
    expect(await resolvedState(h, dbId)).toEqual(after);
    expect((await changes()).body.changes).toEqual(listed.body.changes);
    expect((await h.get(`/databases/${dbId}/rollbacks/${undone.body.id}`)).body).toMatchObject({ trigger: 'undo', status: 'success' });

    // The undo is itself a rollback: undoing it goes back to the state the first rollback made.
    const again = await h.post(`/databases/${dbId}/rollbacks/${undone.body.id}/undo?wait=true`);
    expect(again.body).toMatchObject({ status: 'success', trigger: 'undo', snapshotId: undone.body.preSnapshotId });
    expect(await resolvedState(h, dbId)).toEqual(before);
  }, 120_000);

  it('replays the snapshot from its own file layers when a pull moved the base since', async () => {
    const held = path.join('ops', '3.music-additions.sql');
    const repo = makeGitRepo(SAMPLE_PCD, { only: (rel) => rel !== held });
    try {
      const linked = await h.post('/databases', { name: 'moving base', source: { kind: 'git', url: repo.url, branch: 'main' } });
      const id = linked.body.id as number;
      await eventually(() => h.get(`/databases/${id}`), (r) => r.body.cache.status === 'ready', 60_000);
      const first = repo.head();
      const snapshotId = (await h.post(`/databases/${id}/snapshots`, {})).body.id as number;
      repo.commit({ [held]: fs.readFileSync(path.join(SAMPLE_PCD, held), 'utf8') }, 'music additions');
      expect((await h.post(`/databases/${id}/pull?wait=true`)).body).toMatchObject({ status: 'ready' });

      const changes = await h.get(`/databases/${id}/snapshots/${snapshotId}/changes`);
      expect(changes.body).toMatchObject({ sameFileLayers: false, baseCommit: { snapshot: first, now: repo.head() }, userOps: { onlyInSnapshot: [], onlyNow: [] } });
      // Exactly what the four ops of the new file do.
      expect(changes.body.changes.map((c: { portableType: string; name: string; change: string }) => [c.portableType, c.name, c.change])).toEqual([
        ['quality_profile', 'Music Lossless', 'changed'],
        ['music_app_naming', 'Standard', 'changed'],
        ['music_app_quality_definitions', 'Music Sizes', 'changed'],
        ['music_app_metadata_profile', 'Everything', 'added'],
      ]);
      expect(changes.body.changes[0].fields).toEqual(['upgradeUntilScore']);
    } finally {
      repo.remove();
    }
  }, 120_000);

  it('refuses bad requests with a precise 4xx', async () => {
    const snapshotId = (await h.post(`/databases/${dbId}/snapshots`, {})).body.id as number;
    const cases: [Promise<{ status: number; body: { error?: string } }>, number, string][] = [
      [h.get(`/databases/${dbId}/snapshots/${snapshotId}/changes?limit=0`), 400, 'Invalid request: query.limit must be between 1 and 1000'],
      [h.get(`/databases/${dbId}/snapshots/${snapshotId}/changes?limit=1001`), 400, 'Invalid request: query.limit must be between 1 and 1000'],
      [h.get(`/databases/${dbId}/snapshots/${snapshotId}/changes?extra=1`), 400, 'Invalid request: query has unknown field(s): extra'],
      [h.get(`/databases/${dbId}/snapshots/999999/changes`), 404, `Snapshot 999999 not found in database ${dbId}`],
      [h.get(`/databases/999/snapshots/${snapshotId}/changes`), 404, `Snapshot ${snapshotId} not found in database 999`],
      [h.post(`/databases/${dbId}/rollbacks/999999/undo`), 404, `Rollback 999999 not found in database ${dbId}`],
    ];
    for (const [request, status, error] of cases) {
      const res = await request;
      expect({ status: res.status, error: res.body.error }).toEqual({ status, error });
    }
  });
});
