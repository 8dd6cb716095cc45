/**
 * Each failure code comes out of its matching emulator fault through the clients, and no error a
 * client throws carries the app's body, its address or the API key.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { AppRequestError, RadarrClient, SonarrClient } from '../../../src/clients';
import { startEmulator, type Emulator, type FaultSpec } from '../../../src/emulators';

const API_KEY = 'secret-key-0c4f7e91b2d6a8';
const TIMEOUT = 400;

let emulator: Emulator;
let client: RadarrClient;

beforeAll(async () => {
  emulator = await startEmulator({ app: 'radarr', apiKey: API_KEY });
  client = new RadarrClient({ baseUrl: emulator.baseUrl, apiKey: API_KEY }, TIMEOUT);
});
afterAll(() => emulator.close());
beforeEach(() => emulator.reset());

/** Everything an error exposes, as text. */
function exposed(error: unknown): string {
  const e = error as Error & Record<string, unknown>;
  const own = Object.getOwnPropertyNames(e).map((name) => `${name}=${String(e[name])}`);
  return [e.message, e.stack, JSON.stringify(e), String(e), ...own, String(e.cause ?? '')].join('\n');
}

function expectClean(error: unknown, markers: readonly string[] = emulator.leakMarkers): void {
  expect(error).toBeInstanceOf(AppRequestError);
  const text = exposed(error);
  for (const marker of markers) expect(text).not.toContain(marker);
  expect(text).not.toContain('Injected fault');
  expect(text).not.toContain('errorMessage');
  expect(text).not.toMatch(/127\.0\.0\.1|localhost/);
}

async function failureOf(promise: Promise<unknown>): Promise<AppRequestError> {
  try {
    await promise;
  } catch (error) {
    expectClean(error);
    return error as AppRequestError;
  }
  throw new Error('expected the call to fail');
}

describe('failure classification from emulator faults', () => {
  const cases: [string, Omit<FaultSpec, 'path'>, string, number | undefined][] = [
    ['hang', { kind: 'hang' }, 'timeout', undefined],
    ['connection reset', { kind: 'reset' }, 'unreachable', undefined],
    ['401', { kind: 'status', status: 401 }, 'unauthorized', 401],
    ['403', { kind: 'status', status: 403 }, 'unauthorized', 403],
    ['404', { kind: 'status', status: 404 }, 'notFound', 404],
    ['400', { kind: 'status', status: 400 }, 'rejected', 400],
    ['409', { kind: 'status', status: 409 }, 'rejected', 409],
    ['422', { kind: 'status', status: 422 }, 'rejected', 422],
    ['500', { kind: 'status', status: 500 }, 'serverError', 500],
    ['502', { kind: 'status', status: 502 }, 'serverError', 502],
    ['503', { kind: 'status', status: 503 }, 'serverError', 503],
    ['malformed JSON with 200', { kind: 'malformed' }, 'invalidResponse', 200],
  ];

  test.each(cases)('%s -> %s', async (_label, fault, failure, status) => {
    emulator.faults.add({ ...fault, path: '/qualityprofile', times: 1 });
    const error = await failureOf(client.listQualityProfiles());
    expect(error.failure).toBe(failure);
    expect(error.status).toBe(status);
  });

  test('writes fail the same way, and a faulted write is not applied', async () => {
    emulator.faults.add({ kind: 'status', status: 500, method: 'POST', path: '/customformat', times: 1 });
    const error = await failureOf(
      client.createCustomFormat({ name: 'X', specifications: [{ name: 'T', implementation: 'ReleaseTitleSpecification', fields: [{ name: 'value', value: 'x' }] }] }),
    );
    expect(error.failure).toBe('serverError');
    expect(emulator.writes.count('customformat')).toBe(0);
    expect(await client.listCustomFormats()).toEqual([]);
  });

  test('latency below the timeout is fine; above it is a timeout', async () => {
    emulator.faults.add({ kind: 'latency', delayMs: 50, path: '/system/status', times: 1 });
    expect((await client.systemStatus()).appName).toBe('Radarr');
    emulator.faults.add({ kind: 'latency', delayMs: TIMEOUT + 300, path: '/system/status', times: 1 });
    expect((await failureOf(client.systemStatus())).failure).toBe('timeout');
  });

  test('a closed port is unreachable', async () => {
    const closed = await startEmulator({ app: 'radarr', apiKey: API_KEY });
    const baseUrl = closed.baseUrl;
    await closed.close();
    const error = await failureOf(new RadarrClient({ baseUrl, apiKey: API_KEY }, TIMEOUT).systemStatus());
    expect(error.failure).toBe('unreachable');
    expect(error.status).toBeUndefined();
  });
});

describe('connection problems', () => {
  test('an unparseable base URL is unreachable and not echoed', async () => {
    const error = await failureOf(new RadarrClient({ baseUrl: 'not a url at secret.example', apiKey: API_KEY }, TIMEOUT).systemStatus());
    expect(error.failure).toBe('unreachable');
    expect(exposed(error)).not.toContain('secret.example');
  });
});

describe('failures the emulated app produces itself', () => {
  test('a wrong API key is unauthorized', async () => {
    const wrong = new SonarrClient({ baseUrl: emulator.baseUrl, apiKey: 'not-the-key-77' }, TIMEOUT);
    const error = await failureOf(wrong.listTags());
    expect([error.failure, error.status]).toEqual(['unauthorized', 401]);
  });

  test('validation failures are rejected, without the validation body', async () => {
    await client.createCustomFormat({ name: 'Dup', specifications: [{ name: 'T', implementation: 'ReleaseTitleSpecification', fields: [{ name: 'value', value: 'x' }] }] });
    const error = await failureOf(
      client.createCustomFormat({ name: 'Dup', specifications: [{ name: 'T', implementation: 'ReleaseTitleSpecification', fields: [{ name: 'value', value: API_KEY }] }] }),
    );
    expect([error.failure, error.status]).toEqual(['rejected', 400]);
    expect(exposed(error)).not.toContain('Must be unique');
  });

  test('unknown ids are notFound; deleting the global delay profile is rejected (405)', async () => {
    expect((await failureOf(client.getQualityProfile(4242))).failure).toBe('notFound');
    expect((await failureOf(client.deleteCustomFormat(4242))).failure).toBe('notFound');
    const error = await failureOf(client.deleteDelayProfile(1));
    expect([error.failure, error.status]).toEqual(['rejected', 405]);
  });

  test('an unknown specification implementation is a serverError, as the apps answer 500', async () => {
    const error = await failureOf(client.createCustomFormat({ name: 'Bogus', specifications: [{ name: 'T', implementation: 'Nope', fields: [] }] }));
    expect([error.failure, error.status]).toEqual(['serverError', 500]);
  });
});

describe('responses of the wrong shape are invalidResponse', () => {
  let server: http.Server;
  let baseUrl: string;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const bodies: Record<string, string> = {
        '/api/v3/customformat': '{"not":"a list"}',
        '/api/v3/qualityprofile': '[{"name":"no id"}]',
        '/api/v3/system/status': '<html>login</html>',
        '/api/v3/tag/1': '[]',
      };
      res.writeHead(200, { 'content-type': 'application/json' }).end(bodies[req.url ?? ''] ?? 'null');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test.each([
    ['a list endpoint returning an object', (c: RadarrClient) => c.listCustomFormats()],
    ['entities without ids', (c: RadarrClient) => c.listQualityProfiles()],
    ['HTML instead of JSON', (c: RadarrClient) => c.systemStatus()],
    ['a list instead of an entity', (c: RadarrClient) => c.getTag(1)],
    ['null instead of an object', (c: RadarrClient) => c.getNamingConfig()],
  ])('%s', async (_label, run) => {
    const stub = new RadarrClient({ baseUrl, apiKey: API_KEY }, TIMEOUT);
    try {
      await run(stub);
      throw new Error('expected a failure');
    } catch (error) {
      expectClean(error, [baseUrl, API_KEY]);
      expect((error as AppRequestError).failure).toBe('invalidResponse');
    }
  });
});

describe('the transport', () => {
  let server: http.Server;
  let baseUrl: string;
  const connections = new Set<unknown>();
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      connections.add(req.socket);
      const status = JSON.stringify({ appName: 'Radarr', version: '5.0.0' });
      switch (req.url) {
        case '/api/v3/system/status':
          if (req.headers['accept-encoding']?.includes('gzip')) res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(zlib.gzipSync(status));
          else res.writeHead(200, { 'content-type': 'application/json' }).end(status);
          return;
        case '/api/v3/config/naming':
          res.writeHead(200, { 'content-type': 'application/json' }).end('\ufeff{"id":1,"renameMovies":true}');
          return;
        case '/api/v3/tag':
          // Headers at once, then the body stalls past the client's deadline.
          res.writeHead(200, { 'content-type': 'application/json' });
          res.write('[');
          return;
        default:
          res.writeHead(302, { location: `http://127.0.0.1:1${req.url}` }).end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });

  test('a compressed answer is decoded, a byte order mark is dropped, and calls reuse one connection', async () => {
    connections.clear();
    const stub = new RadarrClient({ baseUrl, apiKey: API_KEY }, TIMEOUT);
    expect(await stub.systemStatus()).toMatchObject({ appName: 'Radarr', version: '5.0.0' });
    expect(await stub.getNamingConfig()).toMatchObject({ id: 1, renameMovies: true });
    expect(await stub.systemStatus()).toMatchObject({ version: '5.0.0' });
    expect(connections.size).toBe(1);
  });

  test('the deadline covers the body: a body that stalls is a timeout', async () => {
    const error = await failureOf(new RadarrClient({ baseUrl, apiKey: API_KEY }, TIMEOUT).listTags());
    expect(error.failure).toBe('timeout');
  });

  test('a redirect is not followed (rejected with its status)', async () => {
    const error = await failureOf(new RadarrClient({ baseUrl, apiKey: API_KEY }, TIMEOUT).listQualityProfiles());
    expect([error.failure, error.status]).toEqual(['rejected', 302]);
  });
});
