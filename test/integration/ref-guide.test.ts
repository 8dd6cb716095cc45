import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RefGuideEntity } from '../../src/persistence/entities';
import { refGuideScheduleId } from '../../src/services/schedules';
import { refGuideSyncProgressQuery } from '../../src/workflows/contracts/ref-guide';
import { dbKinds } from '../helpers/databases';
import { addInstance, linkDatabase, SAMPLE_PCD, type FleetInstance } from '../helpers/fleet';
import { makeGitRepo, type TestGitRepo } from '../helpers/git-repo';
import { eventually, startArrgo, type Harness } from '../helpers/harness';
import { describeWithShared, sharedPath } from '../helpers/shared-data';

const GUIDES = ['data', 'trash-guides'];
const TYPE_DIRS: Record<string, string> = { custom_format: 'cf', custom_format_group: 'cf-groups', quality_profile: 'quality-profiles', quality_size: 'quality-size', naming: 'naming' };
const CF_1080P = '820b09bb9acbfde9c35c71e0e565dad8';

/** Entity files per type in the shared guide, counted independently of the parser. */
function fileCounts(app: 'radarr' | 'sonarr'): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const [type, dir] of Object.entries(TYPE_DIRS)) {
    counts[type] = fs.readdirSync(sharedPath(...GUIDES, 'docs', 'json', app, dir)).filter((f) => f.endsWith('.json')).length;
  }
  return counts;
}

/** Radarr quality profiles scoring a custom format (their cached scores change with the format's). */
function profilesScoring(trashId: string): string[] {
  const dir = sharedPath(...GUIDES, 'docs', 'json', 'radarr', 'quality-profiles');
  return fs
    .readdirSync(dir)
    .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')))
    .filter((p) => Object.values(p.formatItems ?? {}).includes(trashId))
    .map((p) => `quality_profile:${p.trash_id}`);
}

async function rowVersions(h: Harness, sourceId: number): Promise<Map<string, number>> {
  const rows = await h.service.orm.em.fork().find(RefGuideEntity, { sourceId }, { fields: ['type', 'refId', 'version'] });
  return new Map(rows.map((r) => [`${r.type}:${r.refId}`, r.version]));
}

for (const db of dbKinds()) {
  describeWithShared(GUIDES, `reference-guide sources on ${db}`, () => {
    let h: Harness;
    let repo: TestGitRepo;
    let radarr: number;
    let sonarr: number;

    beforeAll(async () => {
      h = await startArrgo({ db });
      repo = makeGitRepo(sharedPath(...GUIDES));
    });
    afterAll(async () => {
      await h?.close();
      repo?.remove();
    });

    it('refuses bad sources with a precise 400', async () => {
      const cases: [unknown, string][] = [
        [{ name: 'x', origin: { kind: 'git', url: repo.url }, arrType: 'movie_app', extra: 1 }, 'Invalid request: body has unknown field(s): extra'],
        [{ name: 'x', origin: { kind: 'git', url: 'ftp://example.invalid/guides' }, arrType: 'movie_app' }, 'Invalid request: body.origin.url must be an https://, ssh://, git@host: or file:// git URL'],
        [{ name: 'x', origin: { kind: 'local', path: 'relative/guides' }, arrType: 'movie_app' }, 'Invalid request: body.origin.path must be an absolute path'],
        [{ name: 'x', origin: { kind: 'local', path: repo.dir }, arrType: 'music_app' }, 'Invalid request: body.arrType must be one of: movie_app (or radarr), series_app (or sonarr)'],
        [{ name: 'x', origin: { kind: 'local', path: repo.dir }, arrType: 'movie_app', type: 'recyclarr' }, 'Invalid request: body.type must be one of: trash-guides'],
        [{ name: 'x', origin: { kind: 'local', path: repo.dir }, arrType: 'movie_app', databaseIds: [999] }, 'Invalid request: body.databaseIds: database 999 does not exist'],
        [{ name: 'x'.repeat(101), origin: { kind: 'local', path: repo.dir }, arrType: 'movie_app' }, 'Invalid request: body.name must be at most 100 characters'],
        [{ name: 'tab\there', origin: { kind: 'local', path: repo.dir }, arrType: 'movie_app' }, 'Invalid request: body.name must not contain control characters'],
      ];
      for (const [body, error] of cases) {
        const res = await h.post('/ref-guide/sources', body);
        expect({ status: res.status, error: res.body.error }).toEqual({ status: 400, error });
      }
      expect((await h.get('/ref-guide/sources')).body).toEqual([]);
    });

    it('syncs a Radarr and a Sonarr source: entity counts per type match the files', async () => {
      const created = await h.post('/ref-guide/sources', { name: 'TRaSH Radarr', origin: { kind: 'git', url: repo.url, branch: 'main' }, arrType: 'movie_app' });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ name: 'TRaSH Radarr', type: 'trash-guides', arrType: 'movie_app', enabled: true, origin: { kind: 'git', url: repo.url, branch: 'main', path: null } });
      radarr = created.body.id;
      const duplicate = await h.post('/ref-guide/sources', { name: 'TRaSH Radarr', origin: { kind: 'local', path: repo.dir }, arrType: 'movie_app' });
      expect(duplicate).toMatchObject({ status: 400, body: { error: 'Invalid request: a reference-guide source named "TRaSH Radarr" already exists' } });
      sonarr = (await h.post('/ref-guide/sources', { name: 'TRaSH Sonarr', origin: { kind: 'local', path: repo.dir }, arrType: 'series_app' })).body.id;

      for (const [id, app] of [[radarr, 'radarr'], [sonarr, 'sonarr']] as const) {
        const ready = await eventually(() => h.get(`/ref-guide/sources/${id}`), (r) => r.body.lastSyncedAt !== null, 60_000);
        expect(ready.body).toMatchObject({ lastCommit: repo.head(), sync: { status: 'ready', reason: null, message: null } });
        expect(ready.body.entityCounts).toEqual(fileCounts(app));
        const listed = await h.get(`/ref-guide/sources/${id}/entities?type=custom_format&pageSize=1`);
        expect(listed.body.totalRecords).toBe(fileCounts(app).custom_format);
      }
      expect(fileCounts('radarr').custom_format).toBeGreaterThan(200);
      // Heartbeats carry {phase, done, total}; each heartbeat is also a debug log line.
      const beats = h.logs.filter((l) => l.includes('ref-guide sync progress')).map((l) => JSON.parse(l) as { phase: string; done: number; total: number });
      expect(beats.some((b) => b.phase === 'reading' && b.done === b.total && b.total === Object.values(fileCounts('radarr')).reduce((x, y) => x + y, 0))).toBe(true);
      expect(beats.some((b) => b.phase === 'writing' && b.done === b.total && b.total > 200)).toBe(true);

      const health = await h.get('/health?verbose=true');
      expect(health.body.components.repos).toMatchObject({ status: 'healthy', total: 2, enabled: 2, cached: 2, disabled: 0 });
      expect(health.body.components.repos.message).toBe('No PCD databases linked; 2 of 2 enabled reference-guide sources cached');
    });

    it('serves entities by trash_id with their scores, and lists them', async () => {
      const res = await h.get(`/ref-guide/sources/${radarr}/entities/${CF_1080P}?type=custom_format`);
      expect(res.status).toBe(200);
      const source = await h.get(`/ref-guide/sources/${radarr}`);
      expect(res.body).toEqual({
        source: { type: 'trash-guides', id: radarr, name: 'TRaSH Radarr', arrType: 'movie_app' },
        refId: CF_1080P,
        type: 'custom_format',
        name: '1080p',
        filePath: 'docs/json/radarr/cf/1080p.json',
        fetchedAt: source.body.lastSyncedAt,
        entity: JSON.parse(fs.readFileSync(sharedPath(...GUIDES, 'docs', 'json', 'radarr', 'cf', '1080p.json'), 'utf8')),
        scores: { default: 50 },
      });

      const profile = await h.get(`/ref-guide/sources/${radarr}/entities/0896c29d74de619df168d23b98104b22?type=quality_profile`);
      expect(profile.body).toMatchObject({ name: '[SQP] SQP-1 (1080p)', group: 98, filePath: 'docs/json/radarr/quality-profiles/sqp-1-1080p.json' });
      // 1080p has no sqp-1-1080p score: the profile takes its default score.
      expect(profile.body.entity.trash_score_set).toBe('sqp-1-1080p');
      expect(profile.body.scores).toMatchObject({ '1080p': 50 });
      expect(Object.keys(profile.body.scores)).toHaveLength(Object.keys(profile.body.entity.formatItems).length);

      const naming = await h.get(`/ref-guide/sources/${sonarr}/entities?type=naming`);
      expect(naming.body).toMatchObject({ page: 1, pageSize: 50, totalRecords: 1, totalPages: 1, hasNext: false, source: { id: sonarr, arrType: 'series_app' } });
      expect(naming.body.items[0]).toMatchObject({ type: 'naming', name: 'sonarr-naming', filePath: 'docs/json/sonarr/naming/sonarr-naming.json' });
      expect(naming.body.items[0].refId).toMatch(/^[0-9a-f]{32}$/);
      expect((await h.get(`/ref-guide/sources/${sonarr}/entities/${naming.body.items[0].refId}?type=naming`)).body.entity).toHaveProperty('season');

      const search = await h.get(`/ref-guide/sources/${radarr}/entities?type=custom_format&q=1080P&pageSize=2&page=1`);
      expect(search.body.items.map((i: { name: string }) => i.name)).toContain('1080p');
      expect(search.body.items[0]).not.toHaveProperty('entity');
      expect(search.body.items.every((i: { name: string }) => i.name.toLowerCase().includes('1080p'))).toBe(true);
      // % and _ match literally: no guide format has them in its name.
      expect((await h.get(`/ref-guide/sources/${radarr}/entities?q=%25`)).body.totalRecords).toBe(0);
      expect((await h.get(`/ref-guide/sources/${radarr}/entities?q=_`)).body.totalRecords).toBe(0);
    });

    it('gives every error of the entity endpoint its own 4xx', async () => {
      const notSynced = (await h.post('/ref-guide/sources', { name: 'never synced', origin: { kind: 'local', path: repo.dir }, arrType: 'movie_app', enabled: false })).body.id;
      const cases: [string, number, string][] = [
        [`/ref-guide/sources/abc/entities/${CF_1080P}?type=custom_format`, 400, 'Invalid request: params.id must be a positive integer'],
        [`/ref-guide/sources/${radarr}/entities/${CF_1080P}`, 400, 'Invalid request: query.type is required'],
        [`/ref-guide/sources/${radarr}/entities/${CF_1080P}?type=release_profile`, 400, 'Invalid request: query.type must be one of: custom_format (or customFormat), custom_format_group (or customFormatGroup), quality_profile (or qualityProfile), quality_size (or qualitySize), naming'],
        [`/ref-guide/sources/${radarr}/entities/XYZ?type=custom_format`, 400, 'Invalid request: params.refId must be 32 lowercase hexadecimal characters'],
        [`/ref-guide/sources/9999/entities/${CF_1080P}?type=custom_format`, 404, 'Reference-guide source 9999 not found'],
        [`/ref-guide/sources/${radarr}/entities/${'0'.repeat(32)}?type=custom_format`, 404, `No custom_format with refId ${'0'.repeat(32)} in reference-guide source ${radarr}`],
        [`/ref-guide/sources/${radarr}/entities/${CF_1080P}?type=quality_profile`, 404, `No quality_profile with refId ${CF_1080P} in reference-guide source ${radarr}`],
        [`/ref-guide/sources/${notSynced}/entities/${CF_1080P}?type=custom_format`, 409, `Reference-guide source ${notSynced} has no cache: it has not been synced yet`],
        [`/ref-guide/sources/${radarr}/entities?q=%01`, 400, 'Invalid request: query.q must not contain control characters'],
        [`/ref-guide/sources/${radarr}/entities?pageSize=201`, 400, 'Invalid request: query.pageSize must be between 1 and 200'],
      ];
      for (const [url, status, error] of cases) {
        const res = await h.get(url);
        expect({ url, status: res.status, error: res.body.error }).toEqual({ url, status, error });
      }
      expect((await h.del(`/ref-guide/sources/${notSynced}`)).status).toBe(204);
      expect((await h.get(`/ref-guide/sources/${notSynced}`)).status).toBe(404);
    });

    it('rewrites nothing when nothing changed, and only the changed entity when one did', async () => {
      const before = await rowVersions(h, radarr);
      expect([...before.values()].every((v) => v === 1)).toBe(true);
      const again = await h.post(`/ref-guide/sources/${radarr}/sync?wait=true`);
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ status: 'ready', changes: { inserted: 0, updated: 0, removed: 0, unchanged: before.size } });
      expect(await rowVersions(h, radarr)).toEqual(before);

      const file = 'docs/json/radarr/cf/1080p.json';
      const changed = JSON.parse(fs.readFileSync(path.join(repo.dir, file), 'utf8'));
      changed.trash_scores.default = 75;
      const commit = repo.commit({ [file]: JSON.stringify(changed, null, 2) }, 'rescore 1080p');
      const third = await h.post(`/ref-guide/sources/${radarr}/sync?wait=true`);
      // The format, and the profiles that score it (their cached scores carry its default score).
      const rewritten = new Set([`custom_format:${CF_1080P}`, ...profilesScoring(CF_1080P)]);
      expect(rewritten.size).toBeGreaterThan(2);
      expect(third.body).toMatchObject({ status: 'ready', changes: { inserted: 0, updated: rewritten.size, removed: 0, unchanged: before.size - rewritten.size }, source: { lastCommit: commit } });
      const after = await rowVersions(h, radarr);
      for (const [key, version] of after) expect([key, version]).toEqual([key, rewritten.has(key) ? 2 : 1]);
      expect((await h.get(`/ref-guide/sources/${radarr}/entities/${CF_1080P}?type=custom_format`)).body.scores).toEqual({ default: 75 });
    });

    it('keeps the last good cache when a sync fails, with a sanitized reason', async () => {
      const goodCommit = repo.head();
      repo.commit({ 'docs/json/radarr/cf/1080p.json': '{ not json' }, 'break a file');
      const broken = await h.post(`/ref-guide/sources/${radarr}/sync?wait=true`);
      expect(broken.body).toMatchObject({
        status: 'failed',
        reason: 'guide_invalid',
        source: { lastCommit: goodCommit, sync: { status: 'failed', reason: 'guide_invalid', message: 'A guide JSON file could not be read as a JSON object.' } },
      });
      const served = await h.get(`/ref-guide/sources/${radarr}/entities/${CF_1080P}?type=custom_format`);
      expect(served.status).toBe(200);
      expect(served.body.scores).toEqual({ default: 75 });

      const missing = path.join(os.tmpdir(), 'arrgo-no-such-guide-repo');
      const unreachable = (await h.post('/ref-guide/sources', { name: 'gone', origin: { kind: 'git', url: `file://${missing}` }, arrType: 'movie_app', enabled: false })).body.id;
      const failed = await h.post(`/ref-guide/sources/${unreachable}/sync?wait=true`);
      expect(failed.body).toMatchObject({ status: 'failed', reason: 'fetch_failed', source: { lastSyncedAt: null, sync: { status: 'failed', reason: 'fetch_failed' } } });
      expect(JSON.stringify(failed.body.source.sync)).not.toContain(missing);
      const health = await h.get('/health?verbose=true');
      expect(health.body.components.repos).toMatchObject({ status: 'degraded', total: 3, enabled: 2, cached: 2, disabled: 1 });
      expect(health.body.components.repos.message).toBe('No PCD databases linked; 1 of 2 enabled reference-guide sources failed their last sync');
      await h.del(`/ref-guide/sources/${unreachable}`);
      repo.commit({ 'docs/json/radarr/cf/1080p.json': fs.readFileSync(sharedPath(...GUIDES, 'docs', 'json', 'radarr', 'cf', '1080p.json'), 'utf8') }, 'restore');
      expect((await h.post(`/ref-guide/sources/${radarr}/sync?wait=true`)).body).toMatchObject({ status: 'ready', changes: { updated: 1 + profilesScoring(CF_1080P).length }, source: { sync: { status: 'ready', reason: null } } });
    });

    it('joins concurrent syncs into one workflow run, visible with its search attributes', async () => {
      const query = `ArrgoKind = 'ref-guide-sync' AND ArrgoSourceId = ${sonarr} AND TaskQueue = '${h.taskQueue}'`;
      const runs = async () => {
        const ids: string[] = [];
        for await (const wf of h.service.temporal.client.workflow.list({ query })) ids.push(wf.runId);
        return ids;
      };
      const before = (await eventually(runs, (ids) => ids.length >= 1)).length;
      const [a, b] = await Promise.all([h.post(`/ref-guide/sources/${sonarr}/sync?wait=true`), h.post(`/ref-guide/sources/${sonarr}/sync?wait=true`)]);
      expect(a.body.workflowId).toBe(b.body.workflowId);
      expect(a.body.workflowId).toBe(`${h.taskQueue}-ref-guide-sync-${sonarr}`);
      const after = await eventually(runs, (ids) => ids.length >= before + 1);
      expect(after.length).toBe(before + 1);
      const handle = h.service.temporal.client.workflow.getHandle(a.body.workflowId);
      const described = await handle.describe();
      expect(described.typedSearchAttributes.get({ name: 'ArrgoArrType', type: 'KEYWORD' } as never)).toBe('series_app');
      expect(described.typedSearchAttributes.get({ name: 'ArrgoSyncStatus', type: 'KEYWORD' } as never)).toBe('success');
      const total = Object.values(a.body.source.entityCounts as Record<string, number>).reduce((x, y) => x + y, 0);
      expect(await handle.query(refGuideSyncProgressQuery)).toEqual({ phase: 'done', done: total, total });
    });

    it('refreshes every enabled source on a schedule that the settings pause and resume', async () => {
      const scheduleId = refGuideScheduleId(h.taskQueue);
      const settings = await h.get('/ref-guide/settings');
      expect(settings.body).toMatchObject({ enabled: true, intervalMinutes: 1440, scheduleId, paused: false, lastRunAt: null });
      expect(settings.body.nextRunAt).toEqual(expect.any(String));
      const schedule = h.service.temporal.client.schedule.getHandle(scheduleId);
      expect((await schedule.describe()).state.paused).toBe(false);

      const attemptBefore = (await h.get(`/ref-guide/sources/${sonarr}`)).body.sync.lastAttemptAt;
      await schedule.trigger();
      const ran = await eventually(() => h.get('/ref-guide/settings'), (r) => r.body.lastRunAt !== null, 60_000);
      expect(ran.body).toMatchObject({ lastRunSources: 2, lastRunFailed: 0, lastRunJoined: 0 });
      expect((await h.get(`/ref-guide/sources/${sonarr}`)).body.sync.lastAttemptAt > attemptBefore).toBe(true);

      // A sync of the Sonarr source already running (held on a task queue no worker polls): the
      // refresh joins it instead of starting a second one.
      const held = await h.service.temporal.client.workflow.start('refGuideSyncWorkflow', {
        taskQueue: `${h.taskQueue}-idle`,
        workflowId: `${h.taskQueue}-ref-guide-sync-${sonarr}`,
        args: [{ sourceId: sonarr, trigger: 'manual' }],
      });
      try {
        await schedule.trigger();
        const joined = await eventually(() => h.get('/ref-guide/settings'), (r) => r.body.lastRunAt !== ran.body.lastRunAt, 60_000);
        expect(joined.body).toMatchObject({ lastRunSources: 2, lastRunFailed: 0, lastRunJoined: 1 });
      } finally {
        await held.terminate('test over');
      }

      const paused = await h.put('/ref-guide/settings', { enabled: false, intervalMinutes: 720 });
      expect(paused.body).toMatchObject({ enabled: false, intervalMinutes: 720, paused: true, nextRunAt: null });
      const described = await schedule.describe();
      expect(described.state.paused).toBe(true);
      expect(described.spec.intervals?.[0].every).toBe(720 * 60_000);
      expect((await h.put('/ref-guide/settings', { enabled: true, intervalMinutes: 1 })).body.error).toBe('Invalid request: body.intervalMinutes must be at least 5');
      expect((await h.put('/ref-guide/settings', { enabled: true, intervalMinutes: 1440 })).body).toMatchObject({ enabled: true, paused: false });
    });
  });
}

describeWithShared(GUIDES, 'importing guide entities into a PCD user layer', () => {
  let h: Harness;
  let source: number;
  let databaseId: number;
  const TRUEHD_ATMOS = '496f355514737f7d83bf7aa4d24f8169';

  beforeAll(async () => {
    h = await startArrgo();
    databaseId = await linkDatabase(h, 'sample', SAMPLE_PCD);
    source = (await h.post('/ref-guide/sources', { name: 'guides', origin: { kind: 'local', path: sharedPath(...GUIDES) }, arrType: 'movie_app' })).body.id;
    await eventually(() => h.get(`/ref-guide/sources/${source}`), (r) => r.body.lastSyncedAt !== null, 60_000);
  });
  afterAll(async () => h?.close());

  const resolvedFormat = async (name: string) => {
    const list = await h.get(`/pcd/${databaseId}/resolved/customFormat?includeLineage=true`);
    return list.body.entities.find((e: { name: string }) => e.name === name);
  };

  it('imports a custom format with its regular expressions as user ops; reverting removes it', async () => {
    const guide = (await h.get(`/ref-guide/sources/${source}/entities/${TRUEHD_ATMOS}?type=custom_format`)).body.entity;
    const res = await h.post(`/ref-guide/sources/${source}/entities/${TRUEHD_ATMOS}/import`, { databaseId });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ databaseId, refId: TRUEHD_ATMOS, type: 'custom_format', scoreSet: null, source: { id: source, arrType: 'movie_app' } });
    const created = res.body.created as { entityType: string; name: string; opId: number }[];
    expect(created[created.length - 1]).toMatchObject({ entityType: 'custom_format', name: 'TrueHD ATMOS' });
    const patterns = guide.specifications.filter((s: { implementation: string }) => s.implementation === 'ReleaseTitleSpecification');
    expect(created.filter((c) => c.entityType === 'regular_expression').length + res.body.skipped.filter((s: { entityType: string }) => s.entityType === 'regular_expression').length).toBe(patterns.length);

    const format = await resolvedFormat('TrueHD ATMOS');
    expect(format.exists).toBe(true);
    expect(format.lineage.find((l: { path: string }) => l.path === 'name')).toMatchObject({ sourceLayer: 'user' });
    expect(format.entity.conditions.map((c: { name: string }) => c.name).sort()).toEqual(guide.specifications.map((s: { name: string }) => s.name).sort());
    expect(format.entity.conditions.every((c: { arrType: string }) => c.arrType === 'movie_app')).toBe(true);
    const ops = (await h.get(`/pcd/${databaseId}/user-ops`)).body as { id: number; outcome: { status: string } }[];
    expect(ops.filter((o) => created.some((c) => c.opId === o.id)).every((o) => o.outcome.status === 'applied')).toBe(true);

    const again = await h.post(`/ref-guide/sources/${source}/entities/${TRUEHD_ATMOS}/import`, { databaseId });
    expect(again.body).toMatchObject({ created: [], skipped: [{ entityType: 'custom_format', name: 'TrueHD ATMOS', reason: 'a custom format with this name exists; it is kept as it is' }] });

    const formatOp = created[created.length - 1].opId;
    expect((await h.del(`/pcd/${databaseId}/user-ops/${formatOp}`)).status).toBe(204);
    expect(await resolvedFormat('TrueHD ATMOS')).toBeUndefined();
    for (const op of created.slice(0, -1).reverse()) expect((await h.del(`/pcd/${databaseId}/user-ops/${op.opId}`)).status).toBe(204);
  });

  it('previews an import (dryRun): exactly what the import creates, storing nothing; afterwards the name is reported as existing', async () => {
    const importFormat = (body: Record<string, unknown>) => h.post(`/ref-guide/sources/${source}/entities/${TRUEHD_ATMOS}/import`, { databaseId, ...body });
    const formatNames = async () => (await h.get(`/pcd/${databaseId}/resolved/customFormat`)).body.entities.map((e: { name: string }) => e.name) as string[];
    const namesBefore = await formatNames();
    const preview = await importFormat({ dryRun: true });
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ databaseId, refId: TRUEHD_ATMOS, type: 'custom_format', dryRun: true });
    const planned = preview.body.created as { entityType: string; name: string; opId: number | null }[];
    expect(planned[planned.length - 1]).toEqual({ entityType: 'custom_format', name: 'TrueHD ATMOS', opId: null });
    expect(planned.every((c) => c.opId === null)).toBe(true);
    // Nothing was written: no user op, no format, and asking again gives the same answer.
    expect((await h.get(`/pcd/${databaseId}/user-ops`)).body).toEqual([]);
    expect(await formatNames()).toEqual(namesBefore);
    expect((await importFormat({ dryRun: true })).body).toEqual(preview.body);

    const imported = await importFormat({});
    expect(imported.body.dryRun).toBe(false);
    expect(imported.body.created.map((c: { entityType: string; name: string }) => [c.entityType, c.name])).toEqual(planned.map((c) => [c.entityType, c.name]));
    expect(imported.body.skipped).toEqual(preview.body.skipped);
    expect(imported.body.created.every((c: { opId: number }) => Number.isInteger(c.opId))).toBe(true);

    const again = await importFormat({ dryRun: true });
    expect(again.body).toMatchObject({ dryRun: true, created: [] });
    expect(again.body.skipped).toContainEqual({ entityType: 'custom_format', name: 'TrueHD ATMOS', reason: 'a custom format with this name exists; it is kept as it is' });
    for (const op of [...imported.body.created].reverse()) expect((await h.del(`/pcd/${databaseId}/user-ops/${op.opId}`)).status).toBe(204);
  });

  it('refuses what cannot be imported with a precise 4xx', async () => {
    const naming = (await h.get(`/ref-guide/sources/${source}/entities?type=naming`)).body.items[0].refId;
    const cases: [string, unknown, number, string][] = [
      [naming, { databaseId }, 404, `No custom_format or quality_profile or quality_size with refId ${naming} in reference-guide source ${source}`],
      [TRUEHD_ATMOS, { databaseId, preferredRatio: 0.5 }, 400, 'Invalid request: body.preferredRatio applies to quality sizes only'],
      [TRUEHD_ATMOS, { databaseId, type: 'quality_profile' }, 404, `No quality_profile with refId ${TRUEHD_ATMOS} in reference-guide source ${source}`],
      [TRUEHD_ATMOS, { databaseId, scoreSet: 'default' }, 400, 'Invalid request: body.scoreSet applies to quality profiles only'],
      [TRUEHD_ATMOS, { databaseId, extra: true }, 400, 'Invalid request: body has unknown field(s): extra'],
      [TRUEHD_ATMOS, { databaseId, dryRun: 'yes' }, 400, 'Invalid request: body.dryRun must be a boolean, got string'],
      [TRUEHD_ATMOS, { databaseId, existingFormats: 'overwrite' }, 400, 'Invalid request: body.existingFormats must be one of: keep, merge'],
      [TRUEHD_ATMOS, { databaseId: 999 }, 404, 'Database 999 not found'],
    ];
    for (const [refId, body, status, error] of cases) {
      const res = await h.post(`/ref-guide/sources/${source}/entities/${refId}/import`, body);
      expect({ status: res.status, error: res.body.error }).toEqual({ status, error });
    }
    expect((await h.get(`/pcd/${databaseId}/user-ops`)).body).toEqual([]);
  });

  it('names a regular expression after its format when the database has the name with another pattern', async () => {
    const FLAC = 'a570d4a0e56a2874b64e5bfa55202a1b';
    const regexes = async () => (await h.get(`/pcd/${databaseId}/resolved/regularExpression`)).body.entities as { name: string; entity: { pattern: string } }[];
    const sampleFlac = (await regexes()).find((r) => r.name === 'FLAC')!.entity.pattern;
    const specs = (await h.get(`/ref-guide/sources/${source}/entities/${FLAC}?type=custom_format`)).body.entity.specifications as { name: string; fields: { value: string } }[];
    const guidePattern = specs.find((spec) => spec.name === 'FLAC')!.fields.value;
    expect(guidePattern).not.toBe(sampleFlac);
    const res = await h.post(`/ref-guide/sources/${source}/entities/${FLAC}/import`, { databaseId });
    const created = res.body.created.map((c: { entityType: string; name: string }) => `${c.entityType}:${c.name}`);
    expect(created).toContain('regular_expression:FLAC (FLAC)');
    expect(created).not.toContain('regular_expression:FLAC');
    expect(created[created.length - 1]).toBe('custom_format:FLAC');
    const after = await regexes();
    expect(after.find((r) => r.name === 'FLAC')!.entity.pattern).toBe(sampleFlac);
    expect(after.find((r) => r.name === 'FLAC (FLAC)')!.entity.pattern).toBe(guidePattern);
    expect((await resolvedFormat('FLAC')).entity.conditions.find((c: { name: string }) => c.name === 'FLAC')).toMatchObject({ type: 'release_title', regularExpression: 'FLAC (FLAC)' });
    for (const op of [...res.body.created].reverse()) expect((await h.del(`/pcd/${databaseId}/user-ops/${op.opId}`)).status).toBe(204);
  });

  it('reports an existing name instead of overwriting it', async () => {
    const x265 = (await h.get(`/ref-guide/sources/${source}/entities?type=custom_format&q=x265 (HD)`)).body.items[0];
    const before = await resolvedFormat('x265 (HD)');
    const res = await h.post(`/ref-guide/sources/${source}/entities/${x265.refId}/import`, { databaseId });
    expect(res.body).toMatchObject({ created: [], skipped: [{ entityType: 'custom_format', name: 'x265 (HD)' }] });
    expect(await resolvedFormat('x265 (HD)')).toEqual(before);
  });

  it("merges the guide's conditions for its app family into an existing format (existingFormats merge), keeping the other families'; reverting restores it", async () => {
    const x265 = (await h.get(`/ref-guide/sources/${source}/entities?type=custom_format&q=x265 (HD)`)).body.items[0];
    const guide = (await h.get(`/ref-guide/sources/${source}/entities/${x265.refId}?type=custom_format`)).body.entity as { specifications: { name: string }[] };
    const before = await resolvedFormat('x265 (HD)');
    const merge = (body: Record<string, unknown>) => h.post(`/ref-guide/sources/${source}/entities/${x265.refId}/import`, { databaseId, existingFormats: 'merge', ...body });
    const planned = await merge({ dryRun: true });
    expect(planned.status).toBe(200);
    expect(planned.body.updated).toEqual([{ entityType: 'custom_format', name: 'x265 (HD)', opId: null }]);
    expect(await resolvedFormat('x265 (HD)')).toEqual(before);

    const res = await merge({});
    expect(res.body.updated).toEqual([{ entityType: 'custom_format', name: 'x265 (HD)', opId: expect.any(Number) }]);
    const after = (await resolvedFormat('x265 (HD)')).entity as { description: string; conditions: { name: string; arrType: string }[] };
    expect(after.description).toBe(before.entity.description);
    const scoped = (arrType: string) => after.conditions.filter((c) => c.arrType === arrType || c.arrType === 'all').map((c) => c.name).sort();
    // Radarr gets the guide's specifications; the sample's own x265 condition (for every app) still applies to Sonarr and Lidarr.
    expect(scoped('movie_app')).toEqual(guide.specifications.map((s) => s.name).sort());
    expect(scoped('series_app')).toEqual(['Not 2160p', 'x265']);
    expect(scoped('music_app')).toEqual(['Not 2160p', 'x265 (Lidarr)']); // Lidarr has no resolution conditions: its sync leaves that one out
    expect((await merge({})).body).toMatchObject({ created: [], updated: [], skipped: [{ entityType: 'custom_format', name: 'x265 (HD)', reason: "a custom format with this name exists and gives movie_app the guide's definition already" }] });

    for (const op of [...res.body.updated, ...res.body.created].reverse()) expect((await h.del(`/pcd/${databaseId}/user-ops/${op.opId}`)).status).toBe(204);
    expect(await resolvedFormat('x265 (HD)')).toEqual(before);
  });

  it("imports a quality size as the family's quality definitions, preferred sizes at a ratio when asked", async () => {
    const movie = (await h.get(`/ref-guide/sources/${source}/entities?type=quality_size`)).body.items.find((i: { name: string }) => i.name === 'movie');
    const guide = (await h.get(`/ref-guide/sources/${source}/entities/${movie.refId}?type=quality_size`)).body.entity as { qualities: { quality: string; min: number; preferred: number; max: number }[] };
    const bad = await h.post(`/ref-guide/sources/${source}/entities/${movie.refId}/import`, { databaseId, preferredRatio: 1.5 });
    expect([bad.status, bad.body.error]).toEqual([400, 'Invalid request: body.preferredRatio must be at most 1']);
    const res = await h.post(`/ref-guide/sources/${source}/entities/${movie.refId}/import`, { databaseId, preferredRatio: 0 });
    expect(res.body).toMatchObject({ type: 'quality_size', created: [{ entityType: 'movie_app_quality_definitions', name: 'movie (preferred 0)', opId: expect.any(Number) }], skipped: [] });
    const stored = (await h.get(`/pcd/${databaseId}/entities/movie_app_quality_definitions/${encodeURIComponent('movie (preferred 0)')}`)).body.entity as { entries: { quality: string; minSize: number; maxSize: number; preferredSize: number }[] };
    const bluray = guide.qualities.find((q) => q.quality === 'Bluray-1080p')!;
    // Ratio 0: preferred at the minimum; the guide's max of 2000 (Radarr's limit) is no limit.
    expect(stored.entries.find((e) => e.quality === 'Bluray-1080p')).toEqual({ quality: 'Bluray-1080p', minSize: bluray.min, maxSize: bluray.max >= 2000 ? 0 : bluray.max, preferredSize: bluray.min });
    expect(stored.entries).toHaveLength(guide.qualities.length);
    const again = await h.post(`/ref-guide/sources/${source}/entities/${movie.refId}/import`, { databaseId, preferredRatio: 0 });
    expect(again.body).toMatchObject({ created: [], skipped: [{ entityType: 'movie_app_quality_definitions', name: 'movie (preferred 0)', reason: 'quality definitions with this name exist; they are kept as they are' }] });
    expect((await h.del(`/pcd/${databaseId}/user-ops/${res.body.created[0].opId}`)).status).toBe(204);
  });

  it('imports a quality profile scored from a chosen score set, with the formats it needs', async () => {
    const refId = '0896c29d74de619df168d23b98104b22';
    const guide = (await h.get(`/ref-guide/sources/${source}/entities/${refId}?type=quality_profile`)).body.entity;
    const bad = await h.post(`/ref-guide/sources/${source}/entities/${refId}/import`, { databaseId, scoreSet: 'no-such-set' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('body.scoreSet "no-such-set" is not a score set');
    expect((await h.post(`/ref-guide/sources/${source}/entities/${refId}/import`, { databaseId, scoreSet: 'Bad Set' })).status).toBe(400);
    expect((await h.post(`/ref-guide/sources/${source}/entities/${refId}/import`, { databaseId: 999 })).status).toBe(404);

    const res = await h.post(`/ref-guide/sources/${source}/entities/${refId}/import`, { databaseId, scoreSet: 'sqp-1-2160p' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type: 'quality_profile', scoreSet: 'sqp-1-2160p' });
    expect(res.body.created[res.body.created.length - 1]).toMatchObject({ entityType: 'quality_profile', name: '[SQP] SQP-1 (1080p)' });
    expect(res.body.skipped).toEqual(expect.arrayContaining([expect.objectContaining({ entityType: 'custom_format', name: 'x265 (HD)' })]));

    const profiles = await h.get(`/pcd/${databaseId}/resolved/qualityProfile`);
    const profile = profiles.body.entities.find((e: { name: string }) => e.name === '[SQP] SQP-1 (1080p)').entity;
    const scores = Object.fromEntries(profile.customFormats.movie_app.map((s: { name: string; score: number }) => [s.name, s.score]));
    const hdBluray = (await h.get(`/ref-guide/sources/${source}/entities/${guide.formatItems['HD Bluray Tier 01']}?type=custom_format`)).body.scores;
    expect(scores['HD Bluray Tier 01']).toBe(hdBluray['sqp-1-2160p'] ?? hdBluray.default);
    expect(Object.keys(scores).sort()).toEqual(Object.keys(guide.formatItems).sort());
    expect(profile.qualities[0]).toMatchObject({ name: guide.items[0].name });
    expect(profile).toMatchObject({ minimumCustomFormatScore: guide.minFormatScore, upgradeUntilScore: guide.cutoffFormatScore, languages: [{ name: 'Original', type: 'simple' }] });
    const ops = (await h.get(`/pcd/${databaseId}/user-ops`)).body as { id: number; outcome: { status: string } }[];
    expect(ops.map((o) => [o.id, o.outcome.status])).toEqual(res.body.created.map((c: { opId: number }) => [c.opId, 'applied']));
    expect((await h.del(`/pcd/${databaseId}/user-ops/${res.body.created[res.body.created.length - 1].opId}`)).status).toBe(204);
    expect((await h.get(`/pcd/${databaseId}/resolved/qualityProfile`)).body.entities.some((e: { name: string }) => e.name === '[SQP] SQP-1 (1080p)')).toBe(false);
  });

  it('forgets a deleted database in the sources linked to it', async () => {
    expect((await h.patch(`/ref-guide/sources/${source}`, { databaseIds: [databaseId, databaseId] })).body.databaseIds).toEqual([databaseId]);
    expect((await h.del(`/databases/${databaseId}`)).status).toBe(204);
    expect((await h.get(`/ref-guide/sources/${source}`)).body.databaseIds).toEqual([]);
  });
});

describeWithShared(['data', 'pcd', 'trash-pcd'], 'health ref_alignment from a linked TRaSH source', () => {
  let h: Harness;
  let databaseId: number;
  let source: number;
  let instance: FleetInstance;

  beforeAll(async () => {
    h = await startArrgo({ env: { HEALTH_RECOMPUTE_MIN_INTERVAL_SECONDS: '0' } });
    databaseId = await linkDatabase(h, 'trash', sharedPath('data', 'pcd', 'trash-pcd'));
  });
  afterAll(async () => {
    await h?.close();
    await instance?.emulator.close();
  });

  const refAlignment = async () => {
    const res = await h.post(`/config-health/${instance.id}/recompute`);
    expect(res.status).toBe(200);
    return { overall: res.body.overall.criteria.find((c: { id: string }) => c.id === 'ref_alignment'), profile: res.body.profiles[0].criteria.find((c: { id: string }) => c.id === 'ref_alignment') };
  };

  it('is skipped without a linked source and scored with one', async () => {
    instance = await addInstance(h, 'movie_app', { name: 'trash radarr', databaseId, config: { databaseId, qualityProfiles: ['HD Bluray + WEB'], namespace: 'trash' } });
    expect((await h.post(`/instances/${instance.id}/sync?wait=true`, {})).body.status).toBe('applied');
    await h.post(`/drift/${instance.id}/check`);

    const none = await refAlignment();
    expect(none.overall).toMatchObject({ score: null, contribution: 0, detail: ['No reference guide source is available for this instance.'] });

    source = (await h.post('/ref-guide/sources', { name: 'TRaSH', origin: { kind: 'local', path: sharedPath('data', 'trash-guides') }, arrType: 'movie_app', databaseIds: [databaseId] })).body.id;
    await eventually(() => h.get(`/ref-guide/sources/${source}`), (r) => r.body.lastSyncedAt !== null, 60_000);
    const linked = await refAlignment();
    expect(linked.overall.score).toEqual(expect.any(Number));
    expect(linked.overall.score).toBeGreaterThanOrEqual(50);
    expect(linked.overall.detail[0]).toMatch(/^\d+ of \d+ reference entries match the reference guide "TRaSH"\.$/);
    const [matched, total] = linked.overall.detail[0].match(/\d+/g).map(Number);
    expect(linked.overall.score).toBe(Math.round((100 * matched) / total));
    expect(linked.profile.score).toEqual(expect.any(Number));
    if (matched < total) expect(linked.overall.suggestions[0].detail[0]).toMatch(/^(Custom format|Quality profile) "/);

    expect((await h.patch(`/ref-guide/sources/${source}`, { databaseIds: [] })).status).toBe(200);
    expect((await refAlignment()).overall.score).toBeNull();
    expect((await h.patch(`/ref-guide/sources/${source}`, { databaseIds: [9999] })).body.error).toBe('Invalid request: body.databaseIds: database 9999 does not exist');
  });
});
