import http from 'node:http';

export interface StatusStub {
  baseUrl: string;
  requests: { path: string; apiKey: string | undefined }[];
  close(): Promise<void>;
}

/** A tiny stand-in for an app's GET /api/v3/system/status (and /api/v1 for Lidarr). */
export async function startStatusStub(options: { apiKey: string; appName: string; version: string }): Promise<StatusStub> {
  const requests: StatusStub['requests'] = [];
  const server = http.createServer((req, res) => {
    const apiKey = req.headers['x-api-key'] as string | undefined;
    requests.push({ path: req.url ?? '', apiKey });
    if (!/^\/api\/v[13]\/system\/status$/.test(req.url ?? '')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found at stub.internal.example');
      return;
    }
    if (apiKey !== options.apiKey) {
      res.writeHead(401, { 'content-type': 'text/plain' }).end('Unauthorized: stub.internal.example rejects ' + apiKey);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ appName: options.appName, version: options.version, instanceName: options.appName }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
