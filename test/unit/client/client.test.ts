import { ApiError, CSRF_HEADER, createArrgoClient, unwrap } from '../../../src/client';

/** A fetch that records what the client sent and answers with the given status and body. */
function recordingFetch(status: number, body: unknown, headers: Record<string, string> = {}) {
  const sent: Request[] = [];
  const fetch = async (request: Request) => {
    sent.push(request);
    return new Response(status === 204 ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
  };
  return { sent, fetch };
}

describe('createArrgoClient', () => {
  it('sends the session CSRF token on writes only, read at the time of each request', async () => {
    const { sent, fetch } = recordingFetch(204, null);
    let token: string | null = 'token-1';
    const client = createArrgoClient({ baseUrl: '/arrgo', csrfToken: () => token, fetch });
    await client.GET('/api/v1/instances', { baseUrl: 'http://127.0.0.1:1/arrgo' });
    await client.DELETE('/api/v1/instances/{id}', { params: { path: { id: 3 } }, baseUrl: 'http://127.0.0.1:1/arrgo' });
    token = 'token-2';
    await client.PATCH('/api/v1/instances/{id}', { params: { path: { id: 3 } }, body: { enabled: false }, baseUrl: 'http://127.0.0.1:1/arrgo' });
    expect(sent.map((r) => [r.method, new URL(r.url).pathname, r.headers.get(CSRF_HEADER)])).toEqual([
      ['GET', '/arrgo/api/v1/instances', null],
      ['DELETE', '/arrgo/api/v1/instances/3', 'token-1'],
      ['PATCH', '/arrgo/api/v1/instances/3', 'token-2'],
    ]);
  });

  it('sends the API key on every request and no CSRF header without a session', async () => {
    const { sent, fetch } = recordingFetch(200, { items: [] });
    const client = createArrgoClient({ baseUrl: 'http://127.0.0.1:1', apiKey: 'k'.repeat(32), fetch });
    await client.POST('/api/v1/instances/{id}/test', { params: { path: { id: 1 } } });
    expect([sent[0].headers.get('X-Api-Key'), sent[0].headers.get(CSRF_HEADER)]).toEqual(['k'.repeat(32), null]);
  });
});

describe('unwrap', () => {
  it("throws the API's {error} text with the status, the body and Retry-After", async () => {
    const { fetch } = recordingFetch(429, { error: 'Too many failed logins; try again in 60 seconds' }, { 'Retry-After': '60' });
    const client = createArrgoClient({ baseUrl: 'http://127.0.0.1:1', fetch });
    const error = await unwrap(client.GET('/api/v1/instances')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect([(error as ApiError).status, (error as ApiError).message, (error as ApiError).retryAfterSeconds]).toEqual([429, 'Too many failed logins; try again in 60 seconds', 60]);
  });

  it('names the status when the body has no {error} (a proxy page)', async () => {
    const fetch = async () => new Response('<html>Bad gateway</html>', { status: 502, headers: { 'Content-Type': 'text/html' } });
    const client = createArrgoClient({ baseUrl: 'http://127.0.0.1:1', fetch });
    await expect(unwrap(client.GET('/api/v1/instances'))).rejects.toThrow('The request failed with HTTP status 502');
  });

  it('returns the data of a successful answer', async () => {
    const { fetch } = recordingFetch(200, { items: [{ id: 1 }], total: 1, page: 1, pageSize: 50 });
    const client = createArrgoClient({ baseUrl: 'http://127.0.0.1:1', fetch });
    expect(await unwrap(client.GET('/api/v1/instances'))).toEqual({ items: [{ id: 1 }], total: 1, page: 1, pageSize: 50 });
  });
});
