import { text, z } from '../http/zod';

/** The credential fields of a git source (PCD database, reference-guide source): write-only, sealed at rest. */
export const GIT_TOKEN_MAX = 1000;
export const GIT_TOKEN_USERNAME_MAX = 100;

export const gitToken = text({ min: 1, max: GIT_TOKEN_MAX }).openapi({
  description:
    "A private repository's access token (http:// and https:// URLs only; 1 to 1000 characters, no spaces), sent to git as HTTP basic authentication in git's environment, never in its arguments, the remote URL or a log line. Write-only: stored encrypted and never returned (tokenSet says whether one is stored).",
  writeOnly: true,
});

export const gitTokenUsername = text({ min: 1, max: GIT_TOKEN_USERNAME_MAX }).openapi({
  description: 'The user name sent with the token (1 to 100 characters, no colon or spaces); default x-access-token (GitHub; GitLab and Gitea accept any). Write-only, only with token.',
  writeOnly: true,
});

export const gitUrlDescription =
  'An https://, http://, ssh://, git@host: or file:// git URL (at most 1000 characters) without credentials: user:token@host is refused with a 400 (an SSH URL may name its login, as git@host); give a private repository\'s token in token';

export const tokenSet = z.boolean().openapi({ description: 'A token is stored for the git source (the token itself is never returned)' });
