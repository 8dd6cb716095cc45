import { randomBytes } from 'node:crypto';
import type { Failure } from './validation/failures';

/**
 * An error response the way the apps produce it. Handlers throw these; the server writes them.
 * Bodies follow the apps' error pipeline: validation failures are a bare array, API exceptions an
 * ErrorModel ({message, content}), unhandled exceptions an ErrorModel with a .NET-style description,
 * model-binding problems ASP.NET's ValidationProblemDetails.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`HTTP ${status}`);
  }
}

function traceId(): string {
  return `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-00`;
}

const STATUS_NAMES: Record<number, string> = {
  400: 'BadRequest',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  409: 'Conflict',
  415: 'UnsupportedMediaType',
};

export const httpErrors = {
  /** FluentValidation failures (ValidationException) -> 400 with the array of failures. */
  validation(failures: Failure[]): ApiError {
    return new ApiError(400, failures);
  },
  /** An ApiException (BadRequestException, MethodNotAllowedException...): ErrorModel {message, content}. */
  api(status: number, content?: string): ApiError {
    const name = STATUS_NAMES[status] ?? String(status);
    return new ApiError(status, content === undefined ? { message: name } : { message: `${name}: ${content}`, content });
  },
  /** A client exception from the core (NzbDroneClientException): ErrorModel with message only. */
  client(status: number, message: string): ApiError {
    return new ApiError(status, { message, description: `NzbDrone.Core.Exceptions.NzbDroneClientException: ${message}` });
  },
  /** RestController.NotFound() for GET /{id}: ASP.NET ProblemDetails. */
  notFound(): ApiError {
    return new ApiError(404, { type: 'https://tools.ietf.org/html/rfc9110#section-15.5.5', title: 'Not Found', status: 404, traceId: traceId() });
  },
  /** ModelNotFoundException from a repository (PUT/DELETE of an unknown id). */
  modelNotFound(model: string, id: number): ApiError {
    const message = `${model} with ID ${id} does not exist`;
    return new ApiError(404, { message, description: `NzbDrone.Core.Datastore.ModelNotFoundException: ${message}` });
  },
  /** A unique-index violation in SQLite on POST/PUT. */
  constraint(table: string, column: string): ApiError {
    const message = `constraint failed\nUNIQUE constraint failed: ${table}.${column}`;
    return new ApiError(409, { message, description: `code = Constraint (19), message = System.Data.SQLite.SQLiteException (0x800027AF): ${message}` });
  },
  /** Any other exception: 500 with ErrorModel {message, description}. */
  unhandled(exceptionType: string, message: string): ApiError {
    return new ApiError(500, { message, description: `${exceptionType}: ${message}` });
  },
  /** Model binding failed (malformed JSON, wrong types, empty body). */
  binding(errors: Record<string, string[]>): ApiError {
    return new ApiError(400, {
      type: 'https://tools.ietf.org/html/rfc9110#section-15.5.1',
      title: 'One or more validation errors occurred.',
      status: 400,
      errors,
      traceId: traceId(),
    });
  },
  unsupportedMediaType(): ApiError {
    return new ApiError(415, { type: 'https://tools.ietf.org/html/rfc9110#section-15.5.16', title: 'Unsupported Media Type', status: 415, traceId: traceId() });
  },
  methodNotAllowed(): ApiError {
    return new ApiError(405, null);
  },
};
