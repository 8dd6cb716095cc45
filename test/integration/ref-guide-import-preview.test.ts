import { linkDatabase, SAMPLE_PCD } from '../helpers/fleet';
import { eventually, startArrgo, type Harness } from '../helpers/harness';
import { describeWithShared, sharedPath } from '../helpers/shared-data';

const GUIDES = ['data', 'trash-guides'];
const TRUEHD_ATMOS = '496f355514737f7d83bf7aa4d24f8169';

describeWithShared(GUIDES, 'previewing a guide import (dryRun)', () => {
  let h: Harness;
  let source: number;
  let databaseId: number;

  beforeAll(async () => {
    h = await startArrgo();
    databaseId = await linkDatabase(h, 'sample', SAMPLE_PCD);
    source = (await h.post('/ref-guide/sources', { name: 'guides', origin: { kind: 'local', path: sharedPath(...GUIDES) }, arrType: 'movie_app' })).body.id;
    await eventually(() => h.get(`/ref-guide/sources/${source}`), (r) => r.body.lastSyncedAt !== null, 60_000);
  });
  afterAll(async () => h?.close());

  const importFormat = (body: Record<string, unknown>) => h.post(`/ref-guide/sources/${source}/entities/${TRUEHD_ATMOS}/import`, { databaseId, ...body });
  const formatNames = async () => (await h.get(`/pcd/${databaseId}/resolved/customFormat`)).body.entities.map((e: { name: string }) => e.name) as string[];

  it('answers exactly what the import will create and stores nothing; after the import, the name is reported as existing', async () => {
    const namesBefore = await formatNames();
    const preview = await importFormat({ dryRun: true });
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ databaseId, refId: TRUEHD_ATMOS, type: 'custom_format', dryRun: true });
    const planned = preview.body.created as { entityType: string; name: string; opId: number | null }[];
    expect(planned[planned.length - 1]).toEqual({ entityType: 'custom_format', name: 'TrueHD ATMOS', opId: null });
    expect(planned.every((c) => c.opId === null)).toBe(true);
    // Nothing was written: no user op, no format, and the preview can be asked again with the same answer.
    expect((await h.get(`/pcd/${databaseId}/user-ops`)).body).toEqual([]);
    expect(await formatNames()).toEqual(namesBefore);
    expect((await importFormat({ dryRun: true })).body).toEqual(preview.body);

    const imported = await importFormat({});
    expect(imported.body.dryRun).toBe(false);
    expect(imported.body.created.map((c: { entityType: string; name: string }) => [c.entityType, c.name])).toEqual(planned.map((c) => [c.entityType, c.name]));
    expect(imported.body.skipped).toEqual(preview.body.skipped);
    expect(imported.body.created.every((c: { opId: number }) => Number.isInteger(c.opId))).toBe(true);

    const again = await importFormat({ dryRun: true });
    expect(again.body).toMatchObject({ dryRun: true, created: [] });
    expect(again.body.skipped).toContainEqual({ entityType: 'custom_format', name: 'TrueHD ATMOS', reason: 'a custom format with this name exists; it is kept as it is' });
    for (const op of [...imported.body.created].reverse()) expect((await h.del(`/pcd/${databaseId}/user-ops/${op.opId}`)).status).toBe(204);
  });

  it('refuses a dryRun that is not a boolean', async () => {
    const res = await importFormat({ dryRun: 'yes' });
    expect({ status: res.status, error: res.body.error }).toEqual({ status: 400, error: 'Invalid request: body.dryRun must be a boolean, got string' });
  });
});
