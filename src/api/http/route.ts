import { OpenAPIRegistry, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { channel } from 'node:diagnostics_channel';
import express, { type Request, type Response } from 'express';
import { z as zod, type AnyZodObject, type ZodTypeAny, type z } from 'zod';
import { ErrorBody, text } from './zod';
import { zodToAppError } from './validation';
import { AppError } from '../../errors';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Out<T> = T extends ZodTypeAny ? z.output<T> : undefined;

export interface ResponseSpec {
  description: string;
  schema?: ZodTypeAny;
  /** Defaults to application/json. */
  contentType?: string;
  headers?: Record<string, { description: string; schema: { type: 'string' | 'integer' } }>;
}

export interface HandlerInput<P, Q, B> {
  params: Out<P>;
  query: Out<Q>;
  body: Out<B>;
  req: Request;
  res: Response;
}

export interface HandlerResult {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** A body serialized once (JSON bytes) with its strong entity tag and headers; for `conditional` routes. */
  view?: PreSerializedBody;
}

export interface PreSerializedBody {
  body: Buffer;
  etag: string;
  headers: Record<string, string>;
}

/** The bound of the If-None-Match request header on conditional routes. */
export const IF_NONE_MATCH_MAX = 4096;

export interface RouteDefinition<P extends AnyZodObject | undefined, Q extends AnyZodObject | undefined, B extends ZodTypeAny | undefined> {
  method: Method;
  /** OpenAPI-style path relative to /api/v1, e.g. /instances/{id}. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  /** Reachable without the API key or a session (health, the sign-in routes); no path parameters. */
  public?: boolean;
  params?: P;
  query?: Q;
  body?: B;
  responses: Record<number, ResponseSpec>;
  /**
   * The handler answers a pre-serialized `view`: the router sends its ETag (and Cache-Control:
   * no-cache), answers 304 without a body when If-None-Match names it, and documents both.
   */
  conditional?: boolean;
  handler: (input: HandlerInput<P, Q, B>) => Promise<HandlerResult | void> | HandlerResult | void;
}

const parsedKey = Symbol('arrgo.parsed');

/**
 * Diagnostics: while something subscribes to this channel (a test, a debugging session), every
 * handler gets its parsed query wrapped in a proxy that records which parameters it reads, and the
 * router publishes them per request (QueryReads). A documented parameter no handler reads is a
 * promise the API does not keep. Without subscribers it costs one property read per request.
 */
export const QUERY_READS_CHANNEL = 'arrgo:query-reads';

export interface QueryReads {
  operationId: string;
  /** The query parameters the operation documents. */
  documented: string[];
  /** The ones its handler read in this request. */
  read: string[];
}

const queryReadsChannel = channel(QUERY_READS_CHANNEL);

function recordingReads(query: Record<string, unknown>, reads: Set<string>): Record<string, unknown> {
  const record = (key: string | symbol) => {
    if (typeof key === 'string') reads.add(key);
  };
  return new Proxy(query, {
    get(target, key, receiver) {
      record(key);
      return Reflect.get(target, key, receiver);
    },
    has(target, key) {
      record(key);
      return Reflect.has(target, key);
    },
  });
}
const NO_QUERY = zod.object({});

/**
 * Registers a route on an Express router and documents it in the OpenAPI registry from the same
 * zod schemas, so validation and documentation cannot drift apart.
 */
export class ApiRouter {
  readonly router = express.Router();

  /** Path templates with parameters, to name the parameter whose percent-encoding is malformed. */
  private readonly templates: { method: string; segments: string[] }[] = [];

  /** `METHOD /path` of the public routes (HEAD as GET). */
  private readonly publicRoutes = new Set<string>();

  constructor(readonly registry: OpenAPIRegistry) {
    // Express decodes path parameters while matching a route and fails with a URIError; check first.
    this.router.use((req, _res, next) => next(this.undecodablePathError(req.method, req.path)));
  }

  add<P extends AnyZodObject | undefined, Q extends AnyZodObject | undefined, B extends ZodTypeAny | undefined>(
    def: RouteDefinition<P, Q, B>,
  ): void {
    this.document(def);
    if (def.public) {
      if (def.params) throw new Error(`public route ${def.path} must not take path parameters`);
      this.publicRoutes.add(`${def.method.toUpperCase()} ${def.path}`);
    }
    if (def.params) this.templates.push({ method: def.method.toUpperCase(), segments: def.path.split('/') });
    const expressPath = def.path.replace(/\{(\w+)\}/g, ':$1');
    // Unknown query parameters are refused (named), like unknown body fields.
    const querySchema = (def.query ?? NO_QUERY).strict();
    const documentedQuery = Object.keys(def.query?.shape ?? {});
    this.router[def.method](expressPath, async (req: Request, res: Response) => {
      const params = parse('params', def.params, req.params);
      const parsedQuery = parse('query', querySchema, req.query) as Record<string, unknown>;
      const body = parse('body', def.body, req.body ?? undefined);
      (req as unknown as Record<symbol, unknown>)[parsedKey] = { params, query: parsedQuery, body };
      const ifNoneMatch = def.conditional ? conditionalHeader(req.header('if-none-match')) : undefined;
      const reads = queryReadsChannel.hasSubscribers ? new Set<string>() : null;
      const query = reads ? recordingReads(parsedQuery, reads) : parsedQuery;
      let result: HandlerResult | void;
      try {
        result = await def.handler({ params, query, body, req, res } as HandlerInput<P, Q, B>);
      } finally {
        if (reads) queryReadsChannel.publish({ operationId: def.operationId, documented: documentedQuery, read: [...reads] } satisfies QueryReads);
      }
      if (res.headersSent) return;
      if (result?.view) return sendView(res, result.status ?? 200, result.view, ifNoneMatch);
      const status = result?.status ?? (result?.body === undefined ? 204 : 200);
      for (const [name, value] of Object.entries(result?.headers ?? {})) res.setHeader(name, value);
      if (result?.body === undefined || status === 204) res.status(status).end();
      else res.status(status).json(result.body);
    });
  }

  /** Whether a request (path relative to /api/v1, without trailing slash) is for a public route. */
  isPublic(method: string, path: string): boolean {
    return this.publicRoutes.has(`${method === 'HEAD' ? 'GET' : method} ${path}`);
  }

  private undecodablePathError(method: string, requestPath: string): AppError | undefined {
    const segments = requestPath.split('/');
    const bad = segments.findIndex((segment) => !decodes(segment));
    if (bad < 0) return undefined;
    const matching = this.templates.filter((t) => t.segments.length === segments.length && t.segments.every((s, i) => s.startsWith('{') || s === segments[i]));
    const name = (matching.find((t) => t.method === method) ?? matching[0])?.segments[bad].slice(1, -1);
    return new AppError('validation', name ? `Invalid request: params.${name} is not valid percent-encoding` : 'Invalid request: the path is not valid percent-encoding');
  }

  private document(def: RouteDefinition<AnyZodObject | undefined, AnyZodObject | undefined, ZodTypeAny | undefined>): void {
    const responses: RouteConfig['responses'] = {};
    for (const [status, spec] of Object.entries(def.responses)) {
      responses[status] = {
        description: spec.description,
        headers: def.conditional && status === '200' ? { ...spec.headers, ...CONDITIONAL_HEADERS } : spec.headers,
        content: spec.schema ? { [spec.contentType ?? 'application/json']: { schema: spec.schema } } : undefined,
      };
    }
    const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: ErrorBody } } });
    if ((def.params || def.query || def.body) && !responses['400']) responses['400'] = errorResponse('Invalid request; the message names the field');
    if (def.body && !responses['415']) responses['415'] = errorResponse('The body is not application/json (PATCH also takes application/merge-patch+json), or its Content-Encoding is not supported');
    if (def.body && !responses['413']) responses['413'] = errorResponse('Request body too large (at most 5 MB)');
    if (!def.public && !responses['401']) responses['401'] = errorResponse('Missing or wrong API key, or no valid session cookie (signed out or expired)');
    if (!def.public && def.method !== 'get' && !responses['403']) responses['403'] = errorResponse(CSRF_REFUSAL);
    if (!responses['500']) responses['500'] = errorResponse('Internal error (no detail is disclosed)');
    if (!responses['503']) responses['503'] = errorResponse('A service arrgo depends on cannot be reached right now: the application database (a restart, a dropped connection; Retry-After says when to try again) or, where the route runs or reads workflows, the workflow service');
    if (def.conditional && !responses['304']) {
      responses['304'] = { description: 'Not modified: If-None-Match names the current ETag (no body)', headers: { ETag: CONDITIONAL_HEADERS.ETag } };
    }
    this.registry.registerPath({
      method: def.method,
      path: '/api/v1' + def.path,
      operationId: def.operationId,
      summary: def.summary,
      description: def.description,
      tags: def.tags,
      security: def.public ? [] : AUTHENTICATED,
      request: {
        params: def.params,
        query: def.query,
        headers: def.conditional ? IfNoneMatchHeaders : undefined,
        body: def.body
          ? {
              required: !def.body.isOptional(),
              content: { 'application/json': { schema: def.body }, ...(def.method === 'patch' ? { 'application/merge-patch+json': { schema: def.body } } : {}) },
            }
          : undefined,
      },
      responses,
    });
  }
}

/** Every non-public operation takes the API key (header or bearer) or the console's session cookie. */
const AUTHENTICATED: Record<string, string[]>[] = [{ ApiKeyHeader: [] }, { BearerAuth: [] }, { SessionCookie: [] }];

const CSRF_REFUSAL = 'Signed in with the session cookie without the X-Arrgo-Csrf header (the csrfToken of GET /api/v1/auth/status), or with a wrong one; API-key requests need no such header';

const CONDITIONAL_HEADERS = {
  ETag: {
    description:
      'Strong entity tag of the body: equal bytes give equal tags on any arrgo process. Send it back in If-None-Match to get 304 while the state is unchanged; it changes when the body does (a pull, edit, revert, import or rollback that changes this view).',
    schema: { type: 'string' as const },
  },
  'Cache-Control': { description: 'no-cache: a client or proxy may keep the body but must revalidate (If-None-Match) before reusing it', schema: { type: 'string' as const } },
};

const IfNoneMatchHeaders = zod.object({
  'If-None-Match': text({ max: IF_NONE_MATCH_MAX, trim: false })
    .optional()
    .openapi({ description: `Entity tags from earlier responses (comma-separated, or *); 304 when one names the current body. At most ${IF_NONE_MATCH_MAX} characters.` }),
});

/** The If-None-Match header, bounded. */
function conditionalHeader(value: string | undefined): string | undefined {
  if (value !== undefined && value.length > IF_NONE_MATCH_MAX) throw new AppError('validation', `Invalid request: headers.if-none-match must be at most ${IF_NONE_MATCH_MAX} characters`);
  return value;
}

/** Weak comparison (RFC 9110 13.1.2): W/"x" and "x" name the same tag; * names any. */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const opaque = etag.startsWith('W/') ? etag.slice(2) : etag;
  for (const match of header.matchAll(/(?:W\/)?("[^"]*")/g)) if (match[1] === opaque) return true;
  return false;
}

function sendView(res: Response, status: number, view: PreSerializedBody, ifNoneMatch: string | undefined): void {
  for (const [name, value] of Object.entries(view.headers)) res.setHeader(name, value);
  res.setHeader('ETag', view.etag);
  res.setHeader('Cache-Control', 'no-cache');
  if (status === 200 && ifNoneMatchHits(ifNoneMatch, view.etag)) {
    res.status(304).end();
    return;
  }
  res.status(status);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', view.body.length);
  res.end(view.body);
}

function parse(part: 'params' | 'query' | 'body', schema: ZodTypeAny | undefined, value: unknown): unknown {
  if (!schema) return undefined;
  const result = schema.safeParse(value);
  if (!result.success) throw zodToAppError(part, result.error);
  const nul = findNul(result.data, [part]);
  if (nul === TOO_DEEP) throw new AppError('validation', `Invalid request: ${part} is nested more than ${MAX_DEPTH} levels deep`);
  if (nul) throw new AppError('validation', `Invalid request: ${nul.join('.')} must not contain NUL characters`);
  return result.data;
}

function decodes(segment: string): boolean {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}

/**
 * Free-form values (portable entity data, field edit values) are not typed by the schema; NUL
 * cannot be stored in any text column, so it is refused wherever it hides.
 */
function findNul(value: unknown, path: string[], depth = 0): string[] | typeof TOO_DEEP | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (value === null || typeof value !== 'object') return null;
  if (depth >= MAX_DEPTH) return TOO_DEEP;
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\u0000')) return [...path, JSON.stringify(key)];
    const found = findNul(item, [...path, key], depth + 1);
    if (found) return found;
  }
  return null;
}

const MAX_DEPTH = 64;
const TOO_DEEP = Symbol('too deep');
