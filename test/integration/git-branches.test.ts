import path from 'node:path';
import { makeGitRepo, type TestGitRepo } from '../helpers/git-repo';
import { eventually, startArrgo, type Harness } from '../helpers/harness';

const SAMPLE = path.resolve(__dirname, '..', '..', 'examples', 'sample-pcd');

/**
 * A git source whose branch does not exist says which branch was tried, for PCD databases and
 * reference-guide sources alike, on the first clone and on a fetch into an existing clone; the
 * text is pre-authored (git's own output never reaches a response).
 */
describe('a git source on a missing branch', () => {
  let h: Harness;
  let repo: TestGitRepo;

  beforeAll(async () => {
    h = await startArrgo();
    repo = makeGitRepo(SAMPLE, { name: 'pcd-repo' });
  });
  afterAll(async () => {
    await h?.close();
    repo?.remove();
  });

  const missingBranchText = (branch: string, retry: 'pull' | 'sync') =>
    `The branch "${branch}" does not exist in the repository; set an existing branch (PATCH with body.branch) and ${retry} again.`;
  const noGitOutput = (text: string) => expect(text).not.toMatch(/fatal|warning|upstream|refs\/|pcd-repo|file:/);

  it('PCD database: the link and a pull name the branch; a changed branch clears the failure and pulls', async () => {
    const linked = await h.post('/databases', { name: 'missing-branch', source: { kind: 'git', url: repo.url, branch: 'release/9.x' } });
    expect(linked.status).toBe(201);
    const id = linked.body.id;
    const failed = await eventually(() => h.get(`/databases/${id}`), (r) => ['ready', 'failed'].includes(r.body.cache.status));
    expect(failed.body.cache).toMatchObject({ status: 'failed', reason: 'branch_not_found', message: missingBranchText('release/9.x', 'pull') });
    noGitOutput(JSON.stringify(failed.body.cache));

    const pulled = await h.post(`/databases/${id}/pull?wait=true`);
    expect(pulled.body).toMatchObject({ status: 'failed', reason: 'branch_not_found', database: { cache: { message: missingBranchText('release/9.x', 'pull') } } });

    // The failure named the old branch: changing it clears the reason until the next pull.
    const patched = await h.patch(`/databases/${id}`, { branch: 'main' });
    expect(patched.body.cache).toMatchObject({ status: 'failed', reason: null, message: null });
    expect((await h.post(`/databases/${id}/pull?wait=true`)).body).toMatchObject({ status: 'ready', database: { cache: { status: 'ready', reason: null } } });

    // An existing clone fetching a branch that does not exist.
    await h.patch(`/databases/${id}`, { branch: 'gone' });
    const fetched = await h.post(`/databases/${id}/pull?wait=true`);
    expect(fetched.body).toMatchObject({ status: 'failed', reason: 'branch_not_found', database: { source: { branch: 'gone' }, cache: { message: missingBranchText('gone', 'pull') } } });
    noGitOutput(JSON.stringify(fetched.body.database.cache));
    await h.patch(`/databases/${id}`, { branch: 'main' });
    expect((await h.post(`/databases/${id}/pull?wait=true`)).body.status).toBe('ready');
  });

  it('reference-guide source: the first sync and a later one name the branch', async () => {
    const created = await h.post('/ref-guide/sources', { name: 'missing-branch guide', origin: { kind: 'git', url: repo.url, branch: 'nightly' }, arrType: 'movie_app' });
    expect(created.status).toBe(201);
    const id = created.body.id;
    const failed = await eventually(() => h.get(`/ref-guide/sources/${id}`), (r) => ['ready', 'failed'].includes(r.body.sync.status));
    expect(failed.body.sync).toMatchObject({ status: 'failed', reason: 'branch_not_found', message: missingBranchText('nightly', 'sync') });
    noGitOutput(JSON.stringify(failed.body.sync));

    const synced = await h.post(`/ref-guide/sources/${id}/sync?wait=true`);
    expect(synced.body).toMatchObject({ status: 'failed', reason: 'branch_not_found', source: { sync: { message: missingBranchText('nightly', 'sync') } } });

    const patched = await h.patch(`/ref-guide/sources/${id}`, { branch: 'main' });
    expect(patched.body.sync).toMatchObject({ status: 'failed', reason: null, message: null });
    // main exists (and has no guide JSON): the clone is made, then a fetch of a missing branch into it.
    expect((await h.post(`/ref-guide/sources/${id}/sync?wait=true`)).body).toMatchObject({ status: 'failed', reason: 'guide_missing' });
    // Another failure does not depend on the branch: it stays across a change.
    expect((await h.patch(`/ref-guide/sources/${id}`, { branch: 'gone' })).body.sync).toMatchObject({ status: 'failed', reason: 'guide_missing' });
    const fetched = await h.post(`/ref-guide/sources/${id}/sync?wait=true`);
    expect(fetched.body).toMatchObject({ status: 'failed', reason: 'branch_not_found', source: { origin: { branch: 'gone' }, sync: { message: missingBranchText('gone', 'sync') } } });
    noGitOutput(JSON.stringify(fetched.body.source.sync));
  });
});
