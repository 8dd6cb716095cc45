import childProcess from 'node:child_process';
import path from 'node:path';
import type { Knex } from '@mikro-orm/knex';
import { makeGitRepo, type TestGitRepo } from '../helpers/git-repo';
import { allowLoopbackHttp, restoreGitProtocols, startGitHttpServer, type GitHttpServer } from '../helpers/git-http-server';
import { dbKinds } from '../helpers/databases';
import { eventually, startArrgo, type Harness, type HttpResult } from '../helpers/harness';

const SAMPLE = path.resolve(__dirname, '..', '..', 'examples', 'sample-pcd');
const TOKEN = 'arrgo-private-token-5c1e8d0b';
const WRONG = 'arrgo-wrong-token-93ab41f7';
const basic = (token: string) => Buffer.from(`x-access-token:${token}`).toString('base64');
const SECRETS = [TOKEN, WRONG, basic(TOKEN), basic(WRONG), 'ghp_inUrl0123456789'];
const AUTH_FAILED_PCD = 'The git server refused access: a private repository needs a token that may read it; set one (PATCH with body.token) and pull again.';
const AUTH_FAILED_GUIDE = 'The git server refused access: a private repository needs a token that may read it; set one (PATCH with body.token) and sync again.';
const USERINFO_REFUSAL = (field: string) =>
  `Invalid request: ${field} must not contain a user name or password (user:token@host): give a private repository's token in the token field, which is stored encrypted and never returned`;

/**
 * A private repository on a loopback git http server (git http-backend behind a handler that
 * wants the token): URLs with credentials are refused, the token is a write-only field sealed at
 * rest, a pull and a guide sync with the right token work, a wrong or missing one fails with
 * pre-authored text; the token reaches no response, log line, error or git's argv (spied, and
 * the process list sampled while git runs).
 */
describe.each(dbKinds())('git sources with a private repository token on %s', (db) => {
  let h: Harness;
  let repo: TestGitRepo;
  let server: GitHttpServer;
  const responses: string[] = [];
  const argv: string[] = [];
  const processList: string[] = [];
  let spy: jest.SpyInstance;
  let sampler: NodeJS.Timeout;

  const call = async (method: string, apiPath: string, body?: unknown): Promise<HttpResult> => {
    const result = await h.request(method, apiPath, body);
    responses.push(result.text);
    return result;
  };

  beforeAll(async () => {
    allowLoopbackHttp();
    const originalExecFile = childProcess.execFile;
    spy = jest.spyOn(childProcess, 'execFile').mockImplementation(((file: string, args: string[], ...rest: unknown[]) => {
      if (file === 'git') argv.push([file, ...args].join(' '));
      return (originalExecFile as (...a: unknown[]) => unknown)(file, args, ...rest);
    }) as never);
    const sample = () =>
      void originalExecFile('ps', ['-eo', 'args'], { timeout: 2000 }, (error, stdout) => {
        if (!error) processList.push(...String(stdout).split('\n').filter((line) => line.includes('git')));
      });
    sampler = setInterval(sample, 25);
    h = await startArrgo({ db });
    repo = makeGitRepo(SAMPLE, { name: 'private-pcd' });
    server = await startGitHttpServer(repo.dir, TOKEN);
  });
  afterAll(async () => {
    clearInterval(sampler);
    spy?.mockRestore();
    await h?.close();
    await server?.close();
    repo?.remove();
    restoreGitProtocols();
  });

  it('refuses credentials in URLs and tokens where they cannot apply, naming the field', async () => {
    const refusals: [string, string, unknown, string][] = [
      ['POST', '/databases', { name: 'p', source: { kind: 'git', url: `http://reader:ghp_inUrl0123456789@127.0.0.1:9/repo.git` } }, USERINFO_REFUSAL('body.source.url')],
      ['POST', '/databases', { name: 'p', source: { kind: 'git', url: 'https://ghp_inUrl0123456789@github.com/org/repo' } }, USERINFO_REFUSAL('body.source.url')],
      ['POST', '/ref-guide/sources', { name: 'g', origin: { kind: 'git', url: 'https://reader:ghp_inUrl0123456789@github.com/org/guides' }, arrType: 'movie_app' }, USERINFO_REFUSAL('body.origin.url')],
      ['POST', '/databases', { name: 'p', source: { kind: 'git', url: 'ssh://git@example.invalid/org/repo.git', token: TOKEN } }, "Invalid request: body.source.token applies to http:// and https:// git URLs only (SSH authenticates with the worker's SSH key)"],
      ['POST', '/databases', { name: 'p', source: { kind: 'git', url: server.url, tokenUsername: 'me' } }, 'Invalid request: body.source.tokenUsername needs body.source.token (the two are stored sealed together)'],
      ['POST', '/databases', { name: 'p', source: { kind: 'git', url: server.url, token: 'two words' } }, 'Invalid request: body.source.token must not contain spaces or line breaks'],
      ['POST', '/ref-guide/sources', { name: 'g', origin: { kind: 'git', url: server.url, token: TOKEN, tokenUsername: 'a:b' }, arrType: 'movie_app' }, 'Invalid request: body.origin.tokenUsername must not contain a colon, spaces or line breaks'],
    ];
    for (const [method, apiPath, body, error] of refusals) {
      const res = await call(method, apiPath, body);
      expect([res.status, res.body]).toEqual([400, { error }]);
    }
    const tooLong = await call('POST', '/databases', { name: 'p', source: { kind: 'git', url: server.url, token: 'x'.repeat(1001) } });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error).toMatch(/^Invalid request: body\.source\.token/);
    expect((await call('GET', '/databases')).body).toEqual([]);
    expect((await call('GET', '/ref-guide/sources')).body).toEqual([]);
  });

  it('PCD database: no token or a wrong one fails with pre-authored text; the right one pulls; the token is never returned', async () => {
    const linked = await call('POST', '/databases', { name: 'private', source: { kind: 'git', url: server.url } });
    expect(linked.status).toBe(201);
    expect(linked.body.source).toEqual({ kind: 'git', url: server.url, path: null, branch: 'main', tokenSet: false });
    const id = linked.body.id;
    const refused = await eventually(() => call('GET', `/databases/${id}`), (r) => ['ready', 'failed'].includes(r.body.cache.status), 60_000);
    expect(refused.body.cache).toMatchObject({ status: 'failed', reason: 'auth_failed', message: AUTH_FAILED_PCD });

    const wrong = await call('PATCH', `/databases/${id}`, { token: WRONG });
    expect(wrong.body.source).toEqual({ kind: 'git', url: server.url, path: null, branch: 'main', tokenSet: true });
    // The failure was about the old token: cleared until the next pull.
    expect(wrong.body.cache).toMatchObject({ status: 'failed', reason: null, message: null });
    const wrongPull = await call('POST', `/databases/${id}/pull?wait=true`);
    expect(wrongPull.body).toMatchObject({ status: 'failed', reason: 'auth_failed', database: { cache: { status: 'failed', message: AUTH_FAILED_PCD } } });
    expect(server.authorizations).toContain(`Basic ${basic(WRONG)}`);

    expect((await call('PATCH', `/databases/${id}`, { token: TOKEN })).body.source.tokenSet).toBe(true);
    const pulled = await call('POST', `/databases/${id}/pull?wait=true`);
    expect(pulled.body).toMatchObject({ status: 'ready', database: { commit: repo.head(), cache: { status: 'ready', reason: null }, source: { tokenSet: true } } });
    expect(server.authorizations).toContain(`Basic ${basic(TOKEN)}`);
    // A fetch into the existing clone authenticates too.
    const next = repo.commit({ 'ops/9.private.sql': "INSERT INTO tags (name) VALUES ('private');\n" });
    expect((await call('POST', `/databases/${id}/pull?wait=true`)).body).toMatchObject({ status: 'ready', database: { commit: next } });

    // Sealed at rest: the column holds neither the token nor its encoding.
    const knex = (h.service.orm.em.getConnection() as unknown as { getKnex(): Knex }).getKnex();
    const [row] = await knex('pcd_databases').where({ id }).select('git_credential_sealed', 'source_location');
    expect(row.source_location).toBe(server.url);
    expect(row.git_credential_sealed).toMatch(/^v1\./);
    for (const secret of SECRETS) expect(row.git_credential_sealed).not.toContain(secret);

    const removed = await call('PATCH', `/databases/${id}`, { token: null });
    expect(removed.body.source.tokenSet).toBe(false);
    expect((await call('POST', `/databases/${id}/pull?wait=true`)).body).toMatchObject({ status: 'failed', reason: 'auth_failed' });
    expect((await call('PATCH', `/databases/${id}`, { token: TOKEN, tokenUsername: 'reader' })).body.source.tokenSet).toBe(true);
    expect((await call('POST', `/databases/${id}/pull?wait=true`)).body).toMatchObject({ status: 'ready' });
    expect(server.authorizations).toContain(`Basic ${Buffer.from(`reader:${TOKEN}`).toString('base64')}`);
  });

  it('reference-guide source: the token is set at creation, a wrong one fails the sync, the right one fetches', async () => {
    const created = await call('POST', '/ref-guide/sources', { name: 'private guide', origin: { kind: 'git', url: server.url, token: WRONG }, arrType: 'movie_app' });
    expect(created.status).toBe(201);
    expect(created.body.origin).toEqual({ kind: 'git', url: server.url, path: null, branch: 'main', tokenSet: true });
    const id = created.body.id;
    const failed = await eventually(() => call('GET', `/ref-guide/sources/${id}`), (r) => ['ready', 'failed'].includes(r.body.sync.status), 60_000);
    expect(failed.body.sync).toMatchObject({ status: 'failed', reason: 'auth_failed', message: AUTH_FAILED_GUIDE });

    expect((await call('PATCH', `/ref-guide/sources/${id}`, { token: TOKEN })).body).toMatchObject({ origin: { tokenSet: true }, sync: { reason: null } });
    // The repository is a PCD, not a guide: the fetch works and the guide files are missing.
    expect((await call('POST', `/ref-guide/sources/${id}/sync?wait=true`)).body).toMatchObject({ status: 'failed', reason: 'guide_missing' });
    const local = await call('POST', '/ref-guide/sources', { name: 'local guide', origin: { kind: 'local', path: repo.dir }, arrType: 'movie_app' });
    const patched = await call('PATCH', `/ref-guide/sources/${local.body.id}`, { token: TOKEN });
    expect([patched.status, patched.body]).toEqual([400, { error: 'Invalid request: body.token applies to git origins only' }]);
  });

  it('the token appeared in no response, log line, git argument or process listed while git ran', async () => {
    expect(responses.length).toBeGreaterThan(20);
    expect(argv.some((line) => line.startsWith('git clone') && line.includes(server.url))).toBe(true);
    expect(argv.some((line) => line.startsWith('git fetch'))).toBe(true);
    // The sampling saw git at work on the server's repository (clone, fetch or git-remote-http).
    expect(processList.some((line) => line.includes(server.url))).toBe(true);
    // git's own (scrubbed) output reached the debug log, where failures are diagnosed.
    expect(h.logs.some((line) => line.includes('pcd git fetch failed') && /Authentication failed|could not read Username/.test(line))).toBe(true);
    for (const secret of SECRETS) {
      for (const text of responses) expect(text).not.toContain(secret);
      for (const line of h.logs) expect(line).not.toContain(secret);
      for (const line of argv) expect(line).not.toContain(secret);
      for (const line of processList) expect(line).not.toContain(secret);
    }
  });
});
