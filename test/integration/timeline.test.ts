import { CanaryRollout, Instance, InstanceSyncConfig, InstanceSyncDatabase, SyncRun } from '../../src/persistence/entities';
import { dbKinds } from '../helpers/databases';
import { SAMPLE_PCD, linkDatabase } from '../helpers/fleet';
import { startArrgo, type Harness } from '../helpers/harness';

const T = (minute: number) => new Date(Date.UTC(2026, 0, 10, 12, minute, 0));

/** Sync runs and canary rollouts as their workflows store them, at known times. */
async function seedFleetEvents(h: Harness) {
  const em = h.service.orm.em.fork();
  const radarr = em.create(Instance, { name: 'radarr-main', arrType: 'movie_app', baseUrl: 'http://127.0.0.1:1', apiKeySealed: 'sealed', enabled: true, tags: [], createdAt: new Date(), updatedAt: new Date() });
  const sonarr = em.create(Instance, { name: 'sonarr-main', arrType: 'series_app', baseUrl: 'http://127.0.0.1:2', apiKeySealed: 'sealed', enabled: true, tags: [], createdAt: new Date(), updatedAt: new Date() });
  await em.flush();
  const run = (instance: Instance | null, name: string, arrType: 'movie_app' | 'series_app', status: SyncRun['status'], minute: number, extra: { error?: string } = {}) =>
    em.create(SyncRun, {
      instanceId: instance?.id ?? null,
      instanceName: name,
      arrType,
      trigger: 'manual',
      sectionsAttempted: ['qualityProfiles'],
      sectionsKey: ',qualityProfiles,',
      status,
      sectionsRun: 1,
      itemsSynced: 1,
      failureCount: 0,
      entityChangeCount: 1,
      entityOutcomeCount: 1,
      outcomes: [],
      verification: null,
      workflowId: `wf-sync-${minute}`,
      previewId: minute,
      startedAt: T(minute),
      createdAt: T(minute),
      ...extra,
    });
  const runs = [
    run(radarr, 'radarr-main', 'movie_app', 'success', 1),
    run(sonarr, 'sonarr-main', 'series_app', 'failed', 2, { error: 'The app instance could not be reached' }),
    run(null, 'radarr-deleted', 'movie_app', 'partial', 3),
    run(radarr, 'radarr-main', 'movie_app', 'success', 5),
  ];
  const rollout = (canary: number, name: string, status: CanaryRollout['status'], minute: number, extra: Partial<Pick<CanaryRollout, 'statusReasonCode' | 'statusReason'>> = {}) =>
    em.create(CanaryRollout, {
      arrType: 'movie_app',
      canaryInstanceId: canary,
      canaryInstanceName: name,
      targets: [],
      sections: ['qualityProfiles'],
      partialPolicy: 'gate',
      batchSize: 1,
      evidenceMaxAgeSeconds: 600,
      status,
      canaryStatus: 'success',
      canaryDiagnostics: null,
      remainingPreview: null,
      rolloutIndex: 0,
      trigger: 'manual',
      rolloutResults: [],
      stateToken: `token-${minute}`,
      workflowId: `wf-canary-${minute}`,
      createdAt: T(minute),
      updatedAt: T(minute),
      ...extra,
    });
  const rollouts = [
    rollout(radarr.id, 'radarr-main', 'completed', 4),
    rollout(987654, 'radarr-gone', 'aborted', 5, { statusReasonCode: 'gate_declined', statusReason: 'Aborted at the gate by the operator; the 2 remaining instances were left untouched.' }),
  ];
  await em.flush();
  return { radarr, sonarr, runs, rollouts };
}

for (const db of dbKinds()) {
  describe(`GET /timeline (${db})`, () => {
    let h: Harness;
    let fleet: Awaited<ReturnType<typeof seedFleetEvents>>;
    let dbId: number;
    let goneDbId: number;

    beforeAll(async () => {
      h = await startArrgo({ db, env: { TEMPORAL_UI_URL: 'http://127.0.0.1:8233' } });
      fleet = await seedFleetEvents(h);
      dbId = await linkDatabase(h, 'sample', SAMPLE_PCD);
      goneDbId = await linkDatabase(h, 'sample-gone', SAMPLE_PCD);
    }, 120_000);
    afterAll(async () => {
      await h?.close();
    });

    it('merges the four sources in one feed, in the documented order, with counts, links and retained labels', async () => {
      const em = h.service.orm.em.fork();
      em.create(InstanceSyncConfig, { instanceId: fleet.radarr.id, databaseId: dbId, selection: {}, updatedAt: new Date() });
      em.create(InstanceSyncDatabase, { instanceId: fleet.radarr.id, position: 0, databaseId: dbId, selection: {} });
      await em.flush();
      const manual = await h.post(`/databases/${dbId}/snapshots`, { note: 'known good' });
      const rollback = await h.post(`/databases/${dbId}/snapshots/${manual.body.id}/rollback?wait=true`);
      expect(rollback.body.status).toBe('success');
      // The rollback names the instances to preview a sync for.
      expect(rollback.body.instancesFed).toEqual([fleet.radarr.id]);
      await em.nativeDelete(InstanceSyncDatabase, { instanceId: fleet.radarr.id });
      await em.nativeDelete(InstanceSyncConfig, { instanceId: fleet.radarr.id });
      const gone = await h.post(`/databases/${goneDbId}/snapshots`, {});
      expect((await h.del(`/databases/${goneDbId}`)).status).toBe(204);

      const all = await h.get('/timeline');
      expect(all.status).toBe(200);
      expect(all.body.counts).toEqual({ canary: 2, rollback: 1, snapshot: 3, sync: 4 });
      expect(all.body).toMatchObject({ page: 1, pageSize: 50, totalRecords: 10, totalPages: 1, hasNext: false });
      const ids = all.body.items.map((i: { id: string }) => i.id);
      // Newest first (the snapshots and rollback happened now); ties at 12:05 by source ascending.
      const [preRollback] = (await h.get(`/databases/${dbId}/snapshots`)).body.items.filter((s: { subtype: string }) => s.subtype === 'rollback');
      expect(ids).toEqual([
        `snapshot:${gone.body.id}`,
        // The pre-rollback snapshot is taken after the rollback started.
        `snapshot:${preRollback.id}`,
        `rollback:${rollback.body.id}`,
        `snapshot:${manual.body.id}`,
        `canary:${fleet.rollouts[1].id}`,
        `sync:${fleet.runs[3].id}`,
        `canary:${fleet.rollouts[0].id}`,
        `sync:${fleet.runs[2].id}`,
        `sync:${fleet.runs[1].id}`,
        `sync:${fleet.runs[0].id}`,
      ]);
      const byId = new Map(all.body.items.map((i: { id: string }) => [i.id, i]));
      expect(byId.get(`sync:${fleet.runs[1].id}`)).toEqual({
        id: `sync:${fleet.runs[1].id}`,
        source: 'sync',
        occurredAt: '2026-01-10T12:02:00.000Z',
        subtype: 'manual',
        status: 'failed',
        badge: 'danger',
        scope: { kind: 'arr-instance', id: fleet.sonarr.id, label: 'sonarr-main', arrType: 'series_app' },
        link: { api: '/api/v1/sync/previews/2', workflowId: 'wf-sync-2', workflowUrl: `http://127.0.0.1:8233/namespaces/${h.namespace}/workflows/wf-sync-2` },
        reason: 'The app instance could not be reached',
        annotations: [],
      });
      // Deleted instances and databases keep their label with a null id.
      expect(byId.get(`sync:${fleet.runs[2].id}`)).toMatchObject({ status: 'partial', badge: 'warning', scope: { id: null, label: 'radarr-deleted' } });
      expect(byId.get(`canary:${fleet.rollouts[1].id}`)).toMatchObject({
        status: 'cancelled',
        badge: 'neutral',
        scope: { kind: 'arr-instance', id: null, label: 'radarr-gone', arrType: 'movie_app' },
        reason: 'Aborted at the gate by the operator; the 2 remaining instances were left untouched.',
      });
      expect(byId.get(`canary:${fleet.rollouts[0].id}`)).toMatchObject({ status: 'success', scope: { id: fleet.radarr.id }, link: { api: `/api/v1/canary/rollouts/${fleet.rollouts[0].id}` }, reason: null });
      expect(byId.get(`snapshot:${gone.body.id}`)).toMatchObject({ subtype: 'manual', status: 'success', badge: 'success', scope: { kind: 'pcd-database', id: null, label: 'sample-gone', arrType: null }, link: { workflowId: null, workflowUrl: null } });
      expect(byId.get(`snapshot:${preRollback.id}`)).toMatchObject({ subtype: 'rollback', scope: { id: dbId, label: 'sample' }, reason: null });
      expect(byId.get(`rollback:${rollback.body.id}`)).toMatchObject({
        subtype: 'manual',
        status: 'success',
        scope: { kind: 'pcd-database', id: dbId, label: 'sample' },
        link: { api: `/api/v1/databases/${dbId}/rollbacks/${rollback.body.id}`, workflowId: rollback.body.workflowId },
      });
      expect(new Date(all.body.items[0].occurredAt).toISOString()).toBe(all.body.items[0].occurredAt);

      // Documented order: occurredAt desc, then source asc, then id desc.
      const order = all.body.items.map((i: { occurredAt: string; source: string; id: string }) => [i.occurredAt, i.source, Number(i.id.split(':')[1])]);
      const sorted = [...order].sort((a, b) => (a[0] !== b[0] ? (a[0] < b[0] ? 1 : -1) : a[1] !== b[1] ? (a[1] < b[1] ? -1 : 1) : b[2] - a[2]));
      expect(order).toEqual(sorted);
      // The 12:05 tie: canary before sync.
      expect(ids.indexOf(`canary:${fleet.rollouts[1].id}`)).toBe(ids.indexOf(`sync:${fleet.runs[3].id}`) - 1);

      // Pagination walks the same order.
      const p1 = await h.get('/timeline?pageSize=3');
      const p2 = await h.get('/timeline?pageSize=3&page=2');
      const p4 = await h.get('/timeline?pageSize=3&page=4');
      expect([...p1.body.items, ...p2.body.items].map((i: { id: string }) => i.id)).toEqual(ids.slice(0, 6));
      expect(p4.body.items.map((i: { id: string }) => i.id)).toEqual(ids.slice(9));
      expect(p2.body).toMatchObject({ totalRecords: 10, totalPages: 4, hasNext: true, counts: all.body.counts });
    }, 120_000);

    const listIds = async (query: string) => {
      const r = await h.get(`/timeline?${query}`);
      expect(r.status).toBe(200);
      return { ids: r.body.items.map((i: { id: string }) => i.id) as string[], counts: r.body.counts };
    };

    it('applies filter rules 1-5', async () => {
      // Rule 2: instanceId and arrType keep sync and canary only.
      const instance = await listIds(`instanceId=${fleet.radarr.id}`);
      expect(instance.ids).toEqual([`sync:${fleet.runs[3].id}`, `canary:${fleet.rollouts[0].id}`, `sync:${fleet.runs[0].id}`]);
      expect(instance.counts).toEqual({ canary: 1, rollback: 0, snapshot: 0, sync: 2 });
      const series = await listIds('arrType=series_app');
      expect(series.ids).toEqual([`sync:${fleet.runs[1].id}`]);
      expect((await listIds('arrType=movie_app')).counts).toEqual({ canary: 2, rollback: 0, snapshot: 0, sync: 3 });
      // Rule 3: databaseId keeps snapshot and rollback only.
      const database = await listIds(`databaseId=${dbId}`);
      expect(database.counts).toEqual({ canary: 0, rollback: 1, snapshot: 2, sync: 0 });
      expect(database.ids.every((id) => id.startsWith('snapshot:') || id.startsWith('rollback:'))).toBe(true);
      expect((await listIds(`databaseId=${goneDbId}`)).counts).toEqual({ canary: 0, rollback: 0, snapshot: 1, sync: 0 });
      // scopeKind alone selects the sources of that scope.
      expect((await listIds('scopeKind=arr-instance')).counts).toEqual({ canary: 2, rollback: 0, snapshot: 0, sync: 4 });
      expect((await listIds('scopeKind=pcd-database')).counts).toEqual({ canary: 0, rollback: 1, snapshot: 3, sync: 0 });
      expect((await listIds(`scopeKind=arr-instance&instanceId=${fleet.sonarr.id}`)).ids).toEqual([`sync:${fleet.runs[1].id}`]);
      // Rule 4: source intersects the included set; an empty intersection is an empty page.
      expect((await listIds('source=canary,snapshot')).counts).toEqual({ canary: 2, rollback: 0, snapshot: 3, sync: 0 });
      expect((await listIds(`source=sync&instanceId=${fleet.radarr.id}`)).ids).toEqual([`sync:${fleet.runs[3].id}`, `sync:${fleet.runs[0].id}`]);
      const none = await h.get(`/timeline?source=snapshot&instanceId=${fleet.radarr.id}`);
      expect(none.body).toMatchObject({ items: [], totalRecords: 0, counts: { canary: 0, rollback: 0, snapshot: 0, sync: 0 } });
      // Rule 5: status, from, to and q inside every branch.
      expect((await listIds('status=success')).counts).toEqual({ canary: 1, rollback: 1, snapshot: 3, sync: 2 });
      expect((await listIds('status=failed')).ids).toEqual([`sync:${fleet.runs[1].id}`]);
      expect((await listIds('status=cancelled')).ids).toEqual([`canary:${fleet.rollouts[1].id}`]);
      expect((await listIds('status=running')).ids).toEqual([]);
      const window = await listIds('from=2026-01-10T12:02:00Z&to=2026-01-10T12:04:00Z');
      expect(window.ids).toEqual([`canary:${fleet.rollouts[0].id}`, `sync:${fleet.runs[2].id}`, `sync:${fleet.runs[1].id}`]);
      expect((await listIds('from=2026-01-10&to=2026-01-10')).counts).toEqual({ canary: 2, rollback: 0, snapshot: 0, sync: 4 });
      expect((await listIds('to=2026-01-09')).ids).toEqual([]);
      expect((await listIds('q=SONARR')).ids).toEqual([`sync:${fleet.runs[1].id}`]);
      expect((await listIds('q=could not be reached')).ids).toEqual([`sync:${fleet.runs[1].id}`]);
      // A rollout's status reason is searched too.
      expect((await listIds('q=AT THE GATE by the operator')).ids).toEqual([`canary:${fleet.rollouts[1].id}`]);
      expect((await listIds('q=known good')).ids).toEqual([expect.stringMatching(/^snapshot:/)]);
      expect((await listIds('q=sample-gone')).counts).toEqual({ canary: 0, rollback: 0, snapshot: 1, sync: 0 });
      expect((await listIds('q=100%')).ids).toEqual([]);
      expect((await listIds(`q=radarr&arrType=movie_app&status=success&from=2026-01-10T12:03:00Z`)).ids).toEqual([`sync:${fleet.runs[3].id}`, `canary:${fleet.rollouts[0].id}`]);
    });

    it('rejects contradictory scopes and bad parameters with 400 (rule 6)', async () => {
      const cases: [string, string][] = [
        [`scopeKind=arr-instance&databaseId=${dbId}`, 'Invalid request: query.scopeKind arr-instance contradicts query.databaseId (a pcd-database scope)'],
        [`scopeKind=pcd-database&instanceId=${fleet.radarr.id}`, 'Invalid request: query.scopeKind pcd-database contradicts query.instanceId (an arr-instance scope)'],
        ['scopeKind=pcd-database&arrType=movie_app', 'Invalid request: query.scopeKind pcd-database contradicts query.arrType (an arr-instance scope)'],
        [`instanceId=${fleet.radarr.id}&databaseId=${dbId}`, 'Invalid request: query.databaseId cannot be combined with query.instanceId: a database scope and an app-instance scope never match the same event'],
        [`arrType=movie_app&databaseId=${dbId}`, 'Invalid request: query.databaseId cannot be combined with query.arrType: a database scope and an app-instance scope never match the same event'],
      ];
      for (const [query, error] of cases) {
        const r = await h.get(`/timeline?${query}`);
        expect([query, r.status, r.body.error]).toEqual([query, 400, error]);
      }
      for (const query of ['source=sync,bogus', 'scopeKind=app', 'status=ok', 'from=yesterday', 'from=2026-01-11&to=2026-01-10', 'pageSize=201', 'page=0', 'instanceId=-1', 'arrType=all', `q=${'x'.repeat(201)}`, 'unknown=1']) {
        const r = await h.get(`/timeline?${query}`);
        expect([query, r.status, typeof r.body.error]).toEqual([query, 400, 'string']);
      }
    });

    it('keeps annotations inline, searchable, editable and bounded', async () => {
      const eventId = `sync:${fleet.runs[0].id}`;
      const created = await h.post('/timeline/annotations', { eventId, body: 'Rolled out the new HDR scores' });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ eventId, source: 'sync', body: 'Rolled out the new HDR scores' });
      const second = await h.post('/timeline/annotations', { eventId, body: 'Checked by Ana' });

      const found = await h.get('/timeline?q=hdr scores');
      expect(found.body.items.map((i: { id: string }) => i.id)).toEqual([eventId]);
      expect(found.body.items[0].annotations.map((a: { body: string; source: string }) => [a.body, a.source])).toEqual([
        ['Rolled out the new HDR scores', 'sync'],
        ['Checked by Ana', 'sync'],
      ]);
      // Inline annotations are the stored ones, field for field.
      expect(found.body.items[0].annotations).toEqual([created.body, second.body]);

      const patched = await h.patch(`/timeline/annotations/${created.body.id}`, { body: 'Rolled out the new Dolby Vision scores' });
      expect(patched.body.body).toBe('Rolled out the new Dolby Vision scores');
      expect((await listIds('q=dolby vision')).ids).toEqual([eventId]);
      expect((await listIds('q=hdr scores')).ids).toEqual([]);
      expect((await h.del(`/timeline/annotations/${second.body.id}`)).status).toBe(204);
      expect((await h.get('/timeline?q=dolby')).body.items[0].annotations).toHaveLength(1);

      expect((await h.post('/timeline/annotations', { eventId: 'sync:999999', body: 'x' })).status).toBe(404);
      expect((await h.post('/timeline/annotations', { eventId: `rollback:999999`, body: 'x' })).body.error).toBe('Timeline event rollback:999999 not found');
      expect((await h.post('/timeline/annotations', { eventId: 'drift:1', body: 'x' })).status).toBe(400);
      expect((await h.post('/timeline/annotations', { eventId, body: 'x'.repeat(4001) })).status).toBe(400);
      expect((await h.post('/timeline/annotations', { eventId, body: 'x'.repeat(4000) })).status).toBe(201);
      expect((await h.post('/timeline/annotations', { eventId, body: '' })).status).toBe(400);
      expect((await h.patch('/timeline/annotations/999999', { body: 'x' })).status).toBe(404);
      expect((await h.del('/timeline/annotations/999999')).status).toBe(404);

      // An annotation stays on its own source's event when another source has an event with the same id.
      const canaryEvent = `canary:${fleet.rollouts[0].id}`;
      expect(fleet.rollouts[0].id).toBe(fleet.runs[0].id);
      const onCanary = await h.post('/timeline/annotations', { eventId: canaryEvent, body: 'Canary looked fine' });
      const feed = new Map((await h.get('/timeline')).body.items.map((i: { id: string; annotations: { body: string }[] }) => [i.id, i.annotations.map((a) => a.body)]));
      expect(feed.get(canaryEvent)).toEqual(['Canary looked fine']);
      expect(feed.get(eventId)).toEqual(['Rolled out the new Dolby Vision scores', 'x'.repeat(4000)]);
      expect(onCanary.body.source).toBe('canary');
    });
  });
}
