/**
 * Typed application errors. Each carries the HTTP status it maps to and a public message that is
 * safe to show to a client: it never contains exception text from a dependency, an app response
 * body, a host name or a credential. Anything else that reaches the error middleware becomes a
 * bare 500.
 */
export type AppErrorKind =
  | 'validation'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'not_ready'
  | 'unavailable'
  | 'internal';

const STATUS: Record<AppErrorKind, number> = {
  validation: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal: 500,
  not_ready: 503,
  unavailable: 503,
};

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly kind: AppErrorKind,
    readonly publicMessage: string,
    readonly details?: {
      retryAfterSeconds?: number;
      code?: string;
      /** The request field a 400 names (sent as `field`). */
      field?: string;
      /** A domain validation error's path inside the validated payload; the API edge places it in the request as `field`. */
      payloadPath?: string;
    },
  ) {
    super(publicMessage);
    this.name = 'AppError';
    this.status = STATUS[kind];
  }
}

export const validationError = (message: string) => new AppError('validation', message);
export const notFound = (message: string) => new AppError('not_found', message);
export const conflict = (message: string, code?: string) => new AppError('conflict', message, { code });
export const notReady = (message: string) => new AppError('not_ready', message);
export const rateLimited = (message: string, retryAfterSeconds: number) =>
  new AppError('rate_limited', message, { retryAfterSeconds });
export const unavailable = (message: string) => new AppError('unavailable', message);

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

/** The class of a thrown value, fit for a log line above debug level (its message and stack are not). */
export function errorClass(error: unknown): string {
  return (error as { constructor?: { name?: string } })?.constructor?.name ?? typeof error;
}
