import { eventually } from '../helpers/harness';
import { killableSyncSetup } from '../helpers/worker-process';

/**
 * The worker is killed (SIGKILL) while a manual drift check waits on its app. The check heartbeats,
 * so another worker retries it once the heartbeat timeout (30 s) passes and `POST
 * /drift/{id}/check`, which waits for the check, answers; before, the retry waited for the
 * activity's 5-minute bound (the chaos soak saw the request hang that long).
 */
describe('a manual drift check survives the death of its worker', () => {
  const setup = killableSyncSetup();

  it('answers within a minute of the crash, with the stored result', async () => {
    const { h, radarr, workers } = setup;
    const slow = radarr.emulator.faults.add({ kind: 'latency', delayMs: 2_500, method: 'GET', path: '/qualityprofile', times: 1 });
    const checking = h.post(`/drift/${radarr.id}/check`);
    await eventually(async () => radarr.emulator.faults.list().length, (n) => n === 0, 30_000, 20);
    expect(slow.hits).toBe(1);
    await workers[0].kill();
    const crashedAt = Date.now();
    await setup.startWorker();

    const answer = await checking;
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ instanceId: radarr.id, status: 'drifted' });
    expect(Date.now() - crashedAt).toBeLessThan(60_000);
    expect((await h.get(`/drift/${radarr.id}`)).body.status).toBe('drifted');
  }, 120_000);
});
