import { previewUntil } from '../helpers/fleet';
import { eventually } from '../helpers/harness';
import { killableSyncSetup } from '../helpers/worker-process';

/**
 * The worker process is killed (SIGKILL) while it reads an applied run back for verification; a
 * new worker takes the verification over after its heartbeat timeout, reads again, and completes
 * the run once. Nothing is written twice: the apply is not run again, and verification only reads.
 */
describe('a verification survives the death of its worker', () => {
  const setup = killableSyncSetup();

  it('resumes, writes nothing twice, and ends the run with one terminal status', async () => {
    const { h, radarr, workers } = setup;
    const created = await h.post('/sync/previews', { instanceId: radarr.id });
    await previewUntil(h, created.body.id, ['ready']);
    // The apply's last step (media settings) is held, so the slow read is in place before the
    // verification starts; the verification's read of the quality definitions is slow, so the kill lands in it.
    const lastWrite = radarr.emulator.faults.add({ kind: 'latency', delayMs: 500, method: 'PUT', path: '/config/mediamanagement*' });
    expect((await h.post(`/sync/previews/${created.body.id}/apply`)).status).toBe(202);
    const hitsOf = (id: string) => radarr.emulator.faults.list().find((f) => f.id === id)?.hits ?? 0;
    await eventually(async () => hitsOf(lastWrite.id), (hits) => hits >= 1, 60_000, 20);
    const slowRead = radarr.emulator.faults.add({ kind: 'latency', delayMs: 20_000, method: 'GET', path: '/qualitydefinition' });
    await eventually(async () => hitsOf(slowRead.id), (hits) => hits >= 1, 60_000, 20);
    const writesAtKill = radarr.emulator.writes.counts();
    const totalAtKill = radarr.emulator.writes.total();
    await workers[0].kill();
    expect(workers[0].output()).not.toMatch(/"msg":"sync apply verified"/);
    expect((await h.get(`/sync/previews/${created.body.id}`)).body.status).toBe('applying');
    radarr.emulator.faults.clear();

    await setup.startWorker();
    const done = await previewUntil(h, created.body.id, ['applied', 'failed'], 120_000);
    expect(done.body).toMatchObject({ status: 'applied', failure: null });
    // The new worker verified (read again) and did not apply anything again.
    expect(workers[1].output()).toMatch(/"msg":"sync apply verified"/);
    expect(workers[1].output()).not.toMatch(/"msg":"sync apply resuming"/);
    expect(radarr.emulator.writes.counts()).toEqual(writesAtKill);
    expect(radarr.emulator.writes.total()).toBe(totalAtKill);
    expect(radarr.emulator.writes.count('mediamanagement', 'PUT')).toBe(1);

    const history = await h.get(`/sync-history?instanceId=${radarr.id}`);
    expect(history.body.totalRecords).toBe(1);
    expect(history.body.items[0]).toMatchObject({ status: 'success', failureCount: 0, finishedAt: expect.any(String), verification: { status: 'verified', mismatches: [] } });
  });
});
