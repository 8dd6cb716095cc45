import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

export interface GitHttpServer {
  /** http://127.0.0.1:<port>/<repository directory name> */
  url: string;
  /** Every Authorization header received (undefined when a request had none). */
  authorizations: (string | undefined)[];
  close(): Promise<void>;
}

/**
 * A loopback smart-HTTP git server for one repository: `git http-backend` run as CGI behind a
 * handler that answers 401 unless the request carries HTTP basic authentication with `token`
 * (any user name, as GitHub's tokens).
 */
export async function startGitHttpServer(repoDir: string, token: string): Promise<GitHttpServer> {
  const authorizations: (string | undefined)[] = [];
  const authorized = (header: string | undefined) => {
    const match = /^Basic (.+)$/.exec(header ?? '');
    if (!match) return false;
    const decoded = Buffer.from(match[1], 'base64').toString('utf8');
    return decoded.slice(decoded.indexOf(':') + 1) === token;
  };
  const server = http.createServer((req, res) => {
    authorizations.push(req.headers.authorization);
    if (!authorized(req.headers.authorization)) {
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="arrgo test"', 'Content-Type': 'text/plain' });
      res.end('authentication required');
      return;
    }
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const cgi = spawn('git', ['http-backend'], {
      env: {
        PATH: process.env.PATH,
        GIT_PROJECT_ROOT: path.dirname(repoDir),
        GIT_HTTP_EXPORT_ALL: '1',
        GIT_CONFIG_NOSYSTEM: '1',
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        REQUEST_METHOD: req.method ?? 'GET',
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        REMOTE_ADDR: '127.0.0.1',
        REMOTE_USER: 'reader',
        HTTP_GIT_PROTOCOL: String(req.headers['git-protocol'] ?? ''),
      },
    });
    req.pipe(cgi.stdin);
    let head = Buffer.alloc(0);
    let headersSent = false;
    cgi.stdout.on('data', (chunk: Buffer) => {
      if (headersSent) return void res.write(chunk);
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      let status = 200;
      for (const line of head.subarray(0, end).toString('utf8').split('\r\n')) {
        const colon = line.indexOf(':');
        const name = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (name.toLowerCase() === 'status') status = Number(value.split(' ')[0]);
        else res.setHeader(name, value);
      }
      res.writeHead(status);
      headersSent = true;
      res.write(head.subarray(end + 4));
    });
    cgi.on('close', () => {
      if (!headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/${path.basename(repoDir)}`,
    authorizations,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const TEST_PROTOCOLS = process.env.GIT_ALLOW_PROTOCOL;

/**
 * The test processes let git use file:// only (test/setup/global-setup.ts); a test of the http
 * transport also allows http while it runs. Its server listens on 127.0.0.1 only.
 */
export function allowLoopbackHttp(): void {
  process.env.GIT_ALLOW_PROTOCOL = 'file:http';
}

export function restoreGitProtocols(): void {
  if (TEST_PROTOCOLS === undefined) delete process.env.GIT_ALLOW_PROTOCOL;
  else process.env.GIT_ALLOW_PROTOCOL = TEST_PROTOCOLS;
}
