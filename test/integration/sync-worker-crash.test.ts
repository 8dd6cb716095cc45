import { previewUntil } from '../helpers/fleet';
import { eventually } from '../helpers/harness';
import { killableSyncSetup } from '../helpers/worker-process';
import { SyncLedgerEntry } from '../../src/persistence/entities';

/**
 * The worker process is killed (SIGKILL) in the middle of an apply; a new worker takes the
 * activity over after its heartbeat timeout and resumes at the step the heartbeats recorded.
 */
describe('an apply survives the death of its worker', () => {
  const setup = killableSyncSetup();

  it('completes, writes each entity once in effect, and records one run', async () => {
    const { h, radarr, workers } = setup;
    const created = await h.post('/sync/previews', { instanceId: radarr.id });
    const ready = await previewUntil(h, created.body.id, ['ready']);
    const formatsToCreate = ready.body.qualityProfiles.customFormats.filter((c: { action: string }) => c.action === 'create').length;
    expect(formatsToCreate).toBeGreaterThanOrEqual(5);

    // Slow writes so the kill lands mid-apply.
    radarr.emulator.faults.add({ kind: 'latency', delayMs: 400, method: 'POST', path: '/customformat' });
    const applying = await h.post(`/sync/previews/${created.body.id}/apply`);
    expect(applying.status).toBe(202);
    // Far enough that the SDK's throttled heartbeats lag behind the steps actually confirmed.
    await eventually(async () => radarr.emulator.writes.count('customformat', 'POST'), (n) => n >= 4, 30_000, 50);
    await workers[0].kill();
    const writtenBeforeCrash = radarr.emulator.writes.count('customformat', 'POST');
    expect(writtenBeforeCrash).toBeLessThan(formatsToCreate);

    await setup.startWorker();
    const done = await previewUntil(h, created.body.id, ['applied', 'failed'], 120_000);
    expect(done.body).toMatchObject({ status: 'applied', failure: null });

    // Each managed custom format exists exactly once, and none was created twice.
    const names = radarr.emulator.state.customFormats.map((cf: { name: string }) => cf.name);
    expect(new Set(names).size).toBe(names.length);
    expect(radarr.emulator.writes.count('customformat', 'POST')).toBe(formatsToCreate);
    expect(radarr.emulator.writes.count('qualityprofile', 'POST')).toBe(1);
    // Writes per entity from the emulator's write log: every custom format was created once, none
    // was written again (the step in flight at the kill is verified against the app, not re-sent).
    const perName = new Map<string, { POST: number; PUT: number }>();
    for (const write of radarr.emulator.writes.of('customformat')) {
      const name = (write.body as { name: string }).name;
      const entry = perName.get(name) ?? { POST: 0, PUT: 0 };
      entry[write.method as 'POST' | 'PUT'] += 1;
      perName.set(name, entry);
    }
    expect([...perName.values()].every((w) => w.POST === 1)).toBe(true);
    expect([...perName.entries()].filter(([, w]) => w.PUT > 0)).toEqual([]);
    expect(perName.size).toBe(formatsToCreate);
    // The new worker resumed past the steps the first one had completed.
    expect(workers[1].output()).toMatch(/"msg":"sync apply resuming"/);
    const resumeAt = Number(/"startAt":(\d+)[^\n]*"msg":"sync apply resuming"/.exec(workers[1].output())?.[1]);
    expect(resumeAt).toBeGreaterThanOrEqual(writtenBeforeCrash - 1);

    const history = await h.get(`/sync-history?instanceId=${radarr.id}`);
    expect(history.body.totalRecords).toBe(1);
    expect(history.body.items[0]).toMatchObject({ status: 'success', failureCount: 0 });

    // The resumed apply bound every entity in the ledger once, those the killed worker created too.
    const ledger = await h.service.orm.em.fork().find(SyncLedgerEntry, { instanceId: radarr.id, entityType: 'customFormat' });
    expect(ledger.map((r) => [r.appId, r.name, r.createdByArrgo]).sort()).toEqual(radarr.emulator.state.customFormats.map((f) => [f.id, f.name, true]).sort());

    const again = await h.post('/sync/previews', { instanceId: radarr.id });
    const after = await previewUntil(h, again.body.id, ['ready']);
    expect(after.body.counts).toMatchObject({ create: 0, update: 0, delete: 0 });
    expect(after.body.identity).toEqual({ rebuilt: 0, renamed: 0, stale: 0 });
  });
});
