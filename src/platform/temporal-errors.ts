import { ApplicationFailure, TemporalFailure } from '@temporalio/common';
import { AppError, type AppErrorKind } from '../errors';

export const APP_ERROR_TYPE = 'AppError';

/** Activities throw AppError; this turns it into a non-retryable failure that keeps its kind. */
export function appErrorToFailure(error: AppError): ApplicationFailure {
  return ApplicationFailure.create({
    type: APP_ERROR_TYPE,
    message: error.publicMessage,
    nonRetryable: true,
    details: [{ kind: error.kind }],
  });
}

/**
 * Finds an AppError carried through workflow and activity failures (client side), so the API can
 * answer with its status and public message. Anything else stays unknown: a bare 500.
 */
export function appErrorFromFailure(error: unknown): AppError | null {
  let current: unknown = error;
  for (let depth = 0; current && depth < 8; depth++) {
    if (current instanceof AppError) return current;
    if (current instanceof ApplicationFailure && current.type === APP_ERROR_TYPE) {
      const kind = (current.details?.[0] as { kind?: AppErrorKind } | undefined)?.kind ?? 'internal';
      return new AppError(kind, current.message);
    }
    current = (current as TemporalFailure).cause;
  }
  return null;
}
