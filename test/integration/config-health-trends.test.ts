import { HealthSnapshot } from '../../src/persistence/entities';
import { addInstance, linkDatabase, SAMPLE_PCD, type FleetInstance } from '../helpers/fleet';
import { startArrgo, type Harness } from '../helpers/harness';

const crit = (id: string, score: number | null, weight: number, contribution: number) => ({ id, label: id, score, weight, contribution, detail: [], suggestions: [] });
const unit = (score: number, band: string, criteria: ReturnType<typeof crit>[]) => ({ score, band, criteria, suggestions: [] });

/** A fixture history: healthy, then attention and unknown at the same instant, then not recorded. */
function fixture(instanceId: number) {
  const healthy = unit(90, 'healthy', [crit('completeness', 100, 25, 27), crit('drift', 90, 30, 30), crit('coherence', 80, 20, 18), crit('compatibility', 100, 15, 15), crit('ref_alignment', null, 10, 0)]);
  const attention = unit(65, 'attention', [crit('completeness', 20, 25, 8), crit('drift', null, 30, 0), crit('coherence', 100, 20, 33), crit('compatibility', 100, 15, 24), crit('ref_alignment', null, 10, 0)]);
  const unknown = unit(0, 'unknown', [crit('completeness', null, 25, 0), crit('drift', null, 30, 0), crit('coherence', null, 20, 0), crit('compatibility', null, 15, 0), crit('ref_alignment', null, 10, 0)]);
  const result = (overall: ReturnType<typeof unit>, profiles: unknown[]) => ({ instanceId, instanceName: 'trend', arrType: 'movie_app', engineVersion: 'x', generatedAt: 'x', overall, profiles });
  // Inserted out of canonical order on purpose: ids do not follow generatedAt.
  return [
    { generatedAt: '2026-03-03T10:00:00.000Z', engineVersion: 'health-1.0.0', band: 'unknown', score: null, result: null, evidenceRecorded: false },
    { generatedAt: '2026-03-02T10:00:00.000Z', engineVersion: 'health-1.0.0', band: 'unknown', score: null, result: result(unknown, [{ name: 'Movies 1080p', ...unknown }]), evidenceRecorded: true },
    { generatedAt: '2026-03-02T10:00:00.000Z', engineVersion: 'health-1.0.0', band: 'attention', score: 65, result: result(attention, []), evidenceRecorded: true },
    { generatedAt: '2026-03-01T10:00:00.000Z', engineVersion: 'health-0.9.0', band: 'healthy', score: 90, result: result(healthy, [{ name: 'Movies 1080p', ...unit(0, 'healthy', []), score: 88 }]), evidenceRecorded: true },
  ];
}

describe('config health trends and export', () => {
  let h: Harness;
  let instance: FleetInstance;
  let ids: number[];

  beforeAll(async () => {
    h = await startArrgo();
    const databaseId = await linkDatabase(h, 'sample', SAMPLE_PCD);
    instance = await addInstance(h, 'movie_app', { name: 'trend', databaseId });
    const em = h.service.orm.em.fork();
    const rows = fixture(instance.id).map((r) =>
      em.create(HealthSnapshot, { instanceId: instance.id, trigger: 'scheduled', ...r, generatedAt: new Date(r.generatedAt) } as unknown as HealthSnapshot),
    );
    await em.flush();
    ids = rows.map((r) => r.id);
  });
  afterAll(async () => {
    await h?.close();
    await instance?.emulator.close();
  });

  it('exports byte-for-byte the expected CSV, with the attachment headers', async () => {
    const res = await h.get(`/config-health/${instance.id}/trends/export?format=csv&from=2026-01-01T00:00:00Z&to=2026-12-31T00:00:00Z`);
    expect(res.status).toBe(200);
    const [notRecorded, unknownId, attentionId, healthyId] = ids;
    const q = (s: string) => `"${s.replace(/"/g, '""')}"`;
    const expected =
      'snapshotId,generatedAt,engineVersion,state,band,score,criteria\r\n' +
      `${healthyId},2026-03-01T10:00:00.000Z,health-0.9.0,measured,healthy,90,` +
      q('[{"id":"completeness","state":"measured","score":100,"weight":25,"contribution":27},{"id":"drift","state":"measured","score":90,"weight":30,"contribution":30},{"id":"coherence","state":"measured","score":80,"weight":20,"contribution":18},{"id":"compatibility","state":"measured","score":100,"weight":15,"contribution":15},{"id":"ref_alignment","state":"skipped","score":null,"weight":10,"contribution":null}]') +
      '\r\n' +
      `${unknownId},2026-03-02T10:00:00.000Z,health-1.0.0,unknown,unknown,,` +
      q('[{"id":"completeness","state":"skipped","score":null,"weight":25,"contribution":null},{"id":"drift","state":"skipped","score":null,"weight":30,"contribution":null},{"id":"coherence","state":"skipped","score":null,"weight":20,"contribution":null},{"id":"compatibility","state":"skipped","score":null,"weight":15,"contribution":null},{"id":"ref_alignment","state":"skipped","score":null,"weight":10,"contribution":null}]') +
      '\r\n' +
      `${attentionId},2026-03-02T10:00:00.000Z,health-1.0.0,measured,attention,65,` +
      q('[{"id":"completeness","state":"measured","score":20,"weight":25,"contribution":8},{"id":"drift","state":"skipped","score":null,"weight":30,"contribution":null},{"id":"coherence","state":"measured","score":100,"weight":20,"contribution":33},{"id":"compatibility","state":"measured","score":100,"weight":15,"contribution":24},{"id":"ref_alignment","state":"skipped","score":null,"weight":10,"contribution":null}]') +
      '\r\n' +
      `${notRecorded},2026-03-03T10:00:00.000Z,health-1.0.0,not-recorded,unknown,,[]\r\n`;
    expect(res.text).toBe(expected);
    expect(res.headers.get('content-type')).toContain('text/csv');
    expect(res.headers.get('content-disposition')).toMatch(new RegExp(`^attachment; filename="arrgo-health-${instance.id}-\\d{8}T\\d{6}Z\\.csv"$`));
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('returns the JSON envelope, with profile scope and engine-version runs', async () => {
    const res = await h.get(`/config-health/${instance.id}/trends/export?from=2026-01-01T00:00:00Z&to=2026-12-31T00:00:00Z&profile=Movies%201080p`);
    expect(res.headers.get('content-disposition')).toMatch(/\.json"$/);
    const body = JSON.parse(res.text);
    expect(body.instance).toEqual({ instanceId: instance.id, instanceName: 'trend', arrType: 'movie_app' });
    expect(body.filter).toEqual({ from: '2026-01-01T00:00:00.000Z', to: '2026-12-31T00:00:00.000Z', days: null, profile: 'Movies 1080p' });
    expect(body.retention).toMatchObject({ policy: { retentionDays: 365 }, availability: { totalSnapshots: 4, oldestSnapshotAt: '2026-03-01T10:00:00.000Z', newestSnapshotAt: '2026-03-03T10:00:00.000Z' } });
    expect(body.points.map((p: { state: string }) => p.state)).toEqual(['measured', 'unknown', 'profile-missing', 'not-recorded']);
    expect(body.points.every((p: { criteria: unknown[] }) => p.criteria.length === 0)).toBe(true); // exact-profile scope
    expect(body.points[0]).toMatchObject({ score: 88, band: 'healthy' });
    expect(body.counts).toEqual({ points: 4, measured: 1, unknown: 1, profileMissing: 1, notRecorded: 1 });
    expect(body.profileNames).toEqual(['Movies 1080p']);
    expect(body.engineVersionRuns.map((r: { engineVersion: string }) => r.engineVersion)).toEqual(['health-0.9.0', 'health-1.0.0']);
    // Exact match only: no trimming, no case folding.
    const folded = JSON.parse((await h.get(`/config-health/${instance.id}/trends/export?from=2026-01-01T00:00:00Z&profile=movies%201080p`)).text);
    expect(folded.points.filter((p: { state: string }) => p.state === 'measured')).toHaveLength(0);
    // The trend endpoint returns the same selection inline.
    const inline = await h.get(`/config-health/${instance.id}/trends?from=2026-01-01T00:00:00Z&to=2026-12-31T00:00:00Z&profile=Movies%201080p`);
    expect(inline.body.points).toEqual(body.points);
    expect(inline.headers.get('content-disposition')).toBeNull();
  });

  it('answers an empty selection with an empty array or a header-only CSV', async () => {
    const json = await h.get(`/config-health/${instance.id}/trends/export?from=2020-01-01T00:00:00Z&to=2020-02-01T00:00:00Z`);
    expect(json.status).toBe(200);
    expect(JSON.parse(json.text)).toMatchObject({ points: [], counts: { points: 0 } });
    const csv = await h.get(`/config-health/${instance.id}/trends/export?format=csv&days=1`);
    expect(csv.status).toBe(200);
    expect(csv.text).toBe('snapshotId,generatedAt,engineVersion,state,band,score,criteria\r\n');
  });

  it('refuses invalid filters and combinations', async () => {
    for (const [query, fragment] of [
      ['days=7&from=2026-01-01T00:00:00Z', 'query.days'],
      ['format=xml', 'query.format'],
      ['days=0', 'query.days'],
      ['from=yesterday', 'query.from'],
      ['from=2026-05-01T00:00:00Z&to=2026-01-01T00:00:00Z', 'query.'],
      ['profile=', 'query.profile'],
    ]) {
      const res = await h.get(`/config-health/${instance.id}/trends/export?${query}`);
      expect([query, res.status]).toEqual([query, 400]);
      expect(res.body.error).toContain(fragment);
    }
    expect((await h.get('/config-health/999999/trends/export')).status).toBe(404);
    expect((await h.get('/config-health/abc/trends/export')).status).toBe(400);
  });

  it('refuses a selection over 10,000 points whole, in both formats', async () => {
    const em = h.service.orm.em.fork();
    const connection = em.getConnection();
    const base = Date.parse('2025-01-01T00:00:00Z');
    const rows = Array.from({ length: 10_001 }, (_, i) => [instance.id, new Date(base + i * 60_000), 'health-1.0.0', 'scheduled', 'unknown', null, null, false]);
    const knex = (connection as unknown as { getKnex(): any }).getKnex();
    for (let i = 0; i < rows.length; i += 500) {
      await knex('health_snapshots').insert(
        rows.slice(i, i + 500).map(([instanceId, generatedAt, engine, trigger, band, score, result, recorded]) => ({
          instance_id: instanceId, generated_at: generatedAt, engine_version: engine, trigger, band, score, result, evidence_recorded: recorded,
        })),
      );
    }
    for (const format of ['json', 'csv']) {
      const res = await h.get(`/config-health/${instance.id}/trends/export?format=${format}&from=2025-01-01T00:00:00Z&to=2025-12-31T00:00:00Z`);
      expect(res.status).toBe(413);
      expect(res.body.error).toContain('10000');
      expect(res.headers.get('content-disposition')).toBeNull();
    }
    const exactly = await h.get(`/config-health/${instance.id}/trends/export?format=csv&from=2025-01-01T00:00:00Z&to=${new Date(base + 9_999 * 60_000).toISOString()}`);
    expect(exactly.status).toBe(200);
    expect(exactly.text.split('\r\n').length - 2).toBe(10_000);
  });
});
