// arrgo's typed API client, shared by the web console and (later) the CLI: openapi-fetch over the
// types generated from arrgo's own OpenAPI document (schema.ts). No Node-only imports: the console
// bundles it. Imports nothing of arrgo but the generated types.
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { paths } from './schema';

export type { components, operations, paths } from './schema';

export type ArrgoClient = Client<paths>;

/** The header a cookie-authenticated write must carry (the session's CSRF token, from GET /auth/status). */
export const CSRF_HEADER = 'X-Arrgo-Csrf';
export const API_KEY_HEADER = 'X-Api-Key';

/** Methods that change nothing: the API asks no CSRF token for them. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface ArrgoClientOptions {
  /**
   * Where arrgo is served, without the trailing slash: '' (the page's own origin and root), '/arrgo'
   * (a URL base), or 'http://host:7979/arrgo'. Paths are the document's, e.g. '/api/v1/instances'.
   */
  baseUrl: string;
  /** API clients (the CLI): the API key, sent as X-Api-Key on every request. */
  apiKey?: string;
  /**
   * Cookie sessions (the console): the current session's CSRF token, read at every write (it
   * changes at login and logout). Null when there is no session.
   */
  csrfToken?: () => string | null;
  /** Another fetch (tests). */
  fetch?: (input: Request) => Promise<Response>;
}

/** Adds the session's CSRF token to every request that is not GET, HEAD or OPTIONS. */
export function csrfMiddleware(csrfToken: () => string | null): Middleware {
  return {
    onRequest({ request }) {
      if (SAFE_METHODS.has(request.method)) return undefined;
      const token = csrfToken();
      if (token) request.headers.set(CSRF_HEADER, token);
      return request;
    },
  };
}

export function createArrgoClient(options: ArrgoClientOptions): ArrgoClient {
  const client = createClient<paths>({
    baseUrl: options.baseUrl,
    headers: options.apiKey ? { [API_KEY_HEADER]: options.apiKey } : undefined,
    // The console's session cookie goes with same-origin requests only.
    credentials: 'same-origin',
    fetch: options.fetch,
  });
  if (options.csrfToken) client.use(csrfMiddleware(options.csrfToken));
  return client;
}

/** A refused or failed API call: the HTTP status and the API's `{error}` text. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The whole error body (refusals carry more than the text, e.g. `code` or failure evidence). */
    readonly body: unknown,
    /** Seconds to wait before retrying, from Retry-After (429 and 503 answers). */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The API's `{error}` text, or a plain sentence when the body has none (a proxy's error page). */
export function errorText(status: number, body: unknown): string {
  if (body && typeof body === 'object' && typeof (body as { error?: unknown }).error === 'string') return (body as { error: string }).error;
  return `The request failed with HTTP status ${status}`;
}

type FetchResult<T> = { data?: T; error?: unknown; response: Response };

/** The answer's data, or an ApiError carrying the API's `{error}` text. */
export async function unwrap<T>(call: Promise<FetchResult<T>>): Promise<T> {
  const { data, error, response } = await call;
  if (response.ok) return data as T;
  const retryAfter = Number(response.headers.get('Retry-After'));
  throw new ApiError(response.status, errorText(response.status, error), error, Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null);
}
