import { planFieldEdits } from '../../src/domain/pcd/user-layer';
import { PcdDatabase } from '../../src/persistence/entities';
import { editEffects } from '../../src/services/drift/drift-after-edit';
import { PcdCacheManager } from '../../src/services/pcd/cache-manager';
import { UserLayerWriter } from '../../src/services/pcd/user-ops';
import { SnapshotService } from '../../src/services/snapshots/snapshot-service';
import { linkDatabase, SAMPLE_PCD } from '../helpers/fleet';
import { eventually, startArrgo, type Harness } from '../helpers/harness';

/**
 * An edit whose verification meets a cache rebuild (a pull committed new content between the plan
 * and the replay that verifies the stored op): the chaos soak saw such an edit answered 503 while
 * its op stayed stored, so the profile later resolved to a value no answer had acknowledged.
 */
describe.each(['sqlite', 'postgresql'] as const)('a user edit that meets a cache rebuild (%s)', (db) => {
  let h: Harness;
  let databaseId: number;
  let caches: PcdCacheManager;
  const PROFILE = 'Series 1080p';

  beforeAll(async () => {
    h = await startArrgo({ db, env: { DRIFT_CHECK_AFTER_EDIT: 'false' } });
    databaseId = await linkDatabase(h, 'sample', SAMPLE_PCD);
    caches = new PcdCacheManager(h.service.orm, h.service.logger);
    await caches.build(databaseId);
  });
  afterAll(async () => {
    await h?.close();
  });

  // The service's own cache rebuilds too after the simulated pull: its reads answer once it is ready.
  const ready = (apiPath: string) => eventually(() => h.get(apiPath), (r) => r.status === 200, 30_000, 50);
  const userOps = async () => (await ready(`/pcd/${databaseId}/user-ops`)).body as { id: number; sql: string }[];
  const resolvedScore = async () => (await ready(`/pcd/${databaseId}/entities/quality_profile/${encodeURIComponent(PROFILE)}`)).body.entity.upgradeUntilScore;
  /** What a pull's import does to the database row when it stores new content. */
  const pullCommitsNewContent = () => h.service.orm.em.fork().nativeUpdate(PcdDatabase, { id: databaseId }, { contentVersion: Date.now() % 1_000_000 });
  /** A writer whose pull lands after the snapshot that precedes the op, before the op is appended and verified. */
  const writerRacingAPull = (writerCaches: PcdCacheManager) => {
    const snapshots = new SnapshotService(h.service.orm, caches);
    const racing = Object.create(snapshots) as SnapshotService;
    racing.takeSnapshot = async (...args: Parameters<SnapshotService['takeSnapshot']>) => {
      const taken = await snapshots.takeSnapshot(...args);
      await pullCommitsNewContent();
      return taken;
    };
    return new UserLayerWriter(h.service.orm, writerCaches, editEffects({ config: { driftCheckAfterEdit: false } }), racing);
  };
  const editTo = (writer: UserLayerWriter, score: number) =>
    writer.store(databaseId, 'update', (cache) => planFieldEdits(cache.resolved, 'quality_profile', PROFILE, [{ path: 'upgradeUntilScore', value: score }]));

  it('waits for the rebuild and answers the edit it stored', async () => {
    const before = (await userOps()).length;
    const writer = writerRacingAPull(caches);
    const opId = await editTo(writer, 1777);
    expect(opId).toEqual(expect.any(Number));
    const ops = await userOps();
    expect(ops).toHaveLength(before + 1);
    expect(ops.at(-1)).toMatchObject({ id: opId });
    expect(await resolvedScore()).toBe(1777);
  });

  it('removes the stored op again when no cache can be had, so the refused edit leaves nothing', async () => {
    const before = await userOps();
    const scoreBefore = await resolvedScore();
    const failingBuilds = Object.create(caches) as PcdCacheManager;
    failingBuilds.build = () => Promise.reject(new Error('the rebuild failed'));
    const writer = writerRacingAPull(failingBuilds);
    await expect(editTo(writer, 1888)).rejects.toMatchObject({ kind: 'not_ready', publicMessage: `Database ${databaseId} is not ready: its cache could not be built, so the edit was not stored` });
    expect(await userOps()).toEqual(before);
    await caches.build(databaseId);
    expect(await resolvedScore()).toBe(scoreBefore);
  });
});
