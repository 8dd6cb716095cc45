import { PcdDatabase, PcdSnapshotBase } from '../../src/persistence/entities';
import type { Orm } from '../../src/persistence/orm';
import type { PcdCacheManager } from '../../src/services/pcd/cache-manager';
import { SnapshotService } from '../../src/services/snapshots/snapshot-service';
import { dbKinds, twoConnections } from '../helpers/databases';

/**
 * Two snapshots of one op set taken at the same moment (an edit's and a pull's, in two processes)
 * share one stored base: the chaos soak's short form saw the second insert of the base fail its
 * unique key, and the edit that took the snapshot answered 500.
 */
describe.each(dbKinds())('snapshots of one op set taken at once on %s', (db) => {
  let orms: Orm[] = [];
  let close: () => Promise<void>;
  // No cache to hash: the snapshot records a null state hash, as for a database whose cache cannot build.
  const noCache = { build: async () => Promise.reject(new Error('no cache in this test')) } as unknown as PcdCacheManager;

  beforeAll(async () => {
    ({ orms, close } = await twoConnections(db));
  });
  afterAll(async () => {
    await close?.();
  });

  it('both succeed and share one base, every time', async () => {
    // SQLite serves one process through one connection (two in one process would block each other's
    // transactions): there the race is between two requests on that connection.
    const services = (db === 'sqlite' ? [orms[0], orms[0]] : orms).map((orm) => new SnapshotService(orm, noCache));
    for (let round = 1; round <= 20; round++) {
      const em = orms[0].em.fork();
      const database = em.create(PcdDatabase, { name: `race-${round}`, sourceKind: 'local', sourceLocation: `/tmp/race-${round}`, enabled: true, cacheStatus: 'ready', contentVersion: 1, userVersion: 0, lastPulledAt: new Date(), createdAt: new Date(), updatedAt: new Date() });
      await em.flush();
      const snapshots = await Promise.all(services.map((service) => service.takeSnapshot(database.id, 'manual')));
      expect(snapshots.map((s) => s?.baseId ?? null)).toEqual([snapshots[0]!.baseId, snapshots[0]!.baseId]);
      expect(await orms[1].em.fork().count(PcdSnapshotBase, { databaseId: database.id })).toBe(1);
    }
  });
});
