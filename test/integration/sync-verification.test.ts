import { addInstance, linkDatabase, SAMPLE_PCD, startMovieRollout, type FleetInstance } from '../helpers/fleet';
import { postgresAvailable } from '../helpers/databases';
import { eventually, startArrgo, type Harness } from '../helpers/harness';

/**
 * Verified apply through the API, the worker and Temporal: after an apply, what was written is
 * read back; a field the app accepted but did not store (the emulator's ignoreField fault) makes
 * the run partial with the field named, on the run record and in the sync history.
 */
const engines = postgresAvailable() ? (['sqlite', 'postgresql'] as const) : (['sqlite'] as const);

describe.each(engines)('verified apply (%s)', (db) => {
  let h: Harness;
  let databaseId: number;
  const all: FleetInstance[] = [];
  const radarr = async (name: string, config?: Record<string, unknown>) => {
    const instance = await addInstance(h, 'movie_app', { name, databaseId, config });
    all.push(instance);
    return instance;
  };
  const sync = async (instance: FleetInstance) => {
    const synced = await h.post(`/instances/${instance.id}/sync?wait=true`, {});
    expect(synced.status).toBe(200);
    return synced.body as { id: number; status: string; runId: number; failure: { code: string; message: string } | null };
  };

  beforeAll(async () => {
    h = await startArrgo({ db });
    databaseId = await linkDatabase(h, 'sample', SAMPLE_PCD);
  });
  afterAll(async () => {
    await h?.close();
    for (const instance of all) await instance.emulator.close();
  });

  it('a normal apply is verified: every written entity read back, the run a success', async () => {
    const app = await radarr('verified');
    const synced = await sync(app);
    expect(synced).toMatchObject({ status: 'applied', failure: null });
    const run = await h.get(`/sync-history/${synced.runId}`);
    expect(run.body).toMatchObject({ status: 'success', failureCount: 0, error: null, verification: { status: 'verified', mismatches: [], verifiedAt: expect.any(String) } });
    // Custom formats, the profile, the delay profile, naming, media settings and each changed quality definition.
    expect(run.body.verification.checked).toBeGreaterThan(10);
    const history = await h.get(`/sync-history?instanceId=${app.id}`);
    expect(history.body.items.map((i: { status: string; verification: { status: string } }) => [i.status, i.verification.status])).toEqual([['success', 'verified']]);
    // Verification writes nothing: one write per step.
    expect(app.emulator.writes.log.filter((w) => w.method !== 'POST' && w.kind === 'qualitydefinition')).toHaveLength(1);
  });

  it('an app that silently ignores maxSize on quality definitions makes the run partial, naming each field that did not land', async () => {
    const app = await radarr('ignores-max-size');
    app.emulator.faults.add({ kind: 'ignoreField', resource: 'qualitydefinition', field: 'maxSize' });
    const before = new Map(app.emulator.state.qualityDefinitions.map((d) => [d.quality.name, d.maxSize]));
    const synced = await sync(app);
    // The apply went through (the preview is applied) but the one-step sync does not read as a success:
    // it carries the run's evidence, and the run is partial.
    expect(synced).toMatchObject({ status: 'applied', failure: { code: 'notApplied' } });
    const preview = await h.get(`/sync/previews/${synced.id}`);
    const changed: { name: string; fields: { field: string; desired: unknown }[] }[] = preview.body.mediaManagement.qualityDefinitions.filter((c: { action: string }) => c.action === 'update');
    const wanted = changed.flatMap((c) => c.fields.filter((f) => f.field === 'maxSize').map((f) => ({ name: c.name, expected: f.desired })));
    expect(wanted.length).toBeGreaterThan(0);

    const run = await h.get(`/sync-history/${synced.runId}`);
    expect(run.body).toMatchObject({ status: 'partial', failureCount: 1, verification: { status: 'unverified' } });
    expect(run.body.verification.mismatches).toEqual(
      wanted.map((w) => ({ stepId: expect.stringMatching(/^qualityDefinitions:merge:/), entityType: 'qualityDefinition', name: w.name, path: 'maxSize', expected: w.expected, actual: before.get(w.name), code: 'notApplied' })),
    );
    expect(run.body.error).toContain('The app accepted the write but did not store this value.');
    expect(run.body.error).toContain(`${wanted[0].name} maxSize`);
    const history = await h.get(`/sync-history?instanceId=${app.id}&status=partial`);
    expect(history.body.items).toHaveLength(1);
    expect(history.body.items[0].verification.mismatches.map((m: { name: string; path: string }) => `${m.name} ${m.path}`)).toEqual(wanted.map((w) => `${w.name} maxSize`));
    // Everything else landed: the other fields of the same definitions are not listed.
    expect(run.body.verification.mismatches.every((m: { path: string }) => m.path === 'maxSize')).toBe(true);
  });

  it('an app that cannot be read back after the apply leaves the run partial and unverified', async () => {
    const app = await radarr('down-after-apply', { databaseId, qualityDefinitions: 'Movie Sizes' });
    // Hold the apply's write, then take reads down: the verification cannot read the app back.
    const held = app.emulator.faults.add({ kind: 'latency', delayMs: 800, method: 'PUT', path: '/qualitydefinition/*' });
    const syncing = h.post(`/instances/${app.id}/sync?wait=true`, {});
    await eventually(async () => app.emulator.faults.list().find((f) => f.id === held.id)?.hits ?? 0, (hits) => hits >= 1, 30_000, 20);
    app.emulator.faults.add({ kind: 'status', status: 503, method: 'GET' });
    const synced = (await syncing).body;
    const run = await h.get(`/sync-history/${synced.runId}`);
    expect(run.body).toMatchObject({ status: 'partial', verification: { status: 'unverified', checked: 0, mismatches: [], unreadable: 'serverError' } });
    expect(run.body.error).toContain('could not be read back');
    for (const marker of app.emulator.leakMarkers) expect(JSON.stringify(run.body)).not.toContain(marker);
  });

  if (db === 'sqlite') {
    const SECTIONS = ['qualityProfiles', 'delayProfiles', 'mediaManagement'];
    const until = (id: number, statuses: string[]) => eventually(() => h.get(`/canary/rollouts/${id}`), (r) => statuses.includes(r.body.status), 90_000);

    it('a rollout whose canary is unverified stops under partialPolicy abort, naming the fields', async () => {
      const canary = await radarr('canary-abort');
      const target = await radarr('target-abort');
      canary.emulator.faults.add({ kind: 'ignoreField', resource: 'qualitydefinition', field: 'maxSize' });
      const started = await startMovieRollout(h, canary, [target], { sections: SECTIONS, partialPolicy: 'abort' });
      expect(started.status).toBe(201);
      const done = await until(started.body.id, ['aborted', 'awaiting_confirmation', 'failed', 'completed']);
      expect(done.body).toMatchObject({ status: 'aborted', canaryStatus: 'partial', statusReasonCode: 'canary_unverified' });
      expect(done.body.statusReason).toMatch(/^Aborted: the canary \(canary-abort\) was not verified \(the app did not store \d+ fields? \(.*maxSize.*\)\) and partialPolicy is abort; the remaining instance was left untouched\.$/);
      expect(target.emulator.writes.total()).toBe(0);
    });

    it('a rollout whose canary is unverified waits at the gate with a warning naming the fields under partialPolicy gate', async () => {
      const canary = await radarr('canary-gate');
      const target = await radarr('target-gate');
      canary.emulator.faults.add({ kind: 'ignoreField', resource: 'qualitydefinition', field: 'maxSize' });
      const started = await startMovieRollout(h, canary, [target], { sections: SECTIONS, partialPolicy: 'gate' });
      const gated = await until(started.body.id, ['aborted', 'awaiting_confirmation', 'failed', 'completed']);
      expect(gated.body).toMatchObject({ status: 'awaiting_confirmation', canaryStatus: 'partial', statusReasonCode: null });
      expect(gated.body.warning).toMatch(/^The canary's apply was not verified: the app did not store \d+ fields? \(.*maxSize.*\)\. Review its run before proceeding\.$/);
      expect(target.emulator.writes.total()).toBe(0);
      // Proceeding applies the target, which is verified too.
      const proceeded = await h.post(`/canary/rollouts/${started.body.id}/proceed`, { stateToken: gated.body.stateToken });
      expect(proceeded.status).toBe(200);
      const done = await until(started.body.id, ['completed', 'failed']);
      expect(done.body.status).toBe('completed');
      const runId = done.body.rolloutResults[0].runId;
      expect((await h.get(`/sync-history/${runId}`)).body).toMatchObject({ status: 'success', verification: { status: 'verified' } });
    });
  }
});
