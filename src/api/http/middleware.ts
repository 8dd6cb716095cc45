import { randomUUID } from 'node:crypto';
import { RequestContext } from '@mikro-orm/core';
import type { NextFunction, Request, Response } from 'express';
import { AppError, isAppError } from '../../errors';
import { constantTimeEquals } from '../../platform/crypto';
import type { Logger } from '../../platform/logger';
import type { Orm } from '../../persistence/orm';

declare module 'express-serve-static-core' {
  interface Request {
    id: string;
    log: Logger;
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

/** Follows the *arr convention: X-Api-Key header, or Authorization: Bearer <key>. */
export function requireApiKey(apiKey: string, publicPaths: Set<string>) {
  return (req: Request, _res: Response, next: NextFunction) => {
    if (req.method === 'GET' && publicPaths.has(req.path.replace(/\/+$/, ''))) return next();
    const header = req.header('x-api-key');
    const bearer = /^Bearer\s+(.+)$/i.exec(req.header('authorization') ?? '')?.[1];
    const given = header ?? bearer;
    if (!given) return next(new AppError('unauthorized', 'API key required: send it in the X-Api-Key header'));
    if (!constantTimeEquals(given.trim(), apiKey)) return next(new AppError('unauthorized', 'Invalid API key'));
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
 * The one error middleware: typed errors become {error} with their status; body-parser failures
 * become 400/413; anything else is a bare 500 and is logged (never echoed).
 */
export function errorHandler() {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  return (error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const log = req.log;
    let status = 500;
    let message = 'Internal server error';
    let code: string | undefined;
    if (isAppError(error)) {
      status = error.status;
      message = error.publicMessage;
      code = error.details?.code;
      if (error.details?.retryAfterSeconds) res.setHeader('Retry-After', String(error.details.retryAfterSeconds));
    } else if (isBodyParserError(error)) {
      status = error.status;
      message =
        error.type === 'entity.parse.failed'
          ? 'Invalid request: body is not valid JSON'
          : error.type === 'entity.too.large'
            ? 'Request body too large'
            : error.type === 'encoding.unsupported' || error.type === 'charset.unsupported'
              ? 'Unsupported request body encoding'
              : 'Invalid request body';
    }
    if (status >= 500) log?.error({ err: error, path: req.path, method: req.method }, 'request failed');
    else log?.debug({ status, error: message }, 'request rejected');
    if (res.headersSent) return res.end();
    res.status(status).json(code ? { error: message, code } : { error: message });
  };
}

function isBodyParserError(error: unknown): error is { status: number; type: string } {
  const e = error as { status?: unknown; type?: unknown };
  return typeof e?.status === 'number' && typeof e?.type === 'string' && e.status >= 400 && e.status < 500;
}
