import childProcess from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { assertGitUrl, GitError, scrubGitOutput, syncRepository } from '../../../src/services/git';
import { makeGitRepo, type TestGitRepo } from '../../helpers/git-repo';
import { allowLoopbackHttp, restoreGitProtocols, startGitHttpServer, type GitHttpServer } from '../../helpers/git-http-server';

const SAMPLE = path.resolve(__dirname, '..', '..', '..', 'examples', 'sample-pcd');
const USERINFO_REFUSAL = (field: string) =>
  `Invalid request: ${field} must not contain a user name or password (user:token@host): give a private repository's token in the token field, which is stored encrypted and never returned`;

describe('git URLs carry no credentials', () => {
  it.each([
    'https://user:ghp_secret@github.com/org/repo',
    'https://ghp_secret@github.com/org/repo',
    'http://user:pw@127.0.0.1:9/repo.git',
    'ssh://git:password@example.com/org/repo.git',
    'file://someone@localhost/tmp/repo',
  ])('%s is refused, naming the field', (url) => {
    expect(() => assertGitUrl(url, 'body.origin.url')).toThrow(USERINFO_REFUSAL('body.origin.url'));
  });

  it.each(['https://github.com/org/repo', 'ssh://git@example.com/org/repo.git', 'git@github.com:org/repo.git', 'file:///tmp/repo', 'https://example.com/a@b/repo'])('%s is accepted', (url) => {
    expect(() => assertGitUrl(url)).not.toThrow();
  });

  it("scrubs URL user information and the credential (clear and encoded) from git's output", () => {
    const credential = { username: 'x-access-token', token: 'tok-123456789' };
    const encoded = Buffer.from('x-access-token:tok-123456789').toString('base64');
    const text = `fatal: unable to access 'https://me:pw@host/repo/': The requested URL returned error: 401\nAuthorization: Basic ${encoded}\ntoken tok-123456789`;
    expect(scrubGitOutput(text, credential)).toBe(
      "fatal: unable to access 'https://[REDACTED]@host/repo/': The requested URL returned error: 401\nAuthorization: Basic [REDACTED]\ntoken [REDACTED]",
    );
  });
});

describe('a token-authenticated clone from a loopback http server', () => {
  const TOKEN = 'arrgo-unit-token-7f3a9c';
  let repo: TestGitRepo;
  let server: GitHttpServer;
  let work: string;
  let spawned: { args: string[]; env: Record<string, string | undefined> }[];
  let spy: jest.SpyInstance;

  beforeAll(async () => {
    allowLoopbackHttp();
    repo = makeGitRepo(SAMPLE, { name: 'private-pcd' });
    server = await startGitHttpServer(repo.dir, TOKEN);
  });
  afterAll(async () => {
    await server?.close();
    repo?.remove();
    restoreGitProtocols();
  });
  beforeEach(() => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'arrgo-git-unit-'));
    spawned = [];
    const original = childProcess.execFile;
    spy = jest.spyOn(childProcess, 'execFile').mockImplementation(((file: string, args: string[], options: { env: Record<string, string | undefined> }, callback: unknown) => {
      spawned.push({ args: [file, ...args], env: options.env });
      return (original as (...a: unknown[]) => unknown)(file, args, options, callback);
    }) as never);
  });
  afterEach(() => {
    spy.mockRestore();
    fs.rmSync(work, { recursive: true, force: true });
  });

  const encoded = (token: string) => Buffer.from(`x-access-token:${token}`).toString('base64');
  const expectNoToken = (text: string, token = TOKEN) => {
    expect(text).not.toContain(token);
    expect(text).not.toContain(encoded(token));
  };

  it('clones and fetches with the right token, which never appears in argv, the remote URL or .git/config', async () => {
    const dir = path.join(work, 'clone');
    const credential = { username: 'x-access-token', token: TOKEN };
    expect(await syncRepository(server.url, 'main', dir, credential)).toBe(repo.head());
    expect(fs.existsSync(path.join(dir, 'pcd.json'))).toBe(true);
    const next = repo.commit({ 'ops/9.later.sql': "INSERT INTO tags (name) VALUES ('later');\n" });
    expect(await syncRepository(server.url, 'main', dir, credential)).toBe(next);
    expect(server.authorizations).toContain(`Basic ${encoded(TOKEN)}`);
    expect(spawned.length).toBeGreaterThan(3);
    for (const run of spawned) expectNoToken(run.args.join(' '));
    // The header reaches git through its environment, scoped to the remote, and only for the commands that talk to it.
    const remoteRuns = spawned.filter((run) => run.args[1] === 'clone' || run.args[1] === 'fetch');
    expect(remoteRuns.map((run) => [run.env.GIT_CONFIG_COUNT, run.env.GIT_CONFIG_KEY_0, run.env.GIT_CONFIG_VALUE_0])).toEqual([
      ['1', `http.${server.url}.extraHeader`, `Authorization: Basic ${encoded(TOKEN)}`],
      ['1', `http.${server.url}.extraHeader`, `Authorization: Basic ${encoded(TOKEN)}`],
    ]);
    for (const run of spawned.filter((r) => !remoteRuns.includes(r))) expect(run.env.GIT_CONFIG_COUNT).toBe('0');
    expectNoToken(fs.readFileSync(path.join(dir, '.git', 'config'), 'utf8'));
  });

  it.each([
    ['a wrong token', { username: 'x-access-token', token: 'wrong-token-123456' }],
    ['no token', null],
  ])('%s fails with auth_failed, and git output scrubbed of the token', async (_label, credential) => {
    const failure = await syncRepository(server.url, 'main', path.join(work, 'clone'), credential).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(GitError);
    expect((failure as GitError).reason).toBe('auth_failed');
    expect((failure as GitError).message).toBe('git auth_failed');
    expect((failure as GitError).detail).toMatch(/Authentication failed|could not read Username/);
    expectNoToken(String((failure as GitError).detail), credential?.token ?? TOKEN);
    for (const run of spawned) expectNoToken(run.args.join(' '), credential?.token ?? TOKEN);
    expect(fs.existsSync(path.join(work, 'clone'))).toBe(false);
  });
});
