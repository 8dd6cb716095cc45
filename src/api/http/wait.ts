import type { WaitedAnswer } from '../../services/workflow-runner';
import { validationError } from '../../errors';
import { booleanQuery, integerQuery } from './zod';

/** How long `wait=true` waits when waitSeconds is not given, and the most it may ask for. */
export const DEFAULT_WAIT_SECONDS = 60;
export const MAX_WAIT_SECONDS = 240;

/**
 * The query parameters of an operation that can answer once its workflow has got somewhere
 * (`until`): `wait` and its bound `waitSeconds`. Spread into the route's query schema; read them
 * with waitMs.
 */
export function waitQuery(until: string) {
  return {
    wait: booleanQuery.optional().openapi({
      description: `Answer when ${until} (200), at most waitSeconds later: when the bound passes first, 202 with the current state (the work goes on).`,
    }),
    waitSeconds: integerQuery(1, MAX_WAIT_SECONDS)
      .optional()
      .openapi({ description: `The bound of wait=true in seconds, 1 to ${MAX_WAIT_SECONDS} (default ${DEFAULT_WAIT_SECONDS}); needs wait=true` }),
  };
}

/** The wait a request asked for, in milliseconds (0: answer at once). */
export function waitMs(query: { wait?: boolean; waitSeconds?: number }): number {
  if (query.waitSeconds !== undefined && !query.wait) throw validationError('Invalid request: query.waitSeconds needs wait=true');
  return query.wait ? (query.waitSeconds ?? DEFAULT_WAIT_SECONDS) * 1000 : 0;
}

/** 200 when what the request waited for happened in time, else 202 with the state so far. */
export function waitedResponse<T>(answer: WaitedAnswer<T>): { status: 200 | 202; body: T } {
  return { status: answer.finished ? 200 : 202, body: answer.body };
}
