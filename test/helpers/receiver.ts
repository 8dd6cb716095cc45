import { randomBytes } from 'node:crypto';
import http from 'node:http';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The raw body, exactly as signed. */
  raw: string;
  body: any;
  /** The status this receiver answered (null: held and never answered). */
  answered: number | null;
}

export interface Receiver {
  /** http://127.0.0.1:<port>/<random path>: the random path doubles as a leak marker. */
  url: string;
  /** A Discord-shaped URL on the same receiver. */
  discordUrl: string;
  token: string;
  requests: ReceivedRequest[];
  /** Statuses to answer, in order; once used up, 200. */
  script(statuses: number[]): void;
  /** Holds the next request unanswered until `release()` (a receiver mid-request when the sender dies). */
  holdNext(): void;
  release(): void;
  /** Requests whose Idempotency-Key this receiver accepted with a 2xx: what a deduplicating receiver processed. */
  processed(): Map<string, number>;
  close(): Promise<void>;
}

/** A loopback HTTP receiver for notification tests, able to fail on purpose. */
export async function startReceiver(): Promise<Receiver> {
  const token = `hook-${randomBytes(8).toString('hex')}`;
  const requests: ReceivedRequest[] = [];
  let statuses: number[] = [];
  let hold = false;
  let held: (() => void) | null = null;
  const processed = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        body = undefined;
      }
      const entry: ReceivedRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, raw, body, answered: null };
      requests.push(entry);
      const answer = () => {
        const status = statuses.shift() ?? 200;
        entry.answered = status;
        const key = String(req.headers['idempotency-key'] ?? '');
        if (status >= 200 && status < 300 && !res.destroyed) processed.set(key, (processed.get(key) ?? 0) + (processed.has(key) ? 0 : 1));
        if (!res.destroyed) res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ note: `receiver-body-${token}` }));
      };
      if (hold) {
        hold = false;
        held = () => {
          held = null;
          entry.answered = null;
          res.destroy();
        };
        return;
      }
      answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/${token}`,
    discordUrl: `http://127.0.0.1:${port}/api/webhooks/4242/${token}`,
    token,
    requests,
    script: (s) => (statuses = [...s]),
    holdNext: () => (hold = true),
    release: () => held?.(),
    processed: () => processed,
    close: () =>
      new Promise<void>((resolve) => {
        held?.();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
