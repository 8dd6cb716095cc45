import type { Request } from 'express';
import { PASSWORD_MAX, PASSWORD_MIN, USERNAME_MAX, WRONG_CREDENTIALS } from '../../domain/auth/credentials';
import { FAILURES_BEFORE_LOCK, FAILURE_WINDOW_MS, LOCK_FIRST_MS, LOCK_MAX_MS } from '../../domain/auth/login-throttle';
import type { ApiDeps } from '../deps';
import { CSRF_HEADER, SESSION_COOKIE, clearSessionCookie, readSessionCookie, setSessionCookie } from '../http/auth';
import type { ApiRouter } from '../http/route';
import { ErrorBody, text, z } from '../http/zod';

const tags = ['Auth'];
// Answers carrying a credential or a session's token are never cached.
const NO_STORE = { 'Cache-Control': 'no-store' };

const Username = text({ min: 1, max: USERNAME_MAX }).openapi({ description: `1 to ${USERNAME_MAX} characters, no control characters (surrounding spaces are dropped)`, example: 'admin' });

const SetupBody = z
  .object({
    username: Username,
    password: text({ min: PASSWORD_MIN, max: PASSWORD_MAX, trim: false }).openapi({ description: `${PASSWORD_MIN} to ${PASSWORD_MAX} characters, no control characters; stored as an scrypt hash` }),
  })
  .strict()
  .openapi('AuthSetup');

const LoginBody = z
  .object({
    username: Username,
    password: text({ min: 1, max: PASSWORD_MAX, trim: false }).openapi({ description: `At most ${PASSWORD_MAX} characters` }),
  })
  .strict()
  .openapi('AuthLogin');

const AuthStatus = z
  .object({
    setupRequired: z.boolean().openapi({ description: 'No user exists yet: POST /auth/setup creates the admin' }),
    authenticated: z.boolean(),
    username: z.string().nullable().openapi({ description: 'The signed-in user (null for the API key and when not signed in)' }),
    method: z.enum(['session', 'apiKey']).nullable(),
    csrfToken: z.string().nullable().openapi({ description: `The session's token for the ${CSRF_HEADER} header of writes (null without a session)` }),
    sessionExpiresAt: z.string().datetime().nullable(),
  })
  .openapi('AuthStatus');

const SignedIn = z.object({ username: z.string(), sessionExpiresAt: z.string().datetime() }).openapi('AuthSignedIn');
const ApiKeyView = z.object({ apiKey: z.string(), source: z.enum(['env', 'file']).openapi({ description: 'env: ARRGO_API_KEY sets it (cannot be regenerated here); file: DATA_DIR/api-key' }) }).openapi('ApiKey');

const setCookie = {
  'Set-Cookie': {
    description: `${SESSION_COOKIE}=<session id>; HttpOnly; SameSite=Strict; Path=<URL_BASE>/; Expires=<sessionExpiresAt>; Secure when the request came over HTTPS. The id is in this header only, never in a body or URL.`,
    schema: { type: 'string' as const },
  },
};
const retryAfter = { 'Retry-After': { description: 'Seconds until a sign-in may be tried again', schema: { type: 'integer' as const } } };

const throttling =
  `Failed sign-ins are throttled per username and per client address: after ${FAILURES_BEFORE_LOCK} failures (each within ${FAILURE_WINDOW_MS / 60_000} minutes of the last) ` +
  `the username or address is locked for ${LOCK_FIRST_MS / 1000} s, each further failure doubles the lock (at most ${LOCK_MAX_MS / 60_000} minutes); 429 with Retry-After meanwhile. The counts are kept in the database, across every API process. ` +
  'The client address is the connection\'s, or with TRUST_PROXY the one the reverse proxy reports in X-Forwarded-For.';

/** The connection's address (IPv4-mapped IPv6 written as IPv4); with TRUST_PROXY, the one the proxy saw. */
function clientAddress(req: Request): string {
  return (req.ip ?? req.socket.remoteAddress ?? 'unknown').replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
}

export function registerAuthRoutes(router: ApiRouter, deps: ApiDeps): void {
  // Read per request: the OpenAPI document is also built from these routes without a configuration.
  const cookiePath = () => `${deps.config.urlBase}/`;

  router.add({
    method: 'get',
    path: '/auth/status',
    operationId: 'getAuthStatus',
    summary: 'Whether setup is needed and who this request is signed in as (public)',
    tags,
    public: true,
    responses: { 200: { description: 'The sign-in status of this request', schema: AuthStatus } },
    handler: async ({ req }) => {
      const auth = req.auth;
      const session = auth?.method === 'session' ? auth : null;
      return {
        headers: NO_STORE,
        body: {
          setupRequired: await deps.auth.setupRequired(),
          authenticated: auth !== undefined,
          username: session?.username ?? null,
          method: auth?.method ?? null,
          csrfToken: session?.csrfToken ?? null,
          sessionExpiresAt: session?.expiresAt.toISOString() ?? null,
        },
      };
    },
  });

  router.add({
    method: 'post',
    path: '/auth/setup',
    operationId: 'setupAdmin',
    summary: 'Create the admin user at first start and sign in (public; only while no user exists)',
    tags,
    public: true,
    body: SetupBody,
    responses: {
      201: { description: 'The admin user exists and this client is signed in', schema: z.object({ username: z.string() }).openapi('AuthSetupDone'), headers: setCookie },
      409: { description: 'Setup is already done', schema: ErrorBody },
    },
    handler: async ({ body, req, res }) => {
      const signedIn = await deps.auth.setup(body.username, body.password, readSessionCookie(req));
      setSessionCookie(req, res, cookiePath(), signedIn);
      return { status: 201, headers: NO_STORE, body: { username: signedIn.username } };
    },
  });

  router.add({
    method: 'post',
    path: '/auth/login',
    operationId: 'login',
    summary: 'Sign in with username and password: a new session in the session cookie (public)',
    description: `Every sign-in starts a new session (a session cookie sent along is replaced and invalid afterwards). The session lasts SESSION_TTL_HOURS (default 168) from sign-in. ${throttling}`,
    tags,
    public: true,
    body: LoginBody,
    responses: {
      200: { description: 'Signed in', schema: SignedIn, headers: setCookie },
      401: { description: `${WRONG_CREDENTIALS} (the same answer for an unknown username)`, schema: ErrorBody },
      429: { description: 'Too many failed sign-ins for this username or client address', schema: ErrorBody, headers: retryAfter },
    },
    handler: async ({ body, req, res }) => {
      const signedIn = await deps.auth.login(body.username, body.password, clientAddress(req), readSessionCookie(req));
      setSessionCookie(req, res, cookiePath(), signedIn);
      return { headers: NO_STORE, body: { username: signedIn.username, sessionExpiresAt: signedIn.expiresAt.toISOString() } };
    },
  });

  router.add({
    method: 'post',
    path: '/auth/logout',
    operationId: 'logout',
    summary: 'Sign out: the session is deleted and its cookie cleared',
    tags,
    responses: { 204: { description: 'Signed out (with the API key: nothing to sign out of)' } },
    handler: async ({ req, res }) => {
      if (req.auth?.method === 'session') await deps.auth.logout(req.auth.sessionId);
      clearSessionCookie(req, res, cookiePath());
    },
  });

  router.add({
    method: 'get',
    path: '/auth/api-key',
    operationId: 'getApiKey',
    summary: 'The service API key, and where it comes from',
    tags,
    responses: { 200: { description: 'The API key', schema: ApiKeyView } },
    handler: () => ({ headers: NO_STORE, body: deps.auth.apiKey() }),
  });

  router.add({
    method: 'post',
    path: '/auth/api-key/regenerate',
    operationId: 'regenerateApiKey',
    summary: 'Replace the API key: the old one is refused at once, the new one is written to DATA_DIR/api-key',
    description:
      'Takes effect for every request to this arrgo process at once. Other processes sharing DATA_DIR (a separate worker serving METRICS_PORT, more API processes) read the file at their next start. ' +
      '409 when ARRGO_API_KEY sets the key.',
    tags,
    responses: {
      200: { description: 'The new API key', schema: z.object({ apiKey: z.string() }).openapi('ApiKeyRegenerated') },
      409: { description: 'ARRGO_API_KEY sets the key: change it there', schema: ErrorBody },
    },
    handler: ({ req }) => ({ headers: NO_STORE, body: deps.auth.regenerateApiKey(req.auth?.method ?? 'apiKey') }),
  });
}
