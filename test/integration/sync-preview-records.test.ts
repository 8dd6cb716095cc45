import { SyncPreview } from '../../src/persistence/entities';
import { dbKinds, type DbKind } from '../helpers/databases';
import { addInstance, linkDatabase, previewUntil, SAMPLE_PCD, type FleetInstance } from '../helpers/fleet';
import { startArrgo, type Harness } from '../helpers/harness';

/**
 * A preview's record and its generated results, stored with native statements (one read of the
 * instance, configuration and database; the preview and plan written as JSON in one update), read
 * back alike on both drivers: the answer of the create is the stored row, the plan applies.
 */
describe.each(dbKinds())('preview records on %s', (db: DbKind) => {
  let h: Harness;
  let databaseId: number;
  let radarr: FleetInstance;

  beforeAll(async () => {
    h = await startArrgo({ db });
    databaseId = await linkDatabase(h, 'sample', SAMPLE_PCD);
    radarr = await addInstance(h, 'movie_app', { name: 'radarr', databaseId });
  });
  afterAll(async () => {
    await h?.close();
    await radarr?.emulator.close();
  });

  it('answers the create with the row as stored, stores the generated preview and plan, and applies the plan', async () => {
    const created = await h.post('/sync/previews', { instanceId: radarr.id, sections: ['qualityProfiles', 'delayProfiles', 'qualityProfiles'] });
    expect(created.status).toBe(202);
    const stored = await h.service.orm.em.fork().findOneOrFail(SyncPreview, { id: created.body.id });
    expect(created.body).toMatchObject({
      instanceId: radarr.id,
      instanceName: 'radarr',
      arrType: 'movie_app',
      trigger: 'manual',
      sections: ['qualityProfiles', 'delayProfiles'],
      workflowId: `${h.taskQueue}-sync-${created.body.id}`,
      createdAt: stored.createdAt.toISOString(),
      generatedAt: null,
      failure: null,
    });
    expect(stored).toMatchObject({ workflowId: created.body.workflowId, sections: ['qualityProfiles', 'delayProfiles'], autoApply: false, instanceName: 'radarr' });

    const ready = await previewUntil(h, created.body.id, ['ready', 'failed']);
    expect(ready.body).toMatchObject({ status: 'ready', failure: null, sections: ['qualityProfiles', 'delayProfiles'] });
    expect(ready.body.counts.create).toBeGreaterThan(0);
    const generated = await h.service.orm.em.fork().findOneOrFail(SyncPreview, { id: created.body.id });
    expect(generated.liveFingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(generated.generatedAt!.getTime()).toBe(ready.body.generatedAt);
    expect((generated.preview as { counts: unknown }).counts).toEqual(ready.body.counts);
    const plan = generated.plan as { arrType: string; steps: { id: string }[] };
    expect(plan.arrType).toBe('movie_app');
    expect(plan.steps.length).toBe(ready.body.counts.create + ready.body.counts.update + ready.body.counts.delete);

    const applied = await h.post(`/sync/previews/${created.body.id}/apply?wait=true`);
    expect(applied.body).toMatchObject({ status: 'applied', failure: null });
    expect(radarr.emulator.state.qualityProfiles.map((p: { name: string }) => p.name)).toContain('Movies 1080p');
  });

  it('stores a failed generation with its section outcomes, and refuses what cannot be previewed', async () => {
    const fault = radarr.emulator.faults.add({ kind: 'status', status: 503, method: 'GET', path: '/delayprofile' });
    try {
      const created = await h.post('/sync/previews', { instanceId: radarr.id, sections: ['qualityProfiles', 'delayProfiles'] });
      const failed = await previewUntil(h, created.body.id, ['ready', 'failed']);
      expect(failed.body).toMatchObject({ status: 'failed', failure: { code: 'sectionErrors' }, generatedAt: expect.any(Number) });
      expect(failed.body.sectionOutcomes).toEqual([
        { section: 'qualityProfiles', skipped: false, failure: null },
        { section: 'delayProfiles', skipped: false, failure: expect.objectContaining({ code: 'serverError' }) },
      ]);
      const stored = await h.service.orm.em.fork().findOneOrFail(SyncPreview, { id: created.body.id });
      expect(stored.plan).toBeNull();
      expect(stored.liveFingerprint).toBeNull();
    } finally {
      radarr.emulator.faults.remove(fault.id);
    }

    expect((await h.post('/sync/previews', { instanceId: 987654 })).body).toEqual({ error: 'Instance 987654 not found' });
    const bare = await h.post('/instances', { name: 'bare', arrType: 'movie_app', baseUrl: radarr.emulator.baseUrl, apiKey: radarr.apiKey });
    const unconfigured = await h.post('/sync/previews', { instanceId: bare.body.id });
    expect(unconfigured.status).toBe(400);
    expect(unconfigured.body.error).toContain(`instance ${bare.body.id} has no sync configuration`);
    await h.patch(`/instances/${radarr.id}`, { enabled: false });
    try {
      const disabled = await h.post('/sync/previews', { instanceId: radarr.id });
      expect(disabled.status).toBe(400);
      expect(disabled.body.error).toContain(`instance ${radarr.id} is disabled`);
    } finally {
      await h.patch(`/instances/${radarr.id}`, { enabled: true });
    }
  });
});
