import { SyncRun } from '../../src/persistence/entities';
import { historyRetentionScheduleId } from '../../src/services/schedules';
import { dbKinds, type DbKind } from '../helpers/databases';
import { eventually, startArrgo, type Harness } from '../helpers/harness';

const DAY = 86_400_000;

describe.each(dbKinds())('sync history on %s', (db: DbKind) => {
  let h: Harness;
  const now = Date.now();

  beforeAll(async () => {
    h = await startArrgo({ db });
    const em = h.service.orm.em.fork();
    const rows: Partial<SyncRun>[] = [
      { instanceId: 1, instanceName: 'Radarr 4K', arrType: 'movie_app', trigger: 'manual', sectionsAttempted: ['qualityProfiles'], status: 'success', startedAt: new Date(now - 1 * DAY) },
      { instanceId: 1, instanceName: 'Radarr 4K', arrType: 'movie_app', trigger: 'canary', sectionsAttempted: ['qualityProfiles', 'delayProfiles'], status: 'failed', error: 'The app instance rejected the request.', startedAt: new Date(now - 2 * DAY) },
      { instanceId: 2, instanceName: 'Sonarr Anime', arrType: 'series_app', trigger: 'manual', sectionsAttempted: ['mediaManagement'], status: 'partial', startedAt: new Date(now - 3 * DAY) },
      { instanceId: 3, instanceName: 'Lidarr', arrType: 'music_app', trigger: 'schedule', sectionsAttempted: ['metadataProfiles'], status: 'success', startedAt: new Date(now - 40 * DAY) },
      { instanceId: null, instanceName: 'Old Radarr', arrType: 'movie_app', trigger: 'manual', sectionsAttempted: ['qualityProfiles'], status: 'success', startedAt: new Date(now - 100 * DAY) },
    ];
    rows.forEach((row, i) =>
      em.create(SyncRun, {
        ...row,
        sectionsKey: `,${row.sectionsAttempted!.join(',')},`,
        outcomes: [],
        workflowId: `history-${i}`,
        createdAt: row.startedAt!,
        finishedAt: row.startedAt!,
        itemsSynced: i,
        entityChangeCount: i,
        entityOutcomeCount: i,
      } as SyncRun),
    );
    await em.flush();
  });
  afterAll(async () => {
    await h?.close();
  });

  const names = (body: { items: { instanceName: string }[] }) => body.items.map((i) => i.instanceName);

  it('lists runs newest first with every filter, combined with AND', async () => {
    const all = await h.get('/sync-history');
    expect(all.status).toBe(200);
    expect(names(all.body)).toEqual(['Radarr 4K', 'Radarr 4K', 'Sonarr Anime', 'Lidarr', 'Old Radarr']);
    expect(all.body).toMatchObject({ page: 1, pageSize: 50, totalRecords: 5, totalPages: 1, hasNext: false });
    expect(all.body.items[0]).toMatchObject({ arrType: 'movie_app', trigger: 'manual', sectionsAttempted: ['qualityProfiles'], status: 'success', entityOutcomeCount: 0 });
    expect(Object.keys(all.body.items[0])).toEqual(
      expect.arrayContaining(['id', 'instanceName', 'arrType', 'trigger', 'sectionsAttempted', 'status', 'sectionsRun', 'itemsSynced', 'failureCount', 'entityChangeCount', 'entityOutcomeCount', 'startedAt', 'createdAt']),
    );
    expect(names((await h.get('/sync-history?instanceId=1')).body)).toEqual(['Radarr 4K', 'Radarr 4K']);
    expect(names((await h.get('/sync-history?arrType=series_app')).body)).toEqual(['Sonarr Anime']);
    expect(names((await h.get('/sync-history?status=failed')).body)).toEqual(['Radarr 4K']);
    expect(names((await h.get('/sync-history?trigger=schedule')).body)).toEqual(['Lidarr']);
    expect(names((await h.get('/sync-history?section=delayProfiles')).body)).toEqual(['Radarr 4K']);
    expect(names((await h.get('/sync-history?section=qualityProfiles&status=success')).body)).toEqual(['Radarr 4K', 'Old Radarr']);
    const from = new Date(now - 2.5 * DAY).toISOString();
    const to = new Date(now - 0.5 * DAY).toISOString();
    expect(names((await h.get(`/sync-history?from=${from}&to=${to}`)).body)).toEqual(['Radarr 4K', 'Radarr 4K']);
    expect(names((await h.get('/sync-history?q=anime')).body)).toEqual(['Sonarr Anime']);
    expect(names((await h.get('/sync-history?q=REJECTED')).body)).toEqual(['Radarr 4K']);
    const paged = await h.get('/sync-history?pageSize=2&page=2');
    expect(paged.body).toMatchObject({ page: 2, pageSize: 2, totalRecords: 5, totalPages: 3, hasNext: true });
    expect(names(paged.body)).toEqual(['Sonarr Anime', 'Lidarr']);
  });

  it('answers one run by id; 404 for an unknown one; settings keep their path', async () => {
    const { body: list } = await h.get('/sync-history?status=partial');
    const one = await h.get(`/sync-history/${list.items[0].id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(list.items[0]);
    expect(one.body).toMatchObject({ instanceName: 'Sonarr Anime', status: 'partial', sectionsAttempted: ['mediaManagement'], itemsSynced: 2 });
    const missing = await h.get('/sync-history/999999');
    expect([missing.status, missing.body]).toEqual([404, { error: 'Sync run 999999 not found' }]);
    expect((await h.get('/sync-history/abc')).status).toBe(400);
    expect((await h.get('/sync-history/settings')).body).toMatchObject({ enabled: expect.any(Boolean), retentionDays: expect.any(Number) });
  });

  it.each([
    ['instanceId=abc', 'query.instanceId must be a positive integer'],
    ['arrType=tv', 'query.arrType must be one of'],
    ['status=done', 'query.status must be one of'],
    ['trigger=cron', 'query.trigger must be one of'],
    ['section=naming', 'query.section must be one of'],
    ['from=yesterday', 'query.from must be an ISO 8601 date-time'],
    ['page=0', 'query.page must be between'],
    ['pageSize=201', 'query.pageSize must be between 1 and 200'],
    ['unknown=1', 'unknown field(s): unknown'],
    [`from=${new Date().toISOString()}&to=2000-01-01T00:00:00Z`, 'query.from must not be after query.to'],
  ])('answers 400 for %s', async (query, message) => {
    const res = await h.get(`/sync-history?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toContain(message);
  });

  it('applies retention through the Temporal Schedule the settings create, update and delete', async () => {
    const client = h.service.temporal.client;
    const scheduleId = historyRetentionScheduleId(h.taskQueue);
    expect((await h.get('/sync-history/settings')).body).toEqual({ enabled: true, retentionDays: 90, retentionMaxEntries: 10000 });
    await client.schedule.getHandle(scheduleId).describe(); // created at worker start

    for (const bad of [{ retentionDays: 0 }, { retentionMaxEntries: -1 }, { enabled: 'yes' }, {}]) {
      expect((await h.patch('/sync-history/settings', bad)).status).toBe(400);
    }
    const updated = await h.patch('/sync-history/settings', { retentionDays: 30, retentionMaxEntries: 2 });
    expect(updated.body).toEqual({ enabled: true, retentionDays: 30, retentionMaxEntries: 2 });
    await client.schedule.getHandle(scheduleId).trigger();
    // Age removes the 40- and 100-day-old runs; the cap keeps the newest two of the rest.
    const after = await eventually(() => h.get('/sync-history'), (r) => r.body.totalRecords === 2);
    expect(after.body.items.map((i: { startedAt: string }) => Date.parse(i.startedAt))).toEqual([now - 1 * DAY, now - 2 * DAY]);

    const disabled = await h.patch('/sync-history/settings', { enabled: false });
    expect(disabled.body).toEqual({ enabled: false, retentionDays: 30, retentionMaxEntries: 2 });
    await expect(client.schedule.getHandle(scheduleId).describe()).rejects.toThrow();
    const reenabled = await h.patch('/sync-history/settings', { enabled: true, retentionMaxEntries: 0 });
    expect(reenabled.body).toEqual({ enabled: true, retentionDays: 30, retentionMaxEntries: 0 });
    const described = await client.schedule.getHandle(scheduleId).describe();
    expect(described.action).toMatchObject({ workflowType: 'syncHistoryRetentionWorkflow' });
  });
});
