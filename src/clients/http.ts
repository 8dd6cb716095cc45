import { channel } from 'node:diagnostics_channel';
import http from 'node:http';
import https from 'node:https';
import zlib from 'node:zlib';
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

/**
 * Idle connections to an app are closed after this long, so that a reuse never races the app
 * closing them (fetch's default, which this client replaced, was the same).
 */
const IDLE_CONNECTION_MS = 4_000;
const AGENTS: Record<string, http.Agent> = {
  'http:': new http.Agent({ keepAlive: true, timeout: IDLE_CONNECTION_MS }),
  'https:': new https.Agent({ keepAlive: true, timeout: IDLE_CONNECTION_MS }),
};

/** The request's deadline passed (classified as a timeout). */
class RequestTimeout extends Error {
  override readonly name = 'TimeoutError';
}

/**
 * Sends one JSON request to an app and returns the parsed body, or throws AppRequestError.
 * node:http with keep-alive agents rather than fetch: a drift check or sync makes several calls
 * per instance, and fetch's streams cost about twice the CPU per call. `timeoutMs` bounds the
 * whole exchange, body included; redirects are not followed (a 3xx is `rejected`).
 */
export async function appRequest<T>(
  target: AppHttpTarget,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<AppResponse<T>> {
  let response: { status: number; text: string };
  const profiled = profileChannel.hasSubscribers ? performance.timeOrigin + performance.now() : 0;
  try {
    response = await exchange(new URL(joinUrl(target.baseUrl, target.apiBase, path)), method, target, body === undefined ? undefined : JSON.stringify(body));
  } catch (error) {
    throw new AppRequestError(classifyNetworkError(error));
  } finally {
    if (profiled) profileChannel.publish({ phase: 'app-http', name: method, startedAt: profiled, ms: performance.timeOrigin + performance.now() - profiled });
  }
  const failure = classifyStatus(response.status);
  if (failure) throw new AppRequestError(failure, response.status);
  if (response.text === '') return { status: response.status, body: undefined as T };
  try {
    return { status: response.status, body: JSON.parse(response.text) as T };
  } catch {
    throw new AppRequestError('invalidResponse', response.status);
  }
}

/** One HTTP exchange: the status and the body as text (decompressed, UTF-8, without a BOM). */
function exchange(url: URL, method: string, target: AppHttpTarget, payload: string | undefined): Promise<{ status: number; text: string }> {
  const agent = AGENTS[url.protocol];
  if (!agent) return Promise.reject(new TypeError('unsupported protocol'));
  const headers: http.OutgoingHttpHeaders = { 'X-Api-Key': target.apiKey, Accept: 'application/json', 'Accept-Encoding': 'gzip, deflate, br' };
  if (payload !== undefined) Object.assign(headers, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) });
  return new Promise((resolve, reject) => {
    const request = (url.protocol === 'https:' ? https : http).request(url, { method, headers, agent });
    let timedOut = false;
    const deadline = setTimeout(() => {
      timedOut = true;
      request.destroy(new RequestTimeout());
    }, target.timeoutMs);
    deadline.unref();
    const fail = (error: unknown) => {
      clearTimeout(deadline);
      reject(timedOut ? new RequestTimeout() : error);
    };
    request.on('error', fail);
    request.once('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', fail);
      res.once('aborted', () => fail(new Error('response aborted')));
      res.once('end', () => {
        clearTimeout(deadline);
        try {
          resolve({ status: res.statusCode ?? 0, text: decodeBody(Buffer.concat(chunks), res.headers['content-encoding']) });
        } catch (error) {
          reject(error);
        }
      });
    });
    request.end(payload);
  });
}

function decodeBody(raw: Buffer, encoding: string | undefined): string {
  const coding = encoding?.trim().toLowerCase();
  const bytes = !coding || coding === 'identity' ? raw : coding === 'gzip' || coding === 'x-gzip' ? zlib.gunzipSync(raw) : coding === 'deflate' ? zlib.inflateSync(raw) : coding === 'br' ? zlib.brotliDecompressSync(raw) : raw;
  const text = bytes.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
