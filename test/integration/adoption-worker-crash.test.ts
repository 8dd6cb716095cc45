import { Adoption, PcdOp, PcdSnapshot } from '../../src/persistence/entities';
import { linkDatabase } from '../helpers/fleet';
import { eventually, startArrgo, type Harness } from '../helpers/harness';
import { describeWithShared, sharedPath } from '../helpers/shared-data';
import { startWorkerProcess, type WorkerProcess } from '../helpers/worker-process';
import { handTunedRadarrInstance } from '../helpers/adopt-fixtures';
import type { Emulator } from '../../src/emulators';
import type { Knex } from '@mikro-orm/knex';

/**
 * The worker process is killed (SIGKILL) in the middle of an adoption's apply, once the snapshot
 * before it is recorded: another worker takes the activity over after its heartbeat timeout, and
 * the adoption ends applied with every op stored once and one snapshot. trash-pcd makes the apply
 * long enough (its replay) for the kill to land inside it.
 */
describeWithShared(['data', 'pcd', 'trash-pcd'], 'an adoption apply survives the death of its worker', () => {
  let h: Harness;
  let instance: { id: number; emulator: Emulator };
  let databaseId: number;
  const workers: WorkerProcess[] = [];

  beforeAll(async () => {
    h = await startArrgo({ role: 'api', env: { SYNC_HEARTBEAT_TIMEOUT_SECONDS: '3' } });
    workers.push(await startWorkerProcess(h, { SYNC_HEARTBEAT_TIMEOUT_SECONDS: '3' }));
    databaseId = await linkDatabase(h, 'trash', sharedPath('data', 'pcd', 'trash-pcd'));
    instance = await handTunedRadarrInstance(h, 'Hand-tuned Radarr');
  });
  /** A transaction of the test's own holding a SHARE lock on a table until released. */
  async function holdTable(table: string): Promise<{ release(): Promise<void> }> {
    const knex = (h.service.orm.em.getConnection() as unknown as { getKnex(): Knex }).getKnex();
    const trx = await knex.transaction();
    await trx.raw(`lock table ${table} in share mode`);
    return { release: () => trx.rollback().then(() => undefined) };
  }

  afterAll(async () => {
    for (const worker of workers) await worker.kill();
    await h?.close();
    await instance?.emulator.close();
  });

  it('resumes and imports nothing twice', async () => {
    const preview = await h.post(`/instances/${instance.id}/adopt?wait=true&waitSeconds=120`, { databaseId });
    expect(preview.body.status).toBe('ready');
    const planned = preview.body.creates.length + preview.body.overrides.length;
    expect(planned).toBeGreaterThan(30);
    const snapshotsBefore = await h.service.orm.em.fork().count(PcdSnapshot, { databaseId });

    // On PostgreSQL the test holds the user layer's table (SHARE: reads go on, inserts wait), so the
    // apply stops between its snapshot and its ops however fast the machine is; on SQLite the kill
    // relies on trash-pcd's replay taking longer than one poll.
    const hold = h.db === 'postgresql' ? await holdTable('pcd_ops') : null;
    const applying = await h.post(`/adoptions/${preview.body.id}/apply`);
    expect([applying.status, applying.body.status]).toEqual([202, 'applying']);
    // The snapshot before the ops is recorded: the ops are being stored and replayed now.
    await eventually(
      () => h.service.orm.em.fork().findOneOrFail(Adoption, { id: preview.body.id }),
      (a) => a.snapshotId !== null,
      60_000,
      20,
    );
    await workers[0].kill();
    await hold?.release();
    // The kill landed inside the apply: nothing was recorded as applied yet.
    const atKill = await h.service.orm.em.fork().findOneOrFail(Adoption, { id: preview.body.id });
    expect([atKill.status, atKill.appliedOpIds]).toEqual(['applying', null]);

    workers.push(await startWorkerProcess(h, { SYNC_HEARTBEAT_TIMEOUT_SECONDS: '3' }));
    const done = await eventually(() => h.get(`/adoptions/${preview.body.id}`), (r) => ['applied', 'failed'].includes(r.body.status), 180_000);
    expect(done.body).toMatchObject({ status: 'applied', failure: null });

    // Every planned op stored exactly once, all of them the adoption's, after exactly one snapshot.
    const ops = await h.service.orm.em.fork().find(PcdOp, { databaseId, layer: 'user', supersededBy: null }, { orderBy: { seq: 'asc' } });
    const mine = ops.filter((op) => op.label?.startsWith(`adoption #${preview.body.id}:`));
    expect(mine).toHaveLength(planned);
    expect(ops).toHaveLength(planned);
    expect(done.body.appliedOpIds).toEqual(mine.map((op) => op.id));
    const targets = mine.map((op) => `${op.targetType}:${op.targetName}`);
    expect(new Set(targets).size).toBe(targets.length);
    expect(await h.service.orm.em.fork().count(PcdSnapshot, { databaseId })).toBe(snapshotsBefore + 1);

    const sync = await h.post('/sync/previews?wait=true&waitSeconds=120', { instanceId: instance.id });
    expect(sync.body.counts).toMatchObject({ create: 0, update: 0, delete: 0 });
  });
});
