import { driftScheduleId } from '../../src/services/schedules';
import { dbKinds, type DbKind } from '../helpers/databases';
import { addInstance, linkDatabase, SAMPLE_PCD, type FleetInstance } from '../helpers/fleet';
import { eventually, startArrgo, type Harness } from '../helpers/harness';
import { startReceiver, type Receiver } from '../helpers/receiver';

/**
 * A polling run checks the whole fleet in one batch (shared reads, coalesced writes): each
 * instance still gets its own stored result, failure streak and backoff.
 */
describe.each(dbKinds())('drift polling runs on %s', (db: DbKind) => {
  let h: Harness;
  let databaseId: number;
  let receiver: Receiver;
  const instances: FleetInstance[] = [];

  beforeAll(async () => {
    receiver = await startReceiver();
    h = await startArrgo({ db, env: { NOTIFY_RETRY_INITIAL_INTERVAL_MS: '200', NOTIFY_DRIFT_WINDOW_MINUTES: '30' } });
    databaseId = await linkDatabase(h, 'sample', SAMPLE_PCD);
  });
  afterAll(async () => {
    await h?.close();
    for (const instance of instances) await instance.emulator.close();
    await receiver?.close();
  });

  const add = async (name: string, arrType: 'movie_app' | 'series_app' = 'movie_app') => {
    const instance = await addInstance(h, arrType, { name, databaseId });
    instances.push(instance);
    return instance;
  };

  /** Triggers the schedule and waits for the run to be recorded; returns the job's settings view. */
  const poll = async () => {
    const lastRunAt = (await h.get('/drift/settings')).body.lastRunAt;
    await h.service.temporal.client.schedule.getHandle(driftScheduleId(h.taskQueue)).trigger();
    return (await eventually(() => h.get('/drift/settings'), (r) => r.body.lastRunAt !== lastRunAt)).body;
  };

  it('stores each instance its own status, keeps the last comparison of an unreachable one, and backs failures off', async () => {
    await h.put('/drift/settings', { enabled: true, intervalMinutes: 30 });
    const synced = await add('poll-synced');
    const edited = await add('poll-edited');
    const fresh = await add('poll-fresh', 'series_app');
    const down = await add('poll-down');
    for (const instance of [synced, edited, down]) expect((await h.post(`/instances/${instance.id}/sync?wait=true`, {})).body.status).toBe('applied');
    edited.emulator.state.delayProfiles[0].usenetDelay = 55;

    const first = await poll();
    expect(first).toMatchObject({ errorCount: 0, backoffUntil: null });
    expect((await h.get(`/drift/${synced.id}`)).body).toMatchObject({ status: 'in-sync', reason: null, detectedVersion: expect.stringMatching(/^6\./) });
    const drifted = (await h.get(`/drift/${edited.id}`)).body;
    expect(drifted.status).toBe('drifted');
    expect(drifted.drift).toEqual([expect.objectContaining({ section: 'delayProfiles', fields: [expect.objectContaining({ field: 'usenetDelay', current: 55 })] })]);
    expect(drifted.counts).toEqual({ drifted: 1, missing: 0, unmanaged: drifted.unmanaged.length });
    const missing = (await h.get(`/drift/${fresh.id}`)).body;
    expect(missing.status).toBe('drifted');
    expect(missing.counts.missing).toBeGreaterThan(0);
    const before = (await h.get(`/drift/${down.id}`)).body;
    expect(before).toMatchObject({ status: 'in-sync' });

    await down.emulator.close();
    edited.emulator.state.delayProfiles[0].usenetDelay = 0;
    const second = await poll();
    expect(second.errorCount).toBe(1);
    const unreachable = (await h.get(`/drift/${down.id}`)).body;
    expect(unreachable).toMatchObject({ status: 'unreachable', reason: 'unreachable', contentCheckedAt: before.contentCheckedAt, counts: before.counts, unmanaged: before.unmanaged });
    expect(unreachable.checkedAt > before.checkedAt).toBe(true);
    expect(Date.parse(second.backoffUntil)).toBeGreaterThan(Date.now());
    expect((await h.get(`/drift/${edited.id}`)).body).toMatchObject({ status: 'in-sync', counts: { drifted: 0, missing: 0 } });

    // The instance backing off waits; the others are checked.
    const syncedBefore = (await h.get(`/drift/${synced.id}`)).body.checkedAt;
    const third = await poll();
    expect(third.errorCount).toBe(2); // the instance backing off still fails
    expect((await h.get(`/drift/${down.id}`)).body.checkedAt).toBe(unreachable.checkedAt);
    expect((await h.get(`/drift/${synced.id}`)).body.checkedAt > syncedBefore).toBe(true);
  });

  it('a polled drift transition notifies once, and a repeat within the window is coalesced', async () => {
    const created = await h.post('/notifications/channels', { name: 'poll-hook', kind: 'webhook', url: receiver.url, secret: 'whsec-poll-0123456789', events: ['drift.detected'] });
    expect(created.status).toBe(201);
    const watched = await add('poll-notify');
    expect((await h.post(`/instances/${watched.id}/sync?wait=true`, {})).body.status).toBe('applied');
    await h.post(`/drift/${watched.id}/check`, {});
    expect((await h.get(`/drift/${watched.id}`)).body.status).toBe('in-sync');

    watched.emulator.state.delayProfiles[0].usenetDelay = 77;
    await poll();
    expect((await h.get(`/drift/${watched.id}`)).body.status).toBe('drifted');
    const delivered = await eventually(
      () => h.get(`/notifications/deliveries?channelId=${created.body.id}`),
      (r) => r.body.items.some((d: { status: string }) => d.status === 'delivered'),
    );
    expect(delivered.body.items).toHaveLength(1);
    const forInstance = () => receiver.requests.filter((r) => r.body?.event?.data?.instanceId === watched.id);
    expect(forInstance().map((r) => [r.body.event.type, r.body.event.data.previousStatus, r.body.event.data.status])).toEqual([['drift.detected', 'in-sync', 'drifted']]);

    await poll(); // still drifted: no transition, nothing new
    watched.emulator.state.delayProfiles[0].usenetDelay = 78;
    await poll(); // drifted again within the window: coalesced
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(forInstance()).toHaveLength(1);
  });
});
