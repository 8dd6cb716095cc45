import { addInstance, linkDatabase, SAMPLE_PCD, startMovieRollout, type FleetInstance } from '../helpers/fleet';
import { eventually, startArrgo, type Harness } from '../helpers/harness';
import { startWorkerProcess, type WorkerProcess } from '../helpers/worker-process';

/**
 * Scale-out: two worker processes poll one task queue (same Temporal server, same database: PostgreSQL when the tests have it).
 * Each may run only two activities at once, and every app request waits 150 ms, so a batch of
 * concurrent evidence previews and applies cannot fit in one worker: the other takes its share.
 * Which worker ran an activity is read from the workflows' histories (ActivityTaskStarted
 * carries the identity, pid@host, of the worker that picked the task up).
 */
describe('two worker processes share one rollout', () => {
  let h: Harness;
  const instances: FleetInstance[] = [];
  const workers: WorkerProcess[] = [];
  const env = { WORKER_MAX_CONCURRENT_ACTIVITIES: '2' };

  beforeAll(async () => {
    h = await startArrgo({ role: 'api' });
    workers.push(await startWorkerProcess(h, env), await startWorkerProcess(h, env));
    const databaseId = await linkDatabase(h, 'sample', SAMPLE_PCD);
    for (let i = 0; i < 6; i++) instances.push(await addInstance(h, 'movie_app', { name: `scale-${i}`, databaseId }));
    for (const instance of instances) instance.emulator.faults.add({ kind: 'latency', delayMs: 150 });
  });
  afterAll(async () => {
    for (const worker of workers) await worker.stop();
    await h?.close();
    for (const instance of instances) await instance.emulator.close();
  });

  it('runs the rollout activities on both workers and completes it as one worker would', async () => {
    const [canary, ...targets] = instances;
    const started = await startMovieRollout(h, canary, targets, { sections: ['qualityProfiles', 'delayProfiles'], partialPolicy: 'abort', batchSize: 5 });
    expect(started.status).toBe(201);
    const id = started.body.id;
    const gated = await eventually(() => h.get(`/canary/rollouts/${id}`), (r) => r.body.status === 'awaiting_confirmation', 120_000);
    expect((await h.post(`/canary/rollouts/${id}/proceed`, { stateToken: gated.body.stateToken })).status).toBe(200);
    const done = await eventually(() => h.get(`/canary/rollouts/${id}`), (r) => ['completed', 'failed', 'aborted'].includes(r.body.status), 180_000);

    // Completed correctly: every target synced once, in the recorded order.
    expect(done.body).toMatchObject({ status: 'completed', rolloutIndex: targets.length });
    expect(done.body.rolloutResults.map((r: { instanceId: number; status: string }) => [r.instanceId, r.status])).toEqual(targets.map((t) => [t.id, 'success']));
    for (const instance of instances) {
      expect(instance.emulator.writes.count('qualityprofile', 'POST')).toBe(1);
      const names = instance.emulator.state.customFormats.map((cf: { name: string }) => cf.name);
      expect(new Set(names).size).toBe(names.length);
    }
    const runs = await h.get('/sync-history?trigger=canary&pageSize=50');
    expect(runs.body.totalRecords).toBe(instances.length);

    // Who ran what: the rollout's evidence previews and target applies, and the canary's sync.
    const workflowIds = [`canary-rollout-${id}`, `canary-rollout-${id}-canary-${canary.id}`];
    const ranBy: { activity: string; identity: string }[] = [];
    for (const workflowId of workflowIds) {
      const history = await h.service.temporal.client.workflow.getHandle(workflowId).fetchHistory();
      const scheduled = new Map<number, string>();
      for (const event of history.events ?? []) {
        const attributes = event.activityTaskScheduledEventAttributes;
        if (attributes) scheduled.set(Number(event.eventId), attributes.activityType?.name ?? '');
        const startedEvent = event.activityTaskStartedEventAttributes;
        if (startedEvent) ranBy.push({ activity: scheduled.get(Number(startedEvent.scheduledEventId)) ?? '', identity: startedEvent.identity ?? '' });
      }
    }
    const pids = workers.map((w) => String(w.child.pid));
    const workerOf = (identity: string) => pids.find((pid) => identity.startsWith(`${pid}@`)) ?? null;
    // Every activity ran on one of the two worker processes (the API process runs no worker).
    expect(ranBy.map((r) => workerOf(r.identity))).not.toContain(null);
    // The evidence round is one activity (its previews, 5 at a time, on the worker that took it).
    expect(ranBy.filter((r) => r.activity === 'buildEvidencePreviews')).toHaveLength(1);
    expect(ranBy.filter((r) => r.activity === 'applySyncPlan')).toHaveLength(instances.length);
    // Both workers took part in the rolling out.
    const targetApplies = ranBy.filter((r) => r.activity === 'applySyncPlan');
    expect(new Set(targetApplies.map((r) => workerOf(r.identity)))).toEqual(new Set(pids));
  });
});
