import { healthScheduleId } from '../../src/services/schedules';
import { HealthSnapshot } from '../../src/persistence/entities';
import { addInstance, linkDatabase, SAMPLE_PCD, type FleetInstance } from '../helpers/fleet';
import { eventually, startArrgo, type Harness } from '../helpers/harness';

describe('config health', () => {
  let h: Harness;
  let databaseId: number;
  const instances: FleetInstance[] = [];

  beforeAll(async () => {
    h = await startArrgo({ env: { HEALTH_RECOMPUTE_MIN_INTERVAL_SECONDS: '30' } });
    databaseId = await linkDatabase(h, 'sample', SAMPLE_PCD);
  });
  afterAll(async () => {
    await h?.close();
    for (const instance of instances) await instance.emulator.close();
  });

  const add = async (name: string, version?: string) => {
    const instance = await addInstance(h, 'movie_app', { name, databaseId, version });
    instances.push(instance);
    return instance;
  };

  it('scores healthy, attention, needs-review and unknown instances', async () => {
    // healthy: synced and in sync.
    const healthy = await add('health-ok');
    await h.post(`/instances/${healthy.id}/sync?wait=true`, {});
    await h.post(`/drift/${healthy.id}/check`);
    // attention: checked but never synced (everything missing).
    const attention = await add('health-missing');
    await h.post(`/drift/${attention.id}/check`);
    // needs-review: an unsupported app version, the profile and most formats deleted by hand, the rest edited.
    const review = await add('health-review', '4.7.5.7809');
    await h.post(`/instances/${review.id}/sync?wait=true`, {});
    const state = review.emulator.state;
    const keep = state.customFormats[0];
    const removed = new Set(state.customFormats.slice(1).map((cf: { id: number }) => cf.id));
    state.customFormats.splice(1);
    for (const profile of state.qualityProfiles) profile.formatItems = profile.formatItems.filter((f: { format: number }) => !removed.has(f.format));
    keep.includeCustomFormatWhenRenaming = !keep.includeCustomFormatWhenRenaming;
    state.delayProfiles[0].usenetDelay = 999;
    state.naming.standardMovieFormat = '{Movie Title} hand edited';
    state.mediaManagement.downloadPropersAndRepacks = 'doNotUpgrade';
    for (const definition of state.qualityDefinitions) definition.maxSize = 1;
    state.qualityProfiles.splice(state.qualityProfiles.findIndex((p: { name: string }) => p.name === 'Movies 1080p'), 1);
    await h.post(`/drift/${review.id}/check`);
    // unknown: unreachable.
    const down = await add('health-down');
    await down.emulator.close();
    await h.post(`/drift/${down.id}/check`);

    const bands: Record<string, string> = {};
    for (const instance of [healthy, attention, review, down]) {
      const res = await h.post(`/config-health/${instance.id}/recompute`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ instanceId: instance.id, instanceName: instance.name, arrType: 'movie_app', engineVersion: expect.any(String), generatedAt: expect.any(String) });
      const overall = res.body.overall;
      expect(overall.score).toBeLessThanOrEqual(100);
      expect(overall.criteria.map((c: { id: string }) => c.id).sort()).toEqual(['coherence', 'compatibility', 'completeness', 'drift', 'ref_alignment']);
      expect(overall.criteria.reduce((sum: number, c: { contribution: number }) => sum + c.contribution, 0)).toBe(overall.score);
      for (const s of [...overall.suggestions, ...overall.criteria.flatMap((c: { suggestions: unknown[] }) => c.suggestions)] as { tone: string; templateVersion: string }[]) {
        expect(['neutral', 'info', 'warning']).toContain(s.tone);
        expect(s.templateVersion).toEqual(expect.any(String));
      }
      expect(res.body.profiles.map((p: { name: string }) => p.name)).toEqual(['Movies 1080p']);
      bands[instance.name] = overall.band;
    }
    expect(bands).toEqual({ 'health-ok': 'healthy', 'health-missing': 'attention', 'health-review': 'needs-review', 'health-down': 'unknown' });
    const unknown = await h.get(`/config-health/${down.id}`);
    expect(unknown.body.overall.criteria.every((c: { score: number | null }) => c.score === null)).toBe(true);
  });

  it('allows one recompute in flight per instance and rate-limits them', async () => {
    const instance = await add('health-busy');
    await h.post(`/drift/${instance.id}/check`);
    const [a, b] = await Promise.all([h.post(`/config-health/${instance.id}/recompute`), h.post(`/config-health/${instance.id}/recompute`)]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    expect((a.status === 409 ? a : b).body.error).toContain('already in progress');
    const limited = await h.post(`/config-health/${instance.id}/recompute`);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(limited.body.error).toContain('try again');
  });

  it('validates recompute requests', async () => {
    expect((await h.post('/config-health/abc/recompute')).status).toBe(400);
    expect((await h.post('/config-health/999999/recompute')).status).toBe(404);
    const bare = await h.post('/instances', { name: 'health-bare', arrType: 'movie_app', baseUrl: 'http://127.0.0.1:9', apiKey: 'k-0000000000' });
    expect((await h.post(`/config-health/${bare.body.id}/recompute`)).body.error).toContain('not sync-capable');
    const off = await add('health-off');
    await h.patch(`/instances/${off.id}`, { enabled: false });
    expect((await h.post(`/config-health/${off.id}/recompute`)).status).toBe(400);
  });

  it('persists a snapshot of every enabled instance on the schedule', async () => {
    const count = async () => h.service.orm.em.fork().count(HealthSnapshot, { trigger: 'scheduled' });
    const before = await count();
    await h.service.temporal.client.schedule.getHandle(healthScheduleId(h.taskQueue)).trigger();
    const enabled = (await h.get('/instances?enabled=true&pageSize=200')).body.totalRecords;
    await eventually(count, (n) => n >= before + enabled);
  });
});
