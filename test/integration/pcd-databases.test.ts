import path from 'node:path';
import { PORTABLE_TYPES } from '../../src/domain/pcd';
import { eventually, startArrgo, type Harness } from '../helpers/harness';
import { makeGitRepo, type TestGitRepo } from '../helpers/git-repo';
import { describeWithShared, sharedPath } from '../helpers/shared-data';

const SAMPLE = path.resolve(__dirname, '..', '..', 'examples', 'sample-pcd');

describe('PCD databases: link, pull, resolved state, edits, export and import', () => {
  let h: Harness;
  let repo: TestGitRepo;
  let dbId: number;

  beforeAll(async () => {
    h = await startArrgo();
    repo = makeGitRepo(SAMPLE);
  });
  afterAll(async () => {
    await h?.close();
    repo?.remove();
  });

  it('links a git repository, pulls it through a workflow and reports the status', async () => {
    const linked = await h.post('/databases', { name: 'sample', source: { kind: 'git', url: repo.url, branch: 'main' } });
    expect(linked.status).toBe(201);
    dbId = linked.body.id;
    expect(linked.body).toMatchObject({ name: 'sample', enabled: true, source: { kind: 'git', url: repo.url, branch: 'main', path: null } });
    const ready = await eventually(() => h.get(`/databases/${dbId}`), (r) => ['ready', 'failed'].includes(r.body.cache.status));
    expect(ready.body.cache).toMatchObject({ status: 'ready', reason: null, stats: { failed: 0, conflicts: 0 } });
    expect(ready.body.commit).toBe(repo.head());
    expect(ready.body.manifest).toMatchObject({ name: 'arrgo-sample', version: '1.0.0', arrTypes: ['movie_app', 'series_app', 'music_app'] });
    // Tests run with PCD_SCHEMA_FETCH=off: the dependency is never fetched and the bundled schema stands in.
    expect(ready.body.schema.source).toBe('bundled');
    expect(ready.body.schema.note).toContain('switched off (PCD_SCHEMA_FETCH=off); the bundled PCD schema');
    expect(ready.body.schema.note).not.toContain('github.com');

    // The pull's state: ended, at its last step, with what the fetch and import found. (The cache is
    // ready a moment before the workflow closes: its last step records the status, then it returns.)
    const pull = await eventually(() => h.get(`/databases/${dbId}/pull`), (r) => r.body?.running === false);
    expect(pull.status).toBe(200);
    expect(pull.body).toEqual({
      workflowId: `${h.taskQueue}-pcd-pull-${dbId}`,
      running: false,
      phase: 'done',
      commit: repo.head(),
      inserted: expect.any(Number),
      removed: 0,
      startedAt: expect.any(String),
      closedAt: expect.any(String),
    });
    expect(pull.body.inserted).toBeGreaterThan(0);
    expect(Date.parse(pull.body.closedAt)).toBeGreaterThanOrEqual(Date.parse(pull.body.startedAt));
    expect((await h.get('/databases/999999/pull')).status).toBe(404);

    const health = await h.get('/health?verbose=true');
    expect(health.body.components.repos).toMatchObject({ status: 'healthy', total: 1, enabled: 1, cached: 1, disabled: 0 });

    const workflows = await eventually(async () => {
      const ids: string[] = [];
      for await (const wf of h.service.temporal.client.workflow.list({ query: `ArrgoKind = 'pcd-pull' AND ArrgoDatabaseId = ${dbId} AND TaskQueue = '${h.taskQueue}'` })) ids.push(wf.workflowId);
      return ids;
    }, (ids) => ids.length >= 1);
    expect(workflows.length).toBeGreaterThanOrEqual(1);
  });

  it('is safe to pull again: nothing is re-imported and op ids stay the same', async () => {
    const before = await h.get(`/pcd/${dbId}/resolved/regularExpression?includeLineage=true`);
    const again = await h.post(`/databases/${dbId}/pull?wait=true`);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ status: 'ready', database: { contentVersion: 1 } });
    const after = await h.get(`/pcd/${dbId}/resolved/regularExpression?includeLineage=true`);
    expect(after.body).toEqual(before.body);
  });

  it('serves the resolved, base and user layers with lineage, following the arrType rules', async () => {
    const formats = await h.get(`/pcd/${dbId}/resolved/customFormat`);
    expect(formats.status).toBe(200);
    expect(formats.body).toMatchObject({ databaseId: dbId, entityType: 'customFormat', layer: 'resolved' });
    expect(formats.body.entities.map((e: { name: string }) => e.name)).toEqual(expect.arrayContaining(['HDR', 'Atmos', 'FLAC 24bit']));
    expect(formats.body.entities[0]).toMatchObject({ databaseId: dbId, exists: true, conflict: false });
    expect(formats.body.entities[0].lineage).toBeUndefined();

    const withLineage = await h.get(`/pcd/${dbId}/resolved/regularExpression?includeLineage=true`);
    const x265 = withLineage.body.entities.find((e: { name: string }) => e.name === 'x265');
    expect(x265.lineageStatus).toBe('available');
    const pattern = x265.lineage.find((l: { path: string }) => l.path === 'pattern');
    expect(pattern).toMatchObject({ status: 'resolved', sourceLayer: 'base', sourceKind: 'operation', explicit: true, fileOp: null });
    expect(pattern.opId).toEqual(expect.any(Number));

    const delay = await h.get(`/pcd/${dbId}/resolved/delayProfile?includeLineage=true`);
    const torrent = delay.body.entities[0].lineage.find((l: { path: string }) => l.path === 'torrentDelay');
    expect(torrent).toMatchObject({ sourceLayer: 'tweaks', opId: null, fileOp: { file: 'tweaks/1.local-preferences.sql', position: 1 } });

    expect((await h.get(`/pcd/${dbId}/resolved/naming?arrType=music_app`)).body.entities[0].entity).toHaveProperty('standardTrackFormat');
    const missingArr = await h.get(`/pcd/${dbId}/resolved/naming`);
    expect(missingArr.status).toBe(400);
    expect(missingArr.body.error).toBe('Invalid request: query.arrType required for entity type naming');
    expect((await h.get(`/pcd/${dbId}/resolved/customFormat?arrType=movie_app`)).status).toBe(400);
    expect((await h.get(`/pcd/${dbId}/resolved/musicAppMetadataProfile?arrType=music_app`)).status).toBe(400);
    expect((await h.get(`/pcd/${dbId}/resolved/widget`)).body.error).toContain('params.entityType must be one of');
    expect((await h.get(`/pcd/${dbId}/resolved/customFormat?layer=top`)).body.error).toContain('query.layer must be one of');
    expect((await h.get(`/pcd/abc/resolved/customFormat`)).status).toBe(400);
    expect((await h.get(`/pcd/99999/resolved/customFormat`)).status).toBe(404);
  });

  it('round-trips export then import for every portable entity type, refusing base and duplicates', async () => {
    const target = await h.post('/databases', { name: 'empty-target', source: { kind: 'local', path: emptyPcd() } });
    const targetId = target.body.id;
    await eventually(() => h.get(`/databases/${targetId}`), (r) => r.body.cache.status === 'ready');
    const names: Record<string, string> = {
      regular_expression: 'x265', custom_format: 'HDR', quality_profile: 'Movies 1080p', delay_profile: 'Standard',
      movie_app_naming: 'Standard', series_app_naming: 'Standard', music_app_naming: 'Standard',
      movie_app_media_settings: 'Standard', series_app_media_settings: 'Standard', music_app_media_settings: 'Standard',
      movie_app_quality_definitions: 'Movie Sizes', series_app_quality_definitions: 'Series Sizes', music_app_quality_definitions: 'Music Sizes',
      music_app_metadata_profile: 'Studio Albums',
    };
    expect(Object.keys(names).sort()).toEqual([...PORTABLE_TYPES].sort());
    // Dependencies first: regexes, then formats, then profiles.
    const order = ['regular_expression', 'custom_format', ...PORTABLE_TYPES.filter((t) => !['regular_expression', 'custom_format'].includes(t))];
    const needed = await h.get(`/pcd/export?databaseId=${dbId}&entityType=custom_format&name=HDR`);
    for (const regex of ['HDR']) {
      const r = await h.get(`/pcd/export?databaseId=${dbId}&entityType=regular_expression&name=${encodeURIComponent(regex)}`);
      expect((await h.post('/pcd/import', { databaseId: targetId, layer: 'user', ...r.body })).status).toBe(200);
    }
    expect(needed.status).toBe(200);
    for (const type of order) {
      const exported = await h.get(`/pcd/export?databaseId=${dbId}&entityType=${type}&name=${encodeURIComponent(names[type])}`);
      expect(exported.status).toBe(200);
      expect(exported.body).toMatchObject({ entityType: type, data: { name: names[type] } });
      if (type === 'quality_profile') await importReferencedFormats(targetId, exported.body.data);
      const imported = await h.post('/pcd/import', { databaseId: targetId, layer: 'user', entityType: type, data: exported.body.data, migration: { format: 'json', version: 1, source: 'arrgo-test' } });
      expect([type, imported.status, imported.body]).toEqual([type, 200, { success: true }]);
      const back = await h.get(`/pcd/export?databaseId=${targetId}&entityType=${type}&name=${encodeURIComponent(names[type])}`);
      expect(back.body.data).toEqual(exported.body.data);
    }

    const dup = await h.post('/pcd/import', { databaseId: targetId, layer: 'user', entityType: 'regular_expression', data: { name: 'x265', pattern: 'x', regex101Id: null, description: null, tags: [] } });
    expect(dup.status).toBe(400);
    expect(dup.body.error).toContain('already exists');
    const base = await h.post('/pcd/import', { databaseId: targetId, layer: 'base', entityType: 'regular_expression', data: { name: 'new', pattern: 'x', regex101Id: null, description: null, tags: [] } });
    expect(base.status).toBe(400);
    expect(base.body.error).toContain('body.layer cannot be base');
    const mixed = await h.post('/pcd/import', {
      databaseId: targetId, layer: 'user', entityType: 'music_app_naming',
      data: { name: 'Mixed', rename: true, standardTrackFormat: 'a', multiDiscTrackFormat: 'b', artistFolderFormat: 'c', replaceIllegalCharacters: true, colonReplacementFormat: 4, standardEpisodeFormat: 'x' },
    });
    expect(mixed.status).toBe(400);
    expect(mixed.body.error).toContain('standardEpisodeFormat');
    const badMigration = await h.post('/pcd/import', { databaseId: targetId, layer: 'user', entityType: 'regular_expression', migration: { format: 'json' }, data: { name: 'm', pattern: 'x', regex101Id: null, description: null, tags: [] } });
    expect(badMigration.status).toBe(400);
    expect(badMigration.body.error).toContain('migration');
    expect((await h.get(`/pcd/export?databaseId=${targetId}&entityType=custom_format&name=Nope`)).status).toBe(404);
    expect((await h.get(`/pcd/export?databaseId=${targetId}&entityType=widget&name=x`)).status).toBe(400);

    async function importReferencedFormats(id: number, profile: { customFormats: Record<string, { name: string }[]> }) {
      const wanted = new Set(Object.values(profile.customFormats).flat().map((s) => s.name));
      for (const name of wanted) {
        const cf = await h.get(`/pcd/export?databaseId=${dbId}&entityType=custom_format&name=${encodeURIComponent(name)}`);
        for (const c of cf.body.data.conditions as { regularExpression?: string }[]) {
          if (!c.regularExpression) continue;
          const rx = await h.get(`/pcd/export?databaseId=${dbId}&entityType=regular_expression&name=${encodeURIComponent(c.regularExpression)}`);
          await h.post('/pcd/import', { databaseId: id, layer: 'user', ...rx.body });
        }
        await h.post('/pcd/import', { databaseId: id, layer: 'user', ...cf.body });
      }
    }
  });

  it('shows a user override as a FieldChange with user lineage, and a base change under it as a pending conflict', async () => {
    const edit = await h.patch(`/pcd/${dbId}/entities/regular_expression/Atmos`, { changes: [{ path: 'description', value: 'Object-based audio' }] });
    expect(edit.status).toBe(200);
    expect(edit.body).toEqual({ success: true, changed: true });
    const ops = await h.get(`/pcd/${dbId}/user-ops`);
    const userOp = ops.body.find((o: { target: { name: string } }) => o.target.name === 'Atmos');
    expect(userOp).toMatchObject({ kind: 'update', outcome: { status: 'applied', reason: null } });

    const userLayer = await h.get(`/pcd/${dbId}/resolved/regularExpression?layer=user`);
    const atmos = userLayer.body.entities.find((e: { name: string }) => e.name === 'Atmos');
    expect(atmos.overrides).toEqual([{ field: 'description', type: 'changed', current: null, desired: 'Object-based audio' }]);
    expect(userLayer.body.entities.find((e: { name: string }) => e.name === 'x265').overrides).toEqual([]);
    const resolved = await h.get(`/pcd/${dbId}/resolved/regularExpression?includeLineage=true`);
    const lineage = resolved.body.entities.find((e: { name: string }) => e.name === 'Atmos').lineage.find((l: { path: string }) => l.path === 'description');
    expect(lineage).toMatchObject({ status: 'resolved', sourceLayer: 'user', opId: userOp.id, explicit: true });

    // The base moves underneath: the repository changes the same field.
    repo.commit({
      'ops/4.atmos-description.sql':
        `-- --- BEGIN op 401 ( update regular_expression "Atmos" )\nupdate "regular_expressions" set "description" = 'Dolby Atmos' where "name" = 'Atmos' and "description" IS NULL;\n-- --- END op 401\n`,
    });
    const pulled = await h.post(`/databases/${dbId}/pull?wait=true`);
    expect(pulled.body).toMatchObject({ status: 'ready', database: { cache: { stats: { conflicts: 1 } } } });
    const conflicted = await eventually(() => h.get(`/pcd/${dbId}/resolved/regularExpression?includeLineage=true`), (r) => r.status === 200);
    const item = conflicted.body.entities.find((e: { name: string }) => e.name === 'Atmos');
    expect(item.conflict).toBe(true);
    expect(item.lineageStatus).toBe('ambiguous');
    expect(item.lineage.every((l: { status: string; sourceLayer: unknown }) => l.status === 'ambiguous' && l.sourceLayer === null)).toBe(true);
    expect((await h.get(`/pcd/${dbId}/user-ops`)).body[0].outcome).toEqual({ status: 'conflict', reason: 'guard_mismatch' });

    // Reverting the user op resolves the conflict in favour of the base.
    expect((await h.del(`/pcd/${dbId}/user-ops/${userOp.id}`)).status).toBe(204);
    const reverted = await h.get(`/pcd/${dbId}/resolved/regularExpression`);
    expect(reverted.body.entities.find((e: { name: string }) => e.name === 'Atmos')).toMatchObject({ conflict: false, entity: { description: 'Dolby Atmos' } });
  });

  it('answers "not ready" while a cache rebuild is under way, then serves the new state', async () => {
    // Another process (the worker of a split deployment) imported new ops: the version moved on.
    await h.service.orm.em.fork().getConnection().execute('update pcd_databases set content_version = content_version + 1 where id = ?', [dbId]);
    const during = await h.get(`/pcd/${dbId}/resolved/customFormat`);
    expect(during.status).toBe(400);
    expect(during.body.error).toBe(`Database ${dbId} is not ready: its cache is being built`);
    const after = await eventually(() => h.get(`/pcd/${dbId}/resolved/customFormat`), (r) => r.status === 200);
    expect(after.body.entities.length).toBeGreaterThan(0);
  });

  it('serves the graph, music-app metadata profiles and the parity map', async () => {
    const graph = await h.get(`/pcd/${dbId}/graph?arrType=music_app`);
    expect(graph.status).toBe(200);
    expect(graph.body.arrTypesPresent.every((t: string) => ['music_app', 'all'].includes(t))).toBe(true);
    expect(graph.body.nodes.filter((n: { kind: string }) => n.kind === 'quality_profile').map((n: { name: string }) => n.name)).toEqual(['Music Lossless']);
    // Each node names the entity it opens; a quality is not an entity.
    const node = (kind: string, name: string) => graph.body.nodes.find((n: { kind: string; name: string }) => n.kind === kind && n.name === name);
    expect(node('quality_profile', 'Music Lossless').entity).toEqual({ portableType: 'quality_profile', name: 'Music Lossless' });
    expect(node('quality_definition', 'music_app:Music Sizes').entity).toEqual({ portableType: 'music_app_quality_definitions', name: 'Music Sizes' });
    expect(graph.body.nodes.filter((n: { entity: unknown }) => n.entity === null).every((n: { kind: string }) => n.kind === 'quality')).toBe(true);
    const capped = await h.get(`/pcd/${dbId}/graph?maxEdges=3`);
    expect(capped.body.edges).toHaveLength(3);
    expect(capped.body.truncated).toBe(true);
    expect((await h.get(`/pcd/${dbId}/graph?nodeKind=widget`)).body.error).toContain('query.nodeKind must be one of');

    const profiles = await h.get(`/pcd/${dbId}/music-app-metadata-profiles`);
    expect(profiles.body).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: expect.any(Number), name: 'Studio Albums', description: 'Official studio albums and EPs', primaryTypeCount: 5, primaryAllowedCount: 2, secondaryTypeCount: 12, releaseStatusCount: 4 }),
      ]),
    );

    const parity = await h.get('/compatibility/parity');
    expect(parity.body.entities).toEqual(['custom_formats', 'quality_profiles', 'quality_definitions', 'delay_profiles', 'metadata_profiles']);
    expect(parity.body.profiles).toBeUndefined();
    const withProfiles = await h.get(`/compatibility/parity?databaseId=${dbId}`);
    expect(withProfiles.body.profiles).toEqual(expect.arrayContaining([{ name: 'Music Lossless', compatibleArrTypes: ['music_app'], basis: 'enabled-qualities' }]));
    // The parity map is documented field by field, so the console's client is typed by it.
    const documented = (await h.get('/openapi.json')).body.components.schemas.ParityMap;
    expect(Object.keys(documented.properties)).toEqual(['entities', 'apps', 'matrix', 'semanticDifferences', 'profiles']);
    expect(documented.properties.matrix.items.properties.music_app.enum).toEqual(['native', 'shared', 'unsupported']);
  });

  it('answers "not ready" for a database that has not been pulled, and reports failed pulls', async () => {
    const broken = await h.post('/databases', { name: 'broken', source: { kind: 'git', url: 'file:///nonexistent/repo.git' } });
    const failed = await eventually(() => h.get(`/databases/${broken.body.id}`), (r) => r.body.cache.status === 'failed');
    expect(failed.body.cache).toMatchObject({ status: 'failed', reason: 'fetch_failed', message: expect.stringContaining('could not be fetched') });
    expect(JSON.stringify(failed.body.cache)).not.toContain('nonexistent');
    const failedPull = await eventually(() => h.get(`/databases/${broken.body.id}/pull`), (r) => r.body.running === false);
    expect(failedPull.body).toMatchObject({ phase: 'failed', commit: null, inserted: null, removed: null });
    const read = await h.get(`/pcd/${broken.body.id}/resolved/customFormat`);
    expect(read.status).toBe(400);
    expect(read.body.error).toBe(`Database ${broken.body.id} is not ready: it has not been pulled yet`);
    expect((await h.get(`/pcd/export?databaseId=${broken.body.id}&entityType=custom_format&name=x`)).status).toBe(503);
    expect((await h.post('/databases', { name: 'bad-url', source: { kind: 'git', url: 'not a url' } })).status).toBe(400);
    expect((await h.post('/databases', { name: 'bad-path', source: { kind: 'local', path: '/definitely/not/here' } })).body.error).toContain('body.source.path');
    expect((await h.post('/databases', { name: 'sample', source: { kind: 'local', path: SAMPLE } })).body.error).toContain('already exists');
    expect((await h.del(`/databases/${broken.body.id}`)).status).toBe(204);
    expect((await h.get(`/databases/${broken.body.id}`)).status).toBe(404);
  });
});

function emptyPcd(): string {
  const fs = require('node:fs') as typeof import('node:fs');
  const os = require('node:os') as typeof import('node:os');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arrgo-empty-pcd-'));
  fs.writeFileSync(path.join(dir, 'pcd.json'), JSON.stringify({ name: 'empty', version: '0.1.0', arr_types: ['radarr', 'sonarr', 'lidarr'], dependencies: {} }));
  fs.mkdirSync(path.join(dir, 'ops'));
  return dir;
}

describeWithShared(['data', 'pcd', 'trash-pcd'], 'trash-pcd through the service', () => {
  let h: Harness;
  let repo: TestGitRepo;
  beforeAll(async () => {
    h = await startArrgo();
    repo = makeGitRepo(sharedPath('data', 'pcd', 'trash-pcd'));
  });
  afterAll(async () => {
    await h?.close();
    repo?.remove();
  });

  it('links, pulls and replays with 0 failed ops and the expected resolved state', async () => {
    const linked = await h.post('/databases', { name: 'trash', source: { kind: 'git', url: repo.url } });
    const id = linked.body.id;
    // The first pull, followed as the console does: its steps come in order.
    const seen: { phase: string | null }[] = [];
    await eventually(
      async () => {
        const state = await h.get(`/databases/${id}/pull`);
        seen.push(state.body);
        return state;
      },
      (r) => r.body.running === false && r.body.phase !== null,
      120_000,
    );
    const order = ['fetching', 'importing', 'replaying', 'done'];
    const phases = seen.map((s) => s.phase).filter((p): p is string => p !== null);
    expect(phases[phases.length - 1]).toBe('done');
    expect(phases.map((p) => order.indexOf(p))).toEqual([...phases.map((p) => order.indexOf(p))].sort((a, b) => a - b));
    const pulled = await h.post(`/databases/${id}/pull?wait=true`);
    expect(pulled.body).toMatchObject({ status: 'ready', database: { cache: { status: 'ready', stats: { failed: 0 } }, manifest: { name: 'trash-pcd', arrTypes: ['movie_app', 'series_app'] } } });
    const cfs = await h.get(`/pcd/${id}/resolved/customFormat`);
    const regexes = await h.get(`/pcd/${id}/resolved/regularExpression`);
    const profiles = await h.get(`/pcd/${id}/resolved/qualityProfile`);
    expect(cfs.body.entities).toHaveLength(200);
    expect(regexes.body.entities).toHaveLength(979);
    expect(profiles.body.entities).toHaveLength(22);
    const conditions = cfs.body.entities.reduce((n: number, e: { entity: { conditions: unknown[] } }) => n + e.entity.conditions.length, 0);
    const scores = profiles.body.entities.reduce(
      (n: number, e: { entity: { customFormats: Record<string, unknown[]> } }) => n + Object.values(e.entity.customFormats).reduce((m, list) => m + list.length, 0),
      0,
    );
    expect(conditions).toBe(1431);
    expect(scores).toBe(1459);

    const graph = await h.get(`/pcd/${id}/graph?arrType=series_app&nodeKind=quality_profile`);
    expect(graph.status).toBe(200);
    expect(graph.body.arrTypesPresent).toEqual(expect.arrayContaining(['series_app']));
    expect(graph.body.arrTypesPresent).not.toContain('movie_app');
  });
});
