import { randomUUID } from 'node:crypto';
import { RequestContext } from '@mikro-orm/core';
import type { NextFunction, Request, Response } from 'express';
import { AppError, errorClass, isAppError } from '../../errors';
import type { Logger } from '../../platform/logger';
import { isDatabaseUnavailable } from '../../persistence/database-unavailable';
import type { Orm } from '../../persistence/orm';

declare module 'express-serve-static-core' {
  interface Request {
    id: string;
    log: Logger;
    /** A valid API key or session cookie came with the request (see api/http/auth.ts). */
    authenticated?: boolean;
  }
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

export function requestId(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const incoming = req.header('x-request-id');
    req.id = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    req.log = logger.child({ requestId: req.id });
    res.setHeader('X-Request-Id', req.id);
    next();
  };
}

/** One access-log line per request: method, path (no query string), status, duration. */
export function accessLog() {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      req.log.info({ method: req.method, path: req.originalUrl.split('?')[0], status: res.statusCode, durationMs: Math.round(ms * 10) / 10 }, 'request');
    });
    next();
  };
}

/** One EntityManager fork per request. */
export function ormRequestContext(orm: Orm) {
  return (_req: Request, _res: Response, next: NextFunction) => RequestContext.create(orm.em, next);
}

export function notFoundRoute() {
  return (_req: Request, _res: Response, next: NextFunction) => next(new AppError('not_found', 'Route not found'));
}

/**
 * Bodies are JSON: a body sent with another (or no) Content-Type is refused with 415 instead of
 * being ignored and reported as missing. PATCH also takes application/merge-patch+json.
 */
export function requireJsonBody() {
  return (req: Request, _res: Response, next: NextFunction) => {
    if (!hasBody(req)) return next();
    const type = (req.header('content-type') ?? '').split(';')[0].trim().toLowerCase();
    if (type === 'application/json' || (req.method === 'PATCH' && type === 'application/merge-patch+json')) return next();
    const accepted = req.method === 'PATCH' ? 'application/json (or application/merge-patch+json)' : 'application/json';
    next(new AppError('unsupported_media_type', `Unsupported Media Type: send the request body as ${accepted}`));
  };
}

/** The body parser's accepted media types (see requireJsonBody). */
export const JSON_BODY_TYPES = ['application/json', 'application/merge-patch+json'];

function hasBody(req: Request): boolean {
  const length = req.header('content-length');
  return req.header('transfer-encoding') !== undefined || (length !== undefined && length !== '0');
}

/** A restarted PostgreSQL takes seconds to accept connections again. */
const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * The one error middleware: typed errors become {error} with their status; an unreachable
 * database is a 503 (with Retry-After); any other error that carries a 4xx status (body parsing,
 * decompression, routing) keeps it with a pre-authored message; anything else is a bare 500. Error text from dependencies is never echoed, and a 500 is
 * logged at error level without stack or SQL (the full error is logged at debug level).
 */
export function errorHandler() {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  return (error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const log = req.log;
    let status = 500;
    let message = 'Internal server error';
    let code: string | undefined;
    let field: string | undefined;
    if (isAppError(error)) {
      status = error.status;
      message = error.publicMessage;
      code = error.details?.code;
      field = error.details?.field;
      if (error.details?.retryAfterSeconds) res.setHeader('Retry-After', String(error.details.retryAfterSeconds));
    } else if (isDatabaseUnavailable(error)) {
      status = 503;
      message = 'The database is unavailable; try again shortly';
      res.setHeader('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
    } else {
      const client = clientErrorStatus(error);
      if (client) {
        status = client.status;
        message = clientErrorMessage(client.status, client.type);
      }
    }
    if (status >= 500) {
      log?.error({ method: req.method, route: routeOf(req), errorClass: errorClass(error), message: redactErrorMessage(error) }, 'request failed');
      log?.debug({ err: error }, 'request failure detail');
    } else log?.debug({ status, error: message }, 'request rejected');
    if (res.headersSent) return res.end();
    res.status(status).json({ error: message, ...(code ? { code } : {}), ...(field ? { field } : {}) });
  };
}

function clientErrorStatus(error: unknown): { status: number; type: string | undefined } | null {
  const e = error as { status?: unknown; statusCode?: unknown; type?: unknown };
  const status = typeof e?.status === 'number' ? e.status : typeof e?.statusCode === 'number' ? e.statusCode : NaN;
  if (!(status >= 400 && status < 500)) return null;
  return { status, type: typeof e.type === 'string' ? e.type : undefined };
}

function clientErrorMessage(status: number, type: string | undefined): string {
  switch (type) {
    case 'entity.parse.failed':
      return 'Invalid request: body is not valid JSON';
    case 'entity.too.large':
      return 'Request body too large (at most 5 MB)';
    case 'encoding.unsupported':
      return 'Unsupported Content-Encoding: send the body as identity, gzip, deflate or br';
    case 'charset.unsupported':
      return 'Unsupported charset: send the body as UTF-8';
    case 'request.aborted':
      return 'Invalid request: the body was not received completely';
    case 'request.size.invalid':
      return 'Invalid request: the body length does not match Content-Length';
  }
  if (status === 400) return 'Invalid request: the body could not be read (check Content-Encoding and Content-Length)';
  if (status === 413) return 'Request body too large (at most 5 MB)';
  if (status === 415) return 'Unsupported Media Type';
  return 'Invalid request';
}

function routeOf(req: Request): string {
  const route = (req.route as { path?: unknown } | undefined)?.path;
  return typeof route === 'string' ? req.baseUrl + route : req.originalUrl.split('?')[0].slice(0, 200);
}

/**
 * An error message fit for an info-level line: SQL text, quoted values, URLs and filesystem paths
 * are cut out, and the rest is capped.
 */
export function redactErrorMessage(error: unknown): string {
  let raw = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  // knex prefixes the failing statement: "<sql> - <reason>"; keep the reason only.
  if (SQL_START.test(raw) && raw.includes(' - ')) raw = raw.slice(raw.lastIndexOf(' - ') + 3);
  return raw
    .replace(/\b(select|insert into|update|delete from|with|pragma)\b[\s\S]*/i, '[sql]')
    .replace(/'(?:[^']|'')*'|"(?:[^"\\]|\\.)*"/g, '[value]')
    .replace(/[a-z][a-z0-9+.-]*:\/\/\S+/gi, '[url]')
    .replace(/(?:[A-Za-z]:)?(?:[\\/][\w.@-]+){2,}/g, '[path]')
    .replace(/\b(\w*(?:password|passwd|pwd|token|secret|key)\w*)\s*[=:]\s*\S+/gi, '$1=[redacted]')
    .replace(/\b(?:[a-z0-9-]+\.)+[a-z0-9-]+(?::\d+)?\b/gi, '[host]')
    .replace(/[\u0000-\u001f\u007f]/g, ' ')
    .slice(0, 200);
}

const SQL_START = /^\s*(select|insert|update|delete|with|pragma|create|alter|drop)\b/i;
