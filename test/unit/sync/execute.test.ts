/**
 * Executing write plans: idempotent per entity (a retried or resumed run never creates duplicates,
 * even when the app applied a write whose response was lost), name-based resolution at write time,
 * guarded deletes, progress callbacks, and read-modify-write that keeps settings arrgo does not own.
 */
import { AppRequestError, type SonarrClient } from '../../../src/clients';
import { applyPlan, AppMovedDuringApply, type StepOutcome, type SyncWriter, type WritePlan } from '../../../src/domain/sync';
import { pending, planFor, sampleDatabase, sampleSelection, startApp, type AppUnderTest } from './helpers';

/** A writer that lets `ok` writes through, then performs the next one and "loses" its response. */
function losingWriter(client: SyncWriter, ok: number): SyncWriter {
  let writes = 0;
  const wrap =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const result = await fn(...args);
      if (++writes > ok) throw new Error('connection reset after the app applied the write');
      return result;
    };
  return {
    ...bind(client),
    createCustomFormat: wrap(client.createCustomFormat.bind(client)),
    updateCustomFormat: wrap(client.updateCustomFormat.bind(client)),
    createQualityProfile: wrap(client.createQualityProfile.bind(client)),
    updateQualityProfile: wrap(client.updateQualityProfile.bind(client)),
  };
}

function bind(client: SyncWriter): SyncWriter {
  const out: Record<string, unknown> = {};
  const proto = Object.getPrototypeOf(client) as object;
  for (const key of [...Object.getOwnPropertyNames(proto), ...Object.getOwnPropertyNames(Object.getPrototypeOf(proto))]) {
    const value = (client as unknown as Record<string, unknown>)[key];
    if (typeof value === 'function' && key !== 'constructor') out[key] = (value as (...a: unknown[]) => unknown).bind(client);
  }
  return out as unknown as SyncWriter;
}

function expectNoDuplicates(target: AppUnderTest): void {
  const formats = target.emulator.state.customFormats.map((f) => f.name);
  const profiles = target.emulator.state.qualityProfiles.map((p) => p.name);
  expect(new Set(formats).size).toBe(formats.length);
  expect(new Set(profiles).size).toBe(profiles.length);
}

describe('applyPlan', () => {
  let target: AppUnderTest;
  afterEach(() => target.emulator.close());

  it('a run retried after a lost response updates what the first attempt created instead of duplicating it', async () => {
    target = await startApp('radarr');
    const { plan } = await planFor(sampleDatabase(), target, sampleSelection('movie_app'));
    const formats = plan.steps.filter((s) => s.kind === 'customFormat').length;
    // The third custom format is created by the app, but the response never arrives.
    await expect(applyPlan(plan, losingWriter(target.client, 2))).rejects.toThrow('connection reset');
    expect(target.emulator.writes.count('customformat', 'POST')).toBe(3);

    const retry = await applyPlan(plan, target.client);
    expect(retry.map((o) => [o.kind, o.outcome]).slice(0, formats)).toEqual([
      ['customFormat', 'updated'],
      ['customFormat', 'updated'],
      ['customFormat', 'updated'],
      ['customFormat', 'created'],
      ['customFormat', 'created'],
    ]);
    expect(target.emulator.writes.count('customformat', 'POST')).toBe(formats);
    expect(target.emulator.writes.count('qualityprofile', 'POST')).toBe(1);
    expectNoDuplicates(target);
    expect(pending(await planFor(sampleDatabase(), target, sampleSelection('movie_app')))).toEqual([]);
  });

  it('a resumed run confirms the step that was in flight without writing it again when the app already holds it', async () => {
    target = await startApp('radarr');
    const { plan } = await planFor(sampleDatabase(), target, sampleSelection('movie_app'));
    // Steps 0 and 1 confirmed; step 2 reached the app, its response was lost.
    await expect(applyPlan(plan, losingWriter(target.client, 2))).rejects.toThrow('connection reset');
    expect(target.emulator.writes.count('customformat', 'POST')).toBe(3);
    const resumed = await applyPlan(plan, target.client, { startAt: 2, verifyFirst: true });
    expect(resumed[0]).toMatchObject({ index: 2, kind: 'customFormat', outcome: 'created' });
    // Nothing before the resume point is written again, and the in-flight step is not re-sent.
    expect(target.emulator.writes.count('customformat', 'PUT')).toBe(0);
    expect(target.emulator.writes.count('customformat', 'POST')).toBe(plan.steps.filter((s) => s.kind === 'customFormat').length);
    expectNoDuplicates(target);
    expect(pending(await planFor(sampleDatabase(), target, sampleSelection('movie_app')))).toEqual([]);
  });

  // The chaos soak (short form in CI) found a quality profile PUT sent twice with the same body: the
  // worker was killed after the app applied it and before the run recorded it.
  it.each(['qualityProfile', 'delayProfile', 'naming'] as const)('confirms an in-flight %s step the app already holds without sending it again', async (kind) => {
    target = await startApp('radarr');
    const { plan } = await planFor(sampleDatabase(), target, sampleSelection('movie_app'));
    const at = plan.steps.findIndex((s) => s.kind === kind);
    expect(at).toBeGreaterThan(0);
    // Every step up to and including the in-flight one reached the app; the run recorded those before it.
    await applyPlan({ ...plan, steps: plan.steps.slice(0, at + 1) }, target.client);
    const before = target.emulator.writes.log.length;
    const resumed = await applyPlan(plan, target.client, { startAt: at, verifyFirst: true });
    expect(resumed[0]).toMatchObject({ index: at, kind, outcome: plan.steps[at].action === 'create' ? 'created' : 'updated' });
    const resumedPaths = target.emulator.writes.log.slice(before).map((w: { path: string }) => w.path);
    // The in-flight step's resource is not written again; the steps after it are.
    const resource = { qualityProfile: '/qualityprofile', delayProfile: '/delayprofile', naming: '/config/naming' }[kind];
    expect(resumedPaths.filter((p: string) => p.includes(resource))).toEqual([]);
    expect(resumedPaths.length).toBeGreaterThan(0);
    expect(pending(await planFor(sampleDatabase(), target, sampleSelection('movie_app')))).toEqual([]);
  });

  // Chaos seed 1 on 3b346ee: a run interrupted after its quality profile, another apply of the
  // instance wrote the delay profile and naming, and the resumed run sent both again.
  it('a resumed run that another apply overtook confirms what the app already holds and writes nothing', async () => {
    target = await startApp('radarr');
    const { plan } = await planFor(sampleDatabase(), target, sampleSelection('movie_app'));
    const at = plan.steps.findIndex((s) => s.kind === 'qualityProfile') + 1;
    expect(at).toBeLessThan(plan.steps.length);
    await applyPlan({ ...plan, steps: plan.steps.slice(0, at) }, target.client);
    // The other apply, previewed after those steps, writes the rest.
    const other = await planFor(sampleDatabase(), target, sampleSelection('movie_app'));
    await applyPlan(other.plan, target.client);
    const before = target.emulator.writes.log.length;
    const resumed = await applyPlan(plan, target.client, { startAt: at, recheckRemaining: true });
    expect(target.emulator.writes.log.length).toBe(before);
    expect(resumed.map((o) => [o.index, o.stepId])).toEqual(plan.steps.slice(at).map((s, i) => [at + i, s.id]));
    expect(pending(await planFor(sampleDatabase(), target, sampleSelection('movie_app')))).toEqual([]);
  });

  it('a resumed run that another apply overtook stops at the first step the app does not hold, before writing it', async () => {
    target = await startApp('radarr');
    const { plan } = await planFor(sampleDatabase(), target, sampleSelection('movie_app'));
    const naming = plan.steps.findIndex((s) => s.kind === 'naming');
    expect(naming).toBeGreaterThan(0);
    // Every step before naming reached the app (this run's own, or the other apply's); naming did not.
    await applyPlan({ ...plan, steps: plan.steps.slice(0, naming) }, target.client);
    const before = target.emulator.writes.log.length;
    const error = await applyPlan(plan, target.client, { startAt: naming - 1, recheckRemaining: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppMovedDuringApply);
    expect((error as AppMovedDuringApply).index).toBe(naming);
    expect(target.emulator.writes.log.length).toBe(before);
  });

  it('verifies an in-flight step that did not reach the app by writing it', async () => {
    target = await startApp('radarr');
    const { plan } = await planFor(sampleDatabase(), target, sampleSelection('movie_app'));
    const resumed = await applyPlan(plan, target.client, { startAt: 0, verifyFirst: true });
    expect(resumed[0]).toMatchObject({ index: 0, outcome: 'created' });
    expect(target.emulator.writes.count('customformat', 'PUT')).toBe(0);
  });

  it('resumes at a step after an app failure (5xx), and a full retry writes each entity once in effect', async () => {
    target = await startApp('sonarr');
    const { plan } = await planFor(sampleDatabase(), target, sampleSelection('series_app'));
    target.emulator.faults.add({ kind: 'status', status: 503, path: '/qualityprofile*', method: 'POST', times: 1 });
    const progress: [number, number][] = [];
    const done: StepOutcome[] = [];
    const error = await applyPlan(plan, target.client, {
      onStep: (o, total) => {
        progress.push([o.index, total]);
        done.push(o);
      },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppRequestError);
    expect((error as AppRequestError).failure).toBe('serverError');
    const failedAt = plan.steps.findIndex((s) => s.kind === 'qualityProfile');
    expect(progress).toEqual(plan.steps.slice(0, failedAt).map((_, i) => [i, plan.steps.length]));

    const rest = await applyPlan(plan, target.client, { startAt: done.length });
    expect(rest[0]).toMatchObject({ index: failedAt, kind: 'qualityProfile', outcome: 'created' });
    expect(rest.map((o) => o.index)).toEqual(plan.steps.slice(failedAt).map((_, i) => failedAt + i));
    // Starting over from the first step is also safe.
    await applyPlan(plan, target.client);
    expect(target.emulator.writes.count('customformat', 'POST')).toBe(plan.steps.filter((s) => s.kind === 'customFormat').length);
    expect(target.emulator.writes.count('qualityprofile', 'POST')).toBe(1);
    expectNoDuplicates(target);
    expect(pending(await planFor(sampleDatabase(), target, sampleSelection('series_app')))).toEqual([]);
  });

  it('finds its targets by name at write time: an entity created after the preview is updated, not duplicated', async () => {
    target = await startApp('radarr');
    const { plan } = await planFor(sampleDatabase(), target, sampleSelection('movie_app'));
    const atmos = await target.client.createCustomFormat({
      name: 'Atmos',
      specifications: [{ name: 'x', implementation: 'ReleaseTitleSpecification', negate: false, required: false, fields: [{ name: 'value', value: 'x' }] }],
    });
    const outcomes = await applyPlan(plan, target.client);
    expect(outcomes.find((o) => o.name === 'Atmos')).toMatchObject({ outcome: 'updated', remoteId: atmos.id });
    expectNoDuplicates(target);
    expect(target.emulator.state.customFormats.find((f) => f.id === atmos.id)!.specifications.map((s) => s.name)).toEqual(['Atmos', 'TrueHD']);
  });

  it('deletes only what still has the planned id and name, and skips what is gone', async () => {
    target = await startApp('radarr');
    const selection = sampleSelection('movie_app', { deleteUnmanaged: true });
    const { plan } = await planFor(sampleDatabase(), target, selection);
    const deletes = plan.steps.filter((s) => s.op === 'delete');
    expect(deletes.map((s) => s.name)).toEqual(['Any', 'SD', 'HD-720p', 'HD-1080p', 'Ultra-HD', 'HD - 720p/1080p']);
    // Before the run: "SD" is deleted by the user and "Ultra-HD" renamed.
    await target.client.deleteQualityProfile(target.emulator.state.qualityProfiles.find((p) => p.name === 'SD')!.id);
    target.emulator.state.qualityProfiles.find((p) => p.name === 'Ultra-HD')!.name = 'My UHD';
    const outcomes = await applyPlan(plan, target.client);
    expect(outcomes.filter((o) => deletes.some((d) => d.id === o.stepId)).map((o) => [o.name, o.outcome])).toEqual([
      ['Any', 'deleted'],
      ['SD', 'skipped'],
      ['HD-720p', 'deleted'],
      ['HD-1080p', 'deleted'],
      ['Ultra-HD', 'skipped'],
      ['HD - 720p/1080p', 'deleted'],
    ]);
    expect(target.emulator.state.qualityProfiles.map((p) => p.name)).toEqual(['My UHD', 'Movies 1080p']);
    // A second run of the same plan deletes nothing more.
    const again = await applyPlan(plan, target.client);
    expect(again.filter((o) => o.outcome === 'deleted')).toEqual([]);
  });

  it('keeps the settings arrgo does not own (read-modify-write)', async () => {
    target = await startApp('sonarr');
    const client = target.client as SonarrClient;
    await client.updateNamingConfig({ ...(await client.getNamingConfig()), specialsFolderFormat: 'Extras' });
    await client.updateMediaManagementConfig({ ...(await client.getMediaManagementConfig()), recycleBinCleanupDays: 30, enableMediaInfo: false });
    const { plan } = await planFor(sampleDatabase(), target, sampleSelection('series_app'));
    await applyPlan(plan, client);
    const naming = await client.getNamingConfig();
    const media = await client.getMediaManagementConfig();
    expect([naming.specialsFolderFormat, naming.renameEpisodes]).toEqual(['Extras', true]);
    expect([media.recycleBinCleanupDays, media.enableMediaInfo, media.downloadPropersAndRepacks]).toEqual([30, true, 'preferAndUpgrade']);
  });

  it('plans are plain data (they survive JSON, as activity inputs do)', async () => {
    target = await startApp('lidarr');
    const { plan } = await planFor(sampleDatabase(), target, sampleSelection('music_app', { namespace: 'x' }));
    const copy = JSON.parse(JSON.stringify(plan)) as WritePlan;
    expect(copy).toEqual(plan);
    await applyPlan(copy, target.client);
    expect(pending(await planFor(sampleDatabase(), target, sampleSelection('music_app', { namespace: 'x' })))).toEqual([]);
  });
});
