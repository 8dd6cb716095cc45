import path from 'node:path';
import { eventually, startArrgo, type Harness } from '../helpers/harness';
import { makeGitRepo, type TestGitRepo } from '../helpers/git-repo';

const SAMPLE = path.resolve(__dirname, '..', '..', 'examples', 'sample-pcd');
const BASE_CHANGE = `-- --- BEGIN op 401 ( update regular_expression "Atmos" )\nupdate "regular_expressions" set "description" = 'Dolby Atmos' where "name" = 'Atmos' and "description" IS NULL;\n-- --- END op 401\n`;

describe('GET /pcd/{id}/entities/{type}/{name}: one entity by layer, and what a pending conflict is about', () => {
  let h: Harness;
  let repo: TestGitRepo;
  let dbId: number;

  beforeAll(async () => {
    h = await startArrgo();
    repo = makeGitRepo(SAMPLE);
    const linked = await h.post('/databases', { name: 'sample', source: { kind: 'git', url: repo.url, branch: 'main' } });
    dbId = linked.body.id;
    await eventually(() => h.get(`/databases/${dbId}`), (r) => r.body.cache.status === 'ready');
  });
  afterAll(async () => {
    await h?.close();
    repo?.remove();
  });

  it('reads one entity in each layer, with lineage, and refuses unknown entities and bad queries', async () => {
    const resolved = await h.get(`/pcd/${dbId}/entities/regular_expression/Atmos?includeLineage=true`);
    expect(resolved.status).toBe(200);
    expect(resolved.body).toMatchObject({ databaseId: dbId, portableType: 'regular_expression', entityType: 'regularExpression', name: 'Atmos', layer: 'resolved', arrType: null, exists: true, conflict: false, lineageStatus: 'available', pendingConflicts: [] });
    const naming = await h.get(`/pcd/${dbId}/entities/series_app_naming/${encodeURIComponent((await h.get(`/pcd/${dbId}/resolved/naming?arrType=series_app`)).body.entities[0].name)}`);
    expect(naming.body).toMatchObject({ portableType: 'series_app_naming', entityType: 'naming', arrType: 'series_app' });
    expect(resolved.body.fields).toContainEqual({ path: 'pattern', value: resolved.body.entity.pattern });
    expect(resolved.body.fields.map((f: { path: string }) => f.path)).toEqual(resolved.body.lineage.map((l: { path: string }) => l.path));
    expect(resolved.body.lineage.find((l: { path: string }) => l.path === 'pattern')).toMatchObject({ status: 'resolved', sourceLayer: 'base' });
    // The list and the single read agree on the entity.
    const list = await h.get(`/pcd/${dbId}/resolved/regularExpression`);
    expect(resolved.body.entity).toEqual(list.body.entities.find((e: { name: string }) => e.name === 'Atmos').entity);

    await h.patch(`/pcd/${dbId}/entities/regular_expression/Atmos`, { changes: [{ path: 'description', value: 'Object-based audio' }] });
    const user = await h.get(`/pcd/${dbId}/entities/regularExpression/Atmos?layer=user`);
    expect(user.body).toMatchObject({ layer: 'user', overrides: [{ field: 'description', type: 'changed', current: null, desired: 'Object-based audio' }] });
    const base = await h.get(`/pcd/${dbId}/entities/regular_expression/Atmos?layer=base`);
    expect(base.body.entity.description).toBeNull();

    const missing = await h.get(`/pcd/${dbId}/entities/regular_expression/${encodeURIComponent('No such regex')}`);
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe(`regular_expression "No such regex" not found in database ${dbId}`);
    const badLayer = await h.get(`/pcd/${dbId}/entities/regular_expression/Atmos?layer=top`);
    expect(badLayer.status).toBe(400);
    expect(badLayer.body.error).toContain('layer');
    expect((await h.get(`/pcd/999999/entities/regular_expression/Atmos`)).status).toBe(404);
  });

  it('names the fields of a pending conflict with mine and upstream; keeping mine and taking upstream both resolve it', async () => {
    repo.commit({ 'ops/4.atmos-description.sql': BASE_CHANGE });
    const pulled = await h.post(`/databases/${dbId}/pull?wait=true`);
    expect(pulled.body).toMatchObject({ status: 'ready', database: { cache: { stats: { conflicts: 1 } } } });
    const staleOp = (await h.get(`/pcd/${dbId}/user-ops`)).body[0];
    const conflicted = await eventually(() => h.get(`/pcd/${dbId}/entities/regular_expression/Atmos`), (r) => r.status === 200);
    expect(conflicted.body.conflict).toBe(true);
    expect(conflicted.body.pendingConflicts).toHaveLength(1);
    const [pending] = conflicted.body.pendingConflicts;
    expect(pending).toMatchObject({ opId: staleOp.id, reason: 'guard_mismatch', mine: { ...conflicted.body.entity, description: 'Object-based audio' } });
    expect(pending.fields).toEqual([{ field: 'description', type: 'changed', current: 'Dolby Atmos', desired: 'Object-based audio' }]);

    // Keep mine: write the user's payload again on the new base, then remove the stale op.
    expect((await h.patch(`/pcd/${dbId}/entities/regular_expression/Atmos`, { data: pending.mine })).body).toEqual({ success: true, changed: true });
    expect((await h.del(`/pcd/${dbId}/user-ops/${staleOp.id}`)).status).toBe(204);
    const kept = await h.get(`/pcd/${dbId}/entities/regular_expression/Atmos?includeLineage=true`);
    expect(kept.body).toMatchObject({ conflict: false, pendingConflicts: [], entity: { description: 'Object-based audio' } });
    expect(kept.body.lineage.find((l: { path: string }) => l.path === 'description')).toMatchObject({ status: 'resolved', sourceLayer: 'user' });

    // The base moves again: take upstream removes the stale op and the base value shows.
    repo.commit({ 'ops/5.atmos-description.sql': BASE_CHANGE.replace(/401/g, '402').replace(`'Dolby Atmos' where "name" = 'Atmos' and "description" IS NULL`, `'Dolby Atmos audio' where "name" = 'Atmos'`) });
    await h.post(`/databases/${dbId}/pull?wait=true`);
    const again = await eventually(() => h.get(`/pcd/${dbId}/entities/regular_expression/Atmos`), (r) => r.status === 200 && r.body.conflict === true);
    expect(again.body.pendingConflicts[0].fields).toEqual([{ field: 'description', type: 'changed', current: 'Dolby Atmos audio', desired: 'Object-based audio' }]);
    expect((await h.del(`/pcd/${dbId}/user-ops/${again.body.pendingConflicts[0].opId}`)).status).toBe(204);
    const taken = await h.get(`/pcd/${dbId}/entities/regular_expression/Atmos`);
    expect(taken.body).toMatchObject({ conflict: false, pendingConflicts: [], entity: { description: 'Dolby Atmos audio' } });
  });

  it('names the refused field of an import or edit payload beside the message (field)', async () => {
    const missing = await h.post('/pcd/import', { databaseId: dbId, layer: 'user', entityType: 'regular_expression', data: { name: 'No pattern', regex101Id: null, description: null, tags: [] } });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'Invalid request: invalid regular_expression data: pattern: required field is missing', field: 'body.data.pattern' });

    const formats = await h.get(`/pcd/${dbId}/resolved/customFormat`);
    const format = formats.body.entities.find((e: { entity: { conditions: { regularExpression?: string | null }[] } }) => e.entity.conditions.some((c) => c.regularExpression));
    const index = format.entity.conditions.findIndex((c: { regularExpression?: string | null }) => c.regularExpression);
    const conditions = format.entity.conditions.map((c: object, i: number) => (i === index ? { ...c, regularExpression: 'No such regex' } : c));
    const dangling = await h.post('/pcd/import', { databaseId: dbId, layer: 'user', entityType: 'custom_format', data: { ...format.entity, name: 'Dangling', conditions } });
    expect(dangling.status).toBe(400);
    expect(dangling.body.error).toContain('regular expression "No such regex" does not exist');
    expect(dangling.body.field).toMatch(/^body\.data\.conditions\./);
    expect(dangling.body.field).toMatch(/\.regularExpression$/);

    const edit = await h.patch(`/pcd/${dbId}/entities/custom_format/${encodeURIComponent(format.name)}`, { data: { ...format.entity, conditions } });
    expect(edit.status).toBe(400);
    expect(edit.body.field).toBe(dangling.body.field);
  });
});
