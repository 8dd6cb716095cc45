import type { EntityManager } from '@mikro-orm/core';
import { validationError } from '../errors';
import type { SecretBox } from '../platform/crypto';
import { secretScrubber, type Logger } from '../platform/logger';
import { PcdDatabase, RefGuideSource } from '../persistence/entities';
import { isHttpGitUrl, urlUserinfo, type GitCredential } from './git';

/** The user name sent with a token when none is given (GitHub's for tokens; GitLab and Gitea accept any). */
export const DEFAULT_TOKEN_USERNAME = 'x-access-token';

/** A private repository's token as a request gives it: write-only, sealed at rest. */
export interface GitTokenInput {
  token: string;
  tokenUsername?: string;
}

/**
 * Checks a token against its source's URL and seals it with the user name (SecretBox, as
 * instance API keys); the clear token joins the log scrubber. `field` names the request object.
 */
export function sealGitToken(box: SecretBox, url: string, input: GitTokenInput, field: string): string {
  secretScrubber.add(input.token);
  if (!isHttpGitUrl(url)) throw validationError(`Invalid request: ${field}.token applies to http:// and https:// git URLs only (SSH authenticates with the worker's SSH key)`);
  if (/\s/.test(input.token)) throw validationError(`Invalid request: ${field}.token must not contain spaces or line breaks`);
  const username = input.tokenUsername ?? DEFAULT_TOKEN_USERNAME;
  if (/[\s:]/.test(username)) throw validationError(`Invalid request: ${field}.tokenUsername must not contain a colon, spaces or line breaks`);
  return sealCredential(box, { username, token: input.token });
}

/** tokenUsername only comes with the token it is sent with. */
export function assertTokenUsernameHasToken(input: { token?: string | null; tokenUsername?: string }, field: string): void {
  if (input.tokenUsername !== undefined && (input.token === undefined || input.token === null)) {
    throw validationError(`Invalid request: ${field}.tokenUsername needs ${field}.token (the two are stored sealed together)`);
  }
}

function sealCredential(box: SecretBox, credential: GitCredential): string {
  return box.encrypt(JSON.stringify(credential));
}

/** The stored credential in clear, for git only; it joins the log scrubber. */
export function openGitCredential(box: SecretBox, sealed: string | null): GitCredential | null {
  if (!sealed) return null;
  const credential = JSON.parse(box.decrypt(sealed)) as GitCredential;
  secretScrubber.add(credential.token);
  return credential;
}

/**
 * Sources stored before URLs were refused with user information: the URL loses it and an http(s)
 * source keeps it as its sealed credential. Runs at start-up, after the migrations (they cannot seal).
 */
export async function sealUrlCredentials(em: EntityManager, box: SecretBox, logger: Logger): Promise<number> {
  let moved = 0;
  const move = (url: string, current: string | null): { url: string; sealed: string | null } | null => {
    const userinfo = urlUserinfo(url);
    if (userinfo === null) return null;
    if (!isHttpGitUrl(url)) {
      // An SSH URL keeps its login (git@host), which is no secret; a password never served git.
      const login = url.startsWith('ssh://') ? userinfo.split(':')[0] : '';
      if (login === userinfo) return null;
      return { url: url.replace(`${userinfo}@`, login ? `${login}@` : ''), sealed: current };
    }
    const [user, ...password] = userinfo.split(':');
    const credential = { username: decodeUserinfo(user), token: decodeUserinfo(password.join(':')) };
    const bare = url.replace(`${userinfo}@`, '');
    secretScrubber.add(credential.token);
    secretScrubber.add(credential.username);
    return { url: bare, sealed: current ?? sealCredential(box, credential) };
  };
  const stored = [
    ...storedGitSources('pcd database', await em.find(PcdDatabase, { sourceKind: 'git' }), 'sourceLocation'),
    ...storedGitSources('ref-guide source', await em.find(RefGuideSource, { originKind: 'git' }), 'originLocation'),
  ];
  for (const source of stored) {
    const fixed = move(source.url, source.sealed);
    if (!fixed) continue;
    source.store(fixed.url, fixed.sealed);
    moved++;
    logger.warn({ id: source.id }, `${source.kind} url carried credentials: moved to its sealed token`);
  }
  await em.flush();
  return moved;
}

/** A stored git source's URL and credential, to read and replace whatever table it lives in. */
function storedGitSources<T extends { id: number; gitCredentialSealed: string | null }>(kind: string, rows: T[], urlKey: keyof T & string) {
  return rows.map((row) => ({
    kind,
    id: row.id,
    url: String(row[urlKey]),
    sealed: row.gitCredentialSealed,
    store: (url: string, sealed: string | null) => Object.assign(row, { [urlKey]: url, gitCredentialSealed: sealed }),
  }));
}

function decodeUserinfo(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
