import { SCORE_RANGE, PRESETS, ENGINE_VERSION, SENSITIVITIES, SLIDER_AXES, type Category } from '../../src/domain/goals';
import { parsePath } from '../../src/domain/diff/path';
import { addInstance, linkDatabase, previewUntil, SAMPLE_PCD, type FleetInstance } from '../helpers/fleet';
import { eventually, startArrgo, type Harness } from '../helpers/harness';
import { describeWithShared, sharedPath } from '../helpers/shared-data';

interface Decision {
  customFormatName: string;
  category: string;
  score: number;
  reason: { base: number; axisContributions: { axis: string; delta: number }[]; ceiling: string | null; ruleId: string };
}
interface Change {
  kind: string;
  profileName: string;
  customFormatName: string;
  score: number;
}

const NEUTRAL = { qualityVsSize: 50, compatibility: 50, hdrPreference: 50, unwantedStrictness: 50, resolutionCeiling: '1080p' };

/** The plan is complete and valid, and the sandbox diff shows exactly the applied score changes. */
function expectValidPreview(body: any, profileName: string, arrType: string): void {
  const { plan } = body;
  expect(plan.engineVersion).toBe(ENGINE_VERSION);
  expect(plan.coverage.scored + plan.coverage.uncategorized).toBe(plan.coverage.total);
  expect(plan.decisions).toHaveLength(plan.coverage.scored);
  expect(plan.uncategorized).toHaveLength(plan.coverage.uncategorized);
  for (const d of plan.decisions as Decision[]) {
    const raw = d.reason.base + d.reason.axisContributions.reduce((s, c) => s + c.delta, 0);
    expect(d.score).toBe(Math.min(SCORE_RANGE.max, Math.max(SCORE_RANGE.min, raw)));
    expect(d.score).toBeGreaterThanOrEqual(SCORE_RANGE.min);
    expect(d.score).toBeLessThanOrEqual(SCORE_RANGE.max);
  }
  expect(body.appliedChanges.length + body.skippedChanges.length).toBe(plan.decisions.length);
  const scoreChanges = new Map<string, number>();
  for (const entry of body.configDiff) {
    expect(entry).toMatchObject({ entityType: 'quality_profile', name: profileName, arrType });
    for (const change of entry.changes) {
      const path = parsePath(change.field);
      if (path[0] !== 'customFormats') continue;
      expect(path[1]).toBe(arrType);
      const score = path.length === 3 ? change.desired.score : change.desired;
      scoreChanges.set(path[2], score);
    }
  }
  expect(Object.fromEntries(scoreChanges)).toEqual(Object.fromEntries((body.appliedChanges as Change[]).map((c) => [c.customFormatName, c.score])));
}

describe('goal preview on examples/sample-pcd', () => {
  let h: Harness;
  let databaseId: number;
  const request = (over: Record<string, unknown> = {}) => ({ databaseId, arrType: 'movie_app', profileName: 'Movies 1080p', preset: 'balanced', weights: NEUTRAL, ...over });

  beforeAll(async () => {
    h = await startArrgo();
    databaseId = await linkDatabase(h, 'sample', SAMPLE_PCD);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('previews a plan with the exact profile diff, and persists nothing', async () => {
    const reads = [`/databases/${databaseId}`, `/pcd/${databaseId}/user-ops`, `/pcd/${databaseId}/resolved/qualityProfile?includeLineage=true`, `/pcd/${databaseId}/resolved/qualityProfile?layer=user`, `/pcd/${databaseId}/resolved/customFormat`];
    const before = await Promise.all(reads.map((r) => h.get(r)));
    const first = await h.post('/goals/preview', request({ preset: 'best-quality', weights: { ...NEUTRAL, unwantedStrictness: 100 } }));
    expect(first.status).toBe(200);
    expectValidPreview(first.body, 'Movies 1080p', 'movie_app');
    const decisions = new Map((first.body.plan.decisions as Decision[]).map((d) => [d.customFormatName, d]));
    expect(decisions.get('x265 (HD)')).toMatchObject({ category: 'unwanted', score: -10000, reason: { ruleId: 'unwanted.golden-rule' } });
    expect(decisions.get('Atmos')).toMatchObject({ category: 'audio_advanced' });
    expect(first.body.appliedChanges).toContainEqual({ kind: 'set_cf_score', profileName: 'Movies 1080p', customFormatName: 'x265 (HD)', score: -10000 });
    // Atmos scores 100 through the all scope; the movie_app score the plan sets overrides it.
    expect(first.body.configDiff[0].changes).toEqual(
      expect.arrayContaining([
        { field: 'customFormats.movie_app.x265 (HD).score', type: 'changed', current: -500, desired: -10000 },
        { field: 'customFormats.movie_app.Atmos', type: 'added', current: null, desired: { name: 'Atmos', score: decisions.get('Atmos')!.score } },
        { field: 'upgradeUntilScore', type: 'changed', current: 1000, desired: first.body.plan.thresholds.upgradeUntilScore },
      ]),
    );
    expect(first.body.databaseVersion).toBe('1.0');

    const second = await h.post('/goals/preview', request({ preset: 'best-quality', weights: { ...NEUTRAL, unwantedStrictness: 100 } }));
    expect(second.text).toBe(first.text);

    const after = await Promise.all(reads.map((r) => h.get(r)));
    for (let i = 0; i < reads.length; i++) expect([reads[i], after[i].text]).toEqual([reads[i], before[i].text]);
  });

  it('lists the presets, categories, sensitivities and score range, and documents the routes', async () => {
    const catalog = await h.get('/goals/presets');
    expect(catalog.status).toBe(200);
    expect(catalog.body.engineVersion).toBe(ENGINE_VERSION);
    expect(catalog.body.presets.map((p: { id: string }) => p.id)).toEqual(['balanced', 'best-quality', 'smallest-size', '4k-hdr', 'compatibility-first']);
    expect(catalog.body.presets[0].base.unwanted).toBe(-5000);
    expect(catalog.body.sensitivities.unwanted.unwantedStrictness).toBe(-5000);
    expect(catalog.body.scoreRange).toEqual({ min: -10000, max: 10000 });
    const openapi = await h.get('/openapi.json');
    expect(Object.keys(openapi.body.paths)).toEqual(expect.arrayContaining(['/api/v1/goals/preview', '/api/v1/goals/apply', '/api/v1/goals/presets']));
    expect(openapi.body.components.schemas.GoalRequest.properties.weights).toBeDefined();
  });

  it('refuses bad requests with their own 4xx and a precise message', async () => {
    const cases: [Record<string, unknown>, number, string][] = [
      [request({ preset: 'fastest' }), 400, 'Invalid request: body.preset "fastest" is not a preset; use one of balanced, best-quality, smallest-size, 4k-hdr, compatibility-first'],
      [request({ profileName: 'Nope' }), 404, `Quality profile "Nope" not found in database ${databaseId}`],
      [request({ profileName: 'Music Lossless' }), 400, 'Invalid request: body.profileName quality profile "Music Lossless" is not compatible with movie_app (its enabled qualities fit music_app)'],
      [request({ profileName: 'pcd:Movies 1080p' }), 404, `Quality profile "pcd:Movies 1080p" not found in database ${databaseId} (send the raw PCD name, without the pcd: prefix)`],
      [request({ databaseId: 9999 }), 404, 'Database 9999 not found'],
      [request({ weights: { ...NEUTRAL, hdrPreference: 101 } }), 400, 'body.weights.hdrPreference'],
      [request({ weights: { ...NEUTRAL, compatibility: 2.5 } }), 400, 'body.weights.compatibility'],
      [request({ weights: { ...NEUTRAL, resolutionCeiling: '4320p' } }), 400, 'body.weights.resolutionCeiling'],
      [request({ weights: { qualityVsSize: 1 } }), 400, 'body.weights.compatibility'],
      [request({ arrType: 'all' }), 400, 'body.arrType'],
      [request({ profileName: 'x'.repeat(201) }), 400, 'body.profileName'],
      [request({ extra: 1 }), 400, 'extra'],
      [request({ profileName: 'Movies\u00001080p' }), 400, 'body.profileName must not contain control characters'],
      [request({ databaseId: 2 ** 31 }), 400, 'body.databaseId'],
    ];
    for (const [body, status, message] of cases) {
      const res = await h.post('/goals/preview', body);
      expect([res.status, res.body.error]).toEqual([status, expect.stringContaining(message)]);
    }
  });

  it('previews for Lidarr: music qualities carry no resolution, so the ceiling leaves the ladder alone', async () => {
    const res = await h.post('/goals/preview', request({ arrType: 'music_app', profileName: 'Music Lossless', weights: { ...NEUTRAL, resolutionCeiling: '720p' } }));
    expect(res.status).toBe(200);
    expectValidPreview(res.body, 'Music Lossless', 'music_app');
    const ladder = res.body.plan.qualityLadder;
    expect(ladder.items.every((i: { resolution: number | null }) => i.resolution === null)).toBe(true);
    expect(res.body.configDiff.flatMap((d: { changes: { field: string }[] }) => d.changes).filter((c: { field: string }) => c.field.startsWith('qualities'))).toEqual([]);
    expect(res.body.plan.decisions.find((d: Decision) => d.customFormatName === 'FLAC 24bit')).toMatchObject({ category: 'audio_lossless' });
  });

  it('answers 400 while the database cache is not ready', async () => {
    await h.patch(`/databases/${databaseId}`, { enabled: false });
    const res = await h.post('/goals/preview', request());
    expect([res.status, res.body.error]).toEqual([400, `Database ${databaseId} is not ready: it is disabled`]);
    await h.patch(`/databases/${databaseId}`, { enabled: true });
  });
});

describeWithShared(['data', 'pcd', 'trash-pcd'], 'goal preview on trash-pcd', () => {
  let h: Harness;
  let databaseId: number;

  beforeAll(async () => {
    h = await startArrgo();
    databaseId = await linkDatabase(h, 'trash', sharedPath('data', 'pcd', 'trash-pcd'));
  });
  afterAll(async () => {
    await h?.close();
  });

  it.each(PRESETS.map((p) => [p.id, p.suggestedWeights] as const))('preset %s gives a complete, valid plan for "HD Bluray + WEB", the same twice', async (preset, weights) => {
    const body = { databaseId, arrType: 'movie_app', profileName: 'HD Bluray + WEB', preset, weights };
    const first = await h.post('/goals/preview', body);
    expect(first.status).toBe(200);
    expectValidPreview(first.body, 'HD Bluray + WEB', 'movie_app');
    expect(first.body.plan.coverage.total).toBe(200);
    expect(first.body.plan.coverage.uncategorized).toBeLessThanOrEqual(20);
    expect(first.body.appliedChanges.length).toBeGreaterThan(0);
    // Formats with only Sonarr conditions are skipped as absent for Radarr.
    expect(first.body.skippedChanges.find((s: { change: Change }) => s.change.customFormatName === 'BR-DISK (BTN)')?.reason).toMatch(/^absent_for_app/);
    // The profile's rows are shared with Sonarr.
    expect(first.body.plan.qualityLadder.sharedLadderNote).toContain('series_app (Sonarr)');
    const again = await h.post('/goals/preview', body);
    expect(again.text).toBe(first.text);
  });

  it('moving each slider from 0 to 100 moves the scores of the categories it governs in the documented direction', async () => {
    const preview = async (weights: Record<string, unknown>) => {
      const res = await h.post('/goals/preview', { databaseId, arrType: 'movie_app', profileName: 'HD Bluray + WEB', preset: 'balanced', weights: { ...NEUTRAL, resolutionCeiling: '2160p', ...weights } });
      expect(res.status).toBe(200);
      return new Map((res.body.plan.decisions as Decision[]).map((d) => [d.customFormatName, d]));
    };
    for (const axis of SLIDER_AXES) {
      const [low, high] = [await preview({ [axis]: 0 }), await preview({ [axis]: 100 })];
      let moved = 0;
      for (const [name, d] of low) {
        const sensitivity = SENSITIVITIES[d.category as Category][axis];
        const delta = high.get(name)!.score - d.score;
        const pinned = [d.score, high.get(name)!.score].every((v) => v === SCORE_RANGE.min || v === SCORE_RANGE.max);
        if (sensitivity === 0 || pinned) expect([name, axis, sensitivity === 0 ? delta : 0]).toEqual([name, axis, 0]);
        else {
          expect([name, axis, Math.sign(delta)]).toEqual([name, axis, Math.sign(sensitivity)]);
          moved++;
        }
      }
      expect([axis, moved > 0]).toEqual([axis, true]);
    }
    // The fifth axis: raising the ceiling raises the formats that were above it and leaves those naming no resolution alone.
    const [c720, c2160] = [await preview({ resolutionCeiling: '720p' }), await preview({ resolutionCeiling: '2160p' })];
    for (const [name, d] of c720) {
      if (d.reason.ceiling === 'above') expect([name, c2160.get(name)!.score >= d.score]).toEqual([name, true]);
      if (d.reason.ceiling === null) expect([name, c2160.get(name)!.score]).toEqual([name, d.score]);
    }
    expect([...c720.values()].filter((d) => d.reason.ceiling === 'above').length).toBeGreaterThan(5);
    expect(c720.get('2160p')).toMatchObject({ score: SCORE_RANGE.min, reason: { ceiling: 'above' } });
    expect(c2160.get('2160p')!.reason.ceiling).toBe('match');
  });

  it('lets the custom-format groups of a linked reference guide decide first', async () => {
    const body = { databaseId, arrType: 'movie_app', profileName: 'HD Bluray + WEB', preset: 'balanced', weights: NEUTRAL };
    const before = await h.post('/goals/preview', body);
    expect(before.body.plan.uncategorized.map((u: { name: string }) => u.name)).toContain('10bit');
    const source = await h.post('/ref-guide/sources', { name: 'TRaSH Radarr', origin: { kind: 'local', path: sharedPath('data', 'trash-guides') }, arrType: 'movie_app', databaseIds: [databaseId] });
    expect(source.status).toBe(201);
    await eventually(() => h.get(`/ref-guide/sources/${source.body.id}`), (r) => r.body.lastSyncedAt !== null, 60_000);
    const guided = await h.post('/goals/preview', body);
    expect(guided.status).toBe(200);
    const tenBit = (guided.body.plan.decisions as Decision[]).find((d) => d.customFormatName === '10bit');
    expect(tenBit).toMatchObject({ category: 'unwanted', reason: { code: 'guide_group', ruleId: 'guide:[Unwanted] Unwanted Formats SQP' } });
    // Where the guide's group and the format's own conditions disagree, the format is listed, not guessed.
    expect(guided.body.plan.uncategorized.find((u: { name: string }) => u.name === 'Anime LQ Groups')?.reason).toContain('[Release Groups] Anime');
    // A guide of another app family says nothing about Radarr's plan.
    expect((await h.patch(`/ref-guide/sources/${source.body.id}`, { databaseIds: [] })).status).toBe(200);
    expect((await h.post('/goals/preview', body)).text).toBe(before.text);
  });

  it('a 1080p ceiling disables every 2160p quality and moves the cutoff', async () => {
    const res = await h.post('/goals/preview', { databaseId, arrType: 'movie_app', profileName: 'Remux 2160p (Combined)', preset: '4k-hdr', weights: { ...NEUTRAL, resolutionCeiling: '1080p' } });
    expect(res.status).toBe(200);
    const ladder = res.body.plan.qualityLadder;
    expect(ladder.cutoff).toBe('Remux-1080p');
    expect(ladder.reshapesSiblingArrs).toBe(true);
    expect(ladder.items.filter((i: { resolution: number }) => i.resolution === 2160).every((i: { enabled: boolean }) => !i.enabled)).toBe(true);
    expect(res.body.configDiff[0].changes).toEqual(
      expect.arrayContaining([
        { field: 'qualities.Remux-2160p.enabled', type: 'changed', current: true, desired: false },
        { field: 'qualities.Remux-2160p.upgradeUntil', type: 'changed', current: true, desired: false },
        { field: 'qualities.Remux-1080p.upgradeUntil', type: 'changed', current: false, desired: true },
      ]),
    );
  });
});

describe('adopting a goal plan', () => {
  let h: Harness;
  let databaseId: number;
  let radarr: FleetInstance;
  const request = () => ({
    databaseId,
    arrType: 'movie_app',
    profileName: 'Movies 1080p',
    preset: 'best-quality',
    weights: { qualityVsSize: 80, compatibility: 40, hdrPreference: 60, unwantedStrictness: 100, resolutionCeiling: '1080p' },
  });

  beforeAll(async () => {
    h = await startArrgo();
    databaseId = await linkDatabase(h, 'sample', SAMPLE_PCD);
    radarr = await addInstance(h, 'movie_app', { name: 'goal radarr', databaseId });
    const synced = await h.post(`/instances/${radarr.id}/sync?wait=true`, {});
    expect(synced.body).toMatchObject({ status: 'applied', failure: null });
  });
  afterAll(async () => {
    await h?.close();
    await radarr?.emulator.close();
  });

  it('names the instances of other app families that sync a shared profile', async () => {
    const sonarr = await addInstance(h, 'series_app', { name: 'goal sonarr', databaseId });
    try {
      const res = await h.post('/goals/preview', { ...request(), profileName: 'Series 1080p', weights: { ...request().weights, resolutionCeiling: '720p' } });
      expect(res.status).toBe(200);
      expect(res.body.plan.qualityLadder.reshapesSiblingArrs).toBe(true);
      expect(res.body.plan.qualityLadder.sharedLadderNote).toContain('this ceiling reshapes them for every app that syncs the profile');
      expect(res.body.plan.qualityLadder.sharedLadderNote).toContain('Synced now by "goal sonarr" (series_app).');
      // Radarr's own instance syncs Movies 1080p, not this profile, and is of the requested family anyway.
      expect(res.body.plan.qualityLadder.sharedLadderNote).not.toContain('goal radarr');
    } finally {
      await h.del(`/instances/${sonarr.id}`);
      await sonarr.emulator.close();
    }
  });

  async function syncPreview() {
    const created = await h.post('/sync/previews', { instanceId: radarr.id });
    expect(created.status).toBe(202);
    return (await previewUntil(h, created.body.id, ['ready', 'failed'])).body;
  }

  it('stores the plan as a user op; the next sync preview shows exactly the planned score changes; a revert restores', async () => {
    const preview = await h.post('/goals/preview', request());
    expect(preview.status).toBe(200);
    const planned = preview.body.appliedChanges as Change[];
    expect(planned.length).toBeGreaterThan(0);

    const stale = await h.post('/goals/apply', { ...request(), engineVersion: preview.body.plan.engineVersion, databaseVersion: '1.99' });
    expect([stale.status, stale.body.code]).toEqual([409, 'stale']);
    const engine = await h.post('/goals/apply', { ...request(), engineVersion: 'goals-0.0.1', databaseVersion: preview.body.databaseVersion });
    expect([engine.status, engine.body.code]).toEqual([409, 'engine_changed']);

    const applied = await h.post('/goals/apply', { ...request(), engineVersion: preview.body.plan.engineVersion, databaseVersion: preview.body.databaseVersion });
    expect(applied.status).toBe(200);
    expect(applied.body.ops).toEqual([{ id: expect.any(Number), summary: 'goal "best-quality" for movie_app: update quality_profile "Movies 1080p"' }]);
    expect(applied.body.appliedChanges).toEqual(planned);
    expect(applied.body.configDiff).toEqual(preview.body.configDiff);
    expect(applied.body.databaseVersion).not.toBe(preview.body.databaseVersion);
    // A snapshot named for the goal precedes the op (rollback material).
    const snapshots = await h.get(`/databases/${databaseId}/snapshots`);
    expect(JSON.stringify(snapshots.body)).toContain('"subtype":"goal"');
    const ops = await h.get(`/pcd/${databaseId}/user-ops`);
    expect(ops.body).toEqual([expect.objectContaining({ id: applied.body.ops[0].id, kind: 'update', outcome: { status: 'applied', reason: null } })]);
    // The same preview again is stale now: the database moved.
    const again = await h.post('/goals/apply', { ...request(), engineVersion: preview.body.plan.engineVersion, databaseVersion: preview.body.databaseVersion });
    expect([again.status, again.body.code]).toEqual([409, 'stale']);
    // Previewing the adopted goal changes nothing more.
    const settled = await h.post('/goals/preview', request());
    expect(settled.body.appliedChanges).toEqual([]);
    expect(settled.body.configDiff).toEqual([]);

    const sync = await syncPreview();
    expect(sync.status).toBe('ready');
    const profile = sync.qualityProfiles.qualityProfiles.find((c: { name: string; category?: string }) => c.name === 'Movies 1080p' && !c.category);
    expect(profile.action).toBe('update');
    const scoreFields = profile.fields.filter((f: { field: string }) => f.field.startsWith('formatItems.'));
    expect(Object.fromEntries(scoreFields.map((f: { field: string; desired: number }) => [parsePath(f.field)[1], f.desired]))).toEqual(
      Object.fromEntries(planned.map((c) => [c.customFormatName, c.score])),
    );
    const { thresholds } = preview.body.plan;
    expect(profile.fields.filter((f: { field: string }) => !f.field.startsWith('formatItems.'))).toEqual([
      { type: 'changed', field: 'cutoffFormatScore', current: 1000, desired: thresholds.upgradeUntilScore },
      { type: 'changed', field: 'minUpgradeFormatScore', current: 1, desired: thresholds.upgradeScoreIncrement },
    ]);
    // Formats the plan scores for the first time come along with the profile.
    const created = sync.qualityProfiles.customFormats.filter((c: { action: string }) => c.action === 'create').map((c: { name: string }) => c.name);
    expect(created).toEqual(planned.filter((c) => !['Atmos', "Director's Cut", 'Preferred Groups', 'x265 (HD)', 'Cam'].includes(c.customFormatName)).map((c) => c.customFormatName));

    expect((await h.del(`/pcd/${databaseId}/user-ops/${applied.body.ops[0].id}`)).status).toBe(204);
    expect((await h.get(`/pcd/${databaseId}/user-ops`)).body).toEqual([]);
    const reverted = await syncPreview();
    expect(reverted.counts).toMatchObject({ create: 0, update: 0, delete: 0 });
    // And the goal previews as before.
    expect((await h.post('/goals/preview', request())).body.appliedChanges).toEqual(planned);
  });
});
