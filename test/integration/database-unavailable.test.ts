import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findPostgresBin, startTempCluster, type TempCluster } from '../setup/postgres-cluster';
import { freeStablePort } from '../setup/ports';
import { eventually, startArrgo, type Harness } from '../helpers/harness';

const bin = findPostgresBin();
const describeWithPostgres = bin ? describe : describe.skip;
if (!bin) console.warn('[database-unavailable] skipped: PostgreSQL (initdb and pg_ctl) is not on this machine');

describeWithPostgres('while PostgreSQL is down the API answers 503, and serves again once it is back', () => {
  let cluster: TempCluster;
  let h: Harness;

  beforeAll(async () => {
    cluster = startTempCluster(bin!, await freeStablePort(), { crashSafe: true });
    h = await startArrgo({ db: 'postgresql', role: 'api', existing: { dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'arrgo-dbdown-')), databaseUrl: cluster.url } });
  });
  afterAll(async () => {
    await h?.close();
    try {
      cluster?.stop();
    } catch {
      // a failed test may leave it stopped
    }
  });

  it('refuses reads and writes with 503 and Retry-After, no detail, and nothing half-written', async () => {
    const created = await h.post('/notifications/channels', { name: 'before', kind: 'webhook', url: 'http://127.0.0.1:9/hook', secret: 'whsec-dbdown-0123456789', events: ['sync.failed'] });
    expect(created.status).toBe(201);

    cluster.crash();
    for (const [method, apiPath, body] of [
      ['GET', '/notifications/channels', undefined],
      ['GET', '/instances', undefined],
      ['POST', '/notifications/channels', { name: 'during', kind: 'webhook', url: 'http://127.0.0.1:9/hook', secret: 'whsec-dbdown-0123456789', events: ['sync.failed'] }],
    ] as const) {
      const answer = await h.request(method, apiPath, body);
      expect({ apiPath, method, status: answer.status, body: answer.body, retryAfter: answer.headers.get('retry-after') }).toEqual({
        apiPath,
        method,
        status: 503,
        body: { error: 'The database is unavailable; try again shortly' },
        retryAfter: '5',
      });
    }
    // The failure is logged by class, never with the driver's text, the host or the port.
    const port = new URL(cluster.url).port;
    expect(h.logs.filter((line) => line.includes('"request failed"') && line.includes(port))).toEqual([]);

    cluster.start();
    const channels = await eventually(() => h.get('/notifications/channels'), (r) => r.status === 200, 60_000, 250);
    expect(channels.body.items.map((c: { name: string }) => c.name)).toEqual(['before']);
  });
});
