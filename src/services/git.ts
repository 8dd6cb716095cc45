import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../errors';

/**
 * The system git, run without prompts and with timeouts. Failures surface as a reason code only:
 * git's own output can contain URLs, host names and (from a misconfigured remote) credentials, so
 * it stays in this module; `detail` is that output scrubbed, for debug logs.
 */
export class GitError extends Error {
  constructor(
    readonly reason: 'git_unavailable' | 'fetch_failed' | 'auth_failed' | 'branch_not_found' | 'not_a_repository',
    readonly detail: string | null = null,
  ) {
    super(`git ${reason}`);
    this.name = 'GitError';
  }
}

/** HTTP basic credentials of a private repository (a token as password). */
export interface GitCredential {
  username: string;
  token: string;
}

const TIMEOUT_MS = 120_000;
const DETAIL_MAX = 500;

/**
 * The credential travels in git's environment as an `http.<url>.extraHeader` scoped to the
 * remote: never in argv (the process list), the remote URL or .git/config.
 */
function credentialEnv(url: string, credential: GitCredential | null): Record<string, string> {
  if (!credential) return { GIT_CONFIG_COUNT: '0' };
  return {
    GIT_CONFIG_COUNT: '1',
    GIT_CONFIG_KEY_0: `http.${url}.extraHeader`,
    GIT_CONFIG_VALUE_0: `Authorization: Basic ${basicAuth(credential)}`,
  };
}

function basicAuth(credential: GitCredential): string {
  return Buffer.from(`${credential.username}:${credential.token}`, 'utf8').toString('base64');
}

/** git's output without URL user information and without the credential (clear or encoded). */
export function scrubGitOutput(text: string, credential: GitCredential | null = null): string {
  let out = text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/@\s]*@/gi, '$1[REDACTED]@');
  if (credential) {
    for (const secret of [basicAuth(credential), credential.token]) out = out.split(secret).join('[REDACTED]');
  }
  return out;
}

interface GitRun {
  cwd?: string;
  timeoutMs?: number;
  /** The remote the credential is scoped to. */
  url?: string;
  credential?: GitCredential | null;
}

function git(args: string[], run: GitRun = {}): Promise<string> {
  const credential = run.credential ?? null;
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      args,
      {
        cwd: run.cwd,
        timeout: run.timeoutMs ?? TIMEOUT_MS,
        maxBuffer: 64 * 1024 * 1024,
        env: {
          ...process.env,
          GIT_TERMINAL_PROMPT: '0',
          GIT_ASKPASS: 'echo',
          GIT_CONFIG_NOSYSTEM: '1',
          LC_ALL: 'C',
          ...credentialEnv(run.url ?? '', credential),
        },
      },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout.trim());
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') return reject(new GitError('git_unavailable'));
        const text = String(stderr);
        const detail = scrubGitOutput(text.trim(), credential).slice(-DETAIL_MAX) || null;
        if (/Remote branch .* not found|couldn't find remote ref|did not match any/i.test(text)) return reject(new GitError('branch_not_found', detail));
        if (/not a git repository/i.test(text)) return reject(new GitError('not_a_repository', detail));
        if (/Authentication failed|could not read (Username|Password)|HTTP Basic: Access denied|returned error: 40[13]\b/i.test(text)) return reject(new GitError('auth_failed', detail));
        reject(new GitError('fetch_failed', detail));
      },
    );
  });
}

/** Clones (first time) or fetches and hard-resets `dir` to the branch's head; returns the commit. */
export async function syncRepository(url: string, branch: string, dir: string, credential: GitCredential | null = null): Promise<string> {
  const remote = { url, credential };
  if (fs.existsSync(path.join(dir, '.git'))) {
    await git(['remote', 'set-url', 'origin', url], { cwd: dir });
    await git(['fetch', '--depth', '1', '--prune', 'origin', `+refs/heads/${branch}:refs/remotes/origin/${branch}`], { cwd: dir, ...remote });
    await git(['checkout', '--force', '-B', branch, `origin/${branch}`], { cwd: dir });
    await git(['reset', '--hard', `origin/${branch}`], { cwd: dir });
    await git(['clean', '-fdx'], { cwd: dir });
  } else {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    const partial = `${dir}.partial`;
    fs.rmSync(partial, { recursive: true, force: true });
    await git(['clone', '--depth', '1', '--single-branch', '--branch', branch, '--', url, partial], remote);
    fs.renameSync(partial, dir);
  }
  return git(['rev-parse', 'HEAD'], { cwd: dir });
}

/** The commit of a local directory when it is a git work tree, else null. */
export async function headCommit(dir: string): Promise<string | null> {
  try {
    return await git(['rev-parse', 'HEAD'], { cwd: dir, timeoutMs: 10_000 });
  } catch {
    return null;
  }
}

/**
 * Validates what a user may give as a git source before anything runs. A URL never carries
 * credentials (a private repository's token is a field of its own, sealed at rest); an SSH URL
 * may name its login (git@host), which is no secret.
 */
export function assertGitUrl(url: string, field = 'body.source.url'): void {
  if (!/^(https?:\/\/|ssh:\/\/|git@[^:]+:|file:\/\/)/.test(url) || /\s/.test(url)) {
    throw new AppError('validation', `Invalid request: ${field} must be an https://, ssh://, git@host: or file:// git URL`);
  }
  const userinfo = urlUserinfo(url);
  if (userinfo !== null && !(url.startsWith('ssh://') && !userinfo.includes(':'))) {
    throw new AppError(
      'validation',
      `Invalid request: ${field} must not contain a user name or password (user:token@host): give a private repository's token in the token field, which is stored encrypted and never returned`,
    );
  }
}

/** True for the URLs a token can be sent to (HTTP basic authentication). */
export function isHttpGitUrl(url: string): boolean {
  return /^https?:\/\//i.test(url);
}

/** The user information of a scheme://user[:password]@host URL, or null. */
export function urlUserinfo(url: string): string | null {
  const match = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)@/i.exec(url);
  return match ? match[1] : null;
}

export function assertBranchName(branch: string, field = 'body.source.branch'): void {
  if (!/^[A-Za-z0-9._/-]{1,200}$/.test(branch) || branch.includes('..') || branch.startsWith('-')) {
    throw new AppError('validation', `Invalid request: ${field} is not a valid branch name`);
  }
}
