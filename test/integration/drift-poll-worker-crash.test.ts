import { driftScheduleId } from '../../src/services/schedules';
import { addInstance, linkDatabase, SAMPLE_PCD, type FleetInstance } from '../helpers/fleet';
import { eventually, startArrgo, type Harness } from '../helpers/harness';
import { startWorkerProcess, type WorkerProcess } from '../helpers/worker-process';

/**
 * The worker process is killed (SIGKILL) while a polling run's checks are in flight; a new worker
 * takes the checks' activity over after its heartbeat timeout and checks only the instances whose
 * results were not stored yet.
 */
describe('a drift polling run survives the death of its worker', () => {
  let h: Harness;
  const instances: FleetInstance[] = [];
  const workers: WorkerProcess[] = [];

  // Slow checks must still be waiting on their app when the worker dies.
  const env = { SYNC_HEARTBEAT_TIMEOUT_SECONDS: '3', APP_REQUEST_TIMEOUT_MS: '30000' };

  beforeAll(async () => {
    h = await startArrgo({ role: 'api', env });
    workers.push(await startWorkerProcess(h, env));
    const databaseId = await linkDatabase(h, 'sample', SAMPLE_PCD);
    for (let i = 0; i < 6; i++) instances.push(await addInstance(h, 'movie_app', { name: `crash-poll-${i}`, databaseId }));
  });
  afterAll(async () => {
    for (const worker of workers) await worker.kill();
    await h?.close();
    for (const instance of instances) await instance.emulator.close();
  });

  it('completes the run and does not check again what was stored before the crash', async () => {
    const [fast, slow] = [instances.slice(0, 3), instances.slice(3)];
    const hangs = slow.map((instance) => ({ instance, fault: instance.emulator.faults.add({ kind: 'latency', delayMs: 20_000, path: '/system/status' }) }));
    await h.put('/drift/settings', { enabled: true, intervalMinutes: 1440 });
    const lastRunAt = (await h.get('/drift/settings')).body.lastRunAt;
    await h.service.temporal.client.schedule.getHandle(driftScheduleId(h.taskQueue)).trigger();

    const stored = await Promise.all(fast.map((instance) => eventually(() => h.get(`/drift/${instance.id}`), (r) => r.body.status === 'drifted', 30_000, 100)));
    // The SDK sends heartbeats at most every 80% of the timeout: wait until the one reporting them left.
    await new Promise((r) => setTimeout(r, 4_000));
    await workers[0].kill();
    for (const { instance, fault } of hangs) instance.emulator.faults.remove(fault.id);
    for (const instance of slow) expect((await h.get(`/drift/${instance.id}`)).body.status).toBe('never-checked');

    workers.push(await startWorkerProcess(h, env));
    const done = await eventually(() => h.get('/drift/settings'), (r) => r.body.lastRunAt !== lastRunAt, 90_000, 200);
    expect(done.body.errorCount).toBe(0);
    // The instances stored before the crash were not checked again; the others were checked once.
    for (const [i, instance] of fast.entries()) expect((await h.get(`/drift/${instance.id}`)).body.checkedAt).toBe(stored[i].body.checkedAt);
    for (const instance of slow) expect((await h.get(`/drift/${instance.id}`)).body).toMatchObject({ status: 'drifted', reason: null });
    expect(workers[1].output()).toMatch(/"checked":6,"failed":0[^\n]*"msg":"drift polling checks done"/);
  });
});
