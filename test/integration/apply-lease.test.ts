import type { Orm } from '../../src/persistence/orm';
import { APPLY_LEASE_TTL_MS, applyLeaseHolder, releaseApplyLease, takeApplyLease, takeApplyLeaseNotingOthers } from '../../src/services/sync/apply-lease';
import { dbKinds, twoConnections } from '../helpers/databases';

/** Two connections (as two workers hold) on one database: one run at a time writes to an instance. */
describe.each(dbKinds())('the per-instance apply lease on %s', (db) => {
  let orms: Orm[] = [];
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ orms, close } = await twoConnections(db));
  });
  afterAll(async () => {
    await close?.();
  });

  it('gives a free instance to exactly one of two simultaneous runs, every time', async () => {
    for (let instanceId = 1; instanceId <= 25; instanceId++) {
      const taken = await Promise.all(orms.map((orm, i) => takeApplyLease(orm.em.fork(), instanceId, 100 + i)));
      expect(taken.filter((g) => g !== null)).toEqual([1]);
      expect(await applyLeaseHolder(orms[0].em.fork(), instanceId)).toBe(taken[0] === 1 ? 100 : 101);
    }
  });

  it('lets the holder take it again with its generation, and another run only once it is released or expired', async () => {
    const em = () => orms[0].em.fork();
    const now = Date.now();
    expect(await takeApplyLease(em(), 500, 1, now)).toBe(1);
    expect(await takeApplyLease(em(), 500, 1, now + 1000)).toBe(1);
    expect(await takeApplyLease(orms[1].em.fork(), 500, 2, now + 1000)).toBeNull();

    await releaseApplyLease(em(), 500, 2); // not the holder: changes nothing
    expect(await applyLeaseHolder(em(), 500, now + 1000)).toBe(1);
    await releaseApplyLease(em(), 500, 1);
    expect(await applyLeaseHolder(em(), 500)).toBeNull();
    // The holder's own retry after a release keeps the generation: nobody wrote in between.
    expect(await takeApplyLease(em(), 500, 1)).toBe(1);
    await releaseApplyLease(em(), 500, 1);
    const taken = Date.now();
    expect(await takeApplyLease(orms[1].em.fork(), 500, 2, taken)).toBe(2);

    // A holder that stopped renewing (its worker killed) loses the lease when it expires.
    expect(await takeApplyLease(em(), 500, 3, taken + APPLY_LEASE_TTL_MS - 1)).toBeNull();
    expect(await takeApplyLease(em(), 500, 3, taken + APPLY_LEASE_TTL_MS)).toBe(3);
    expect(await takeApplyLease(orms[1].em.fork(), 500, 2, taken + APPLY_LEASE_TTL_MS + 1000)).toBeNull();
  });

  // A resumed run must not write over what another apply wrote while it was interrupted (chaos seed
  // 1 on 3b346ee: a resumed run sent the naming and delay profile another run had just written).
  it('tells a run taking the lease again whether another run held it in between', async () => {
    const em = () => orms[0].em.fork();
    const other = () => orms[1].em.fork();
    expect(await takeApplyLeaseNotingOthers(em(), 600, 1)).toEqual({ generation: 1, othersHeldItSince: false });
    // Its worker killed: its retry takes the lease again, before or after it expired, with nobody in between.
    expect(await takeApplyLeaseNotingOthers(em(), 600, 1)).toEqual({ generation: 1, othersHeldItSince: false });
    await releaseApplyLease(em(), 600, 1);
    expect(await takeApplyLeaseNotingOthers(em(), 600, 1)).toEqual({ generation: 1, othersHeldItSince: false });

    // Released, taken by run 2, released again: run 1's retry learns that run 2 held it.
    await releaseApplyLease(em(), 600, 1);
    expect(await takeApplyLeaseNotingOthers(other(), 600, 2)).toEqual({ generation: 2, othersHeldItSince: true });
    expect(await takeApplyLeaseNotingOthers(em(), 600, 1)).toBeNull();
    await releaseApplyLease(other(), 600, 2);
    expect(await takeApplyLeaseNotingOthers(em(), 600, 1)).toEqual({ generation: 3, othersHeldItSince: true });
    expect(await takeApplyLeaseNotingOthers(em(), 600, 1)).toEqual({ generation: 3, othersHeldItSince: false });
  });
});
