import { addInstance, linkDatabase, SAMPLE_PCD, type FleetInstance } from '../helpers/fleet';
import { eventually, startArrgo, type Harness, type HttpResult } from '../helpers/harness';
import { startWorkerProcess, type WorkerProcess } from '../helpers/worker-process';

describe('a rollout survives the death of its worker while rolling out', () => {
  let h: Harness;
  const instances: FleetInstance[] = [];
  const workers: WorkerProcess[] = [];
  let databaseId: number;
  const env = { SYNC_HEARTBEAT_TIMEOUT_SECONDS: '3', CANARY_PRECHECK_WAIT_MS: '1500' };

  beforeAll(async () => {
    h = await startArrgo({ role: 'api', env });
    workers.push(await startWorkerProcess(h, env));
    databaseId = await linkDatabase(h, 'sample', SAMPLE_PCD);
    for (let i = 0; i < 5; i++) instances.push(await addInstance(h, 'movie_app', { name: `crash-${i}`, databaseId }));
  });
  afterAll(async () => {
    for (const worker of workers) await worker.kill();
    await h?.close();
    for (const instance of instances) await instance.emulator.close();
  });

  it('starts a rollout whose pre-check does not answer in time (no worker): the request is answered, the rollout goes on once a worker returns', async () => {
    const [canary, target] = [await addInstance(h, 'movie_app', { name: 'unchecked-canary', databaseId }), await addInstance(h, 'movie_app', { name: 'unchecked-target', databaseId })];
    instances.push(canary, target);
    await workers[0].kill();
    // Without the bound the request waits for the pre-check workflow's own 2-minute timeout.
    const answered = await Promise.race([
      h.post('/canary/rollouts', { arrType: 'movie_app', canaryInstanceId: canary.id, targetInstanceIds: [target.id], sections: ['qualityProfiles'], partialPolicy: 'abort', batchSize: 1 }),
      new Promise<'not answered'>((resolve) => setTimeout(() => resolve('not answered'), 20_000)),
    ]);
    expect(answered).not.toBe('not answered');
    const started = answered as HttpResult;
    expect(started.status).toBe(201);
    expect(h.logs.some((line) => line.includes('rollout pre-check did not answer in time') && line.includes('"waitedMs":1500'))).toBe(true);

    workers.push(await startWorkerProcess(h, env));
    const gated = await eventually(() => h.get(`/canary/rollouts/${started.body.id}`), (r) => ['awaiting_confirmation', 'failed', 'aborted'].includes(r.body.status), 90_000);
    expect(gated.body.status).toBe('awaiting_confirmation');
    expect(canary.emulator.writes.count('qualityprofile', 'POST')).toBe(1);
    expect((await h.post(`/canary/rollouts/${started.body.id}/abort`, { stateToken: gated.body.stateToken })).status).toBe(200);
  });

  it('resumes at the recorded index: no target synced twice, none skipped', async () => {
    const [canary, ...targets] = instances.slice(0, 5);
    const started = await h.post('/canary/rollouts', {
      arrType: 'movie_app',
      canaryInstanceId: canary.id,
      targetInstanceIds: targets.map((t) => t.id),
      sections: ['qualityProfiles', 'delayProfiles'],
      partialPolicy: 'abort',
      batchSize: 1,
    });
    const id = started.body.id;
    const gated = await eventually(() => h.get(`/canary/rollouts/${id}`), (r) => r.body.status === 'awaiting_confirmation', 90_000);
    for (const target of targets) target.emulator.faults.add({ kind: 'latency', delayMs: 250, method: 'POST', path: '/customformat' });
    expect((await h.post(`/canary/rollouts/${id}/proceed`, { stateToken: gated.body.stateToken })).status).toBe(200);

    // Kill the worker once the first target is done and the second is being written.
    const reached = await eventually(() => h.get(`/canary/rollouts/${id}`), (r) => r.body.rolloutIndex >= 1 && targets[1].emulator.writes.count('customformat', 'POST') >= 1, 60_000, 50);
    await workers[workers.length - 1].kill();
    const indexAtCrash = reached.body.rolloutIndex;
    const writesAtCrash = targets.map((t) => t.emulator.writes.total());
    expect(indexAtCrash).toBeGreaterThanOrEqual(1);
    expect(indexAtCrash).toBeLessThan(targets.length);

    // The workflow state is still readable from the database while no worker runs.
    expect((await h.get(`/canary/rollouts/${id}`)).body).toMatchObject({ status: 'rolling_out', rolloutIndex: indexAtCrash });

    workers.push(await startWorkerProcess(h, env));
    const done = await eventually(() => h.get(`/canary/rollouts/${id}`), (r) => ['completed', 'failed'].includes(r.body.status), 120_000);
    expect(done.body).toMatchObject({ status: 'completed', rolloutIndex: targets.length });
    expect(done.body.rolloutResults.map((r: { instanceId: number; status: string }) => [r.instanceId, r.status])).toEqual(targets.map((t) => [t.id, 'success']));
    // Targets completed before the crash were not touched again.
    for (let i = 0; i < indexAtCrash; i++) expect(targets[i].emulator.writes.total()).toBe(writesAtCrash[i]);
    // Every target got its profile exactly once and no custom format twice.
    for (const target of targets) {
      expect(target.emulator.writes.count('qualityprofile', 'POST')).toBe(1);
      const names = target.emulator.state.customFormats.map((cf: { name: string }) => cf.name);
      expect(new Set(names).size).toBe(names.length);
    }
    const runs = await h.get('/sync-history?trigger=canary&pageSize=50');
    const ofThisRollout = runs.body.items.filter((run: { instanceId: number }) => [canary, ...targets].some((i) => i.id === run.instanceId));
    expect(ofThisRollout).toHaveLength(targets.length + 1);

    // Queryable from the running... and finished workflow too.
    const state = await h.service.temporal.client.workflow.getHandle(`canary-rollout-${id}`).query('state');
    expect(state).toMatchObject({ status: 'completed', rolloutIndex: targets.length, stateToken: done.body.stateToken });
  });
});
