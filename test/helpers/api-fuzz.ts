import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Harness } from './harness';
import { rng } from './seeded-random';

/**
 * Seeded fuzzing of arrgo over HTTP, loopback only: every operation of the OpenAPI document (sign-in
 * and sessions included) and the routes beside the API (the console's pages and assets, the docs
 * page, /metrics), each request signed in one of the ways a client can (API key, session cookie with
 * and without its CSRF token, forged or wrong credentials, none). The values are wrong types, missing
 * fields, huge and negative numbers, 100k-character strings, NUL and control characters, malformed
 * percent-encoding, bad JSON, wrong content types and encodings, unknown query parameters, odd methods.
 * `test/integration/fuzz.test.ts` runs a short form in `npm test`; `npm run fuzz` the long one.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Schema = Record<string, any>;

export interface Operation {
  method: string;
  /** The path as the OpenAPI document writes it (`/api/v1/instances/{id}`), or a site path. */
  path: string;
  /** The operationId, or `site:<path>` for a route beside the API. */
  operationId: string;
  params: { name: string; in: 'path' | 'query'; schema: Schema; required: boolean }[];
  body: Schema | null;
}

/** How a request proves who it is. */
type AuthMode = 'apiKey' | 'bearer' | 'session' | 'sessionWithoutCsrf' | 'forgedSession' | 'wrongKey' | 'none';

interface FuzzRequest {
  label: string;
  operationId: string;
  method: string;
  /** Path and query, sent as they are (not normalised). */
  url: string;
  auth: AuthMode;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** Sent from the loopback address that signs in legitimately (see FuzzRun.signIn). */
  asAdmin?: boolean;
}

const ODD_STRINGS = ['a\u0000b', '\u0007bell', 'tab\there', 'line\nbreak', '\u202eltr', '\ud800', '%zz', "' or 1=1 --", '../../etc/passwd', '', ' ', '😀'.repeat(50)];
const ODD_NUMBERS: Json[] = [1e308, -1e308, -1, 0, 2 ** 31, 2 ** 53 + 2, 1.5, -0.0001, 99_999_999_999];
const ODD_PARAMS = ['0', '-1', '1.5', '2147483648', '99999999999999999999', 'abc', '%zz', '%E0%A4%A', '%00', 'a%00b', 'x'.repeat(4000), '1e3'];
const ODD_METHODS = ['HEAD', 'OPTIONS', 'PUT', 'PATCH', 'DELETE', 'POST', 'TRACE', 'PROPFIND'];
const VARIANTS = 12;

/**
 * Routes beside the OpenAPI document: the console (index, deep links, assets, files of the build),
 * the docs page and its files, /metrics, and paths no route serves.
 */
const SITE_PATHS = [
  '/',
  '/index.html',
  '/rollouts/12',
  '/instances/1/drift?tab=%zz',
  '/assets/index-00000000.js',
  '/assets/%2e%2e/%2e%2e/package.json',
  '/assets/../../../etc/passwd',
  '/%2e%2e/%2e%2e/etc/passwd',
  '/..%2f..%2fpackage.json',
  '/favicon.ico',
  '/%zz',
  '/%00',
  '/docs',
  '/docs/',
  '/docs/swagger-ui.css',
  '/docs/%2e%2e/%2e%2e/package.json',
  '/docs/no-such-file.js',
  '/metrics',
  '/metrics?name[]=x',
  '/api/v1/openapi.json',
  '/api/v1/openapi.json?x=%zz',
  '/api/v1',
  '/api/v1/',
  '/api/v1/no-such-route',
  '/api/v2/instances',
  '/api/v1/instances/1/%zz',
  '/api/v1//instances',
];

export function mapOperations(doc: Schema): Operation[] {
  const out: Operation[] = [];
  for (const [p, methods] of Object.entries<Schema>(doc.paths)) {
    for (const [method, op] of Object.entries<Schema>(methods)) {
      const body = op.requestBody?.content?.['application/json']?.schema ?? null;
      out.push({
        method: method.toUpperCase(),
        path: p,
        operationId: op.operationId,
        params: (op.parameters ?? []) as Operation['params'],
        body,
      });
    }
  }
  return out;
}

export function siteOperations(): Operation[] {
  return SITE_PATHS.map((p) => ({ method: 'GET', path: p, operationId: `site:${p}`, params: [], body: null }));
}

class Generator {
  constructor(
    private readonly doc: Schema,
    private readonly random: () => number,
    private readonly ids: number[],
  ) {}

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)];
  }

  resolve(schema: Schema): Schema {
    let s = schema;
    while (s?.$ref) s = this.doc.components.schemas[s.$ref.split('/').pop()!];
    return s ?? {};
  }

  /** A value the schema accepts, as far as a generator can tell. */
  value(raw: Schema, depth = 0): Json {
    const schema = this.resolve(raw);
    if (schema.enum) return this.pick(schema.enum);
    const union = schema.oneOf ?? schema.anyOf;
    if (union) return this.value(this.pick(union), depth);
    if (schema.allOf) return Object.assign({}, ...schema.allOf.map((s: Schema) => this.value(s, depth)));
    switch (schema.type) {
      case 'integer': {
        if (schema.maximum === 2147483647) return this.pick(this.ids);
        const min = schema.minimum ?? 0;
        const max = Math.min(schema.maximum ?? 100, min + 100);
        return min + Math.floor(this.random() * (max - min + 1));
      }
      case 'number':
        return (schema.minimum ?? 0) + this.random();
      case 'boolean':
        return this.random() < 0.5;
      case 'string': {
        if (schema.format === 'uri' || /url/i.test(schema.description ?? '') || schema.example?.startsWith?.('http')) return 'http://127.0.0.1:9/';
        if (schema.format === 'date-time') return new Date(Date.UTC(2026, 0, 1)).toISOString();
        const min = schema.minLength ?? 1;
        return 'fuzz-' + 'x'.repeat(Math.max(0, Math.min(min, 20) - 5)) + Math.floor(this.random() * 1000);
      }
      case 'array': {
        const count = Math.max(schema.minItems ?? 0, Math.floor(this.random() * 3));
        return Array.from({ length: Math.min(count, schema.maxItems ?? count) }, () => this.value(schema.items ?? {}, depth + 1));
      }
      case 'object':
      default: {
        if (!schema.properties) return depth > 3 ? {} : { name: 'fuzz' };
        const out: Record<string, Json> = {};
        for (const [key, prop] of Object.entries<Schema>(schema.properties)) {
          if ((schema.required ?? []).includes(key) || this.random() < 0.5) out[key] = this.value(prop, depth + 1);
        }
        return out;
      }
    }
  }

  /** The same value with one thing wrong. */
  mutate(value: Json): Json {
    const odd = (): Json =>
      this.pick<() => Json>([
        () => this.pick(ODD_STRINGS),
        () => this.pick(ODD_NUMBERS),
        () => 'y'.repeat(100_000),
        () => null,
        () => true,
        () => [],
        () => ({ nested: { deeper: ['x'] } }),
        () => Array.from({ length: 5000 }, (_, i) => i),
        () => ({ toString: 'x', __proto__: 'y', constructor: 1 }) as unknown as Json,
      ])();
    if (value === null || typeof value !== 'object') return odd();
    const copy = structuredClone(value) as Record<string, Json> | Json[];
    const keys = Object.keys(copy);
    const action = this.random();
    if (keys.length === 0 || action < 0.1) {
      (copy as Record<string, Json>)[this.pick(['unknownField', '__proto__', 'constructor', 'a'.repeat(300)])] = odd();
      return copy;
    }
    const key = this.pick(keys);
    const target = copy as Record<string, Json>;
    if (action < 0.25) delete target[key];
    else if (action < 0.55 && target[key] !== null && typeof target[key] === 'object') target[key] = this.mutate(target[key]);
    else target[key] = odd();
    return copy;
  }

  /** Mostly the API key or the session (so handlers are reached), sometimes a wrong or missing credential. */
  auth(): AuthMode {
    const r = this.random();
    if (r < 0.5) return 'apiKey';
    if (r < 0.55) return 'bearer';
    if (r < 0.83) return 'session';
    if (r < 0.88) return 'sessionWithoutCsrf';
    if (r < 0.92) return 'forgedSession';
    if (r < 0.96) return 'wrongKey';
    return 'none';
  }
}

/** encodeURIComponent, with a lone surrogate sent as the raw bytes a careless client would send. */
function encodeLoosely(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return '%ED%A0%80';
  }
}

export interface PlanContext {
  doc: Schema;
  seed: number;
  /** Ids that exist (and a few that do not), for integer path and body fields. */
  ids: number[];
  /** The admin's credentials: the login operation sometimes signs in for real. */
  admin: { username: string; password: string };
}

/**
 * `count` requests, round robin over the operations: the n-th request of an operation gets variant
 * (n + operation index) mod VARIANTS, so even a short run tries every variant across operations and a
 * long one every variant on every operation.
 */
export function planRequests(ops: Operation[], count: number, ctx: PlanContext): FuzzRequest[] {
  const random = rng(ctx.seed);
  const g = new Generator(ctx.doc, random, ctx.ids);
  const requests: FuzzRequest[] = [];
  for (let i = 0; i < count; i++) {
    const opIndex = i % ops.length;
    const op = ops[opIndex];
    const round = Math.floor(i / ops.length);
    const variant = (round + opIndex) % VARIANTS;
    requests.push(op.operationId.startsWith('site:') ? siteRequest(op, g, variant, round) : apiRequest(op, g, random, variant, round, ctx));
  }
  return requests;
}

function siteRequest(op: Operation, g: Generator, variant: number, round: number): FuzzRequest {
  const method = variant === 11 ? g.pick(ODD_METHODS) : variant === 10 ? 'HEAD' : 'GET';
  const headers: Record<string, string> = {};
  if (variant === 5) headers['Accept'] = g.pick(['application/json', 'text/html', '*/*', 'x/y;q=%zz']);
  if (variant === 6) headers['Range'] = g.pick(['bytes=0-10', 'bytes=99999999-', 'bytes=x', 'bytes=5-1']);
  if (variant === 7) headers['If-None-Match'] = '"x"';
  const body = method === 'GET' || method === 'HEAD' ? undefined : g.pick(['{"a":1}', 'x']);
  if (body !== undefined) headers['Content-Type'] = g.pick(['application/json', 'text/plain']);
  return { label: `${method} ${op.path} #${round}`, operationId: op.operationId, method, url: op.path, auth: g.auth(), headers, body };
}

function apiRequest(op: Operation, g: Generator, random: () => number, variant: number, round: number, ctx: PlanContext): FuzzRequest {
  const headers: Record<string, string> = {};
  const pathParams = op.params.filter((p) => p.in === 'path');
  const queryParams = op.params.filter((p) => p.in === 'query');
  let url = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const param = pathParams.find((p) => p.name === name)!;
    const bad = variant === 1 || (variant === 7 && random() < 0.5);
    return bad ? g.pick(ODD_PARAMS) : encodeURIComponent(String(g.value(param.schema)));
  });
  const query: string[] = [];
  for (const q of queryParams) {
    if (!q.required && random() < 0.5) continue;
    const bad = variant === 2 || variant === 7;
    const value = bad ? g.pick([...ODD_PARAMS, ...ODD_STRINGS.map(encodeLoosely)]) : encodeURIComponent(String(g.value(q.schema)));
    query.push(`${q.name}=${value}`);
    if (variant === 8) query.push(`${q.name}=${value}`); // repeated: arrives as an array
  }
  if (variant === 3) query.push(`${g.pick(['unknown', 'pagesize', 'x%00', '%zz'])}=${g.pick(['1', '%zz', 'a'.repeat(2000)])}`);
  if (query.length) url += `?${query.join('&')}`;
  const method = variant === 11 ? g.pick(ODD_METHODS) : op.method;
  let body: string | Buffer | undefined;
  let asAdmin = false;
  if (op.body || ((variant === 9 || variant === 11) && method !== 'GET' && method !== 'HEAD')) {
    let valid = op.body ? g.value(op.body) : { unexpected: true };
    if (op.operationId === 'login' && variant === 0 && random() < 0.5) {
      // A real sign-in (from the admin's address, which the fuzz's failures never lock).
      valid = { ...ctx.admin };
      asAdmin = true;
    }
    headers['Content-Type'] = 'application/json';
    switch (variant) {
      case 4:
        body = g.pick(['{"a":', '{', 'nul', '[1,]', '{"a":1}}', '\u0000', '']);
        break;
      case 5:
        headers['Content-Type'] = g.pick(['text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=utf-16', 'application/json; charset=latin1', 'application/merge-patch+json']);
        body = JSON.stringify(valid);
        break;
      case 6: {
        const encoding = g.pick(['gzip', 'br', 'deflate', 'compress', 'identity, gzip', 'x-unknown']);
        headers['Content-Encoding'] = encoding;
        body = encoding === 'gzip' && random() < 0.3 ? gzipSync(JSON.stringify(valid)) : JSON.stringify(valid);
        break;
      }
      case 10:
        body = JSON.stringify(g.pick<Json>([null, [], 'string', 42, true, [valid]]));
        break;
      case 0:
      case 11:
        body = JSON.stringify(valid);
        break;
      default:
        body = JSON.stringify(g.mutate(valid));
    }
  }
  return { label: `${method} ${op.path} #${round}`, operationId: op.operationId, method, url, auth: asAdmin ? 'none' : g.auth(), headers, body, asAdmin };
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

const FUZZ_ADDRESS = '127.0.0.1';
// The admin signs in from another loopback address: the fuzz's failed sign-ins lock 127.0.0.1.
const ADMIN_ADDRESS = '127.0.0.2';

function send(base: URL, agent: http.Agent, method: string, url: string, headers: Record<string, string>, body?: string | Buffer): Promise<Answer> {
  // Node's client sends a DELETE's, OPTIONS' or TRACE's body without a length unless told.
  const sized = body === undefined ? headers : { ...headers, 'Content-Length': String(Buffer.byteLength(body)) };
  return new Promise((resolve, reject) => {
    const req = http.request({ host: base.hostname, port: base.port, method, path: url, headers: sized, agent, timeout: 30_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within 30 s: ${method} ${url.slice(0, 120)}`)));
    req.on('error', reject);
    req.end(body);
  });
}

function sessionFrom(answer: Answer): string | null | undefined {
  for (const cookie of answer.headers['set-cookie'] ?? []) {
    const match = /^arrgo_session=([^;]*)/.exec(cookie);
    if (match) return match[1] === '' ? null : match[1];
  }
  return undefined;
}

export interface FuzzReport {
  seed: number;
  requests: number;
  operations: number;
  statuses: Map<number, number>;
  /** Operations (by operationId) that answered 2xx at least once. */
  succeeded: Set<string>;
  byAuth: Map<AuthMode, number>;
  durationMs: number;
  serverErrors: string[];
  /** Requests the service closed the connection on without an answer. */
  dropped: string[];
  badBodies: string[];
  leaks: string[];
}

const STACK_FRAME = /\bat (?:[\w.<>]+ )?\(?(?:\/|node:)[^)\s]+:\d+:\d+\)?/;
// Raw exception and driver text: JavaScript errors, Node system errors, the ORM and the databases.
const EXCEPTION_TEXT =
  /\b(?:TypeError|ReferenceError|RangeError|SyntaxError|ZodError|DriverException|MikroORM|knex)\b|Cannot read propert|is not a function|is not defined|Unexpected token|Unexpected end of JSON|\bE(?:CONNREFUSED|CONNRESET|NOENT|ACCES|TIMEDOUT|ADDRINUSE)\b|\[object Object\]/;
const SQL_TEXT =
  /\bselect\s+(?:\*|"?\w+"?\.)[^;]{0,200}?\bfrom\b|\binsert\s+into\b|\bdelete\s+from\b|\bupdate\s+"?\w+"?\s+set\b|\bSQLITE_[A-Z]+\b|syntax error at or near|violates (?:foreign key|unique|not-null|check) constraint|relation "[^"]+" does not exist|duplicate key value|no such (?:table|column)/i;

/**
 * Runs the plan against a running arrgo (the harness's service) and checks every answer: no 5xx,
 * every 4xx a JSON {error} (with an optional code and field), and nothing leaks into a body or an
 * info-level log line (keys, secrets, the admin's password, session ids, internal paths, app hosts,
 * stack frames, exception text, SQL).
 */
export async function runFuzz(h: Harness, options: { seed: number; count: number; ids: number[]; appLeakMarkers: string[]; appKeys: string[]; repoRoot: string }): Promise<FuzzReport> {
  const doc = (await h.get('/openapi.json')).body as Schema;
  const ops = [...mapOperations(doc), ...siteOperations()];
  const admin = { username: `fuzz-admin-${options.seed}`, password: `fuzz-password-${options.seed}-not-a-real-one` };
  const base = new URL(h.baseUrl);
  // A connection per request: no answer depends on how the one before left the connection.
  const agents = { fuzz: new http.Agent({ keepAlive: false, localAddress: FUZZ_ADDRESS }), admin: new http.Agent({ keepAlive: false, localAddress: ADMIN_ADDRESS }) };
  const prefix = h.service.config.urlBase;
  let session: { id: string; csrf: string } | null = null;
  const sessionIds = new Set<string>();
  const adopt = async (id: string) => {
    sessionIds.add(id);
    const status = await send(base, agents.admin, 'GET', `${prefix}/api/v1/auth/status`, { Cookie: `arrgo_session=${id}` });
    const csrf = (JSON.parse(status.text) as { csrfToken: string | null }).csrfToken;
    session = csrf ? { id, csrf } : null;
  };
  const signIn = async () => {
    const answer = await send(base, agents.admin, 'POST', `${prefix}/api/v1/auth/login`, { 'Content-Type': 'application/json' }, JSON.stringify(admin));
    const id = sessionFrom(answer);
    if (answer.status !== 200 || !id) throw new Error(`the admin could not sign in: ${answer.status} ${answer.text.slice(0, 200)}`);
    await adopt(id);
  };
  const setup = await send(base, agents.admin, 'POST', `${prefix}/api/v1/auth/setup`, { 'Content-Type': 'application/json' }, JSON.stringify(admin));
  if (setup.status !== 201) throw new Error(`admin setup failed: ${setup.status} ${setup.text.slice(0, 200)}`);
  await adopt(sessionFrom(setup)!);

  const requests = planRequests(ops, options.count, { doc, seed: options.seed, ids: options.ids, admin });
  const report: FuzzReport = {
    seed: options.seed,
    requests: requests.length,
    operations: ops.length,
    statuses: new Map(),
    succeeded: new Set(),
    byAuth: new Map(),
    durationMs: 0,
    serverErrors: [],
    dropped: [],
    badBodies: [],
    leaks: [],
  };
  const internalPaths = [h.dataDir, path.join(options.repoRoot, 'src'), path.join(options.repoRoot, 'dist'), 'node_modules'];
  const database = h.service.config.database;
  const databaseMarkers = database.kind === 'postgresql' ? [database.url, new URL(database.url).host] : [database.file];
  const secrets = [...options.appKeys, h.apiKey, h.service.config.secret ?? h.apiKey, admin.password, 'emulator-fake-secret-7f3c9a1e', ...databaseMarkers];
  const host = os.hostname();
  const firstLog = h.logs.length;
  const started = Date.now();

  for (const r of requests) {
    if (!r.asAdmin && (r.auth === 'session' || r.auth === 'sessionWithoutCsrf') && session === null) await signIn();
    const current = session as { id: string; csrf: string } | null;
    const headers = { ...r.headers };
    switch (r.auth) {
      case 'apiKey':
        headers['X-Api-Key'] = h.service.apiKey;
        break;
      case 'bearer':
        headers['Authorization'] = `Bearer ${h.service.apiKey}`;
        break;
      case 'session':
        headers['Cookie'] = `arrgo_session=${current!.id}`;
        headers['X-Arrgo-Csrf'] = current!.csrf;
        break;
      case 'sessionWithoutCsrf':
        headers['Cookie'] = `arrgo_session=${current!.id}`;
        break;
      case 'forgedSession':
        headers['Cookie'] = `arrgo_session=${'f'.repeat(43)}; other=%zz`;
        headers['X-Arrgo-Csrf'] = 'forged';
        break;
      case 'wrongKey':
        headers['X-Api-Key'] = 'not-the-key-0123456789';
        break;
      case 'none':
        break;
    }
    // The document's paths are absolute under its server URL (URL_BASE), as the site's are.
    const url = `${prefix}${r.url}`;
    let answer: Answer;
    try {
      answer = await send(base, r.asAdmin ? agents.admin : agents.fuzz, r.method, url, headers, r.body);
    } catch (error) {
      report.dropped.push(`${r.label}: ${(error as Error).message} (${r.auth}, ${JSON.stringify(headers).slice(0, 200)}, body ${String(r.body).slice(0, 100)})`);
      continue;
    }
    report.statuses.set(answer.status, (report.statuses.get(answer.status) ?? 0) + 1);
    report.byAuth.set(r.auth, (report.byAuth.get(r.auth) ?? 0) + 1);
    if (answer.status < 300) report.succeeded.add(r.operationId);
    const newSession = sessionFrom(answer);
    const sentSession = headers['Cookie'] !== undefined && current !== null && headers['Cookie'].includes(current.id);
    if (typeof newSession === 'string') await adopt(newSession);
    else if ((newSession === null && sentSession) || (sentSession && answer.status === 401)) session = null; // signed out, or replaced

    if (answer.status >= 500) report.serverErrors.push(`${r.label}: ${answer.status} ${answer.text.slice(0, 200)}`);
    const json = /^application\/json\b/.test(answer.headers['content-type'] ?? '');
    if (answer.status >= 400 && r.method !== 'HEAD') {
      let parsed: unknown;
      try {
        parsed = JSON.parse(answer.text);
      } catch {
        parsed = undefined;
      }
      const fields = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? Object.entries(parsed as object) : [];
      const ok = fields.some(([k]) => k === 'error') && fields.every(([k, v]) => ['error', 'code', 'field'].includes(k) && typeof v === 'string');
      if (!ok) report.badBodies.push(`${r.label}: ${answer.status} ${answer.text.slice(0, 200)}`);
    }
    // An instance's routes and the fleet configuration (what arrgo.yaml declares) show instances' own base URLs: their purpose.
    const instanceRoute = (r.url.startsWith('/api/v1/instances') && !r.url.includes('/test')) || (r.method === 'GET' && r.url.split('?')[0] === '/api/v1/fleet/configuration');
    // GET /auth/api-key shows the key to whoever holds it or is signed in: its purpose, not a leak.
    const keyRoute = r.method === 'GET' && r.url.split('?')[0] === '/api/v1/auth/api-key';
    const markers = [...secrets, ...sessionIds, ...internalPaths, ...(instanceRoute ? [] : options.appLeakMarkers)];
    for (const marker of markers) if (answer.text.includes(marker) && !(keyRoute && marker === h.service.apiKey)) report.leaks.push(`${r.label}: response contains ${marker.slice(0, 40)}`);
    // The docs page's and the console's own files are code; the checks below are for what arrgo says.
    if (json || answer.status >= 400) {
      if (STACK_FRAME.test(answer.text)) report.leaks.push(`${r.label}: response contains a stack frame`);
      if (EXCEPTION_TEXT.test(answer.text)) report.leaks.push(`${r.label}: response contains exception text: ${EXCEPTION_TEXT.exec(answer.text)![0]}`);
      if (SQL_TEXT.test(answer.text)) report.leaks.push(`${r.label}: response contains SQL: ${SQL_TEXT.exec(answer.text)![0].slice(0, 80)}`);
      if (host.length >= 4 && host !== 'localhost' && answer.text.includes(host)) report.leaks.push(`${r.label}: response contains the host name`);
    }
  }
  report.durationMs = Date.now() - started;
  agents.fuzz.destroy();
  agents.admin.destroy();

  report.leaks.push(...logLeaks(h.logs.slice(firstLog), [...secrets, ...sessionIds], [...internalPaths, ...options.appLeakMarkers]));
  return report;
}

/**
 * What log lines leak: a secret on any line; on info-level lines and above (a line that is not
 * JSON counts as info), a stack frame, exception text, SQL or one of `infoMarkers`. With
 * `errorSummaries`, warn and error lines may name an error's class and carry its redacted message
 * (as a 500's 'request failed' line does, docs/ARCHITECTURE.md, "Conventions").
 */
export function logLeaks(lines: string[], secrets: string[], infoMarkers: string[], options: { errorSummaries?: boolean } = {}): string[] {
  const leaks: string[] = [];
  for (const line of lines) {
    let entry: { level: number; msg: string };
    try {
      entry = JSON.parse(line) as { level: number; msg: string };
    } catch {
      entry = { level: 30, msg: line.slice(0, 80) };
    }
    for (const marker of secrets) if (line.includes(marker)) leaks.push(`log line contains a secret (${marker.slice(0, 6)}…): ${entry.msg}`);
    if (entry.level < 30) continue; // debug detail may name files; info and above may not
    if (STACK_FRAME.test(line)) leaks.push(`info log line contains a stack frame: ${line.slice(0, 300)}`);
    if (EXCEPTION_TEXT.test(line) && !(options.errorSummaries && entry.level >= 40)) leaks.push(`info log line contains exception text: ${line.slice(0, 300)}`);
    if (SQL_TEXT.test(line)) leaks.push(`info log line contains SQL: ${line.slice(0, 300)}`);
    for (const marker of infoMarkers) if (line.includes(marker)) leaks.push(`info log line contains ${marker}: ${line.slice(0, 300)}`);
  }
  return leaks;
}

export function summarize(report: FuzzReport): string {
  const statuses = [...report.statuses.entries()].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}: ${n}`).join(', ');
  const auth = [...report.byAuth.entries()].map(([a, n]) => `${a} ${n}`).join(', ');
  return (
    `fuzz seed ${report.seed}: ${report.requests} requests over ${report.operations} operations and routes in ${(report.durationMs / 1000).toFixed(1)} s; ` +
    `statuses ${statuses}; signed in as ${auth}; ${report.succeeded.size} answered 2xx at least once; ` +
    `${report.serverErrors.length} 5xx, ${report.dropped.length} without an answer, ${report.badBodies.length} error bodies not {error}, ${report.leaks.length} leaks`
  );
}
