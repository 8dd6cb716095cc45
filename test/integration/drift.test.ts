import { driftScheduleId } from '../../src/services/schedules';
import { addInstance, linkDatabase, SAMPLE_PCD, type FleetInstance } from '../helpers/fleet';
import { eventually, startArrgo, type Harness } from '../helpers/harness';

describe('drift detection', () => {
  let h: Harness;
  let databaseId: number;
  const instances: FleetInstance[] = [];

  beforeAll(async () => {
    h = await startArrgo();
    databaseId = await linkDatabase(h, 'sample', SAMPLE_PCD);
  });
  afterAll(async () => {
    await h?.close();
    for (const instance of instances) await instance.emulator.close();
  });

  const add = async (name: string, arrType: 'movie_app' | 'series_app' = 'movie_app') => {
    const instance = await addInstance(h, arrType, { name, databaseId });
    instances.push(instance);
    return instance;
  };

  it('shows manual edits as drifted, missing and unmanaged, and a re-sync brings the instance back in sync', async () => {
    const radarr = await add('drift-radarr');
    expect((await h.get(`/drift/${radarr.id}`)).body).toMatchObject({ status: 'never-checked', reason: null, checkedAt: null, counts: { drifted: 0, missing: 0, unmanaged: 0 }, drift: [] });
    expect((await h.post(`/instances/${radarr.id}/sync?wait=true`, {})).body.status).toBe('applied');
    const clean = await h.post(`/drift/${radarr.id}/check`);
    expect(clean.status).toBe(200);
    expect(clean.body).toMatchObject({ status: 'in-sync', reason: null, detectedVersion: expect.stringMatching(/^6\./), counts: { drifted: 0, missing: 0 } });

    // Edits made directly in the app.
    const formats = radarr.emulator.state.customFormats;
    const atmos = formats.find((cf: { name: string }) => cf.name === 'Atmos')!;
    atmos.includeCustomFormatWhenRenaming = !atmos.includeCustomFormatWhenRenaming;
    const cam = formats.findIndex((cf: { name: string }) => cf.name === 'Cam');
    const camId = formats[cam].id;
    formats.splice(cam, 1);
    for (const profile of radarr.emulator.state.qualityProfiles) profile.formatItems = profile.formatItems.filter((f: { format: number }) => f.format !== camId);
    formats.push({ id: 9001, name: 'Hand Made', includeCustomFormatWhenRenaming: false, specifications: [] } as never);
    radarr.emulator.state.delayProfiles[0].usenetDelay = 77;

    const drifted = await h.post(`/drift/${radarr.id}/check`);
    expect(drifted.body.status).toBe('drifted');
    expect(drifted.body.drift).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ section: 'qualityProfiles', entityType: 'customFormat', name: 'Atmos', action: 'update', category: 'drift', remoteId: atmos.id, fields: [expect.objectContaining({ field: 'includeCustomFormatWhenRenaming', type: 'changed' })] }),
        expect.objectContaining({ section: 'delayProfiles', entityType: 'delayProfile', action: 'update', category: 'drift', fields: [expect.objectContaining({ field: 'usenetDelay', current: 77 })] }),
      ]),
    );
    expect(drifted.body.missing).toEqual([expect.objectContaining({ section: 'qualityProfiles', entityType: 'customFormat', name: 'Cam', action: 'create', category: 'missing', remoteId: null, fields: [] })]);
    expect(drifted.body.unmanaged).toEqual(expect.arrayContaining([expect.objectContaining({ section: 'qualityProfiles', entityType: 'customFormat', name: 'Hand Made', action: 'delete', category: 'unmanaged', remoteId: 9001 })]));
    expect(drifted.body.counts).toEqual({ drifted: drifted.body.drift.length, missing: 1, unmanaged: drifted.body.unmanaged.length });
    expect(drifted.body.contentCheckedAt).toEqual(drifted.body.checkedAt);

    expect((await h.post(`/instances/${radarr.id}/sync?wait=true`, {})).body.status).toBe('applied');
    const back = await h.post(`/drift/${radarr.id}/check`);
    expect(back.body).toMatchObject({ status: 'in-sync', counts: { drifted: 0, missing: 0 } });
    expect(back.body.unmanaged.map((u: { name: string }) => u.name)).toContain('Hand Made'); // never deleted unless opted in
  });

  it('reports unreachable, unauthorized and unconfigured instances in a 200 body, with sanitized reasons', async () => {
    const down = await add('drift-down');
    await h.post(`/drift/${down.id}/check`);
    await down.emulator.close();
    const unreachable = await h.post(`/drift/${down.id}/check`);
    expect(unreachable.status).toBe(200);
    expect(unreachable.body).toMatchObject({ status: 'unreachable', reason: 'unreachable' });
    expect(unreachable.body.contentCheckedAt).not.toBeNull(); // the last content comparison is kept
    expect(unreachable.body.contentCheckedAt < unreachable.body.checkedAt).toBe(true);

    const locked = await add('drift-401');
    await h.patch(`/instances/${locked.id}`, { apiKey: 'a-wrong-key-0000000000' });
    const unauthorized = await h.post(`/drift/${locked.id}/check`);
    expect(unauthorized.body).toMatchObject({ status: 'unauthorized', reason: 'unauthorized' });
    for (const marker of locked.emulator.leakMarkers) expect(unauthorized.text).not.toContain(marker);

    const slow = await add('drift-slow');
    const hang = slow.emulator.faults.add({ kind: 'hang', path: '/system/status' });
    expect((await h.post(`/drift/${slow.id}/check`)).body).toMatchObject({ status: 'unreachable', reason: 'timeout' });
    slow.emulator.faults.remove(hang.id);
    slow.emulator.faults.add({ kind: 'status', status: 429 });
    expect((await h.post(`/drift/${slow.id}/check`)).body).toMatchObject({ status: 'error', reason: 'rate_limited' });

    const bare = await h.post('/instances', { name: 'drift-bare', arrType: 'series_app', baseUrl: 'http://127.0.0.1:9', apiKey: 'k-0000000000' });
    expect((await h.post(`/drift/${bare.body.id}/check`)).body).toMatchObject({ status: 'error', reason: 'not_configured' });

    expect((await h.get('/drift/999999')).status).toBe(404);
    expect((await h.get('/drift/abc')).status).toBe(400);
    expect((await h.post('/drift/999999/check')).status).toBe(404);
  });

  it('polls on a Temporal Schedule: settings create, update and pause it; failures back off', async () => {
    const client = h.service.temporal.client;
    const scheduleId = driftScheduleId(h.taskQueue);
    const updated = await h.put('/drift/settings', { enabled: true, intervalMinutes: 30 });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ enabled: true, intervalMinutes: 30, nextRunAt: expect.any(String) });
    const described = await client.schedule.getHandle(scheduleId).describe();
    expect(described.info.nextActionTimes[0].toISOString()).toBe(updated.body.nextRunAt);
    expect(described.spec.intervals?.[0]).toMatchObject({ every: 30 * 60_000 });

    const before = (await h.get('/drift/settings')).body.errorCount;
    await client.schedule.getHandle(scheduleId).trigger();
    const first = await eventually(() => h.get('/drift/settings'), (r) => r.body.lastRunAt !== null && r.body.errorCount === before + 1);
    expect(first.body.backoffUntil).toEqual(expect.any(String));
    expect(Date.parse(first.body.backoffUntil)).toBeGreaterThan(Date.now());
    const lastRun = first.body.lastRunAt;
    await client.schedule.getHandle(scheduleId).trigger();
    const second = await eventually(() => h.get('/drift/settings'), (r) => r.body.lastRunAt !== lastRun);
    expect(second.body.errorCount).toBe(before + 2);

    for (const bad of [{ enabled: true }, { enabled: true, intervalMinutes: 0 }, { enabled: 'yes', intervalMinutes: 5 }]) {
      expect((await h.put('/drift/settings', bad)).status).toBe(400);
    }
    const paused = await h.put('/drift/settings', { enabled: false, intervalMinutes: 30 });
    expect(paused.body).toMatchObject({ enabled: false, nextRunAt: null });
    expect((await client.schedule.getHandle(scheduleId).describe()).state.paused).toBe(true);
  });
});
