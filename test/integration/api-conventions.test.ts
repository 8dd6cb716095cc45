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

  it('requires the API key on every endpoint but health', async () => {
    const missing = await h.request('GET', '/instances', undefined, { auth: false });
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ error: 'API key required: send it in the X-Api-Key header' });
    const wrong = await h.request('GET', '/instances', undefined, { auth: false, headers: { 'X-Api-Key': 'not-the-key' } });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ error: 'Invalid API key' });
    const openapi = await h.request('GET', '/openapi.json', undefined, { auth: false });
    expect(openapi.status).toBe(401);
    const bearer = await h.request('GET', '/instances', undefined, { auth: false, headers: { Authorization: `Bearer ${h.apiKey}` } });
    expect(bearer.status).toBe(200);
    const health = await h.request('GET', '/health', undefined, { auth: false });
    expect(health.status).toBe(200);
    // An unknown route behind the prefix still needs the key first.
    expect((await h.request('GET', '/nope', undefined, { auth: false })).status).toBe(401);
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
});
