import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../errors';

/**
 * The system git, run without prompts and with timeouts. Failures surface as a reason code only:
 * git's own output can contain URLs with credentials and host names, so it stays in this module.
 */
export class GitError extends Error {
  constructor(readonly reason: 'git_unavailable' | 'fetch_failed' | 'branch_not_found' | 'not_a_repository') {
    super(`git ${reason}`);
    this.name = 'GitError';
  }
}

const TIMEOUT_MS = 120_000;

function git(args: string[], cwd?: string, timeoutMs = TIMEOUT_MS): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      args,
      {
        cwd,
        timeout: timeoutMs,
        maxBuffer: 64 * 1024 * 1024,
        env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: 'echo', GIT_CONFIG_NOSYSTEM: '1', LC_ALL: 'C' },
      },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout.trim());
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') return reject(new GitError('git_unavailable'));
        const text = String(stderr);
        if (/Remote branch .* not found|couldn't find remote ref|did not match any/i.test(text)) return reject(new GitError('branch_not_found'));
        if (/not a git repository/i.test(text)) return reject(new GitError('not_a_repository'));
        reject(new GitError('fetch_failed'));
      },
    );
  });
}

/** Clones (first time) or fetches and hard-resets `dir` to the branch's head; returns the commit. */
export async function syncRepository(url: string, branch: string, dir: string): Promise<string> {
  if (fs.existsSync(path.join(dir, '.git'))) {
    await git(['remote', 'set-url', 'origin', url], dir);
    await git(['fetch', '--depth', '1', '--prune', 'origin', `+refs/heads/${branch}:refs/remotes/origin/${branch}`], dir);
    await git(['checkout', '--force', '-B', branch, `origin/${branch}`], dir);
    await git(['reset', '--hard', `origin/${branch}`], dir);
    await git(['clean', '-fdx'], dir);
  } else {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    const partial = `${dir}.partial`;
    fs.rmSync(partial, { recursive: true, force: true });
    await git(['clone', '--depth', '1', '--single-branch', '--branch', branch, '--', url, partial]);
    fs.renameSync(partial, dir);
  }
  return git(['rev-parse', 'HEAD'], dir);
}

/** The commit of a local directory when it is a git work tree, else null. */
export async function headCommit(dir: string): Promise<string | null> {
  try {
    return await git(['rev-parse', 'HEAD'], dir, 10_000);
  } catch {
    return null;
  }
}

/** Validates what a user may give as a git source before anything runs. */
export function assertGitUrl(url: string, field = 'body.source.url'): void {
  if (!/^(https?:\/\/|ssh:\/\/|git@[^:]+:|file:\/\/)/.test(url) || /\s/.test(url)) {
    throw new AppError('validation', `Invalid request: ${field} must be an https://, ssh://, git@host: or file:// git URL`);
  }
}

export function assertBranchName(branch: string, field = 'body.source.branch'): void {
  if (!/^[A-Za-z0-9._/-]{1,200}$/.test(branch) || branch.includes('..') || branch.startsWith('-')) {
    throw new AppError('validation', `Invalid request: ${field} is not a valid branch name`);
  }
}
