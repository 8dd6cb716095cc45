import type { CookieOptions, NextFunction, Request, Response } from 'express';
import { AppError } from '../../errors';
import { constantTimeEquals } from '../../platform/crypto';
import { secretScrubber } from '../../platform/logger';
import type { ApiKeyStore } from '../../platform/secrets';
import type { AuthService, SignedIn } from '../../services/auth/auth-service';

export const SESSION_COOKIE = 'arrgo_session';
export const CSRF_HEADER = 'X-Arrgo-Csrf';

/** How a request proved who it is. */
export type RequestAuth =
  | { method: 'apiKey' }
  | { method: 'session'; sessionId: string; username: string; csrfToken: string; expiresAt: Date };

declare module 'express-serve-static-core' {
  interface Request {
    /** Set when a valid API key or session cookie came with the request. */
    auth?: RequestAuth;
  }
}

// A session id that reaches a log line anyway (a header dumped while debugging) is cut out.
secretScrubber.addPattern(new RegExp(`(${SESSION_COOKIE}=)[^;\\s"]+`));

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface AuthenticateOptions {
  apiKeys: ApiKeyStore;
  auth: AuthService;
  /** Routes open without a key or session (the request path relative to the API prefix). */
  isPublic: (method: string, path: string) => boolean;
  /** Path of the session cookie: `<URL_BASE>/`. */
  cookiePath: string;
}

/**
 * The API key (X-Api-Key, or Authorization: Bearer, the *arr convention) or a console session
 * cookie. A cookie-authenticated write must carry the session's CSRF token in X-Arrgo-Csrf; a
 * key-authenticated request needs none. Public routes pass either way (`req.auth` says whether
 * a valid credential came along); an invalid session cookie is cleared.
 */
export function authenticate(options: AuthenticateOptions) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const isPublic = options.isPublic(req.method, req.path.replace(/\/+$/, '') || '/');
    const header = req.header('x-api-key');
    const bearer = /^Bearer\s+(.+)$/i.exec(req.header('authorization') ?? '')?.[1];
    const given = header ?? bearer;
    if (given !== undefined) {
      if (options.apiKeys.matches(given.trim())) {
        req.auth = { method: 'apiKey' };
        req.authenticated = true;
        return next();
      }
      req.authenticated = false;
      return next(isPublic ? undefined : new AppError('unauthorized', 'Invalid API key'));
    }
    const sessionId = readSessionCookie(req);
    if (sessionId === undefined) {
      req.authenticated = false;
      return next(isPublic ? undefined : new AppError('unauthorized', 'API key required: send it in the X-Api-Key header'));
    }
    let found;
    try {
      found = await options.auth.resolveSession(sessionId);
    } catch (error) {
      return next(error);
    }
    if (found.status !== 'valid') {
      req.authenticated = false;
      clearSessionCookie(req, res, options.cookiePath);
      if (isPublic) return next();
      return next(new AppError('unauthorized', found.status === 'expired' ? 'Session expired: sign in again' : 'Session not valid (signed out or replaced): sign in again'));
    }
    req.auth = { method: 'session', sessionId, ...found.session };
    req.authenticated = true;
    if (!isPublic && !SAFE_METHODS.has(req.method) && !constantTimeEquals(req.header(CSRF_HEADER) ?? '', found.session.csrfToken)) {
      return next(new AppError('forbidden', `Missing or wrong ${CSRF_HEADER} header: a write signed in with the session cookie must send the csrfToken of GET /api/v1/auth/status in it`));
    }
    next();
  };
}

export function readSessionCookie(req: Request): string | undefined {
  for (const part of (req.header('cookie') ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === SESSION_COOKIE) return part.slice(at + 1).trim();
  }
  return undefined;
}

/** HttpOnly, SameSite=Strict, under the URL base; Secure when the request came over HTTPS (req.secure honours X-Forwarded-Proto only with TRUST_PROXY). */
function cookieOptions(req: Request, path: string): CookieOptions {
  return { httpOnly: true, sameSite: 'strict', secure: req.secure, path };
}

export function setSessionCookie(req: Request, res: Response, path: string, signedIn: SignedIn): void {
  // The one session cookie of the answer: a clearing of an invalid one sent along is dropped.
  const earlier = res.getHeader('Set-Cookie');
  if (earlier !== undefined) res.setHeader('Set-Cookie', [earlier].flat().map(String).filter((cookie) => !cookie.startsWith(`${SESSION_COOKIE}=`)));
  res.cookie(SESSION_COOKIE, signedIn.sessionId, { ...cookieOptions(req, path), expires: signedIn.expiresAt });
}

export function clearSessionCookie(req: Request, res: Response, path: string): void {
  res.clearCookie(SESSION_COOKIE, cookieOptions(req, path));
}
