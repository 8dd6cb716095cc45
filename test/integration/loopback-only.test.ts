import { execFile } from 'node:child_process';
import path from 'node:path';
import { eventually, startArrgo, type Harness } from '../helpers/harness';
import { makeGitRepo, type TestGitRepo } from '../helpers/git-repo';

const SAMPLE = path.resolve(__dirname, '..', '..', 'examples', 'sample-pcd');

function gitFails(args: string[]): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile('git', args, { env: process.env, timeout: 10_000 }, (error, _stdout, stderr) => (error ? resolve(String(stderr)) : reject(new Error('git succeeded')))),
  );
}

/**
 * No test sends traffic beyond loopback: the test processes run git with GIT_ALLOW_PROTOCOL=file,
 * so even a PCD whose manifest names a schema dependency on github.com, linked with fetching
 * switched on, cannot make git leave the machine.
 */
describe('tests stay on loopback', () => {
  let h: Harness;
  let repo: TestGitRepo;
  beforeAll(async () => {
    h = await startArrgo({ env: { PCD_SCHEMA_FETCH: 'auto' } });
    repo = makeGitRepo(SAMPLE);
  });
  afterAll(async () => {
    await h?.close();
    repo?.remove();
  });

  it('runs git with network transports refused', async () => {
    expect(process.env.GIT_ALLOW_PROTOCOL).toBe('file');
    expect(process.env.PCD_SCHEMA_FETCH).toBe('off');
    expect(await gitFails(['ls-remote', 'https://github.com/Dictionarry-Hub/schema'])).toMatch(/transport 'https' not allowed/);
  });

  it('refuses the schema dependency fetch without touching the network, and the bundled schema stands in', async () => {
    const linked = await h.post('/databases', { name: 'sample', source: { kind: 'git', url: repo.url, branch: 'main' } });
    expect(linked.status).toBe(201);
    const ready = await eventually(() => h.get(`/databases/${linked.body.id}`), (r) => ['ready', 'failed'].includes(r.body.cache.status), 60_000);
    expect(ready.body.cache.status).toBe('ready');
    expect(ready.body.schema).toEqual({
      source: 'bundled',
      note: expect.stringContaining('could not be fetched; the bundled PCD schema'),
    });
  });
});
