import { addInstance, leakMarkers, linkDatabase, SAMPLE_PCD, startMovieRollout, type FleetInstance } from '../helpers/fleet';
import { eventually, startArrgo, type Harness } from '../helpers/harness';
import { startReceiver, type Receiver } from '../helpers/receiver';
import { PcdDatabase } from '../../src/persistence/entities';

const SECTIONS = ['qualityProfiles', 'delayProfiles', 'mediaManagement'];

describe('canary rollouts', () => {
  let h: Harness;
  let databaseId: number;
  const all: FleetInstance[] = [];
  const receivers: Receiver[] = [];

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
    for (const receiver of receivers) await receiver.close();
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
    expect(done.body).toMatchObject({ status: 'completed', rolloutIndex: 5, statusReasonCode: null, statusReason: null });
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
    expect(aborted.body).toMatchObject({
      status: 'aborted',
      finishedAt: expect.any(String),
      statusReasonCode: 'gate_declined',
      statusReason: 'Aborted at the gate by the operator; the 2 remaining instances were left untouched.',
    });
    for (const target of targets) expect(target.emulator.writes.total()).toBe(0);
    const item = (await h.get('/timeline?source=canary&pageSize=100')).body.items.find((i: { id: string }) => i.id === `canary:${started.body.id}`);
    expect(item.reason).toBe('Aborted at the gate by the operator; the 2 remaining instances were left untouched.');
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
    expect(aborted.body).toMatchObject({ statusReasonCode: 'canary_failed', statusReason: `Aborted: the canary (${canary.name}) failed to sync (the app instance failed while handling the request); the 2 remaining instances were left untouched.` });
    for (const marker of leakMarkers(canary)) expect(JSON.stringify(aborted.body)).not.toContain(marker);
    for (const target of targets) expect(target.emulator.writes.total()).toBe(0);
  });

  it('refuses a canary already in sync with 409 naming the targets that have changes, and records nothing', async () => {
    const [canary, ...targets] = await fleet(4, 'in-sync');
    for (const synced of [canary, targets[1]]) expect((await h.post(`/instances/${synced.id}/sync?wait=true`, {})).body.status).toBe('applied');
    const canaryWrites = canary.emulator.writes.total();
    const rolloutsBefore = (await h.get('/canary/rollouts')).body.totalRecords;

    const refused = await start(canary, targets);
    expect(refused.status).toBe(409);
    const changes = (await h.get(`/sync/previews?instanceId=${canary.id}`)).body.items[0].counts;
    const expected = changes.create + changes.update + changes.delete;
    expect(refused.body).toEqual({
      error: expect.any(String),
      code: 'canary_in_sync',
      // As many changes each: request order; the target synced by hand has none.
      targetsWithChanges: [targets[0], targets[2]].map((t) => ({ instanceId: t.id, instanceName: t.name, changes: expected, counts: { ...changes, unchanged: expect.any(Number) } })),
      unreadTargets: [],
      suggestedCanaryInstanceId: targets[0].id,
    });
    expect(refused.body.error).toBe(
      `The canary ${canary.name} has nothing to change in the selected sections, so the rollout would be aborted with nothing verified. ` +
        `2 of 3 targets have changes: ${targets[0].name} (${expected} changes), ${targets[2].name} (${expected} changes). ` +
        `Use one of them as the canary, e.g. canaryInstanceId ${targets[0].id} (${targets[0].name}, the most changes), or send allowInSyncCanary: true to start anyway (the rollout then ends aborted, its canary skipped).`,
    );
    // Nothing was recorded, started or written: no rollout, no preview, no rollout workflow.
    expect((await h.get('/canary/rollouts')).body.totalRecords).toBe(rolloutsBefore);
    for (const target of targets) expect((await h.get(`/sync/previews?instanceId=${target.id}`)).body.totalRecords).toBe(target === targets[1] ? 1 : 0);
    expect(canary.emulator.writes.total()).toBe(canaryWrites);
    for (const target of [targets[0], targets[2]]) expect(target.emulator.writes.total()).toBe(0);
    const kinds = await eventually(async () => {
      const found: string[] = [];
      for await (const wf of h.service.temporal.client.workflow.list({ query: `ArrgoInstanceIds = '${canary.id}' AND ArrgoKind IN ('canary-precheck', 'canary-rollout')` })) found.push(wf.workflowId);
      return found;
    }, (found) => found.length > 0);
    expect(kinds).toEqual([expect.stringMatching(new RegExp(`^canary-precheck-${canary.id}-`))]);

    // Once the other targets are in sync too, the whole fleet is.
    for (const synced of [targets[0], targets[2]]) expect((await h.post(`/instances/${synced.id}/sync?wait=true`, {})).body.status).toBe('applied');
    const inSync = await start(canary, targets);
    expect(inSync.status).toBe(409);
    expect(inSync.body).toMatchObject({ code: 'fleet_in_sync', targetsWithChanges: [], suggestedCanaryInstanceId: null });
    expect(inSync.body.error).toBe(
      `Nothing to roll out: the canary ${canary.name} and all 3 targets already match the desired configuration in the selected sections. Start anyway by sending allowInSyncCanary: true (the rollout then ends aborted, its canary skipped).`,
    );
    expect((await h.get('/canary/rollouts')).body.totalRecords).toBe(rolloutsBefore);
  });

  it('starts when insisted on (allowInSyncCanary), and ends aborted with a readable reason in the rollout, the timeline and the notification', async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    const channel = await h.post('/notifications/channels', { name: 'rollout-ends', kind: 'webhook', url: receiver.url, secret: 'whsec-0123456789abcdef-rollouts', events: ['rollout.aborted', 'rollout.failed'] });
    expect(channel.status).toBe(201);
    const [canary, ...targets] = await fleet(3, 'insist');
    expect((await h.post(`/instances/${canary.id}/sync?wait=true`, {})).body.status).toBe('applied');
    const started = await start(canary, targets, { allowInSyncCanary: true });
    expect(started.status).toBe(201);
    const reason = `Aborted: the canary (${canary.name}) had nothing to change, so there was nothing to verify; the 2 remaining instances were left untouched. Start a rollout with a canary that has changes.`;
    const settled = await until(started.body.id, ['aborted', 'awaiting_confirmation']);
    expect(settled.body).toMatchObject({ status: 'aborted', canaryStatus: 'skipped', statusReasonCode: 'canary_in_sync', statusReason: reason });
    expect(settled.body.canary.diagnostics.summary).toContain('no changes');
    for (const target of targets) expect(target.emulator.writes.total()).toBe(0);
    const listed = (await h.get('/canary/rollouts?status=aborted')).body.items.find((r: { id: number }) => r.id === started.body.id);
    expect(listed).toMatchObject({ statusReasonCode: 'canary_in_sync', statusReason: reason });

    // The timeline item carries the reason, and q finds the rollout by it.
    const timeline = await h.get(`/timeline?source=canary&q=${encodeURIComponent('nothing to verify')}`);
    expect(timeline.body.items.map((i: { id: string; reason: string }) => [i.id, i.reason])).toEqual([[`canary:${started.body.id}`, reason]]);

    const sent = await eventually(
      async () => receiver.requests.find((r) => r.body?.event?.id === `rollout:${started.body.id}:aborted`),
      (found) => found !== undefined,
      30_000,
    );
    expect(sent!.body.event).toMatchObject({ type: 'rollout.aborted', description: reason, data: { rolloutId: started.body.id, status: 'aborted', statusReasonCode: 'canary_in_sync', statusReason: reason } });
  });

  // The chaos soak aborted rollouts whose canary was previewed while one of its pulls rebuilt the
  // cache: the preview failed at once ("an unexpected error occurred") on a rebuild that ended in under a second.
  it('a canary previewed while a pull rebuilds the cache waits for the rebuild instead of failing', async () => {
    const [canary, ...targets] = await fleet(2, 'rebuild');
    const setCache = (cacheStatus: 'building' | 'ready') => h.service.orm.em.fork().nativeUpdate(PcdDatabase, { id: databaseId }, { cacheStatus });
    await setCache('building');
    let started;
    try {
      started = await start(canary, targets, { allowInSyncCanary: true });
      expect(started.status).toBe(201);
      await new Promise((resolve) => setTimeout(resolve, 3000));
      expect((await h.get(`/canary/rollouts/${started.body.id}`)).body).toMatchObject({ status: 'canary_running', canaryStatus: 'running' });
    } finally {
      await setCache('ready');
    }
    const gated = await until(started.body.id, ['awaiting_confirmation', 'aborted']);
    expect(gated.body).toMatchObject({ status: 'awaiting_confirmation', canaryStatus: 'success', statusReasonCode: null });
    expect(canary.emulator.writes.count('qualityprofile', 'POST')).toBe(1);
    expect((await h.post(`/canary/rollouts/${started.body.id}/abort`, { stateToken: gated.body.stateToken })).status).toBe(200);
  });

  it('starts when the canary cannot be read (the check does not block), and the rollout says why it aborted', async () => {
    const [canary, ...targets] = await fleet(2, 'canary-down');
    await canary.emulator.close();
    const started = await start(canary, targets);
    expect(started.status).toBe(201);
    const aborted = await until(started.body.id, ['aborted', 'awaiting_confirmation']);
    expect(aborted.body).toMatchObject({
      status: 'aborted',
      canaryStatus: 'failed',
      statusReasonCode: 'canary_failed',
      statusReason: `Aborted: the canary (${canary.name}) failed to sync (the app instance could not be reached); the remaining instance was left untouched.`,
    });
    expect(targets[0].emulator.writes.total()).toBe(0);
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
        expect(settled.body).toMatchObject({
          status: 'aborted',
          warning: null,
          statusReasonCode: 'canary_partial',
          statusReason: `Aborted: the canary (${canary.name}) synced only partly (the app instance rejected the request) and partialPolicy is abort; the remaining instance was left untouched.`,
        });
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
    // The target without evidence is named, with its failure and each section's own evidence.
    const [failed] = gated.body.remainingPreview.failedPreviews;
    expect(gated.body.remainingPreview.failedPreviews).toHaveLength(1);
    expect(failed).toMatchObject({ instanceId: targets[1].id, instanceName: targets[1].name, status: 'failed', failure: { code: 'sectionErrors', cause: 'unreachable' } });
    expect(failed.sectionOutcomes.map((o: { section: string; failure: { code: string } }) => [o.section, o.failure.code])).toEqual(SECTIONS.map((s) => [s, 'unreachable']));
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
    const reason = `Failed: 1 of 2 targets failed (${targets[1].name} (partly synced): the app instance rejected the request).`;
    expect(done.body).toMatchObject({ statusReasonCode: 'targets_failed', statusReason: reason });
    const item = (await h.get(`/timeline?source=canary&q=${encodeURIComponent(targets[1].name)}`)).body.items.find((i: { id: string }) => i.id === `canary:${started.body.id}`);
    expect(item).toMatchObject({ status: 'failed', reason });
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
