import { addInstance, leakMarkers, linkDatabase, SAMPLE_PCD, startMovieRollout, type FleetInstance } from '../helpers/fleet';
import { eventually, startArrgo, type Harness } from '../helpers/harness';

const SECTIONS = ['qualityProfiles', 'delayProfiles', 'mediaManagement'];

describe('canary rollouts', () => {
  let h: Harness;
  let databaseId: number;
  const all: FleetInstance[] = [];

  const fleet = async (count: number, label: string) => {
    const made: FleetInstance[] = [];
    for (let i = 0; i < count; i++) made.push(await addInstance(h, 'movie_app', { name: `${label}-${i}`, databaseId }));
    all.push(...made);
    return made;
  };
  const start = (canary: FleetInstance, targets: FleetInstance[], extra: Record<string, unknown> = {}) => startMovieRollout(h, canary, targets, { sections: SECTIONS, partialPolicy: 'gate', ...extra });
  const until = (id: number, statuses: string[]) => eventually(() => h.get(`/canary/rollouts/${id}`), (r) => statuses.includes(r.body.status), 90_000);

  beforeAll(async () => {
    h = await startArrgo();
    databaseId = await linkDatabase(h, 'sample', SAMPLE_PCD);
  });
  afterAll(async () => {
    await h?.close();
    for (const instance of all) await instance.emulator.close();
  });

  it('stages the canary, waits at the gate with evidence, then rolls out to every target exactly once', async () => {
    const [canary, ...targets] = await fleet(6, 'happy');
    const started = await start(canary, targets, { batchSize: 2 });
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({ status: 'canary_running', workflowId: `canary-rollout-${started.body.id}`, trigger: 'manual', partialPolicy: 'gate' });
    expect(started.body.targets).toEqual(targets.map((t) => ({ instanceId: t.id, instanceName: t.name })));

    const gated = await until(started.body.id, ['awaiting_confirmation', 'aborted']);
    expect(gated.body).toMatchObject({ status: 'awaiting_confirmation', canaryStatus: 'success', rolloutIndex: 0, rolloutResults: [], warning: null });
    expect(gated.body.remainingPreview).toMatchObject({ version: 1, availability: 'available', generatedAt: expect.any(String) });
    expect(gated.body.remainingPreview.previews).toHaveLength(5);
    for (const preview of gated.body.remainingPreview.previews) {
      expect(preview).toMatchObject({ arrType: 'movie_app', status: 'ready', generatedAt: expect.any(Number), sections: SECTIONS });
      expect(preview.counts.create).toBeGreaterThan(0);
      expect(preview.qualityProfiles.customFormats.length).toBeGreaterThan(0);
    }
    // The canary is synced; the targets are untouched so far.
    expect(canary.emulator.writes.count('qualityprofile', 'POST')).toBe(1);
    for (const target of targets) expect(target.emulator.writes.total()).toBe(0);

    // An operator finds rollouts waiting at the gate with one visibility query.
    const waiting = await eventually(async () => {
      const found: string[] = [];
      for await (const wf of h.service.temporal.client.workflow.list({ query: `ArrgoKind = 'canary-rollout' AND ArrgoRolloutStatus = 'awaiting_confirmation' AND ArrgoArrType = 'movie_app'` })) found.push(wf.workflowId);
      return found;
    }, (found) => found.includes(`canary-rollout-${started.body.id}`));
    expect(waiting).toContain(`canary-rollout-${started.body.id}`);
    const described = await h.service.temporal.client.workflow.getHandle(`canary-rollout-${started.body.id}`).describe();
    expect(await described.staticSummary()).toContain(`canary "${canary.name}"`);
    expect(await described.staticDetails()).toContain(targets[0].name);

    const proceeded = await h.post(`/canary/rollouts/${started.body.id}/proceed`, { stateToken: gated.body.stateToken });
    expect(proceeded.status).toBe(200);
    expect(proceeded.body.status).toBe('rolling_out');
    expect(proceeded.body.stateToken).not.toBe(gated.body.stateToken);
    const done = await until(started.body.id, ['completed', 'failed']);
    expect(done.body).toMatchObject({ status: 'completed', rolloutIndex: 5 });
    expect(done.body.rolloutResults.map((r: { instanceId: number; status: string }) => [r.instanceId, r.status])).toEqual(targets.map((t) => [t.id, 'success']));
    expect(done.body.rolloutResults[0].summary).toMatch(/^Synced: \d+ created/);
    for (const [i, target] of targets.entries()) {
      const creates = gated.body.remainingPreview.previews[i].qualityProfiles.customFormats.filter((c: { action: string }) => c.action === 'create').length;
      expect(target.emulator.writes.count('customformat', 'POST')).toBe(creates);
      expect(target.emulator.writes.count('qualityprofile', 'POST')).toBe(1);
    }
    const history = await h.get('/sync-history?trigger=canary');
    expect(history.body.items.filter((i: { status: string }) => i.status === 'success')).toHaveLength(6);
    // The targets are applied by the rollout itself, one applySyncPlan activity each (no child
    // workflow per target), and their runs link to the rollout's workflow in the timeline.
    const rolloutWorkflowId = `canary-rollout-${started.body.id}`;
    const events = (await h.service.temporal.client.workflow.getHandle(rolloutWorkflowId).fetchHistory()).events ?? [];
    expect(events.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'applySyncPlan')).toHaveLength(targets.length);
    expect(events.filter((e) => e.startChildWorkflowExecutionInitiatedEventAttributes).map((e) => e.startChildWorkflowExecutionInitiatedEventAttributes!.workflowId)).toEqual([`${rolloutWorkflowId}-canary-${canary.id}`]);
    const timeline = await h.get('/timeline?source=sync&pageSize=50');
    const targetRuns = timeline.body.items.filter((i: { scope: { id: number } }) => targets.some((t) => t.id === i.scope.id));
    expect(targetRuns.map((i: { link: { workflowId: string } }) => i.link.workflowId)).toEqual(targets.map(() => rolloutWorkflowId));
    expect((await h.get(`/canary/rollouts?status=completed&arrType=movie_app`)).body.items.map((r: { id: number }) => r.id)).toContain(started.body.id);
  });

  it('guards the gate with the state token: wrong or stale tokens are 409, and two concurrent proceeds make one transition', async () => {
    const [canary, ...targets] = await fleet(3, 'token');
    const started = await start(canary, targets);
    const gated = await until(started.body.id, ['awaiting_confirmation']);
    expect((await h.post(`/canary/rollouts/${started.body.id}/proceed`, { stateToken: 'not-the-token' })).status).toBe(409);
    expect((await h.post(`/canary/rollouts/${started.body.id}/abort`, { stateToken: started.body.stateToken })).status).toBe(409); // an old token
    const [a, b] = await Promise.all([
      h.post(`/canary/rollouts/${started.body.id}/proceed`, { stateToken: gated.body.stateToken }),
      h.post(`/canary/rollouts/${started.body.id}/proceed`, { stateToken: gated.body.stateToken }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const loser = a.status === 409 ? a : b;
    expect(loser.body.error).toEqual(expect.any(String));
    const done = await until(started.body.id, ['completed', 'failed']);
    expect(done.body.status).toBe('completed');
    for (const target of targets) expect(target.emulator.writes.count('qualityprofile', 'POST')).toBe(1);
    expect((await h.post(`/canary/rollouts/${started.body.id}/abort`, { stateToken: done.body.stateToken })).status).toBe(409); // wrong state
  });

  it('aborts at the gate and leaves the remaining instances untouched', async () => {
    const [canary, ...targets] = await fleet(3, 'decline');
    const started = await start(canary, targets);
    const gated = await until(started.body.id, ['awaiting_confirmation']);
    const aborted = await h.post(`/canary/rollouts/${started.body.id}/abort`, { stateToken: gated.body.stateToken });
    expect(aborted.body).toMatchObject({ status: 'aborted', finishedAt: expect.any(String) });
    for (const target of targets) expect(target.emulator.writes.total()).toBe(0);
    const evidence = await h.get(`/sync/previews/${gated.body.remainingPreview.previews[0].previewId}`);
    expect(evidence.body.status).toBe('expired');
  });

  it('aborts without touching any target when the canary fails (5xx)', async () => {
    const [canary, ...targets] = await fleet(3, 'broken');
    canary.emulator.faults.add({ kind: 'status', status: 500, method: 'POST', path: '/customformat' });
    const started = await start(canary, targets);
    const aborted = await until(started.body.id, ['aborted', 'awaiting_confirmation']);
    expect(aborted.body).toMatchObject({ status: 'aborted', canaryStatus: 'failed', remainingPreview: null });
    expect(aborted.body.canary.diagnostics.failure).toMatchObject({ code: 'executionFailed' });
    for (const marker of leakMarkers(canary)) expect(JSON.stringify(aborted.body)).not.toContain(marker);
    for (const target of targets) expect(target.emulator.writes.total()).toBe(0);
  });

  it('aborts when the canary had nothing to change (skipped): it proves nothing', async () => {
    const [canary, ...targets] = await fleet(2, 'skipped');
    expect((await h.post(`/instances/${canary.id}/sync?wait=true`, {})).body.status).toBe('applied');
    const started = await start(canary, targets);
    const settled = await until(started.body.id, ['aborted', 'awaiting_confirmation']);
    expect(settled.body).toMatchObject({ status: 'aborted', canaryStatus: 'skipped' });
    expect(settled.body.canary.diagnostics.summary).toContain('no changes');
    for (const target of targets) expect(target.emulator.writes.total()).toBe(0);
  });

  it('follows the partial policy: gate continues with a warning, abort stops', async () => {
    for (const policy of ['gate', 'abort']) {
      const [canary, ...targets] = await fleet(2, `partial-${policy}`);
      canary.emulator.faults.add({ kind: 'status', status: 400, method: 'PUT', path: '/config/naming/*' });
      const started = await start(canary, targets, { partialPolicy: policy });
      const settled = await until(started.body.id, ['awaiting_confirmation', 'aborted']);
      expect(settled.body.canaryStatus).toBe('partial');
      if (policy === 'gate') {
        expect(settled.body).toMatchObject({ status: 'awaiting_confirmation', warning: expect.stringContaining('partial') });
        await h.post(`/canary/rollouts/${started.body.id}/abort`, { stateToken: settled.body.stateToken });
      } else {
        expect(settled.body).toMatchObject({ status: 'aborted', warning: null });
      }
      for (const target of targets) expect(target.emulator.writes.total()).toBe(0);
    }
  });

  it('makes the evidence unavailable when a target is unreachable, and refuses to proceed', async () => {
    const [canary, ...targets] = await fleet(3, 'unreachable');
    await targets[1].emulator.close();
    const started = await start(canary, targets);
    const gated = await until(started.body.id, ['awaiting_confirmation']);
    expect(gated.body.remainingPreview).toMatchObject({ availability: 'unavailable', recordedAt: expect.any(String), failure: { code: 'sectionErrors' } });
    expect(gated.body.remainingPreview.diagnosticPreviews.map((p: { instanceId: number }) => p.instanceId)).toEqual([targets[0].id]);
    const refused = await h.post(`/canary/rollouts/${started.body.id}/proceed`, { stateToken: gated.body.stateToken });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'evidence_unavailable', error: expect.stringContaining('evidence is unavailable') });
    expect(targets[0].emulator.writes.total()).toBe(0);
    await h.post(`/canary/rollouts/${started.body.id}/abort`, { stateToken: gated.body.stateToken });
  });

  it('refuses evidence older than its staleness limit until it is refreshed', async () => {
    const [canary, target] = await fleet(2, 'stale');
    const started = await start(canary, [target], { evidenceMaxAgeSeconds: 3 });
    const gated = await until(started.body.id, ['awaiting_confirmation']);
    await new Promise((r) => setTimeout(r, 3500));
    const refused = await h.post(`/canary/rollouts/${started.body.id}/proceed`, { stateToken: gated.body.stateToken });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toContain('older than its staleness limit');
    const refreshed = await h.post(`/canary/rollouts/${started.body.id}/refresh-evidence`, { stateToken: gated.body.stateToken });
    expect(refreshed.body).toMatchObject({ status: 'awaiting_confirmation', remainingPreview: { availability: 'available' } });
    expect(refreshed.body.remainingPreview.generatedAt > gated.body.remainingPreview.generatedAt).toBe(true);
    const proceeded = await h.post(`/canary/rollouts/${started.body.id}/proceed`, { stateToken: refreshed.body.stateToken });
    expect(proceeded.status).toBe(200);
    expect((await until(started.body.id, ['completed', 'failed'])).body.status).toBe('completed');
  });

  it('ends failed when a target fails during the rollout, with sanitized diagnostics', async () => {
    const [canary, ...targets] = await fleet(3, 'target-fails');
    const started = await start(canary, targets);
    const gated = await until(started.body.id, ['awaiting_confirmation']);
    targets[1].emulator.faults.add({ kind: 'status', status: 422, method: 'POST', path: '/qualityprofile' });
    await h.post(`/canary/rollouts/${started.body.id}/proceed`, { stateToken: gated.body.stateToken });
    const done = await until(started.body.id, ['completed', 'failed']);
    expect(done.body.status).toBe('failed');
    const failed = done.body.rolloutResults.find((r: { instanceId: number }) => r.instanceId === targets[1].id);
    expect(failed).toMatchObject({ status: 'partial', diagnostics: { failure: { code: 'executionFailed' } } });
    expect(failed.diagnostics.failure.message).toContain('rejected the request');
    expect(done.body.rolloutResults.find((r: { instanceId: number }) => r.instanceId === targets[0].id).status).toBe('success');
    for (const marker of leakMarkers(targets[1])) expect(JSON.stringify(done.body)).not.toContain(marker);
  });

  it('does not apply an approved preview to a target that changed after the approval', async () => {
    const [canary, ...targets] = await fleet(3, 'moved');
    const started = await start(canary, targets);
    const gated = await until(started.body.id, ['awaiting_confirmation']);
    targets[0].emulator.state.delayProfiles[0].torrentDelay = 4321;
    await h.post(`/canary/rollouts/${started.body.id}/proceed`, { stateToken: gated.body.stateToken });
    const done = await until(started.body.id, ['completed', 'failed']);
    expect(done.body.status).toBe('failed');
    const moved = done.body.rolloutResults.find((r: { instanceId: number }) => r.instanceId === targets[0].id);
    expect(moved).toMatchObject({ status: 'failed', diagnostics: { failure: { code: 'stale' } } });
    expect(targets[0].emulator.writes.total()).toBe(0);
    expect(done.body.rolloutResults.find((r: { instanceId: number }) => r.instanceId === targets[1].id).status).toBe('success');
  });

  it('validates the start request', async () => {
    const [a, b] = await fleet(2, 'validate');
    const lidarr = await addInstance(h, 'music_app', { name: 'validate-lidarr', databaseId });
    all.push(lidarr);
    const cases: [Record<string, unknown>, string][] = [
      [{ targetInstanceIds: [a.id] }, 'body.targetInstanceIds.0 is the canary'],
      [{ targetInstanceIds: [b.id, b.id] }, 'body.targetInstanceIds.1 instance'],
      [{ targetInstanceIds: [lidarr.id] }, `is a music_app instance, not movie_app`],
      [{ targetInstanceIds: [99999] }, 'body.targetInstanceIds.0 instance 99999 does not exist'],
      [{ targetInstanceIds: [] }, 'body.targetInstanceIds must have at least 1 item'],
      [{ targetInstanceIds: [b.id], partialPolicy: 'maybe' }, 'body.partialPolicy must be one of'],
      [{ targetInstanceIds: [b.id], sections: ['metadataProfiles'] }, 'metadataProfiles is not a section of movie_app'],
    ];
    for (const [extra, message] of cases) {
      const res = await h.post('/canary/rollouts', { arrType: 'movie_app', canaryInstanceId: a.id, sections: SECTIONS, partialPolicy: 'gate', ...extra });
      expect([res.status, res.body.error]).toEqual([400, expect.stringContaining(message)]);
    }
    await h.patch(`/instances/${b.id}`, { enabled: false });
    expect((await start(a, [b])).body.error).toContain('is disabled');
    expect((await h.get('/canary/rollouts/99999')).status).toBe(404);
    expect((await h.get('/canary/rollouts/abc')).status).toBe(400);
  });
});
