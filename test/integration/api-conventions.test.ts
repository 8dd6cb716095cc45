import net from 'node:net';
import os from 'node:os';
import { InstanceService } from '../../src/services/instances/instance-service';
import { startArrgo, type Harness } from '../helpers/harness';

describe('API conventions', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startArrgo();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('requires the API key on every endpoint but health and the OpenAPI document', async () => {
    const missing = await h.request('GET', '/instances', undefined, { auth: false });
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ error: 'API key required: send it in the X-Api-Key header' });
    const wrong = await h.request('GET', '/instances', undefined, { auth: false, headers: { 'X-Api-Key': 'not-the-key' } });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ error: 'Invalid API key' });
    const openapi = await h.request('GET', '/openapi.json', undefined, { auth: false });
    expect(openapi.status).toBe(200);
    const bearer = await h.request('GET', '/instances', undefined, { auth: false, headers: { Authorization: `Bearer ${h.apiKey}` } });
    expect(bearer.status).toBe(200);
    const health = await h.request('GET', '/health', undefined, { auth: false });
    expect(health.status).toBe(200);
    // An unknown route behind the prefix still needs the key first.
    expect((await h.request('GET', '/nope', undefined, { auth: false })).status).toBe(401);
  });

  it('keeps idle connections open longer than proxies reuse them (65 s), so a reused connection is never reset', async () => {
    const res = await h.request('GET', '/health', undefined, { auth: false });
    expect(res.headers.get('keep-alive')).toBe('timeout=65');
  });

  it('answers a request the HTTP parser refuses with a JSON {error}, not a bare status line', async () => {
    const raw = (payload: string) =>
      new Promise<string>((resolve, reject) => {
        const url = new URL(h.baseUrl);
        const socket = net.connect(Number(url.port), url.hostname, () => socket.end(payload));
        let text = '';
        socket.on('data', (chunk) => (text += chunk.toString()));
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
      });
    const garbage = await raw('NOT HTTP AT ALL\r\n\r\n');
    expect(garbage).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(garbage.split('\r\n\r\n')[1]).toBe('{"error":"Malformed HTTP request"}');
    const huge = await raw(`GET /api/v1/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(huge).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    expect(huge.split('\r\n\r\n')[1]).toBe('{"error":"Request headers too large"}');
  });

  it('answers unknown routes with a JSON 404', async () => {
    const res = await h.get('/no-such-thing');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Route not found' });
    expect(res.headers.get('content-type')).toContain('application/json');
    const outside = await h.request('GET', '/api/v2/instances');
    expect(outside.status).toBe(404);
    expect(outside.body).toEqual({ error: 'Route not found' });
  });

  it('turns a thrown internal error into a bare 500 without stack or message detail', async () => {
    const spy = jest.spyOn(InstanceService.prototype, 'list').mockRejectedValueOnce(
      new Error('connect ECONNREFUSED db.internal.example:5432 password=hunter2'),
    );
    try {
      const res = await h.get('/instances');
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ error: 'Internal server error' });
      expect(res.text).not.toMatch(/ECONNREFUSED|db\.internal|hunter2|at .*\.ts/);
    } finally {
      spy.mockRestore();
    }
  });

  it('gives every response a request id and logs one access line without the query string', async () => {
    const res = await h.request('GET', '/instances?tag=secret-query', undefined, { headers: { 'X-Request-Id': 'req-abc_123' } });
    expect(res.headers.get('x-request-id')).toBe('req-abc_123');
    const generated = await h.get('/instances');
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const line = h.logs.find((l) => l.includes('"requestId":"req-abc_123"') && l.includes('"msg":"request"'));
    expect(line).toBeDefined();
    expect(JSON.parse(line!)).toMatchObject({ method: 'GET', path: '/api/v1/instances', status: 200 });
    expect(line).not.toContain('secret-query');
  });

  it('serves the OpenAPI document generated from the route schemas, and a local docs page', async () => {
    const doc = await h.get('/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe('3.0.3');
    expect(Object.keys(doc.body.paths)).toEqual(expect.arrayContaining(['/api/v1/health', '/api/v1/instances', '/api/v1/instances/{id}', '/api/v1/instances/{id}/test']));
    const create = doc.body.paths['/api/v1/instances'].post;
    expect(create.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/InstanceCreate');
    expect(doc.body.components.schemas.InstanceCreate.required).toEqual(expect.arrayContaining(['name', 'arrType', 'baseUrl', 'apiKey']));
    expect(create.responses['400']).toBeDefined();
    expect(create.responses['401']).toBeDefined();
    expect(doc.body.paths['/api/v1/health'].get.security).toEqual([]);
    expect(doc.body.components.securitySchemes.ApiKeyHeader).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-Api-Key' });

    const page = await fetch(`${h.baseUrl}/docs/`);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('assets/swagger-ui-bundle.js');
    expect(html).not.toMatch(/https?:\/\/(?!localhost)[a-z0-9.-]+\.(com|net|org|io)/i);
    const asset = await fetch(`${h.baseUrl}/docs/assets/swagger-ui-bundle.js`);
    expect(asset.status).toBe(200);
  });

  it('redirects /docs to /docs/ (query kept), whose page loads every asset it references', async () => {
    const bare = await fetch(`${h.baseUrl}/docs?tab=x&y=1`, { redirect: 'manual' });
    expect(bare.status).toBe(301);
    expect(bare.headers.get('location')).toBe('/docs/?tab=x&y=1');
    expect((await fetch(`${h.baseUrl}/docs`, { redirect: 'manual' })).headers.get('location')).toBe('/docs/');

    const page = await fetch(`${h.baseUrl}/docs`);
    expect(page.status).toBe(200);
    expect(page.url).toBe(`${h.baseUrl}/docs/`);
    const html = await page.text();
    const referenced = [...html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(referenced.sort()).toEqual(['assets/swagger-ui-bundle.js', 'assets/swagger-ui-standalone-preset.js', 'assets/swagger-ui.css']);
    for (const ref of referenced) {
      const asset = await fetch(new URL(ref, page.url));
      expect({ ref, status: asset.status }).toEqual({ ref, status: 200 });
    }
    // The page's own fetch of the document (relative to the page) answers without a key.
    const documentUrl = /url: '([^']+)'/.exec(html)![1];
    const doc = await fetch(new URL(documentUrl, page.url));
    expect(doc.status).toBe(200);
    expect(((await doc.json()) as { openapi: string }).openapi).toBe('3.0.3');
    expect(html).toContain('click <b>Authorize</b> and paste the API key');
  });

  it('serves the OpenAPI document without a key, revealing neither the key nor the host, and documents the key for trying requests', async () => {
    const res = await fetch(`${h.baseUrl}/api/v1/openapi.json`);
    expect(res.status).toBe(200);
    const text = await res.text();
    const { port, hostname } = new URL(h.baseUrl);
    for (const marker of [h.apiKey, h.dataDir, os.hostname(), `${hostname}:${port}`, hostname]) expect({ marker, found: text.includes(marker) }).toEqual({ marker, found: false });
    const doc = JSON.parse(text);
    expect(doc.servers).toEqual([{ url: '/' }]);
    expect(doc.paths['/api/v1/openapi.json'].get).toMatchObject({ operationId: 'getOpenApiDocument', security: [] });
    // "Authorize" in the docs page offers these schemes; operations other than health and this document require one.
    expect(doc.components.securitySchemes.ApiKeyHeader).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-Api-Key' });
    expect(doc.paths['/api/v1/instances'].get.security).toEqual([{ ApiKeyHeader: [] }, { BearerAuth: [] }, { SessionCookie: [] }]);
    expect(doc.components.securitySchemes.SessionCookie).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'arrgo_session' });
    // Everything else still needs the key.
    expect((await fetch(`${h.baseUrl}/api/v1/instances`)).status).toBe(401);
  });
});
