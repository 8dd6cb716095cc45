import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { AddressInfo } from 'node:net';
import { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import express from 'express';
import { ApiRouter, QUERY_READS_CHANNEL, type QueryReads } from '../../../src/api/http/route';
import { booleanQuery, integerQuery, z } from '../../../src/api/http/zod';

describe('query reads (diagnostics)', () => {
  const published: QueryReads[] = [];
  const listen = (message: unknown) => void published.push(message as QueryReads);
  let baseUrl: string;
  let close: () => void;

  beforeAll(async () => {
    const api = new ApiRouter(new OpenAPIRegistry());
    const query = z.object({ wait: booleanQuery.optional(), limit: integerQuery(1, 10).optional() });
    api.add({ method: 'get', path: '/reads-all', operationId: 'readsAll', summary: 's', tags: [], query, responses: {}, handler: ({ query }) => ({ body: { wait: query.wait ?? false, limit: query.limit ?? 1 } }) });
    api.add({ method: 'get', path: '/ignores-wait', operationId: 'ignoresWait', summary: 's', tags: [], query, responses: {}, handler: ({ query }) => ({ body: { limit: query.limit ?? 1 } }) });
    api.add({
      method: 'get',
      path: '/reads-then-fails',
      operationId: 'readsThenFails',
      summary: 's',
      tags: [],
      query,
      responses: {},
      handler: ({ query }) => {
        if (query.wait || 'limit' in query) throw new Error('boom');
      },
    });
    const app = express();
    app.set('query parser', 'simple');
    app.use(api.router);
    app.use((_error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => void res.status(500).end());
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => server.close();
  });
  afterAll(() => close());
  afterEach(() => {
    unsubscribe(QUERY_READS_CHANNEL, listen);
    published.length = 0;
  });

  it('publishes, per request, the documented parameters and the ones the handler read', async () => {
    subscribe(QUERY_READS_CHANNEL, listen);
    expect((await fetch(`${baseUrl}/reads-all?wait=true&limit=2`)).status).toBe(200);
    expect((await fetch(`${baseUrl}/ignores-wait?wait=true`)).status).toBe(200);
    expect((await fetch(`${baseUrl}/reads-then-fails?wait=true`)).status).toBe(500);
    expect(published).toEqual([
      { operationId: 'readsAll', documented: ['wait', 'limit'], read: ['wait', 'limit'] },
      { operationId: 'ignoresWait', documented: ['wait', 'limit'], read: ['limit'] },
      { operationId: 'readsThenFails', documented: ['wait', 'limit'], read: ['wait'] },
    ]);
  });

  it('hands handlers the plain parsed query and publishes nothing while nobody listens', async () => {
    expect(await (await fetch(`${baseUrl}/reads-all?wait=1&limit=3`)).json()).toEqual({ wait: true, limit: 3 });
    expect(published).toEqual([]);
  });
});
