import { addInstance, linkDatabase, SAMPLE_PCD, startMovieRollout, type FleetInstance } from '../helpers/fleet';
import { eventually, startArrgo, type Harness } from '../helpers/harness';
import { startWorkerProcess, type WorkerProcess } from '../helpers/worker-process';
import type { Fault } from '../../src/emulators/faults';

const TARGETS = 8;

/** The entries the rollout's evidence activity last heartbeated to the server, if it is running. */
async function heartbeatedEvidence(h: Harness, workflowId: string): Promise<{ built: { instanceId: number }[]; total: number } | null> {
  const described = await h.service.temporal.client.workflow.getHandle(workflowId).describe();
  const pending = (described.raw.pendingActivities ?? []).find((a) => a.activityType?.name === 'buildEvidencePreviews');
  const payload = pending?.heartbeatDetails?.payloads?.[0];
  return payload?.data ? JSON.parse(Buffer.from(payload.data).toString('utf8')) : null;
}

describe('a rollout survives the death of its worker while building the evidence', () => {
  let h: Harness;
  const instances: FleetInstance[] = [];
  const workers: WorkerProcess[] = [];
  // Reads slower than the tests' usual 3 s app timeout are the point here.
  const env = { SYNC_HEARTBEAT_TIMEOUT_SECONDS: '3', APP_REQUEST_TIMEOUT_MS: '20000' };

  beforeAll(async () => {
    h = await startArrgo({ role: 'api', env });
    workers.push(await startWorkerProcess(h, env));
    const databaseId = await linkDatabase(h, 'sample', SAMPLE_PCD);
    for (let i = 0; i <= TARGETS; i++) instances.push(await addInstance(h, 'movie_app', { name: `evidence-crash-${i}`, databaseId }));
  });
  afterAll(async () => {
    for (const worker of workers) await worker.kill();
    await h?.close();
    for (const instance of instances) await instance.emulator.close();
  });

  it('builds only the previews its last heartbeat did not report, each target once, and the gate opens', async () => {
    const [canary, ...targets] = instances;
    // Each evidence preview reads the target's profiles. The round builds 5 at a time: the first
    // five are slow, the last three slower, so that the server holds a heartbeat with some built
    // (the SDK sends one at most every 80% of the 3 s heartbeat timeout) before the round ends.
    const reads: Fault[] = targets.map((t, i) => t.emulator.faults.add({ kind: 'latency', delayMs: i < 5 ? 1_500 : 8_000, method: 'GET', path: '/qualityprofile' }));
    const started = await startMovieRollout(h, canary, targets, { sections: ['qualityProfiles', 'delayProfiles'], partialPolicy: 'abort', batchSize: 4 });
    expect(started.status).toBe(201);
    const workflowId = started.body.workflowId as string;

    // Kill the worker once the server holds a heartbeat with some previews built, not all.
    const reported = await eventually(
      () => heartbeatedEvidence(h, workflowId),
      (progress) => progress !== null && progress.built.length >= 1 && progress.built.length < TARGETS,
      60_000,
      25,
    );
    await workers[0].kill();
    const builtAtCrash = new Set(reported!.built.map((entry) => entry.instanceId));
    const readsAtCrash = reads.map((fault) => fault.hits);
    expect(reported!.total).toBe(TARGETS);

    workers.push(await startWorkerProcess(h, env));
    const gated = await eventually(() => h.get(`/canary/rollouts/${started.body.id}`), (r) => r.body.status !== 'canary_running', 120_000);
    expect(gated.body).toMatchObject({ status: 'awaiting_confirmation', canaryStatus: 'success' });
    expect(gated.body.remainingPreview).toMatchObject({ availability: 'available' });
    expect(gated.body.remainingPreview.previews.map((p: { instanceId: number; status: string }) => [p.instanceId, p.status])).toEqual(targets.map((t) => [t.id, 'ready']));

    // The retried round read again only the targets the heartbeat did not report as built.
    for (const [i, target] of targets.entries()) {
      if (builtAtCrash.has(target.id)) expect(reads[i].hits).toBe(readsAtCrash[i]);
      else expect(reads[i].hits).toBeGreaterThan(0);
    }
    // One evidence preview per target: a rebuilt preview reuses its row.
    const rows = (await h.service.orm.em
      .fork()
      .getConnection()
      .execute('select instance_id as "instanceId", count(*) as n from sync_previews where workflow_id = ? group by instance_id order by instance_id', [`${workflowId}#evidence-1`])) as { instanceId: number; n: number }[];
    expect(rows.map((r) => [Number(r.instanceId), Number(r.n)])).toEqual(targets.map((t) => [t.id, 1]));

    for (const target of targets) target.emulator.faults.clear();
    expect((await h.post(`/canary/rollouts/${started.body.id}/proceed`, { stateToken: gated.body.stateToken })).status).toBe(200);
    const done = await eventually(() => h.get(`/canary/rollouts/${started.body.id}`), (r) => ['completed', 'failed'].includes(r.body.status), 120_000);
    expect(done.body).toMatchObject({ status: 'completed', rolloutIndex: TARGETS });
    for (const target of targets) expect(target.emulator.writes.count('qualityprofile', 'POST')).toBe(1);
  });
});
