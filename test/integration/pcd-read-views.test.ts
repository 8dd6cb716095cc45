import path from 'node:path';
import { dbKinds, type DbKind } from '../helpers/databases';
import { makeGitRepo, type TestGitRepo } from '../helpers/git-repo';
import { eventually, startArrgo, type Harness, type HttpResult } from '../helpers/harness';

const SAMPLE = path.resolve(__dirname, '..', '..', 'examples', 'sample-pcd');
const ETAG = /^"[A-Za-z0-9_-]{32}"$/;

type Entity = { name: string; entity: Record<string, unknown> };
const entity = (res: HttpResult, name: string) => (res.body.entities as Entity[]).find((e) => e.name === name)?.entity;

describe.each(dbKinds())('PCD read views: memoized bodies, ETag and If-None-Match on %s', (db: DbKind) => {
  let h: Harness;
  let repo: TestGitRepo;
  let id: number;
  const profiles = () => `/pcd/${id}/resolved/qualityProfile`;
  const regexes = () => `/pcd/${id}/resolved/regularExpression`;
  const conditional = (apiPath: string, ifNoneMatch: string) => h.request('GET', apiPath, undefined, { headers: { 'If-None-Match': ifNoneMatch } });
  const editProfile = (description: string) => h.patch(`/pcd/${id}/entities/quality_profile/${encodeURIComponent('Movies 1080p')}`, { changes: [{ path: 'description', value: description }] });

  beforeAll(async () => {
    h = await startArrgo({ db });
    repo = makeGitRepo(SAMPLE);
    const linked = await h.post('/databases', { name: 'sample', source: { kind: 'git', url: repo.url, branch: 'main' } });
    id = linked.body.id;
    await eventually(() => h.get(`/databases/${id}`), (r) => r.body.cache.status === 'ready');
  });
  afterAll(async () => {
    await h?.close();
    repo?.remove();
  });

  it('serves a strong ETag with the same bytes on every read, and 304 without a body when If-None-Match names it', async () => {
    const first = await h.get(profiles());
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(ETAG);
    expect(first.headers.get('cache-control')).toBe('no-cache');
    expect(first.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(first.headers.get('x-arrgo-cache-status')).toBe('ready');
    expect(entity(first, 'Movies 1080p')?.description).toBe('HD movies, archival DVD-R allowed');

    const second = await h.get(profiles());
    expect(second.headers.get('etag')).toBe(etag);
    expect(second.text).toBe(first.text);

    for (const header of [etag, `W/${etag}`, `"nope", ${etag}`, '*']) {
      const notModified = await conditional(profiles(), header);
      expect(notModified.status).toBe(304);
      expect(notModified.text).toBe('');
      expect(notModified.headers.get('etag')).toBe(etag);
    }
    // Another query is another view with its own tag.
    const withLineage = await conditional(`${profiles()}?includeLineage=true`, etag);
    expect(withLineage.status).toBe(200);
    expect(withLineage.headers.get('etag')).not.toBe(etag);
    expect(withLineage.body.entities[0].lineage.length).toBeGreaterThan(0);
  });

  it('changes the ETag after an edit (read at once), keeps it after a no-op edit, and gives a stale ETag the new body', async () => {
    const before = await h.get(profiles());
    const regexesBefore = await h.get(regexes());
    const oldTag = before.headers.get('etag')!;

    // Several edits, each read immediately after its answer: never a body from the state before it.
    for (let i = 1; i <= 4; i++) {
      expect((await editProfile(`edited ${i}`)).body).toEqual({ success: true, changed: true });
      const read = await h.get(profiles());
      expect(entity(read, 'Movies 1080p')?.description).toBe(`edited ${i}`);
    }
    const edited = await h.get(profiles());
    const newTag = edited.headers.get('etag')!;
    expect(newTag).toMatch(ETAG);
    expect(newTag).not.toBe(oldTag);

    // A stale tag gets 200 with the new body; the new tag gets 304.
    const stale = await conditional(profiles(), oldTag);
    expect(stale.status).toBe(200);
    expect(stale.headers.get('etag')).toBe(newTag);
    expect(entity(stale, 'Movies 1080p')?.description).toBe('edited 4');
    expect((await conditional(profiles(), newTag)).status).toBe(304);

    // A view the edit did not touch keeps its bytes, so its tag.
    const regexesAfter = await h.get(regexes());
    expect(regexesAfter.headers.get('etag')).toBe(regexesBefore.headers.get('etag'));
    expect(regexesAfter.text).toBe(regexesBefore.text);

    // A no-op edit changes nothing: same tag, 304 still.
    expect((await editProfile('edited 4')).body).toEqual({ success: true, changed: false });
    expect((await h.get(profiles())).headers.get('etag')).toBe(newTag);
    expect((await conditional(profiles(), newTag)).status).toBe(304);

    // Reverting every edit gives the original bytes back, and with them the original tag.
    const ops = (await h.get(`/pcd/${id}/user-ops`)).body as { id: number }[];
    for (const op of [...ops].reverse()) expect((await h.del(`/pcd/${id}/user-ops/${op.id}`)).status).toBe(204);
    const reverted = await h.get(profiles());
    expect(entity(reverted, 'Movies 1080p')?.description).toBe('HD movies, archival DVD-R allowed');
    expect(reverted.headers.get('etag')).toBe(oldTag);
    expect(reverted.text).toBe(before.text);
  });

  it('serves an imported entity at once with a new ETag, and the old tag again once it is deleted', async () => {
    const before = await h.get(regexes());
    const exported = await h.get(`/pcd/export?databaseId=${id}&entityType=regular_expression&name=Atmos`);
    const imported = await h.post('/pcd/import', { databaseId: id, layer: 'user', entityType: 'regular_expression', data: { ...exported.body.data, name: 'Atmos (imported)' } });
    expect(imported.status).toBe(200);
    const after = await conditional(regexes(), before.headers.get('etag')!);
    expect(after.status).toBe(200);
    expect(entity(after, 'Atmos (imported)')?.pattern).toBe(entity(before, 'Atmos')?.pattern);
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
    expect((await h.del(`/pcd/${id}/entities/regular_expression/${encodeURIComponent('Atmos (imported)')}`)).status).toBe(204);
    const deleted = await h.get(regexes());
    expect(entity(deleted, 'Atmos (imported)')).toBeUndefined();
    expect(deleted.headers.get('etag')).toBe(before.headers.get('etag'));
    const ops = (await h.get(`/pcd/${id}/user-ops`)).body as { id: number }[];
    for (const op of [...ops].reverse()) expect((await h.del(`/pcd/${id}/user-ops/${op.id}`)).status).toBe(204);
  });

  it('never answers a read sent after an edit from the state before it, with reads in flight all along', async () => {
    const reads: { sentAt: number; description: unknown }[] = [];
    const edits: { doneAt: number; n: number }[] = [];
    let stop = false;
    const reader = async () => {
      while (!stop) {
        const sentAt = performance.now();
        const res = await h.get(profiles());
        reads.push({ sentAt, description: entity(res, 'Movies 1080p')?.description });
      }
    };
    const readers = Array.from({ length: 6 }, reader);
    for (let n = 1; n <= 6; n++) {
      expect((await editProfile(`concurrent ${n}`)).status).toBe(200);
      edits.push({ doneAt: performance.now(), n });
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    stop = true;
    await Promise.all(readers);
    const checked = reads.filter((r) => r.sentAt > edits[0].doneAt);
    expect(checked.length).toBeGreaterThan(10);
    for (const read of checked) {
      const latest = edits.filter((e) => e.doneAt < read.sentAt).at(-1)!.n;
      const seen = Number(String(read.description).replace('concurrent ', ''));
      expect(seen).toBeGreaterThanOrEqual(latest);
    }
    const ops = (await h.get(`/pcd/${id}/user-ops`)).body as { id: number }[];
    for (const op of [...ops].reverse()) expect((await h.del(`/pcd/${id}/user-ops/${op.id}`)).status).toBe(204);
  });

  it('serves the new state after a pull rebuilds the cache, for every memoized view', async () => {
    const graphPath = `/pcd/${id}/graph?arrType=movie_app`;
    const exportPath = `/pcd/export?databaseId=${id}&entityType=regular_expression&name=Atmos`;
    const parityPath = `/compatibility/parity?databaseId=${id}`;
    const metadataPath = `/pcd/${id}/music-app-metadata-profiles`;
    const before = new Map<string, HttpResult>();
    for (const p of [graphPath, exportPath, parityPath, metadataPath, regexes()]) {
      const res = await h.get(p);
      expect(res.status).toBe(200);
      expect(res.headers.get('etag')).toMatch(ETAG);
      expect((await conditional(p, res.headers.get('etag')!)).status).toBe(304);
      before.set(p, res);
    }
    expect(before.get(exportPath)!.headers.get('x-arrgo-cache-status')).toBe('ready');
    expect(before.get(exportPath)!.body.data.description).not.toBe('Pulled description');

    repo.commit({
      'ops/4.atmos-description.sql':
        `-- --- BEGIN op 401 ( update regular_expression "Atmos" )\nupdate "regular_expressions" set "description" = 'Pulled description' where "name" = 'Atmos';\n-- --- END op 401\n`,
    });
    expect((await h.post(`/databases/${id}/pull?wait=true`)).body).toMatchObject({ status: 'ready' });

    const exported = await eventually(() => conditional(exportPath, before.get(exportPath)!.headers.get('etag')!), (r) => r.status !== 400);
    expect(exported.status).toBe(200);
    expect(exported.body.data.description).toBe('Pulled description');
    expect(exported.headers.get('etag')).not.toBe(before.get(exportPath)!.headers.get('etag'));
    const list = await conditional(regexes(), before.get(regexes())!.headers.get('etag')!);
    expect(list.status).toBe(200);
    expect(entity(list, 'Atmos')?.description).toBe('Pulled description');
    // A view whose bytes the pull did not change keeps its tag.
    expect((await conditional(parityPath, before.get(parityPath)!.headers.get('etag')!)).status).toBe(304);
    // Metadata profiles carry updated_at, which a replay sets to its own time: a rebuild is a new body.
    const metadata = await conditional(metadataPath, before.get(metadataPath)!.headers.get('etag')!);
    expect(metadata.status).toBe(200);
    expect(metadata.body.map((p: { name: string }) => p.name)).toEqual(before.get(metadataPath)!.body.map((p: { name: string }) => p.name));
  });

  it('refuses an If-None-Match longer than its bound, and serves the parity map without a database', async () => {
    const long = await conditional(profiles(), `"${'a'.repeat(4100)}"`);
    expect(long.status).toBe(400);
    expect(long.body.error).toBe('Invalid request: headers.if-none-match must be at most 4096 characters');
    const parity = await h.get('/compatibility/parity');
    expect(parity.status).toBe(200);
    expect((await conditional('/compatibility/parity', parity.headers.get('etag')!)).status).toBe(304);
    expect(parity.text).toBe((await h.get('/compatibility/parity')).text);
  });

  it('documents ETag, Cache-Control, If-None-Match and 304 in the OpenAPI document', async () => {
    const doc = (await h.get('/openapi.json')).body;
    for (const [p, op] of [
      ['/api/v1/pcd/{databaseId}/resolved/{entityType}', 'get'],
      ['/api/v1/pcd/{databaseId}/graph', 'get'],
      ['/api/v1/pcd/export', 'get'],
      ['/api/v1/pcd/{databaseId}/music-app-metadata-profiles', 'get'],
      ['/api/v1/compatibility/parity', 'get'],
    ] as const) {
      const operation = doc.paths[p][op];
      expect(Object.keys(operation.responses['200'].headers)).toEqual(expect.arrayContaining(['ETag', 'Cache-Control']));
      expect(operation.responses['304'].description).toContain('If-None-Match');
      const header = operation.parameters.find((x: { in: string; name: string }) => x.in === 'header' && x.name === 'If-None-Match');
      expect(header.schema).toMatchObject({ type: 'string', maxLength: 4096 });
    }
  });
});
