import { channel } from 'node:diagnostics_channel';
import type { AppCallFailure } from '../domain/failure-evidence';

// Profiling probe (see src/platform/profiling.ts, which the layer rules keep this module from importing).
const profileChannel = channel('arrgo:profile');

/**
 * A failed call to an app. The message is generic on purpose: the URL, host, API key and response
 * body stay inside this module. `status` is the HTTP status when the app answered.
 */
export class AppRequestError extends Error {
  constructor(
    readonly failure: AppCallFailure,
    readonly status?: number,
  ) {
    super(`app request failed: ${failure}${status ? ` (HTTP ${status})` : ''}`);
    this.name = 'AppRequestError';
  }
}

export interface AppHttpTarget {
  baseUrl: string;
  apiBase: string;
  apiKey: string;
  timeoutMs: number;
}

export interface AppResponse<T> {
  status: number;
  body: T;
}

export function classifyStatus(status: number): AppCallFailure | null {
  if (status >= 200 && status < 300) return null;
  if (status === 401 || status === 403) return 'unauthorized';
  if (status === 404) return 'notFound';
  if (status >= 500) return 'serverError';
  return 'rejected';
}

/** Network-level errors (fetch rejections) mapped to a failure code. */
export function classifyNetworkError(error: unknown): AppCallFailure {
  const name = (error as { name?: string })?.name;
  if (name === 'TimeoutError' || name === 'AbortError') return 'timeout';
  const cause = (error as { cause?: { code?: string; name?: string } })?.cause;
  if (cause?.name === 'HeadersTimeoutError' || cause?.name === 'BodyTimeoutError' || cause?.code === 'UND_ERR_HEADERS_TIMEOUT' || cause?.code === 'UND_ERR_BODY_TIMEOUT') {
    return 'timeout';
  }
  return 'unreachable';
}

export function joinUrl(baseUrl: string, apiBase: string, path: string): string {
  return baseUrl.replace(/\/+$/, '') + apiBase + (path.startsWith('/') ? path : '/' + path);
}

/** Sends one JSON request to an app and returns the parsed body, or throws AppRequestError. */
export async function appRequest<T>(
  target: AppHttpTarget,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<AppResponse<T>> {
  let response: Response;
  let text: string;
  const profiled = profileChannel.hasSubscribers ? performance.timeOrigin + performance.now() : 0;
  try {
    response = await fetch(joinUrl(target.baseUrl, target.apiBase, path), {
      method,
      headers: {
        'X-Api-Key': target.apiKey,
        Accept: 'application/json',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(target.timeoutMs),
      redirect: 'manual',
    });
    text = await response.text();
  } catch (error) {
    throw new AppRequestError(classifyNetworkError(error));
  } finally {
    if (profiled) profileChannel.publish({ phase: 'app-http', name: method, startedAt: profiled, ms: performance.timeOrigin + performance.now() - profiled });
  }
  const failure = classifyStatus(response.status);
  if (failure) throw new AppRequestError(failure, response.status);
  if (text === '') return { status: response.status, body: undefined as T };
  try {
    return { status: response.status, body: JSON.parse(text) as T };
  } catch {
    throw new AppRequestError('invalidResponse', response.status);
  }
}
