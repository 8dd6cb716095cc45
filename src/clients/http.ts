import { channel } from 'node:diagnostics_channel';
import http from 'node:http';
import https from 'node:https';
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
  let response: { status: number; text: string };
  const profiled = profileChannel.hasSubscribers ? performance.timeOrigin + performance.now() : 0;
  try {
    response = await send(joinUrl(target.baseUrl, target.apiBase, path), method, target.apiKey, body === undefined ? undefined : JSON.stringify(body), target.timeoutMs);
  } catch (error) {
    throw new AppRequestError(classifyNetworkError(error));
  } finally {
    if (profiled) profileChannel.publish({ phase: 'app-http', name: method, startedAt: profiled, ms: performance.timeOrigin + performance.now() - profiled });
  }
  const { status, text } = response;
  const failure = classifyStatus(status);
  if (failure) throw new AppRequestError(failure, status);
  if (text === '') return { status, body: undefined as T };
  try {
    return { status, body: JSON.parse(text) as T };
  } catch {
    throw new AppRequestError('invalidResponse', status);
  }
}

/**
 * One request over node:http(s) with the default keep-alive agents; redirects are not followed
 * (a 3xx is the app's answer). `fetch` did the same job at about twice the CPU and latency per
 * request (WHATWG streams over undici), which ten previews reading an app at once paid ten times.
 * The timeout covers the whole exchange, body included; it rejects with a TimeoutError.
 */
function send(url: string, method: string, apiKey: string, payload: string | undefined, timeoutMs: number): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const parsed = new URL(url);
    const transport = parsed.protocol === 'https:' ? https : parsed.protocol === 'http:' ? http : null;
    if (!transport) throw new TypeError('unsupported protocol');
    const signal = AbortSignal.timeout(timeoutMs);
    const headers: Record<string, string | number> = { 'X-Api-Key': apiKey, Accept: 'application/json' };
    if (payload !== undefined) {
      headers['Content-Type'] = 'application/json';
      headers['Content-Length'] = Buffer.byteLength(payload);
    }
    const request = transport.request(parsed, { method, headers, signal }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', (error) => reject(signal.aborted ? signal.reason : error));
      // A body cut short without an error event (the connection closed mid-body).
      res.on('close', () => {
        if (!res.complete) reject(signal.aborted ? signal.reason : new Error('response closed early'));
      });
    });
    request.on('error', (error) => reject(signal.aborted ? signal.reason : error));
    request.end(payload);
  });
}
