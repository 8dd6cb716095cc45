/**
 * startEmulator: a stateful HTTP emulator of Radarr (/api/v3), Sonarr (/api/v3) or Lidarr (/api/v1)
 * on loopback, with the app's fresh-install defaults, its validation, fault injection and a write log.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { APP_FACTS, type AppFacts, type EmulatorApp } from './apps';
import { CONTROL_PREFIX, handleControl } from './control';
import { customFormatRoutes } from './entities/custom-formats';
import { delayProfileRoutes } from './entities/delay-profiles';
import { mediaManagementRoutes, namingRoutes } from './entities/config';
import { metadataProfileRoutes } from './entities/metadata-profiles';
import { qualityDefinitionRoutes } from './entities/quality-definitions';
import { qualityProfileRoutes } from './entities/quality-profiles';
import { systemRoutes } from './entities/system';
import { tagRoutes } from './entities/tags';
import { FaultInjector, type Fault } from './faults';
import { ApiError } from './http-errors';
import { bindBody, Router, type EntityKind, type EmulatorBehaviour, type HandlerResult, type RequestContext, type Route } from './router';
import { createInitialState, type EmulatorState } from './state';
import { WriteRecorder, type WriteMethod } from './writes';

export interface EmulatorOptions {
  app: EmulatorApp;
  /** 0 (default) picks a free port. */
  port?: number;
  apiKey: string;
  /** Reported by system/status; defaults to a build of the version the OpenAPI documents describe. */
  version?: string;
  host?: string;
  /** Reject quality profile groups with ids below 1000 (default true; the apps themselves do not check). */
  strictGroupIds?: boolean;
}

export interface Emulator {
  readonly app: EmulatorApp;
  readonly appName: string;
  /** http://host:port */
  readonly baseUrl: string;
  /** /api/v3 or /api/v1 */
  readonly apiBase: string;
  readonly host: string;
  readonly port: number;
  readonly apiKey: string;
  readonly version: string;
  /** The app's data; read and edit it to simulate changes made in the app. */
  readonly state: EmulatorState;
  readonly faults: FaultInjector;
  readonly writes: WriteRecorder;
  /** Text that must never appear in anything a client reports: the address, the API key, the fake secret. */
  readonly leakMarkers: readonly string[];
  /** Back to a fresh install; clears faults and the write log. */
  reset(): void;
  close(): Promise<void>;
}

/** Planted in fault bodies so tests can prove clients never pass app bodies on. */
export const FAKE_SECRET = 'emulator-fake-secret-7f3c9a1e';

const MAX_BODY_BYTES = 16 * 1024 * 1024;
const WRITE_METHODS: readonly string[] = ['POST', 'PUT', 'DELETE'];

function buildRoutes(facts: AppFacts, version: string, startTime: Date): Route[] {
  return [
    ...systemRoutes(version, startTime),
    ...customFormatRoutes(),
    ...qualityProfileRoutes(),
    ...qualityDefinitionRoutes(facts),
    ...delayProfileRoutes(),
    ...namingRoutes(),
    ...mediaManagementRoutes(),
    ...tagRoutes(),
    ...(facts.metadataProfiles ? metadataProfileRoutes() : []),
  ];
}

/** ApiKeyAuthenticationHandler: the `apikey` query parameter first, then X-Api-Key, then a Bearer token. */
function providedApiKey(url: URL, req: http.IncomingMessage): string | undefined {
  for (const [name, value] of url.searchParams) {
    if (name.toLowerCase() === 'apikey') return value;
  }
  const header = req.headers['x-api-key'];
  if (header !== undefined) return Array.isArray(header) ? header[0] : header;
  const authorization = req.headers.authorization;
  return authorization?.replace('Bearer ', '');
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error('request body too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function parseForLog(raw: string): unknown {
  if (raw === '') return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

const STATE_OF_KIND: Record<EntityKind, keyof EmulatorState> = {
  customformat: 'customFormats',
  qualityprofile: 'qualityProfiles',
  qualitydefinition: 'qualityDefinitions',
  delayprofile: 'delayProfiles',
  metadataprofile: 'metadataProfiles',
  tag: 'tags',
  naming: 'naming',
  mediamanagement: 'mediaManagement',
};

/**
 * ignoreField faults: remembers the stored values of `fields` before a write and puts them back
 * after it (rows by id; a config resource is one row). Rows the write created keep what was sent.
 */
function keepFields(state: EmulatorState, kind: EntityKind, fields: readonly string[]): () => void {
  const table = state[STATE_OF_KIND[kind]] as unknown;
  const rows: Record<string, unknown>[] = Array.isArray(table) ? (table as Record<string, unknown>[]) : [table as Record<string, unknown>];
  const key = (row: Record<string, unknown>) => (Array.isArray(table) ? row.id : 'config');
  const before = new Map(rows.map((row) => [key(row), fields.map((field) => ({ field, present: field in row, value: structuredClone(row[field]) }))]));
  return () => {
    const now = state[STATE_OF_KIND[kind]] as unknown;
    for (const row of Array.isArray(now) ? (now as Record<string, unknown>[]) : [now as Record<string, unknown>]) {
      for (const kept of before.get(key(row)) ?? []) {
        if (kept.present) row[kept.field] = kept.value;
        else delete row[kept.field];
      }
    }
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startEmulator(options: EmulatorOptions): Promise<Emulator> {
  const facts = APP_FACTS[options.app];
  if (!facts) throw new Error(`unknown app: ${String(options.app)}`);
  if (!options.apiKey) throw new Error('an API key is required');
  const host = options.host ?? '127.0.0.1';
  const version = options.version ?? facts.defaultVersion;
  const behaviour: EmulatorBehaviour = { strictGroupIds: options.strictGroupIds ?? true };
  const state = createInitialState(facts);
  const faults = new FaultInjector();
  const writes = new WriteRecorder();
  const router = new Router(buildRoutes(facts, version, new Date()));
  const sockets = new Set<Socket>();
  let baseUrl = '';

  const reset = () => {
    Object.assign(state, createInitialState(facts));
    faults.clear();
    writes.reset();
  };

  const leakBody = (path: string) => ({
    message: `Injected fault at ${baseUrl}${path}`,
    description: `Request to ${baseUrl}${path} with X-Api-Key ${options.apiKey} failed; token ${FAKE_SECRET}`,
  });

  const send = (res: http.ServerResponse, status: number, body?: unknown, contentType = 'application/json; charset=utf-8') => {
    if (body === undefined || body === null) {
      res.writeHead(status, { 'content-length': '0' }).end();
      return;
    }
    const text = typeof body === 'string' ? body : JSON.stringify(body, null, 2);
    res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(text) }).end(text);
  };

  const applyFault = (fault: Fault, req: http.IncomingMessage, res: http.ServerResponse, path: string): number => {
    switch (fault.kind) {
      case 'hang':
        return 0;
      case 'reset':
        req.socket.destroy();
        return 0;
      case 'malformed': {
        const text = `{"appName":"${facts.appName}","version":"${version}","note":"${baseUrl}${path} ${options.apiKey} ${FAKE_SECRET}","items":[{"id":1,`;
        send(res, 200, text, 'application/json; charset=utf-8');
        return 200;
      }
      case 'status': {
        const body = fault.body === undefined ? leakBody(path) : fault.body;
        send(res, fault.status!, body, fault.contentType ?? (typeof body === 'string' ? 'text/plain; charset=utf-8' : undefined));
        return fault.status!;
      }
      default:
        return 0;
    }
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const method = (req.method ?? 'GET').toUpperCase();
    const url = new URL(req.url ?? '/', 'http://emulator.invalid');
    const path = url.pathname;
    const rawBody = await readBody(req);

    if (path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`)) {
      if (providedApiKey(url, req) !== options.apiKey) return send(res, 401);
      const result = handleControl({ state, faults, writes, reset }, method, path, rawBody);
      return send(res, result.status, result.body);
    }

    const lowerPath = path.toLowerCase();
    const underApi = lowerPath === facts.apiBase || lowerPath.startsWith(`${facts.apiBase}/`);
    const relative = underApi ? path.slice(facts.apiBase.length) || '/' : null;
    const match = relative === null ? null : router.match(method, relative);
    const kind = match && match !== 'methodNotAllowed' ? match.route.kind : undefined;
    const logWrite = (status: number, extra: { ids?: number[]; fault?: string } = {}) => {
      if (!kind || !WRITE_METHODS.includes(method)) return;
      writes.record({
        method: method as WriteMethod,
        path,
        kind,
        status,
        applied: status >= 200 && status < 300 && (!extra.fault || extra.fault === 'resetAfter'),
        ids: extra.ids ?? [],
        body: parseForLog(rawBody),
        fault: extra.fault,
      });
    };

    const plan = faults.plan(method, path, relative);
    if (plan.delayMs > 0) await sleep(plan.delayMs);
    const dropAnswer = plan.effect?.kind === 'resetAfter';
    if (plan.effect && !dropAnswer) {
      const status = applyFault(plan.effect, req, res, path);
      logWrite(status, { fault: plan.effect.kind });
      return;
    }

    if (providedApiKey(url, req) !== options.apiKey) return send(res, 401);
    if (match === null) return send(res, 404);
    if (match === 'methodNotAllowed') return send(res, 405);

    const touched: number[] = [];
    const ctx: RequestContext = {
      facts,
      state,
      behaviour,
      id: match.id,
      query: url.searchParams,
      body: (wire) => bindBody(rawBody, req.headers['content-type'], wire),
      touched: (...ids) => touched.push(...ids),
    };
    const ignored = kind && WRITE_METHODS.includes(method) ? faults.ignoredFields(kind, method, path, relative) : [];
    const restoreIgnored = kind && ignored.length ? keepFields(state, kind, ignored) : null;
    let result: HandlerResult;
    try {
      result = match.route.handler(ctx);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      result = { status: error.status, body: error.body };
    }
    restoreIgnored?.();
    logWrite(result.status, { ids: touched, fault: dropAnswer ? 'resetAfter' : undefined });
    if (dropAnswer) return void req.socket.destroy();
    send(res, result.status, result.body);
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent || res.destroyed) return;
      const message = error instanceof Error ? error.message : String(error);
      send(res, 500, { message, description: `Emulator error: ${message}` });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://${host}:${port}`;

  return {
    app: options.app,
    appName: facts.appName,
    baseUrl,
    apiBase: facts.apiBase,
    host,
    port,
    apiKey: options.apiKey,
    version,
    state,
    faults,
    writes,
    leakMarkers: [baseUrl, `${host}:${port}`, options.apiKey, FAKE_SECRET],
    reset,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
