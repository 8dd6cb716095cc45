import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { addInstance, linkDatabase, SAMPLE_PCD, type FleetInstance } from '../helpers/fleet';
import { startArrgo, type Harness } from '../helpers/harness';

/**
 * Seeded fuzzing of every operation in the OpenAPI document, loopback only (arrgo, its emulated
 * app and a local PCD): wrong types, missing fields, huge and negative numbers, 100k-character
 * strings, NUL and control characters, malformed percent-encoding, bad JSON, wrong content types
 * and encodings, unknown query parameters. No 5xx, every error is {error}, and nothing leaks.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_123);
const PER_OPERATION = 43; // ~2,000 requests over the 47 operations
const ROOT = path.resolve(__dirname, '..', '..');

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Schema = Record<string, any>;

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Operation {
  method: string;
  path: string;
  operationId: string;
  params: { name: string; in: 'path' | 'query'; schema: Schema; required: boolean }[];
  body: Schema | null;
}

interface FuzzRequest {
  label: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

const ODD_STRINGS = ['a\u0000b', '\u0007bell', 'tab\there', 'line\nbreak', '\u202eltr', '\ud800', '%zz', "' or 1=1 --", '../../etc/passwd', '', ' ', '😀'.repeat(50)];
const ODD_NUMBERS: Json[] = [1e308, -1e308, -1, 0, 2 ** 31, 2 ** 53 + 2, 1.5, -0.0001, 99_999_999_999];
const ODD_PARAMS = ['0', '-1', '1.5', '2147483648', '99999999999999999999', 'abc', '%zz', '%E0%A4%A', '%00', 'a%00b', 'x'.repeat(4000), '1e3'];

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
}

/** encodeURIComponent, with a lone surrogate sent as the raw bytes a careless client would send. */
function encodeLoosely(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return '%ED%A0%80';
  }
}

function operations(doc: Schema): Operation[] {
  const out: Operation[] = [];
  for (const [p, methods] of Object.entries<Schema>(doc.paths)) {
    for (const [method, op] of Object.entries<Schema>(methods)) {
      const body = op.requestBody?.content?.['application/json']?.schema ?? null;
      out.push({ method: method.toUpperCase(), path: p, operationId: op.operationId, params: (op.parameters ?? []) as Operation['params'], body });
    }
  }
  return out;
}

function buildRequests(doc: Schema, ops: Operation[], g: Generator, random: () => number, apiKey: string): FuzzRequest[] {
  const requests: FuzzRequest[] = [];
  for (const op of ops) {
    for (let i = 0; i < PER_OPERATION; i++) {
      const variant = i % 11;
      const headers: Record<string, string> = { 'X-Api-Key': apiKey };
      const pathParams = op.params.filter((p) => p.in === 'path');
      const queryParams = op.params.filter((p) => p.in === 'query');
      let url = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
        const param = pathParams.find((p) => p.name === name)!;
        const valid = g.value(param.schema);
        const bad = variant === 1 || (variant === 7 && random() < 0.5);
        return bad ? g.pick(ODD_PARAMS) : encodeURIComponent(String(valid));
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
      let body: string | Buffer | undefined;
      if (op.body || (variant === 9 && op.method !== 'GET')) {
        const valid = op.body ? g.value(op.body) : { unexpected: true };
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
            body = JSON.stringify(valid);
            break;
          default:
            body = JSON.stringify(g.mutate(valid));
        }
      }
      requests.push({ label: `${op.method} ${op.path} #${i}`, method: op.method, url: `/api/v1${url.replace(/^\/api\/v1/, '')}`, headers, body });
    }
  }
  return requests;
}

describe('fuzzing every operation of the OpenAPI document', () => {
  let h: Harness;
  let radarr: FleetInstance;
  let doc: Schema;
  beforeAll(async () => {
    h = await startArrgo();
    const databaseId = await linkDatabase(h, 'sample', SAMPLE_PCD);
    radarr = await addInstance(h, 'movie_app', { name: 'fuzz radarr', databaseId });
    doc = (await h.get('/openapi.json')).body;
  });
  afterAll(async () => {
    await h?.close();
    await radarr?.emulator.close();
  });

  it(`answers ~2,000 generated requests (seed ${SEED}) without a 5xx, with {error} bodies, and leaks nothing`, async () => {
    const ops = operations(doc);
    expect(ops.length).toBeGreaterThanOrEqual(47);
    const random = mulberry32(SEED);
    const g = new Generator(doc, random, [1, radarr.id, 2147483647]);
    const requests = buildRequests(doc, ops, g, random, h.apiKey);
    expect(requests.length).toBeGreaterThanOrEqual(2000);

    const serverErrors: string[] = [];
    const badBodies: string[] = [];
    const leaks: string[] = [];
    const statuses = new Map<number, number>();
    // Internal paths (the data directory, the code); a local PCD's own path is the user's and is shown.
    const internalPaths = [h.dataDir, path.join(ROOT, 'src'), path.join(ROOT, 'dist'), 'node_modules'];
    const forbidden = [radarr.apiKey, h.apiKey, 'emulator-fake-secret-7f3c9a1e', ...internalPaths];
    const appHost = radarr.emulator.leakMarkers.slice(0, 2);
    const stackFrame = /\bat (?:[\w.<>]+ )?\(?(?:\/|node:)[^)\s]+:\d+:\d+\)?/;
    const firstLog = h.logs.length;
    for (const r of requests) {
      const response = await fetch(h.baseUrl + r.url, { method: r.method, headers: r.headers, body: r.body, signal: AbortSignal.timeout(30_000) });
      const text = await response.text();
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      if (response.status >= 500) serverErrors.push(`${r.label}: ${response.status} ${text.slice(0, 200)}`);
      if (response.status >= 400) {
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = undefined;
        }
        const ok = parsed !== null && typeof parsed === 'object' && typeof (parsed as { error?: unknown }).error === 'string' && Object.keys(parsed as object).every((k) => k === 'error' || k === 'code');
        if (!ok) badBodies.push(`${r.label}: ${response.status} ${text.slice(0, 200)}`);
      }
      const instanceRoute = r.url.startsWith('/api/v1/instances') && !r.url.includes('/test');
      // GET /auth/api-key shows the key to whoever holds it: its purpose, not a leak.
      const keyRoute = r.method === 'GET' && r.url.split('?')[0] === '/api/v1/auth/api-key';
      for (const marker of [...forbidden, ...(instanceRoute ? [] : appHost)]) if (text.includes(marker) && !(keyRoute && marker === h.apiKey)) leaks.push(`${r.label}: response contains ${marker.slice(0, 40)}`);
      if (stackFrame.test(text)) leaks.push(`${r.label}: response contains a stack frame`);
    }
    for (const line of h.logs.slice(firstLog)) {
      const entry = JSON.parse(line) as { level: number; msg: string };
      if (line.includes(radarr.apiKey) || line.includes(h.apiKey)) leaks.push(`log line contains a key: ${entry.msg}`);
      if (entry.level < 30) continue; // debug detail may name files; info and above may not
      if (stackFrame.test(line)) leaks.push(`info log line contains a stack frame: ${line.slice(0, 300)}`);
      for (const marker of [...internalPaths, ...appHost]) if (line.includes(marker)) leaks.push(`info log line contains ${marker}: ${line.slice(0, 300)}`);
    }
    const summary = [...statuses.entries()].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}: ${n}`).join(', ');
    process.stdout.write(`fuzz seed ${SEED}: ${requests.length} requests over ${ops.length} operations; ${summary}\n`);
    expect(serverErrors).toEqual([]);
    expect(badBodies).toEqual([]);
    expect(leaks).toEqual([]);
    // The fuzzing reached the handlers, not only the validation in front of them.
    expect([...statuses.keys()].filter((s) => s < 300).length).toBeGreaterThan(0);
  });
});

describe('request bounds in the OpenAPI document', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startArrgo();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('documents a bound for every string, number and array a request carries, and refuses control characters in strings', async () => {
    const doc = (await h.get('/openapi.json')).body as Schema;
    const unbounded: string[] = [];
    const seen = new Set<Schema>();
    const walk = (raw: Schema, where: string): void => {
      let schema = raw;
      while (schema?.$ref) schema = doc.components.schemas[schema.$ref.split('/').pop()!];
      if (!schema || seen.has(schema)) return;
      seen.add(schema);
      for (const part of [...(schema.oneOf ?? []), ...(schema.anyOf ?? []), ...(schema.allOf ?? [])]) walk(part, where);
      if (schema.enum) return;
      if (schema.type === 'string' && !(schema.maxLength !== undefined && schema.pattern) && !/^date-time$/.test(schema.format ?? '')) unbounded.push(`${where}: string without maxLength and a control-character pattern`);
      if (schema.type === 'string' && schema.format === 'date-time' && schema.maxLength === undefined) unbounded.push(`${where}: date-time without maxLength`);
      if ((schema.type === 'integer' || schema.type === 'number') && (schema.maximum === undefined || schema.minimum === undefined)) unbounded.push(`${where}: number without minimum and maximum`);
      if (schema.type === 'array') {
        if (schema.maxItems === undefined) unbounded.push(`${where}: array without maxItems`);
        walk(schema.items ?? {}, `${where}[]`);
      }
      for (const [key, prop] of Object.entries<Schema>(schema.properties ?? {})) walk(prop, `${where}.${key}`);
    };
    for (const [p, methods] of Object.entries<Schema>(doc.paths)) {
      for (const [method, op] of Object.entries<Schema>(methods)) {
        for (const param of op.parameters ?? []) walk(param.schema, `${method.toUpperCase()} ${p} ${param.in}.${param.name}`);
        const body = op.requestBody?.content?.['application/json']?.schema;
        if (body) walk(body, `${method.toUpperCase()} ${p} body`);
        seen.clear();
      }
    }
    expect(unbounded).toEqual([]);
    expect(doc.components.schemas.InstanceCreate.properties.name).toMatchObject({ type: 'string', minLength: 1, maxLength: 100, pattern: expect.any(String) });
    expect(doc.components.schemas.SyncHistorySettingsPatch.properties.retentionDays).toMatchObject({ type: 'integer', minimum: 1, maximum: 3650 });
    expect(doc.paths['/api/v1/instances/{id}'].get.parameters[0].schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 2147483647 });
  });
});
