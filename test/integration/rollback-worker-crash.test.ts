import fs from 'node:fs';
import path from 'node:path';
import { sortOpFiles } from '../../src/domain/pcd';
import { makeGitRepo, type TestGitRepo } from '../helpers/git-repo';
import { eventually, startArrgo, type Harness } from '../helpers/harness';
import { resolvedState } from '../helpers/resolved-state';
import { describeWithShared, sharedPath } from '../helpers/shared-data';
import { startWorkerProcess, type WorkerProcess } from '../helpers/worker-process';

const TRASH = ['data', 'pcd', 'trash-pcd'];
const ENV = { SYNC_HEARTBEAT_TIMEOUT_SECONDS: '3' };

/**
 * The worker process is killed (SIGKILL) while a rollback rebuilds the cache, after the op set
 * was restored; a new worker takes the rebuild over and the workflow completes once.
 */
describeWithShared(TRASH, 'a rollback survives the death of its worker', () => {
  let h: Harness;
  let repo: TestGitRepo;
  const workers: WorkerProcess[] = [];

  beforeAll(async () => {
    h = await startArrgo({ role: 'api', env: ENV });
    workers.push(await startWorkerProcess(h, ENV));
  }, 60_000);
  afterAll(async () => {
    for (const worker of workers) await worker.kill();
    await h?.close();
    repo?.remove();
  });

  it('completes once, and the database is fully rolled back', async () => {
    const source = sharedPath(...TRASH);
    const opFiles = sortOpFiles(fs.readdirSync(path.join(source, 'ops')));
    const heldBack = opFiles[opFiles.length - 1];
    repo = makeGitRepo(source, { only: (rel) => rel !== path.join('ops', heldBack) });
    const linked = await h.post('/databases', { name: 'trash', source: { kind: 'git', url: repo.url, branch: 'main' } });
    const dbId = linked.body.id;
    await eventually(() => h.get(`/databases/${dbId}`), (r) => r.body.cache.status === 'ready', 120_000);
    const first = await h.post(`/databases/${dbId}/snapshots`, { note: 'known good' });
    expect(first.status).toBe(201);
    const before = await resolvedState(h, dbId);

    repo.commit({ [path.join('ops', heldBack)]: fs.readFileSync(path.join(source, 'ops', heldBack), 'utf8') }, 'new ops');
    expect((await h.post(`/databases/${dbId}/pull?wait=true`)).body.status).toBe('ready');
    const profiles = await eventually(() => h.get(`/pcd/${dbId}/resolved/qualityProfile`), (r) => r.status === 200, 120_000);
    const profile = profiles.body.entities[0].name;
    const edit = await h.patch(`/pcd/${dbId}/entities/quality_profile/${encodeURIComponent(profile)}`, { changes: [{ path: 'description', value: 'Edited before the crash test' }] });
    expect(edit.body.changed).toBe(true);
    const editOp = (await h.get(`/pcd/${dbId}/user-ops`)).body[0].id;
    expect(await resolvedState(h, dbId)).not.toEqual(before);

    const started = await h.post(`/databases/${dbId}/snapshots/${first.body.id}/rollback`);
    expect(started.status).toBe(202);
    const rollbackId = started.body.id;
    // The op set is restored (one transaction) and the worker is rebuilding the cache: kill it.
    await eventually(() => h.get(`/databases/${dbId}/rollbacks/${rollbackId}`), (r) => r.body.step === 'rebuild', 120_000, 20);
    await workers[0].kill();
    workers.push(await startWorkerProcess(h, ENV));

    const done = await eventually(() => h.get(`/databases/${dbId}/rollbacks/${rollbackId}`), (r) => r.body.status !== 'running', 180_000);
    expect(done.body).toMatchObject({ status: 'success', step: 'done', error: null, opsUndone: [editOp], opsReactivated: [] });
    expect(await resolvedState(h, dbId)).toEqual(before);
    expect((await h.get(`/databases/${dbId}`)).body).toMatchObject({ commit: first.body.baseCommit, pinnedSnapshotId: first.body.id });
    expect((await h.get(`/databases/${dbId}/rollbacks`)).body.totalRecords).toBe(1);

    const runs = await eventually(async () => {
      const found: { id: string; status: string }[] = [];
      for await (const wf of h.service.temporal.client.workflow.list({ query: `ArrgoKind = 'pcd-rollback' AND TaskQueue = '${h.taskQueue}'` })) found.push({ id: wf.workflowId, status: wf.status.name });
      return found;
    }, (found) => found.length === 1 && found[0].status === 'COMPLETED');
    expect(runs).toEqual([{ id: started.body.workflowId, status: 'COMPLETED' }]);
    // Exactly one pre-rollback snapshot although the worker died after taking it.
    const subtypes = (await h.get(`/databases/${dbId}/snapshots`)).body.items.map((s: { subtype: string }) => s.subtype);
    expect(subtypes.filter((s: string) => s === 'rollback')).toHaveLength(1);
  }, 400_000);
});
