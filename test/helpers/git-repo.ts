import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'arrgo test',
  GIT_AUTHOR_EMAIL: 'test@arrgo.invalid',
  GIT_COMMITTER_NAME: 'arrgo test',
  GIT_COMMITTER_EMAIL: 'test@arrgo.invalid',
  GIT_CONFIG_NOSYSTEM: '1',
};

export interface TestGitRepo {
  dir: string;
  url: string;
  /** Writes files (relative path -> content; null removes the file) and commits them; returns the new commit. */
  commit(files: Record<string, string | null>, message?: string): string;
  /** Tags the head commit. */
  tag(name: string): void;
  /** Runs git in the repository. */
  git(...args: string[]): string;
  head(): string;
  remove(): void;
}

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: dir, env: GIT_ENV, encoding: 'utf8' }).trim();
}

/**
 * A git repository (branch main) made from a copy of a directory, reachable by file:// URL.
 * `name` sets the repository directory's name (inside a fresh temporary directory).
 */
export function makeGitRepo(fromDir: string, options: { only?: (relative: string) => boolean; name?: string } = {}): TestGitRepo {
  const dir = options.name ? path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'arrgo-repo-')), options.name) : fs.mkdtempSync(path.join(os.tmpdir(), 'arrgo-repo-'));
  fs.cpSync(fromDir, dir, { recursive: true, filter: (src) => !options.only || src === fromDir || options.only(path.relative(fromDir, src)) });
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'initial');
  return {
    dir,
    url: `file://${dir}`,
    commit(files, message = 'change') {
      for (const [relative, content] of Object.entries(files)) {
        if (content === null) {
          fs.rmSync(path.join(dir, relative), { force: true });
          continue;
        }
        fs.mkdirSync(path.dirname(path.join(dir, relative)), { recursive: true });
        fs.writeFileSync(path.join(dir, relative), content);
      }
      git(dir, 'add', '-A');
      git(dir, 'commit', '-q', '-m', message);
      return git(dir, 'rev-parse', 'HEAD');
    },
    tag: (name) => void git(dir, 'tag', name),
    git: (...args) => git(dir, ...args),
    head: () => git(dir, 'rev-parse', 'HEAD'),
    remove: () => fs.rmSync(options.name ? path.dirname(dir) : dir, { recursive: true, force: true }),
  };
}
